// Small builders shared by the closed-form validation tests.
#pragma once

#include "physics/world.h"

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <ostream>

namespace impulse::test {

inline WorldSettings zeroGravity() {
    WorldSettings settings;
    settings.gravity = vec3(0.0f);
    return settings;
}

/// A timestep to run a closed-form case at: the app's default and a fine one.
struct Timing {
    const char* name;
    float dt;
};
inline void PrintTo(const Timing& t, std::ostream* os) { *os << t.name; }
inline const Timing kTimings[] = {{"Default60Hz", 1.0f / 60.0f}, {"Fine1ms", 1.0f / 1000.0f}};

/// A static box whose top face is the plane y = 0 (or tilted by `orientation`).
inline BodyDef groundDef(float friction, float restitution, const quat& orientation = quat(1, 0, 0, 0),
                         std::optional<float> staticFriction = std::nullopt) {
    BodyDef def;
    def.name = "ground";
    def.isStatic = true;
    def.shape = Shape::box(vec3(50.0f, 0.5f, 50.0f));
    def.orientation = orientation;
    def.position = rotate(orientation, vec3(0.0f, -0.5f, 0.0f));
    def.friction = friction;
    def.restitution = restitution;
    def.staticFriction = staticFriction;
    return def;
}

inline BodyId addGround(World& world, float friction, float restitution, const quat& orientation = quat(1, 0, 0, 0),
                        std::optional<float> staticFriction = std::nullopt) {
    return world.createBody(groundDef(friction, restitution, orientation, staticFriction));
}

inline BodyDef sphereDef(float radius, float mass, const vec3& position) {
    BodyDef def;
    def.shape = Shape::sphere(radius);
    def.mass = mass;
    def.position = position;
    return def;
}

inline BodyDef boxDef(const vec3& halfExtents, float mass, const vec3& position) {
    BodyDef def;
    def.shape = Shape::box(halfExtents);
    def.mass = mass;
    def.position = position;
    return def;
}

inline glm::dvec3 toDouble(const vec3& v) { return glm::dvec3(v); }

/// Height of a falling body's bottom above the floor and downward speed at release
/// so that it arrives at speed vn at t = (N + frac) dt (continuous time): at dt 1/60
/// the gap at the start of the impact's step is centimetres, so the impact is met
/// inside the step, as in the app.
struct ArrivalPlan {
    double height;
    double downSpeed;
    double time;
};

inline ArrivalPlan planArrival(double vn, double dt, double g, double frac = 0.9) {
    const int n = std::max(1, int(std::floor(vn / (g * dt) - frac)));
    const double t = (double(n) + frac) * dt;
    const double v0 = std::max(0.0, vn - g * t);
    return {v0 * t + 0.5 * g * t * t, v0, t};
}

}  // namespace impulse::test
