// Contacts that persist from pass to pass: a manifold's points with the
// impulses they carry into the next warm start (matched by feature id, then by
// proximity), what the last step did at each for the contact inspector, and the
// write-back of a solved pass into them.
#pragma once

#include "physics/body.h"
#include "physics/manifold.h"

#include <cstdint>
#include <vector>

namespace impulse {

struct ContactSolverData;

struct ContactPoint {
    uint32_t id = 0;
    vec3 point{0.0f};                         ///< world, at detection
    float separation = 0.0f;
    float normalImpulse = 0.0f;               ///< of the last sub-step, >= 0 (warm start)
    vec3 frictionImpulse{0.0f};               ///< of the last sub-step, world, |.| <= mu j_n
    float normalVelocityBefore = 0.0f;        ///< v_rel.n at the start of the step
    bool sticking = false;                    ///< pushed in the last step and ends it slipping slower than kStickSpeed
    bool warmStarted = false;
};

/// What the last step did at a contact point, for the contact inspector
/// (World::contacts): written by finishContacts and read by no pass of a step,
/// so it is kept apart from the manifolds, which a step streams several times.
struct ContactPointReport {
    vec3 rA{0.0f}, rB{0.0f};         ///< centre of mass -> point, world, at the start of the step
    float stepNormalImpulse = 0.0f;  ///< applied over the whole step, N s
    vec3 stepFrictionImpulse{0.0f};  ///< applied over the whole step, N s
    float targetVelocity = 0.0f;     ///< restitution target -e v_n of an impact, else 0
    float normalVelocityAfter = 0.0f;
    float frictionBound = 0.0f;      ///< mu j_n over the step, with mu_s if the point ends sticking
    /// The impact at the point this step, if any (impact.h): its whole normal
    /// impulse (with the part that stopped the approach), its friction, and
    /// whether friction held the slip (mu_s) or slid (mu).
    float impactNormalImpulse = 0.0f;
    vec3 impactFrictionImpulse{0.0f};
    bool impactSticking = false;
};

/// The reports of a manifold's points, at the manifold's index in a parallel array.
struct ContactReport {
    ContactPointReport points[kMaxManifoldPoints];
};

struct ContactManifold {
    uint32_t a = 0, b = 0;  ///< body indices, a < b
    vec3 normal{0.0f};      ///< from A to B
    vec3 tangent[2];
    float restitution = 0.0f, friction = 0.0f, staticFriction = 0.0f;
    int pointCount = 0;
    ContactPoint points[kMaxManifoldPoints];
    ManifoldCache cache;  ///< the narrowphase result behind the points (box pairs)
    uint64_t key() const { return (uint64_t(a) << 32) | b; }
};

// n.[(I^-1 (r x n)) x r]: how much of a unit impulse along n turns into
// velocity along n at the point through rotation.
inline float angularTerm(const mat3& inverseInertia, const vec3& r, const vec3& n) {
    return glm::dot(n, glm::cross(inverseInertia * glm::cross(r, n), r));
}

/// The terms of a point's effective masses for the contact inspector, worked out
/// when asked from the step's lever arms and the tensors of now: what the last
/// sweep used (a turning tensor's batch is recomputed after every move), up to
/// what a position pass turned since.
struct EffectiveMassTerms {
    float angularTermA = 0.0f, angularTermB = 0.0f;  ///< n.[(I^-1 (r x n)) x r] per body
    float normalMass = 0.0f;                         ///< 1 / k_n
    float tangentMass[2] = {0.0f, 0.0f};             ///< 1 / k_t
};
EffectiveMassTerms effectiveMassTerms(const ContactManifold& manifold, const ContactPointReport& point, const Body& a,
                                      const Body& b);

/// Builds the solver manifold of a fresh narrowphase result, carrying over the
/// accumulated impulses of `previous` (may be null) point by point, matched by
/// feature id or, failing that, by proximity.
void initManifold(ContactManifold& out, const Manifold& manifold, const ContactManifold* previous,
                  bool warmStarting);


/// Writes velocities and poses (with their rotation matrices and world
/// inverse inertia) back to the bodies, the impulses to warm start with and
/// the stick/slip state (shown by the inspector; no stage reads it) back to the manifolds, and the step's impulses, targets
/// and post-solve normal velocities to `reports` (one per manifold, same index).
void finishContacts(ContactSolverData& data, std::vector<ContactManifold>& manifolds,
                    std::vector<ContactReport>& reports, std::vector<Body>& bodies);

}  // namespace impulse
