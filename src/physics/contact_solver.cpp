#include "physics/contact_solver.h"

#include "physics/constants.h"

#include <cmath>

namespace impulse {
namespace {

vec3 relativeVelocity(const Body& a, const Body& b, const vec3& rA, const vec3& rB) {
    return b.linearVelocity + glm::cross(b.angularVelocity, rB) - a.linearVelocity -
           glm::cross(a.angularVelocity, rA);
}

// Impulse P acts on B at rB and -P on A at rA.
void applyImpulse(Body& a, Body& b, const vec3& rA, const vec3& rB, const vec3& impulse) {
    a.linearVelocity -= a.inverseMass * impulse;
    a.angularVelocity -= a.inverseInertiaWorld * glm::cross(rA, impulse);
    b.linearVelocity += b.inverseMass * impulse;
    b.angularVelocity += b.inverseInertiaWorld * glm::cross(rB, impulse);
}

// n.[(I^-1 (r x n)) x r]: how much of a unit impulse along n turns into
// velocity along n at the point through rotation.
float angularTerm(const mat3& inverseInertia, const vec3& r, const vec3& n) {
    return glm::dot(n, glm::cross(inverseInertia * glm::cross(r, n), r));
}

}  // namespace

void initManifold(ContactManifold& out, const Manifold& manifold, const Body& a, const Body& b,
                  const ContactManifold* previous, bool warmStarting) {
    out.normal = manifold.normal;
    out.pointCount = manifold.pointCount;
    for (int i = 0; i < manifold.pointCount; ++i) {
        const ManifoldPoint& source = manifold.points[i];
        ContactPoint& point = out.points[i];
        point = ContactPoint{};
        point.id = source.id;
        point.point = source.point;
        point.separation = source.separation;
        const vec3 surfaceA = source.point - (0.5f * source.separation) * manifold.normal;
        const vec3 surfaceB = source.point + (0.5f * source.separation) * manifold.normal;
        point.localAnchorA = inverseRotate(a.orientation, surfaceA - a.position);
        point.localAnchorB = inverseRotate(b.orientation, surfaceB - b.position);
        if (previous == nullptr) continue;
        const ContactPoint* match = nullptr;
        for (int k = 0; k < previous->pointCount && match == nullptr; ++k) {
            if (previous->points[k].id == source.id) match = &previous->points[k];
        }
        // A reference-face switch renames every feature; the same physical
        // point is then still found by proximity.
        for (int k = 0; k < previous->pointCount && match == nullptr; ++k) {
            const vec3 offset = previous->points[k].point - source.point;
            if (glm::dot(offset, offset) < kContactMatchDistance * kContactMatchDistance) match = &previous->points[k];
        }
        if (match == nullptr) continue;
        point.useStaticFriction = match->sticking;
        if (warmStarting) {
            point.normalImpulse = match->normalImpulse;
            // Keep only the part of last step's friction that lies in today's tangent plane.
            point.frictionImpulse = match->frictionImpulse - glm::dot(match->frictionImpulse, out.normal) * out.normal;
            point.warmStarted = true;
        }
    }
}

void prepareContacts(std::vector<ContactManifold>& manifolds, const std::vector<Body>& bodies,
                     const SolverSettings& settings) {
    const float inverseDt = 1.0f / settings.dt;
    for (ContactManifold& manifold : manifolds) {
        const Body& a = bodies[manifold.a];
        const Body& b = bodies[manifold.b];
        const vec3& n = manifold.normal;
        // Friction directions: along the sliding direction when sliding, so that
        // kinetic friction opposes the motion exactly; a fixed basis otherwise.
        vec3 slip(0.0f);
        for (int i = 0; i < manifold.pointCount; ++i) {
            const ContactPoint& point = manifold.points[i];
            slip += relativeVelocity(a, b, point.point - a.position, point.point - b.position);
        }
        slip -= glm::dot(slip, n) * n;
        const float slipSpeed = glm::length(slip) / float(manifold.pointCount);
        if (slipSpeed > kStickSpeed) {
            manifold.tangent[0] = glm::normalize(slip);
            manifold.tangent[1] = glm::cross(n, manifold.tangent[0]);
        } else {
            tangentBasis(n, manifold.tangent[0], manifold.tangent[1]);
        }
        for (int i = 0; i < manifold.pointCount; ++i) {
            ContactPoint& point = manifold.points[i];
            point.rA = point.point - a.position;
            point.rB = point.point - b.position;
            // k_n = 1/m_A + 1/m_B + n.[(I_A^-1 (r_A x n)) x r_A] + n.[(I_B^-1 (r_B x n)) x r_B]
            point.angularTermA = angularTerm(a.inverseInertiaWorld, point.rA, n);
            point.angularTermB = angularTerm(b.inverseInertiaWorld, point.rB, n);
            const float kNormal = a.inverseMass + b.inverseMass + point.angularTermA + point.angularTermB;
            point.normalMass = kNormal > 0.0f ? 1.0f / kNormal : 0.0f;
            for (int t = 0; t < 2; ++t) {
                const vec3& tangent = manifold.tangent[t];
                const float kTangent = a.inverseMass + b.inverseMass + angularTerm(a.inverseInertiaWorld, point.rA, tangent) +
                                       angularTerm(b.inverseInertiaWorld, point.rB, tangent);
                point.tangentMass[t] = kTangent > 0.0f ? 1.0f / kTangent : 0.0f;
            }
            const vec3 velocity = relativeVelocity(a, b, point.rA, point.rB);
            const float normalVelocity = glm::dot(velocity, n);
            point.normalVelocityBefore = normalVelocity;
            // A speculative point (not yet touching) lets the bodies close the gap
            // this step but no more.
            point.targetVelocity = point.separation > 0.0f ? -point.separation * inverseDt : 0.0f;
            // Newton's law: an approach faster than the threshold that closes the
            // gap within this step leaves with e times the approach speed.
            const bool closesThisStep = normalVelocity * settings.dt + std::max(point.separation, 0.0f) < 0.0f;
            if (normalVelocity < -settings.restitutionThreshold && closesThisStep) {
                point.targetVelocity = -manifold.restitution * normalVelocity;
            }
            // A point at rest before this step's gravity was added is held by
            // static friction (mu_s); one already sliding keeps kinetic mu.
            const vec3 gravityPart = settings.dt * (b.inverseMass > 0.0f ? settings.gravity : vec3(0.0f)) -
                                     settings.dt * (a.inverseMass > 0.0f ? settings.gravity : vec3(0.0f));
            vec3 restingSlip = velocity - gravityPart;
            restingSlip -= glm::dot(restingSlip, n) * n;
            if (glm::dot(restingSlip, restingSlip) < kStickSpeed * kStickSpeed) point.useStaticFriction = true;
        }
    }
}

void warmStartContacts(std::vector<ContactManifold>& manifolds, std::vector<Body>& bodies) {
    for (ContactManifold& manifold : manifolds) {
        Body& a = bodies[manifold.a];
        Body& b = bodies[manifold.b];
        for (int i = 0; i < manifold.pointCount; ++i) {
            const ContactPoint& point = manifold.points[i];
            applyImpulse(a, b, point.rA, point.rB, point.normalImpulse * manifold.normal + point.frictionImpulse);
        }
    }
}

void solveContactVelocities(std::vector<ContactManifold>& manifolds, std::vector<Body>& bodies, bool reverse) {
    const size_t count = manifolds.size();
    for (size_t m = 0; m < count; ++m) {
        ContactManifold& manifold = manifolds[reverse ? count - 1 - m : m];
        Body& a = bodies[manifold.a];
        Body& b = bodies[manifold.b];
        const vec3& n = manifold.normal;
        // Friction first: its bound uses the normal impulse accumulated so far,
        // and the normal solve that follows then has the last word on penetration.
        const int pointCount = manifold.pointCount;
        for (int k = 0; k < pointCount; ++k) {
            ContactPoint& point = manifold.points[reverse ? pointCount - 1 - k : k];
            const float mu = point.useStaticFriction ? manifold.staticFriction : manifold.friction;
            point.frictionBound = mu * point.normalImpulse;
            const vec3 velocity = relativeVelocity(a, b, point.rA, point.rB);
            // The impulse that would stop sliding, per tangent direction...
            vec3 impulse(0.0f);
            for (int t = 0; t < 2; ++t) {
                impulse -= point.tangentMass[t] * glm::dot(velocity, manifold.tangent[t]) * manifold.tangent[t];
            }
            // ...with the accumulated total kept inside the Coulomb cone |j_t| <= mu j_n.
            const vec3 previous = point.frictionImpulse;
            vec3 accumulated = previous + impulse;
            const float length = glm::length(accumulated);
            if (length > point.frictionBound) {
                accumulated *= length > 0.0f ? point.frictionBound / length : 0.0f;
            }
            point.frictionImpulse = accumulated;
            applyImpulse(a, b, point.rA, point.rB, accumulated - previous);
        }
        for (int k = 0; k < pointCount; ++k) {
            ContactPoint& point = manifold.points[reverse ? pointCount - 1 - k : k];
            const float normalVelocity = glm::dot(relativeVelocity(a, b, point.rA, point.rB), n);
            // j = -(v_rel.n - target) / k_n, accumulated total kept >= 0 (contacts only push).
            const float lambda = -point.normalMass * (normalVelocity - point.targetVelocity);
            const float accumulated = std::max(point.normalImpulse + lambda, 0.0f);
            const float applied = accumulated - point.normalImpulse;
            point.normalImpulse = accumulated;
            applyImpulse(a, b, point.rA, point.rB, applied * n);
        }
    }
}

void finishContacts(std::vector<ContactManifold>& manifolds, const std::vector<Body>& bodies) {
    for (ContactManifold& manifold : manifolds) {
        const Body& a = bodies[manifold.a];
        const Body& b = bodies[manifold.b];
        for (int i = 0; i < manifold.pointCount; ++i) {
            ContactPoint& point = manifold.points[i];
            point.normalVelocityAfter = glm::dot(relativeVelocity(a, b, point.rA, point.rB), manifold.normal);
            const float mu = point.useStaticFriction ? manifold.staticFriction : manifold.friction;
            point.frictionBound = mu * point.normalImpulse;
            // Strictly inside the cone means friction held the point; on the
            // boundary it is sliding at the kinetic limit.
            point.sticking = point.normalImpulse > 0.0f &&
                             glm::length(point.frictionImpulse) < point.frictionBound * (1.0f - 1e-3f);
        }
    }
}

void solveContactPositions(std::vector<ContactManifold>& manifolds, std::vector<Body>& bodies) {
    for (ContactManifold& manifold : manifolds) {
        Body& a = bodies[manifold.a];
        Body& b = bodies[manifold.b];
        const vec3& n = manifold.normal;
        for (int i = 0; i < manifold.pointCount; ++i) {
            const ContactPoint& point = manifold.points[i];
            const vec3 surfaceA = a.position + rotate(a.orientation, point.localAnchorA);
            const vec3 surfaceB = b.position + rotate(b.orientation, point.localAnchorB);
            const float separation = glm::dot(surfaceB - surfaceA, n);
            // Remove a fraction of the overlap beyond the slop, never more than the cap.
            const float correction =
                glm::clamp(kPositionBaumgarte * (separation + kLinearSlop), -kMaxPositionCorrection, 0.0f);
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
            // A rotation vector applied as a unit-time quaternion step.
            if (a.isDynamic()) a.orientation = integrateOrientation(a.orientation, -(a.inverseInertiaWorld * glm::cross(rA, impulse)), 1.0f);
            if (b.isDynamic()) b.orientation = integrateOrientation(b.orientation, b.inverseInertiaWorld * glm::cross(rB, impulse), 1.0f);
        }
    }
}

}  // namespace impulse
