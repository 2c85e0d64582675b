// The impulse-based contact solver: per-point preparation (effective masses,
// restitution targets), warm starting, sequential-impulse velocity iterations
// and a position pass that removes overlap without adding kinetic energy.
#pragma once

#include "physics/body.h"
#include "physics/manifold.h"

#include <cstdint>
#include <vector>

namespace impulse {

struct ContactPoint {
    uint32_t id = 0;
    vec3 point{0.0f};                         ///< world, at detection
    vec3 localAnchorA{0.0f}, localAnchorB{0.0f};  ///< surface points in the body frames
    vec3 rA{0.0f}, rB{0.0f};                  ///< centre of mass -> point, world
    float separation = 0.0f;
    float normalMass = 0.0f;                  ///< 1 / k_n
    float tangentMass[2] = {0.0f, 0.0f};      ///< 1 / k_t
    float angularTermA = 0.0f, angularTermB = 0.0f;  ///< n.[(I^-1 (r x n)) x r] per body
    float normalImpulse = 0.0f;               ///< accumulated, >= 0
    vec3 frictionImpulse{0.0f};               ///< accumulated, world, |.| <= mu j_n
    float targetVelocity = 0.0f;              ///< the normal velocity the solver aims for
    float normalVelocityBefore = 0.0f;
    float normalVelocityAfter = 0.0f;
    float frictionBound = 0.0f;
    bool useStaticFriction = false;
    bool sticking = false;
    bool warmStarted = false;
};

struct ContactManifold {
    uint32_t a = 0, b = 0;  ///< body indices, a < b
    vec3 normal{0.0f};      ///< from A to B
    vec3 tangent[2];
    float restitution = 0.0f, friction = 0.0f, staticFriction = 0.0f;
    int pointCount = 0;
    ContactPoint points[kMaxManifoldPoints];
    uint64_t key() const { return (uint64_t(a) << 32) | b; }
};

struct SolverSettings {
    float dt = 0.0f;
    float restitutionThreshold = 0.0f;
    vec3 gravity{0.0f};  ///< already added to the velocities this step
};

/// Builds the solver manifold of a fresh narrowphase result, carrying over the
/// accumulated impulses of `previous` (may be null) point by point, matched by
/// feature id or, failing that, by proximity.
void initManifold(ContactManifold& out, const Manifold& manifold, const Body& a, const Body& b,
                  const ContactManifold* previous, bool warmStarting);

void prepareContacts(std::vector<ContactManifold>& manifolds, const std::vector<Body>& bodies,
                     const SolverSettings& settings);
void warmStartContacts(std::vector<ContactManifold>& manifolds, std::vector<Body>& bodies);
/// One sequential-impulse sweep; `reverse` walks the manifolds backwards.
void solveContactVelocities(std::vector<ContactManifold>& manifolds, std::vector<Body>& bodies, bool reverse);
/// Records the post-solve normal velocity and stick/slip state, for display.
void finishContacts(std::vector<ContactManifold>& manifolds, const std::vector<Body>& bodies);
/// One nonlinear Gauss-Seidel pass over positions (Box2D's position solver):
/// moves bodies apart along the normals without touching velocities.
void solveContactPositions(std::vector<ContactManifold>& manifolds, std::vector<Body>& bodies);

}  // namespace impulse
