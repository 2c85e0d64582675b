#include "physics/contact_solver.h"

#include "physics/constants.h"

#include <cmath>

namespace impulse {
namespace {

vec3 relativeVelocity(const Body& a, const Body& b, const vec3& rA, const vec3& rB) {
    return b.linearVelocity + glm::cross(b.angularVelocity, rB) - a.linearVelocity -
           glm::cross(a.angularVelocity, rA);
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

namespace {

ConstraintAxis makeAxis(const Body& a, const Body& b, const vec3& rA, const vec3& rB, const vec3& direction) {
    ConstraintAxis axis;
    axis.rAxD = glm::cross(rA, direction);
    axis.rBxD = glm::cross(rB, direction);
    axis.turnA = a.inverseInertiaWorld * axis.rAxD;
    axis.turnB = b.inverseInertiaWorld * axis.rBxD;
    // d.[(I^-1 (r x d)) x r] = (r x d).(I^-1 (r x d))
    const float k = a.inverseMass + b.inverseMass + glm::dot(axis.rAxD, axis.turnA) + glm::dot(axis.rBxD, axis.turnB);
    axis.mass = k > 0.0f ? 1.0f / k : 0.0f;
    return axis;
}

float axisVelocity(const SolverBody& a, const SolverBody& b, const vec3& direction, const ConstraintAxis& axis) {
    return glm::dot(b.linearVelocity - a.linearVelocity, direction) + glm::dot(b.angularVelocity, axis.rBxD) -
           glm::dot(a.angularVelocity, axis.rAxD);
}

void applyAlong(SolverBody& a, SolverBody& b, const vec3& direction, const ConstraintAxis& axis, float lambda) {
    a.linearVelocity -= (a.inverseMass * lambda) * direction;
    a.angularVelocity -= lambda * axis.turnA;
    b.linearVelocity += (b.inverseMass * lambda) * direction;
    b.angularVelocity += lambda * axis.turnB;
}

}  // namespace

void prepareContacts(std::vector<ContactManifold>& manifolds, const std::vector<Body>& bodies,
                     const SolverSettings& settings, ContactSolverData& data) {
    // Solver slots: 0 is shared by every static body (zero inverse mass, at rest).
    data.bodies.assign(1, SolverBody{});
    data.slotOfBody.assign(bodies.size(), 0);
    for (size_t i = 0; i < bodies.size(); ++i) {
        const Body& body = bodies[i];
        if (!body.isAlive() || body.isStatic) continue;
        data.slotOfBody[i] = static_cast<uint32_t>(data.bodies.size());
        data.bodies.push_back(SolverBody{body.linearVelocity, body.inverseMass, body.angularVelocity});
    }

    const float inverseDt = 1.0f / settings.dt;
    data.constraints.resize(manifolds.size());
    for (size_t m = 0; m < manifolds.size(); ++m) {
        ContactManifold& manifold = manifolds[m];
        ContactConstraint& constraint = data.constraints[m];
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
        constraint.a = data.slotOfBody[manifold.a];
        constraint.b = data.slotOfBody[manifold.b];
        constraint.normal = n;
        constraint.tangent[0] = manifold.tangent[0];
        constraint.tangent[1] = manifold.tangent[1];
        constraint.pointCount = manifold.pointCount;
        // The velocity of gravity added this step, relative between the bodies.
        const vec3 gravityPart = settings.dt * ((b.isDynamic() ? settings.gravity : vec3(0.0f)) -
                                                (a.isDynamic() ? settings.gravity : vec3(0.0f)));
        for (int i = 0; i < manifold.pointCount; ++i) {
            ContactPoint& point = manifold.points[i];
            ConstraintPoint& cp = constraint.points[i];
            point.rA = point.point - a.position;
            point.rB = point.point - b.position;
            // k_n = 1/m_A + 1/m_B + n.[(I_A^-1 (r_A x n)) x r_A] + n.[(I_B^-1 (r_B x n)) x r_B]
            cp.normal = makeAxis(a, b, point.rA, point.rB, n);
            point.angularTermA = glm::dot(cp.normal.rAxD, cp.normal.turnA);
            point.angularTermB = glm::dot(cp.normal.rBxD, cp.normal.turnB);
            point.normalMass = cp.normal.mass;
            for (int t = 0; t < 2; ++t) {
                cp.tangent[t] = makeAxis(a, b, point.rA, point.rB, manifold.tangent[t]);
                point.tangentMass[t] = cp.tangent[t].mass;
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
            vec3 restingSlip = velocity - gravityPart;
            restingSlip -= glm::dot(restingSlip, n) * n;
            if (glm::dot(restingSlip, restingSlip) < kStickSpeed * kStickSpeed) point.useStaticFriction = true;
            constraint.pointFriction[i] = point.useStaticFriction ? manifold.staticFriction : manifold.friction;
            cp.targetVelocity = point.targetVelocity;
            cp.normalImpulse = point.normalImpulse;
            // Last step's friction, a world vector, seen in today's tangent directions.
            cp.tangentImpulse[0] = glm::dot(point.frictionImpulse, manifold.tangent[0]);
            cp.tangentImpulse[1] = glm::dot(point.frictionImpulse, manifold.tangent[1]);
        }
    }
}

void warmStartContacts(ContactSolverData& data) {
    for (const ContactConstraint& c : data.constraints) {
        SolverBody& a = data.bodies[c.a];
        SolverBody& b = data.bodies[c.b];
        for (int i = 0; i < c.pointCount; ++i) {
            const ConstraintPoint& p = c.points[i];
            applyAlong(a, b, c.normal, p.normal, p.normalImpulse);
            applyAlong(a, b, c.tangent[0], p.tangent[0], p.tangentImpulse[0]);
            applyAlong(a, b, c.tangent[1], p.tangent[1], p.tangentImpulse[1]);
        }
    }
}

void solveContactVelocities(ContactSolverData& data, bool reverse) {
    const size_t count = data.constraints.size();
    for (size_t m = 0; m < count; ++m) {
        ContactConstraint& c = data.constraints[reverse ? count - 1 - m : m];
        SolverBody& a = data.bodies[c.a];
        SolverBody& b = data.bodies[c.b];
        const int pointCount = c.pointCount;
        // Friction first: its bound uses the normal impulse accumulated so far,
        // and the normal solve that follows then has the last word on penetration.
        for (int k = 0; k < pointCount; ++k) {
            const int i = reverse ? pointCount - 1 - k : k;
            ConstraintPoint& p = c.points[i];
            // The impulse that would stop sliding, per tangent direction...
            const float lambda0 = -p.tangent[0].mass * axisVelocity(a, b, c.tangent[0], p.tangent[0]);
            const float lambda1 = -p.tangent[1].mass * axisVelocity(a, b, c.tangent[1], p.tangent[1]);
            // ...with the accumulated total kept inside the Coulomb cone |j_t| <= mu j_n.
            const float bound = c.pointFriction[i] * p.normalImpulse;
            float total0 = p.tangentImpulse[0] + lambda0;
            float total1 = p.tangentImpulse[1] + lambda1;
            const float lengthSquared = total0 * total0 + total1 * total1;
            if (lengthSquared > bound * bound) {
                const float scale = bound / std::sqrt(lengthSquared);
                total0 *= scale;
                total1 *= scale;
            }
            applyAlong(a, b, c.tangent[0], p.tangent[0], total0 - p.tangentImpulse[0]);
            applyAlong(a, b, c.tangent[1], p.tangent[1], total1 - p.tangentImpulse[1]);
            p.tangentImpulse[0] = total0;
            p.tangentImpulse[1] = total1;
        }
        for (int k = 0; k < pointCount; ++k) {
            ConstraintPoint& p = c.points[reverse ? pointCount - 1 - k : k];
            // j = -(v_rel.n - target) / k_n, accumulated total kept >= 0 (contacts only push).
            const float lambda = -p.normal.mass * (axisVelocity(a, b, c.normal, p.normal) - p.targetVelocity);
            const float total = std::max(p.normalImpulse + lambda, 0.0f);
            applyAlong(a, b, c.normal, p.normal, total - p.normalImpulse);
            p.normalImpulse = total;
        }
    }
}

void finishContacts(ContactSolverData& data, std::vector<ContactManifold>& manifolds, std::vector<Body>& bodies) {
    for (size_t i = 0; i < bodies.size(); ++i) {
        const uint32_t slot = data.slotOfBody[i];
        if (slot == 0) continue;
        bodies[i].linearVelocity = data.bodies[slot].linearVelocity;
        bodies[i].angularVelocity = data.bodies[slot].angularVelocity;
    }
    for (size_t m = 0; m < manifolds.size(); ++m) {
        ContactManifold& manifold = manifolds[m];
        const ContactConstraint& c = data.constraints[m];
        const SolverBody& a = data.bodies[c.a];
        const SolverBody& b = data.bodies[c.b];
        for (int i = 0; i < manifold.pointCount; ++i) {
            ContactPoint& point = manifold.points[i];
            const ConstraintPoint& p = c.points[i];
            point.normalImpulse = p.normalImpulse;
            point.frictionImpulse = p.tangentImpulse[0] * c.tangent[0] + p.tangentImpulse[1] * c.tangent[1];
            point.normalVelocityAfter = axisVelocity(a, b, c.normal, p.normal);
            point.frictionBound = c.pointFriction[i] * p.normalImpulse;
            // Strictly inside the cone means friction held the point; on the
            // boundary it is sliding at the kinetic limit.
            point.sticking = p.normalImpulse > 0.0f &&
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
