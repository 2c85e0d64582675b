// The impulse-based contact solver: per-point preparation (effective masses,
// restitution targets), warm starting, sequential-impulse velocity iterations
// and a position pass that removes overlap without adding kinetic energy.
//
// Manifolds (ContactManifold) persist between steps and carry the accumulated
// impulses. Each substep they are turned into solver constraints over compact
// solver bodies (velocity and inverse mass only), with r x n and I^-1 (r x n)
// precomputed, so the inner loop is dot products and scaled adds.
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

/// The velocity state the iterations work on; static bodies share slot 0,
/// which has zero inverse mass and stays at rest.
struct SolverBody {
    vec3 linearVelocity{0.0f};
    float inverseMass = 0.0f;
    vec3 angularVelocity{0.0f};
};

/// Jacobian pieces of one direction d at one point: the velocity along d is
/// dot(vB - vA, d) + dot(wB, rB x d) - dot(wA, rA x d), and an impulse
/// lambda d changes wA by -lambda I_A^-1 (rA x d) and wB by +lambda I_B^-1 (rB x d).
struct ConstraintAxis {
    vec3 rAxD{0.0f}, rBxD{0.0f};
    vec3 turnA{0.0f}, turnB{0.0f};  ///< I^-1 (r x d)
    float mass = 0.0f;              ///< 1 / (1/m_A + 1/m_B + d.(turnA x rA) + d.(turnB x rB))
};

struct ConstraintPoint {
    ConstraintAxis normal;
    ConstraintAxis tangent[2];
    float targetVelocity = 0.0f;
    float normalImpulse = 0.0f;
    float tangentImpulse[2] = {0.0f, 0.0f};
};

struct ContactConstraint {
    uint32_t a = 0, b = 0;  ///< solver body slots
    vec3 normal{0.0f};
    vec3 tangent[2];
    float friction = 0.0f;  ///< mu in force for each point (static or kinetic)
    float pointFriction[kMaxManifoldPoints] = {};
    int pointCount = 0;
    ConstraintPoint points[kMaxManifoldPoints];
};

struct SolverSettings {
    float dt = 0.0f;
    float restitutionThreshold = 0.0f;
    vec3 gravity{0.0f};  ///< already added to the velocities this step
};

/// Working set of one substep's velocity solve.
struct ContactSolverData {
    std::vector<SolverBody> bodies;       ///< slot 0: the shared static body
    std::vector<uint32_t> slotOfBody;     ///< body index -> solver slot
    std::vector<ContactConstraint> constraints;  ///< parallel to the manifolds
};

/// Builds the solver manifold of a fresh narrowphase result, carrying over the
/// accumulated impulses of `previous` (may be null) point by point, matched by
/// feature id or, failing that, by proximity.
void initManifold(ContactManifold& out, const Manifold& manifold, const Body& a, const Body& b,
                  const ContactManifold* previous, bool warmStarting);

/// Copies body velocities into solver slots and builds one constraint per
/// manifold (effective masses, tangents, restitution and speculative targets).
void prepareContacts(std::vector<ContactManifold>& manifolds, const std::vector<Body>& bodies,
                     const SolverSettings& settings, ContactSolverData& data);
void warmStartContacts(ContactSolverData& data);
/// One sequential-impulse sweep; `reverse` walks the constraints backwards.
void solveContactVelocities(ContactSolverData& data, bool reverse);
/// Writes velocities back to the bodies, and impulses, the post-solve normal
/// velocity and the stick/slip state back to the manifolds (for warm starting
/// and display).
void finishContacts(ContactSolverData& data, std::vector<ContactManifold>& manifolds, std::vector<Body>& bodies);
/// One nonlinear Gauss-Seidel pass over positions (Box2D's position solver):
/// moves bodies apart along the normals without touching velocities.
void solveContactPositions(std::vector<ContactManifold>& manifolds, std::vector<Body>& bodies);

}  // namespace impulse
