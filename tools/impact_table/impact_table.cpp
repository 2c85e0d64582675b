// impulse-impact-table: how far the world's box impacts are from the impulse
// model's closed forms, at the app's default timestep and at 1 ms, with the
// touch at 8 phases of a step. Each case is set up at the pose where the box
// touches the floor and run backwards to its start, so the touch time is known
// exactly; the reference is Newton's restitution and Coulomb friction applied
// at that pose. It measures, it asserts nothing: the tests hold the limits.
#include "physics/world.h"

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

using namespace impulse;
using dvec3 = glm::dvec3;
using dquat = glm::dquat;
using dmat3 = glm::dmat3;

constexpr int kPhases = 8;
constexpr double kStepsBeforeTouch = 3.0;

// A box's state at its touch of the floor y = 0, and the materials of both.
struct Touch {
    dvec3 half{0.5};
    double mass = 1.0;
    dvec3 position{0.0};
    dquat orientation{1, 0, 0, 0};
    dvec3 velocity{0.0}, spin{0.0};  // the spin stays constant in flight: about a principal axis or isotropic
    double restitution = 0.0, friction = 0.0, staticFriction = 0.0;
    double gravity = 9.81;
    bool onRestingBox = false;  // lands on an identical box resting on the floor
};

dquat turnBy(const dvec3& spin, double t) {
    const double angle = glm::length(spin) * t;
    return angle == 0.0 ? dquat(1, 0, 0, 0) : glm::angleAxis(angle, glm::normalize(spin));
}

dvec3 corner(const Touch& c, int k) {
    return glm::mat3_cast(c.orientation) *
           dvec3((k & 1 ? 1 : -1) * c.half.x, (k & 2 ? 1 : -1) * c.half.y, (k & 4 ? 1 : -1) * c.half.z);
}

// Places the box so that its lowest corner touches y = 0; returns that corner's arm.
dvec3 touchOnLowestCorner(Touch& c) {
    dvec3 lowest = corner(c, 0);
    for (int k = 1; k < 8; ++k) {
        if (corner(c, k).y < lowest.y) lowest = corner(c, k);
    }
    c.position = dvec3(0.0, -lowest.y, 0.0);
    return lowest;
}

// The single-point impact at arm r: stick if the impulse that stops the slip
// and meets Newton's target fits in mu_s j_n, else slide against the slip.
void referenceImpact(const Touch& c, const dvec3& r, dvec3& v, dvec3& w) {
    const dmat3 rotation = glm::mat3_cast(c.orientation);
    const dvec3 h = c.half;
    dmat3 inertia(0.0);
    inertia[0][0] = c.mass / 3.0 * (h.y * h.y + h.z * h.z);
    inertia[1][1] = c.mass / 3.0 * (h.x * h.x + h.z * h.z);
    inertia[2][2] = c.mass / 3.0 * (h.x * h.x + h.y * h.y);
    const dmat3 inverseInertia = rotation * glm::inverse(inertia) * glm::transpose(rotation);
    const auto response = [&](const dvec3& d) { return d / c.mass + glm::cross(inverseInertia * glm::cross(r, d), r); };
    const dmat3 k(response(dvec3(1, 0, 0)), response(dvec3(0, 1, 0)), response(dvec3(0, 0, 1)));
    const dvec3 u = v + glm::cross(w, r);
    const dvec3 target(0.0, -c.restitution * u.y, 0.0);
    dvec3 impulse = glm::inverse(k) * (target - u);
    if (!(std::hypot(impulse.x, impulse.z) <= c.staticFriction * impulse.y)) {
        const dvec3 slip(u.x, 0.0, u.z);
        const dvec3 against = glm::length(slip) > 0.0 ? -slip / glm::length(slip) : dvec3(0.0);
        const dvec3 direction = dvec3(0, 1, 0) + c.friction * against;
        impulse = (target.y - u.y) / response(direction).y * direction;
    }
    v += impulse / c.mass;
    w += inverseInertia * glm::cross(r, impulse);
}

