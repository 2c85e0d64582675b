// "Same scene, same build: the same bytes on any CPU the build supports"
// (the README, "impulse-sim"). The solver works kSimdWidth
// contacts and bodies at a time, 8 with AVX2 and 4 with SSE2; this test pins
// the exact result of a mixed pile to one committed hash, and scripts/dev.sh
// test runs it in its AVX2 build and in an SSE2 build.
#include "physics/world.h"
#include "physics_test_util.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace impulse {
namespace {

// A reproducible number in [0, 1) for (body, field): integer mixing only, so
// the scene is the same with any standard library.
float unit(uint32_t body, uint32_t field) {
    uint32_t x = body * 0x9E3779B9u + field * 0x85EBCA6Bu + 1u;
    x ^= x >> 16;
    x *= 0x7FEB352Du;
    x ^= x >> 15;
    x *= 0x846CA68Bu;
    x ^= x >> 16;
    return float(x >> 8) * (1.0f / 16777216.0f);
}

float between(float low, float high, uint32_t body, uint32_t field) {
    return low + (high - low) * unit(body, field);
}

// 120 boxes and spheres dropped in a pile on a static ground between four
// walls, default world settings. Every fifth body is a box with unequal half
// extents, and half of the user-inertia boxes get a tensor with products of
// inertia: their inertia is not isotropic (the L-preserving rotation, batches
// that follow the turn), spread through the body order so that they fall in
// different places of the 4- and 8-wide chunks and batches.
World buildMixedPile() {
    World world;
    const BodyDef ground = test::groundDef(8.0f);
    world.createBody(ground);
    // Walls keep the pile together (a sphere rolls on for ever).
    for (int k = 0; k < 4; ++k) {
        BodyDef wall = ground;
        wall.name = "wall" + std::to_string(k);
        const float side = k % 2 == 0 ? -1.0f : 1.0f;
        wall.shape = Shape::box(k < 2 ? vec3(0.2f, 1.5f, 2.5f) : vec3(3.0f, 1.5f, 0.2f));
        wall.position = k < 2 ? vec3(2.8f * side, 1.5f, 0.0f) : vec3(0.0f, 1.5f, 2.3f * side);
        world.createBody(wall);
    }
    for (uint32_t i = 0; i < 120; ++i) {
        BodyDef def;
        def.name = "body" + std::to_string(i);
        const uint32_t column = i % 20, layer = i / 20;
        // 1 m apart: no two bodies (at most 0.46 m from centre to corner) overlap at the start.
        def.position = vec3(-2.0f + 1.0f * float(column % 5) + between(-0.03f, 0.03f, i, 0),
                            0.5f + 1.0f * float(layer) + between(0.0f, 0.1f, i, 1),
                            -1.5f + 1.0f * float(column / 5) + between(-0.03f, 0.03f, i, 2));
        // Normalising needs only sqrt, which IEEE rounds exactly (no libm trig).
        def.orientation = glm::normalize(quat(between(0.2f, 1.0f, i, 3), between(-1.0f, 1.0f, i, 4),
                                              between(-1.0f, 1.0f, i, 5), between(-1.0f, 1.0f, i, 6)));
        def.mass = between(0.5f, 3.0f, i, 7);
        def.restitution = between(0.0f, 0.6f, i, 8);
        def.friction = between(0.2f, 0.9f, i, 9);
        if (i % 3 == 0) def.staticFriction = def.friction + 0.1f;
        const float size = between(0.15f, 0.25f, i, 10);
        switch (i % 5) {
            case 0:
            case 3: def.shape = Shape::sphere(size); break;
            case 1: def.shape = Shape::box(vec3(size)); break;
            case 2: def.shape = Shape::box(vec3(size, 0.6f * size, 1.4f * size)); break;
            case 4: {
                def.shape = Shape::box(vec3(size));
                // Physical (symmetric, positive definite, triangle inequality) by construction.
                const float moment = def.mass * size * size * 0.7f;
                mat3 inertia(moment);
                if (i % 10 == 4) {
                    inertia[0][0] *= 0.8f;
                    inertia[2][2] *= 1.15f;
                    inertia[0][1] = inertia[1][0] = 0.05f * moment;
                    inertia[1][2] = inertia[2][1] = -0.03f * moment;
                }
                def.inertia = inertia;
                break;
            }
        }
        if (world.createBody(def).generation == 0) ADD_FAILURE() << "rejected " << def.name;
    }
    return world;
}

// FNV-1a 64 over the bit patterns of every body's position, orientation,
// linear and angular velocity, in body order, each float's bytes low first.
uint64_t stateHash(const World& world) {
    uint64_t hash = 0xCBF29CE484222325ull;
    const auto add = [&hash](float x) {
        uint32_t bits;
        std::memcpy(&bits, &x, sizeof bits);
        for (int k = 0; k < 4; ++k) {
            hash ^= (bits >> (8 * k)) & 0xFFu;
            hash *= 0x100000001B3ull;
        }
    };
    for (BodyId id : world.bodyIds()) {
        const Body& b = world.body(id);
        for (int k = 0; k < 3; ++k) add(b.position[k]);
        add(b.orientation.x), add(b.orientation.y), add(b.orientation.z), add(b.orientation.w);
        for (int k = 0; k < 3; ++k) add(b.linearVelocity[k]);
        for (int k = 0; k < 3; ++k) add(b.angularVelocity[k]);
    }
    return hash;
}

// The committed result. It changes only when the physics' results change on
// purpose: then update it in the same commit and say so in the message.
constexpr uint64_t kMixedPileHash = 0x4A61661A68C8BEA5ull;

TEST(DeterminismHash, MixedPileGivesTheCommittedBytesAtEveryLaneWidth) {
    World world = buildMixedPile();
    int anisotropic = 0;
    for (BodyId id : world.bodyIds()) {
        const Body& body = world.body(id);
        anisotropic += body.isDynamic() && !body.hasIsotropicInertia() ? 1 : 0;
    }
    ASSERT_EQ(anisotropic, 36);  // 24 flat boxes and 12 user tensors: the scene is mixed
    for (int i = 0; i < 600; ++i) world.step();
    ASSERT_EQ(world.firstNonFiniteBody(), BodyId{});
    EXPECT_EQ(world.recoveryCount(), 0u);
    EXPECT_GT(world.stats().contactPoints, 120);  // a pile, not a rain of separate bodies

    const uint64_t hash = stateHash(world);
    char text[19];
    std::snprintf(text, sizeof text, "0x%016llX", static_cast<unsigned long long>(hash));
    EXPECT_EQ(hash, kMixedPileHash) << "state hash after 600 steps: " << text
                                    << " (if the change is intended, set kMixedPileHash to it in the same commit)";
}

}  // namespace
}  // namespace impulse
