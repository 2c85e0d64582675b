// Helpers of the robustness tests: small scene builders and a stepping loop that
// records what can go wrong (guard recoveries, non-finite energy, the largest
// energy and penetration seen).
#pragma once

#include "physics/constants.h"
#include "physics/world.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace impulse::robust {

inline BodyId addGround(World& world, float halfSize = 50.0f, float halfHeight = 0.5f) {
    BodyDef ground;
    ground.name = "ground";
    ground.isStatic = true;
    ground.shape = Shape::box(vec3(halfSize, halfHeight, halfSize));
    ground.position = vec3(0.0f, -halfHeight, 0.0f);  // top surface at y = 0
    ground.friction = 0.6f;
    return world.createBody(ground);
}

// A body with the robustness tests' materials (e 0.1, mu 0.6), created or failed loudly.
inline BodyId addBody(World& world, const std::string& name, const Shape& shape, float mass, const vec3& position,
                      const vec3& velocity) {
    BodyDef def;
    def.name = name;
    def.shape = shape;
    def.mass = mass;
    def.position = position;
    def.linearVelocity = velocity;
    def.restitution = 0.1f;
    def.friction = 0.6f;
    FieldError error;
    const BodyId id = world.createBody(def, &error);
    EXPECT_TRUE(id) << error.message();
    return id;
}

inline BodyId addBox(World& world, const std::string& name, const vec3& halfExtents, float mass, const vec3& position,
                     const vec3& velocity = vec3(0.0f)) {
    return addBody(world, name, Shape::box(halfExtents), mass, position, velocity);
}

inline BodyId addSphere(World& world, const std::string& name, float radius, float mass, const vec3& position,
                        const vec3& velocity = vec3(0.0f)) {
    return addBody(world, name, Shape::sphere(radius), mass, position, velocity);
}

inline double totalEnergy(const World& world) { return world.kineticEnergy() + world.potentialEnergy(); }

/// Deepest penetration among the last step's contact points (m, >= 0).
inline float deepestPenetration(const World& world) {
    float deepest = 0.0f;
    for (const ContactPointInfo& c : world.contacts()) deepest = std::max(deepest, -c.separation);
    return deepest;
}

/// What a run of steps did.
struct RunRecord {
    int steps = 0;
    uint64_t recoveries = 0;       ///< steps the guard rolled back
    bool nonFinite = false;        ///< a non-finite state or energy after a step
    double maxKinetic = 0.0;       ///< J
    double maxTotal = -INFINITY;   ///< kinetic + potential, J
    std::string firstProblem;
};

/// Steps `count` times and records; `perStep(i)` runs after step i for extra checks.
template <typename PerStep>
RunRecord run(World& world, int count, PerStep perStep) {
    RunRecord record;
    const uint64_t recoveriesBefore = world.recoveryCount();
    for (int i = 0; i < count; ++i) {
        world.step();
        ++record.steps;
        if (world.lastRecovery() && record.firstProblem.empty()) {
            record.firstProblem = "guard rolled back step " + std::to_string(world.lastRecovery()->step) +
                                  " (body '" + world.lastRecovery()->bodyName + "')";
        }
        const double kinetic = world.kineticEnergy();
        const double total = kinetic + world.potentialEnergy();
        if (!std::isfinite(total) || world.firstNonFiniteBody()) {
            record.nonFinite = true;
            if (record.firstProblem.empty()) record.firstProblem = "non-finite after step " + std::to_string(i);
        }
        record.maxKinetic = std::max(record.maxKinetic, kinetic);
        record.maxTotal = std::max(record.maxTotal, total);
        perStep(i);
    }
    record.recoveries = world.recoveryCount() - recoveriesBefore;
    return record;
}

inline RunRecord run(World& world, int count) {
    return run(world, count, [](int) {});
}

}  // namespace impulse::robust