// What a case measures; kNotMeasured where its reference says nothing.
constexpr double kNotMeasured = -1.0;
struct Measure {
    double velocity = kNotMeasured;         // |v - v_ref| / arrival speed
    double angularMomentum = kNotMeasured;  // |I (w - w_ref)| / |I w_ref|
    double asymmetry = kNotMeasured;        // motion the set-up's symmetry forbids, m/s or rad/s
};

enum class Case { CornerElastic, CornerSticking, FlatSliding, RodOnEdge, OntoRestingBox };
const char* const kCaseNames[] = {"cube on a corner, e 1, mu 0", "cube on a corner, sticking",
                                  "flat box sliding", "rod on its end edge", "box onto a resting box"};

Touch setUp(Case which, dvec3& arm) {
    Touch c;
    const dquat tilted = glm::angleAxis(0.6, glm::normalize(dvec3(1, 0, 1))) * glm::angleAxis(0.3, dvec3(0, 1, 0));
    switch (which) {
        case Case::CornerElastic:
        case Case::CornerSticking:
            c.gravity = 0.0;
            c.orientation = tilted;
            c.spin = dvec3(2.0, 1.0, 6.0);
            c.velocity = dvec3(0.5, -1.5, 0.2);
            c.restitution = which == Case::CornerElastic ? 1.0 : 0.5;
            c.friction = which == Case::CornerElastic ? 0.0 : 0.6;
            c.staticFriction = which == Case::CornerElastic ? 0.0 : 0.8;
            arm = touchOnLowestCorner(c);
            break;
        case Case::FlatSliding:
            c.velocity = dvec3(3.0, -4.43, 0.0);
            c.restitution = 0.5, c.friction = c.staticFriction = 0.3;
            c.position = dvec3(0.0, c.half.y, 0.0);
            break;
        case Case::RodOnEdge:
            c.half = dvec3(0.6, 0.05, 0.1);
            c.orientation = glm::angleAxis(0.5, dvec3(0, 0, 1));
            c.spin = dvec3(0.0, 0.0, 1.0);
            c.velocity = dvec3(0.3, -3.0, 0.0);
            c.restitution = 0.3, c.friction = 0.8, c.staticFriction = 1.0;
            touchOnLowestCorner(c);
            break;
        case Case::OntoRestingBox:
            c.half = dvec3(0.3);
            c.restitution = 0.5, c.friction = c.staticFriction = 0.5;
            c.velocity = dvec3(0.0, -std::sqrt(2.0 * 9.81 * 0.3), 0.0);  // dropped 0.3 m
            c.position = dvec3(0.0, 0.9, 0.0);
            c.onRestingBox = true;
            break;
    }
    return c;
}

