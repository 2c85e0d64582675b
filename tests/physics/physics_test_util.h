// Helpers shared by the physics unit tests: poses, rotations and exact
// (bit-level) comparisons of world state.
#pragma once

#include "physics/manifold.h"
#include "physics/math.h"
#include "physics/world.h"

#include <gtest/gtest.h>
#include <glm/gtc/constants.hpp>

#include <cstring>
#include <string>
#include <vector>

namespace impulse::test {

inline quat axisAngle(const vec3& axis, float angle) { return glm::angleAxis(angle, glm::normalize(axis)); }
inline mat3 rotationOf(const quat& q) { return glm::mat3_cast(q); }
inline float degrees(float d) { return d * glm::pi<float>() / 180.0f; }

inline ShapePose pose(const Shape& shape, const vec3& position, const quat& q = quat(1, 0, 0, 0)) {
    return ShapePose{&shape, position, glm::mat3_cast(q)};
}

// Element-wise |a - b| <= tol.
inline ::testing::AssertionResult near(const vec3& a, const vec3& b, float tol) {
    if (std::fabs(a.x - b.x) <= tol && std::fabs(a.y - b.y) <= tol && std::fabs(a.z - b.z) <= tol) {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "(" << a.x << ", " << a.y << ", " << a.z << ") vs (" << b.x << ", " << b.y
                                         << ", " << b.z << "), tol " << tol;
}

inline BodyDef sphereDef(const std::string& name, const vec3& position, float radius, float mass = 1.0f) {
    BodyDef def;
    def.name = name;
    def.shape = Shape::sphere(radius);
    def.position = position;
    def.mass = mass;
    return def;
}

inline BodyDef boxDef(const std::string& name, const vec3& position, const vec3& half, float mass = 1.0f) {
    BodyDef def;
    def.name = name;
    def.shape = Shape::box(half);
    def.position = position;
    def.mass = mass;
    return def;
}

template <typename T>
bool sameBits(const T& a, const T& b) {
    return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Bit-identical state of every body slot (kinematic state, sleep, mass properties, handles).
inline ::testing::AssertionResult sameState(const World& a, const World& b) {
    const std::vector<BodyId> idsA = a.bodyIds(), idsB = b.bodyIds();
    if (idsA != idsB) return ::testing::AssertionFailure() << "different body ids";
    for (BodyId id : idsA) {
        const Body& x = a.body(id);
        const Body& y = b.body(id);
        const bool same = sameBits(x.position, y.position) && sameBits(x.orientation, y.orientation) &&
                          sameBits(x.linearVelocity, y.linearVelocity) &&
                          sameBits(x.angularVelocity, y.angularVelocity) && sameBits(x.mass, y.mass) &&
                          sameBits(x.inverseMass, y.inverseMass) && sameBits(x.inertiaBody, y.inertiaBody) &&
                          sameBits(x.inverseInertiaWorld, y.inverseInertiaWorld) &&
                          sameBits(x.restitution, y.restitution) && sameBits(x.friction, y.friction) &&
                          sameBits(x.staticFriction, y.staticFriction) && x.shape.type == y.shape.type &&
                          sameBits(x.shape.radius, y.shape.radius) &&
                          sameBits(x.shape.halfExtents, y.shape.halfExtents) && x.isStatic == y.isStatic &&
                          x.asleep == y.asleep && sameBits(x.restTime, y.restTime) && x.name == y.name;
        if (!same) return ::testing::AssertionFailure() << "body " << id.index << " (" << x.name << ") differs";
    }
    if (a.stepCount() != b.stepCount()) return ::testing::AssertionFailure() << "step counts differ";
    return ::testing::AssertionSuccess();
}

// The last step's contacts, stats and drag, as the panels show them, bit for bit.
inline ::testing::AssertionResult sameLastStep(const World& a, const World& b) {
    const std::vector<ContactPointInfo> x = a.contacts(), y = b.contacts();
    if (x.size() != y.size()) return ::testing::AssertionFailure() << x.size() << " vs " << y.size() << " contacts";
    for (size_t i = 0; i < x.size(); ++i) {
        const bool same = x[i].bodyA == y[i].bodyA && x[i].bodyB == y[i].bodyB && x[i].featureId == y[i].featureId &&
                          sameBits(x[i].point, y[i].point) && sameBits(x[i].normal, y[i].normal) &&
                          sameBits(x[i].separation, y[i].separation) &&
                          sameBits(x[i].normalImpulse, y[i].normalImpulse) &&
                          sameBits(x[i].frictionImpulse, y[i].frictionImpulse) &&
                          sameBits(x[i].normalVelocityAfter, y[i].normalVelocityAfter) &&
                          sameBits(x[i].impactNormalImpulse, y[i].impactNormalImpulse) &&
                          x[i].warmStarted == y[i].warmStarted && x[i].sticking == y[i].sticking;
        if (!same) return ::testing::AssertionFailure() << "contact point " << i << " differs";
    }
    const StepStats& s = a.stats();
    const StepStats& t = b.stats();
    if (s.candidatePairs != t.candidatePairs || s.manifolds != t.manifolds || s.contactPoints != t.contactPoints ||
        s.sleepingBodies != t.sleepingBodies || s.sleepingContactPoints != t.sleepingContactPoints) {
        return ::testing::AssertionFailure() << "stats differ";
    }
    if (a.drag().active != b.drag().active || !sameBits(a.drag().target, b.drag().target) ||
        !sameBits(a.drag().force, b.drag().force)) {
        return ::testing::AssertionFailure() << "drags differ";
    }
    return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult sameDef(const BodyDef& a, const BodyDef& b) {
    const bool same = a.name == b.name && a.shape.type == b.shape.type && sameBits(a.shape.radius, b.shape.radius) &&
                      sameBits(a.shape.halfExtents, b.shape.halfExtents) && a.isStatic == b.isStatic &&
                      sameBits(a.mass, b.mass) && sameBits(a.position, b.position) &&
                      sameBits(a.orientation, b.orientation) && sameBits(a.linearVelocity, b.linearVelocity) &&
                      sameBits(a.angularVelocity, b.angularVelocity) && sameBits(a.restitution, b.restitution) &&
                      sameBits(a.friction, b.friction) && a.staticFriction.has_value() == b.staticFriction.has_value() &&
                      (!a.staticFriction || sameBits(*a.staticFriction, *b.staticFriction)) &&
                      a.inertia.has_value() == b.inertia.has_value() && (!a.inertia || sameBits(*a.inertia, *b.inertia));
    return same ? ::testing::AssertionSuccess() : ::testing::AssertionFailure() << "definitions differ";
}

/// A static box named "ground", 2 halfWidth m square and 1 m thick, whose top face is the plane y = 0.
inline BodyDef groundDef(float halfWidth) {
    BodyDef ground;
    ground.name = "ground";
    ground.isStatic = true;
    ground.shape = Shape::box(vec3(halfWidth, 0.5f, halfWidth));
    ground.position = vec3(0.0f, -0.5f, 0.0f);
    return ground;
}

// A small scene that has contacts, friction, rotation and warm starting: a
// ground, a tilted box falling on it and a sphere rolling into the box.
inline World makeScene() {
    World world;
    world.createBody(groundDef(10.0f));
    BodyDef box;
    box.name = "box";
    box.mass = 2.0f;
    box.position = vec3(0.0f, 1.5f, 0.0f);
    box.orientation = axisAngle(vec3(1.0f, 0.3f, 0.2f), 0.4f);
    box.angularVelocity = vec3(0.5f, 1.0f, 0.0f);
    world.createBody(box);
    BodyDef ball;
    ball.name = "ball";
    ball.shape = Shape::sphere(0.3f);
    ball.position = vec3(-2.0f, 0.3f, 0.1f);
    ball.linearVelocity = vec3(3.0f, 0.0f, 0.0f);
    world.createBody(ball);
    return world;
}

}  // namespace impulse::test
