// A crowded zero-gravity scene: 64 spheres and boxes of random sizes, masses,
// materials and (for a third of them) user tensors, fired at each other. Every
// contact impulse acts equally and oppositely, so total linear momentum stays
// constant to float rounding (1e-5 of sum m|v|). Angular momentum about the
// origin is also conserved by the impulses; the position pass that removes
// overlap moves bodies without touching velocities, which changes sum x * m v
// slightly, so it is checked to 1 % of sum |x| m |v| + |I w|.
#include "scenario.h"

#include <gtest/gtest.h>

#include <random>

namespace impulse::test {
namespace {

World makeCrowd(unsigned seed, int count) {
    World world(zeroGravity());
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    const int side = 4;
    for (int i = 0; i < count; ++i) {
        // A 4x4x4 lattice with 1.2 m pitch: the bodies (at most 0.5 m across) start apart.
        const vec3 cell(float(i % side), float((i / side) % side), float(i / (side * side)));
        const vec3 position = 1.2f * (cell - vec3(1.5f));
        BodyDef def;
        if (i % 2 == 0) {
            def = sphereDef(0.15f + 0.1f * unit(random), 0.5f + 2.0f * unit(random), position);
        } else {
            def = boxDef(vec3(0.1f) + 0.15f * vec3(unit(random), unit(random), unit(random)), 0.5f + 2.0f * unit(random),
                         position);
            def.orientation = glm::normalize(quat(unit(random), unit(random) - 0.5f, unit(random) - 0.5f, unit(random) - 0.5f));
        }
        if (i % 3 == 0 && i % 2 == 1) {
            // A physical tensor with off-diagonal terms: R diag(...) R^T.
            const mat3 r = glm::mat3_cast(glm::normalize(quat(1.0f, unit(random), unit(random), unit(random))));
            const vec3 moments(0.02f + 0.01f * unit(random), 0.025f + 0.01f * unit(random), 0.03f + 0.01f * unit(random));
            def.inertia = r * mat3(vec3(moments.x, 0, 0), vec3(0, moments.y, 0), vec3(0, 0, moments.z)) * glm::transpose(r);
        }
        // Mostly inward, so the crowd collides many times.
        def.linearVelocity = -1.5f * position + 2.0f * vec3(unit(random) - 0.5f, unit(random) - 0.5f, unit(random) - 0.5f);
        def.angularVelocity = 3.0f * vec3(unit(random) - 0.5f, unit(random) - 0.5f, unit(random) - 0.5f);
        def.restitution = unit(random);
        def.friction = unit(random);
        world.createBody(def);
    }
    return world;
}

TEST(Conservation, CrowdedZeroGravityScene) {
    World world = makeCrowd(7, 64);
    double momentumScale = 0.0, angularScale = 0.0;
    for (BodyId id : world.bodyIds()) {
        const Body& b = world.body(id);
        momentumScale += b.mass * glm::length(b.linearVelocity);
        angularScale += glm::length(b.position) * b.mass * glm::length(b.linearVelocity) +
                        glm::length(b.inertiaBody * b.angularVelocity);
    }
    const glm::dvec3 linear = world.linearMomentum();
    const glm::dvec3 angular = world.angularMomentum();
    int maxContacts = 0;
    for (int i = 0; i < 300; ++i) {
        world.step();
        maxContacts = std::max(maxContacts, world.stats().contactPoints);
    }
    EXPECT_GT(maxContacts, 20) << "the scene must actually be crowded";
    EXPECT_LT(glm::length(world.linearMomentum() - linear), 1e-5 * momentumScale);
    EXPECT_LT(glm::length(world.angularMomentum() - angular), 1e-2 * angularScale);
    EXPECT_EQ(world.firstNonFiniteBody(), BodyId{});
}

// With restitution 0 and friction the crowd only loses kinetic energy.
TEST(Conservation, InelasticCrowdNeverGainsEnergy) {
    World world = makeCrowd(11, 64);
    for (BodyId id : world.bodyIds()) {
        BodyDef def = world.bodyDef(id);
        def.restitution = 0.0f;
        ASSERT_FALSE(world.updateBody(id, def));
    }
    double previous = world.kineticEnergy();
    for (int i = 0; i < 300; ++i) {
        world.step();
        const double energy = world.kineticEnergy();
        // 1e-4 relative slack: float rounding in the solve and the rotation update.
        EXPECT_LE(energy, previous * (1.0 + 1e-4)) << "step " << i;
        previous = energy;
    }
}

}  // namespace
}  // namespace impulse::test