Measure run(Case which, float dt, int phase, bool verbose) {
    dvec3 arm(0.0);
    const Touch c = setUp(which, arm);
    const double before = (kStepsBeforeTouch + (phase + 0.5) / kPhases) * dt;
    WorldSettings settings;
    settings.gravity = vec3(0.0f, -float(c.gravity), 0.0f);
    settings.timestep = dt;
    World world(settings);
    BodyDef floor;
    floor.name = "floor";
    floor.isStatic = true;
    floor.shape = Shape::box(vec3(50.0f, 0.5f, 50.0f));
    floor.position = vec3(0.0f, -0.5f, 0.0f);
    floor.restitution = float(c.restitution);
    floor.friction = float(c.friction);
    floor.staticFriction = float(c.staticFriction);
    world.createBody(floor);
    BodyDef box = floor;
    box.name = "box";
    box.isStatic = false;
    box.shape = Shape::box(vec3(c.half));
    box.mass = float(c.mass);
    if (c.onRestingBox) {
        BodyDef lower = box;
        lower.name = "lower";
        lower.position = vec3(0.0f, float(c.half.y), 0.0f);
        world.createBody(lower);
    }
    const dvec3 g(0.0, -c.gravity, 0.0);
    box.position = vec3(c.position - c.velocity * before + 0.5 * g * before * before);
    box.orientation = quat(turnBy(c.spin, -before) * c.orientation);
    box.linearVelocity = vec3(c.velocity - g * before);
    box.angularVelocity = vec3(c.spin);
    const BodyId id = world.createBody(box);
    const int steps = int(std::ceil(before / dt)) + 1;
    for (int k = 0; k < steps; ++k) world.step();
    const Body& body = world.body(id);
    const dvec3 v(body.linearVelocity), w(body.angularVelocity);
    const double arrival = std::fabs(c.velocity.y);
    Measure m;
    switch (which) {
        case Case::CornerElastic:
        case Case::CornerSticking: {
            dvec3 vRef = c.velocity, wRef = c.spin;
            referenceImpact(c, arm, vRef, wRef);
            m.velocity = glm::length(v - vRef) / arrival;
            m.angularMomentum = glm::length(w - wRef) / glm::length(wRef);  // isotropic cube: I cancels
            break;
        }
        case Case::FlatSliding:
            m.velocity = std::fabs(v.x - (c.velocity.x - c.friction * (1.0 + c.restitution) * arrival)) / arrival;
            m.asymmetry = std::max(std::fabs(w.y), std::fabs(v.z));
            break;
        case Case::RodOnEdge:
            m.asymmetry = std::max({std::fabs(v.z), std::fabs(w.x), std::fabs(w.y)});
            break;
        case Case::OntoRestingBox:
            m.asymmetry = std::max({std::fabs(v.x), std::fabs(v.z), glm::length(w)});
            break;
    }
    if (verbose) {
        std::printf("  %s, dt %.4f s, phase %d/%d: v (%.4f, %.4f, %.4f) w (%.4f, %.4f, %.4f)\n",
                    kCaseNames[int(which)], dt, phase, kPhases, v.x, v.y, v.z, w.x, w.y, w.z);
    }
    return m;
}

}  // namespace

int main(int argc, char** argv) {
    bool verbose = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--verbose") == 0) {
            verbose = true;
        } else {
            std::fprintf(stderr, "impulse-impact-table: unknown option '%s' (the only one is --verbose)\n", argv[i]);
            return 2;
        }
    }
    std::printf("worst over %d phases of the step; velocity and angular momentum as shares of the reference\n",
                kPhases);
    std::printf("%-30s %-8s %10s %10s %12s\n", "case", "dt", "velocity", "ang. mom.", "asymmetry");
    const float timesteps[] = {1.0f / 60.0f, 1.0f / 1000.0f};
    for (int which = 0; which < 5; ++which) {
        for (const float dt : timesteps) {
            Measure worst;  // kNotMeasured stays the largest only where no phase measured
            for (int phase = 0; phase < kPhases; ++phase) {
                const Measure m = run(Case(which), dt, phase, verbose);
                worst.velocity = std::max(worst.velocity, m.velocity);
                worst.angularMomentum = std::max(worst.angularMomentum, m.angularMomentum);
                worst.asymmetry = std::max(worst.asymmetry, m.asymmetry);
            }
            const auto share = [](double x, char* text) {
                x < 0.0 ? std::snprintf(text, 16, "-") : std::snprintf(text, 16, "%.2f%%", 100.0 * x);
            };
            char velocity[16], angularMomentum[16], asymmetry[16];
            share(worst.velocity, velocity);
            share(worst.angularMomentum, angularMomentum);
            worst.asymmetry < 0.0 ? std::snprintf(asymmetry, 16, "-") : std::snprintf(asymmetry, 16, "%.3g", worst.asymmetry);
            std::printf("%-30s %-8s %10s %10s %12s\n", kCaseNames[which], dt > 0.01f ? "1/60 s" : "1 ms", velocity,
                        angularMomentum, asymmetry);
        }
    }
    return 0;
}
