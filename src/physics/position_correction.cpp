#include "physics/position_correction.h"

#include "physics/constants.h"
#include "physics/prefetch.h"

#include <cstddef>

namespace impulse {

namespace {

// Turns a body by a position correction's rotation vector, applied as a
// unit-time quaternion step; the rotation matrix follows, for the next point.
// A body whose spin's energy depends on its orientation turns its spin with it
// (as in integrateGyroscopicBody); the others keep w exactly.
void turnByCorrection(Body& body, const vec3& rotation) {
    const quat before = body.orientation;
    body.orientation = integrateOrientation(before, rotation, 1.0f);
    if (!body.hasIsotropicInertia()) {
        body.angularVelocity = impulse::rotate(body.orientation * glm::conjugate(before), body.angularVelocity);
    }
    body.updateWorldInertia();
}

}  // namespace

namespace {

// One manifold's part of a position pass; marks the dynamic bodies it moves.
// Each body carries the contact point by its anchor, as in the sub-steps: the
// two carried points met at the start of the step, at its separation then.
void correctPositions(const ContactManifold& manifold, const ContactSolverData& data,
                      const ContactConstraint& constraint, std::vector<Body>& bodies, std::vector<uint8_t>& corrected) {
    Body& a = bodies[manifold.a];
    Body& b = bodies[manifold.b];
    const vec3& n = manifold.normal;
    for (int i = 0; i < manifold.pointCount; ++i) {
        const ConstraintPoint& point = pointOf(data, constraint, i);
        const vec3 surfaceA = a.position + (constraint.anchorTurnsA ? a.rotation * point.anchorA : point.anchorA);
        const vec3 surfaceB = b.position + (constraint.anchorTurnsB ? b.rotation * point.anchorB : point.anchorB);
        const float separation = glm::dot(surfaceB - surfaceA, n) + point.separation;
        // Remove a fraction of the overlap beyond the slop, never more than the cap.
        const float correction =
            glm::clamp(kPositionBaumgarte * (separation + kPositionSlop), -kMaxPositionCorrection, 0.0f);
        if (correction == 0.0f) continue;
        const vec3 contact = 0.5f * (surfaceA + surfaceB);
        const vec3 rA = contact - a.position;
        const vec3 rB = contact - b.position;
        const float k = a.inverseMass + b.inverseMass + angularTerm(a.inverseInertiaWorld, rA, n) +
                        angularTerm(b.inverseInertiaWorld, rB, n);
        if (k <= 0.0f) continue;
        const vec3 impulse = (-correction / k) * n;
        a.position -= a.inverseMass * impulse;
        b.position += b.inverseMass * impulse;
        if (a.isDynamic()) {
            turnByCorrection(a, -(a.inverseInertiaWorld * glm::cross(rA, impulse)));
            corrected[manifold.a] = 1;
        }
        if (b.isDynamic()) {
            turnByCorrection(b, b.inverseInertiaWorld * glm::cross(rB, impulse));
            corrected[manifold.b] = 1;
        }
    }
}

}  // namespace

void solveContactPositions(ContactSolverData& data, std::vector<ContactManifold>& manifolds,
                           std::vector<Body>& bodies, int iterations) {
    // A point needs a correction below -kPositionSlop; kPositionCheckDepth
    // leaves room for the rounding between the sub-steps' measure and ours.
    if (!(data.deepestSeparation < kPositionCheckDepth)) return;
    std::vector<uint8_t>& corrected = data.correctedBodies;
    corrected.assign(bodies.size(), 0);
    for (int iteration = 0; iteration < iterations; ++iteration) {
        for (size_t m = 0; m < manifolds.size(); ++m) {
            // Only the bodies and the deepest separation, far apart: a few manifolds ahead.
            const size_t ahead = m + kPrefetchPairsAhead;
            if (ahead < manifolds.size()) {
                prefetchBytes(&manifolds[ahead], offsetof(ContactManifold, normal));
                prefetchBytes(&data.constraints[ahead], offsetof(ContactConstraint, normal));
            }
            const ContactManifold& manifold = manifolds[m];
            const bool mayCorrect = data.constraints[m].deepestSeparation < kPositionCheckDepth ||
                                    corrected[manifold.a] || corrected[manifold.b];
            if (mayCorrect) correctPositions(manifold, data, data.constraints[m], bodies, corrected);
        }
    }
}

}  // namespace impulse
