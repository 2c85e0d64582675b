#include "physics/contact_solver.h"

#include "physics/constants.h"

#include <glm/gtc/constants.hpp>

#include <cmath>

namespace impulse {
namespace {

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

// The two inner-loop operations; GCC declines to inline them on its own.
#define IMPULSE_INLINE [[gnu::always_inline]] inline

IMPULSE_INLINE float axisVelocity(const SolverBody& a, const SolverBody& b, const vec3& direction, const ConstraintAxis& axis) {
    return glm::dot(b.linearVelocity - a.linearVelocity, direction) + glm::dot(b.angularVelocity, axis.rBxD) -
           glm::dot(a.angularVelocity, axis.rAxD);
}

// Both friction directions in one update of each body.
IMPULSE_INLINE void applyTangential(SolverBody& a, SolverBody& b, const ContactConstraint& c, ConstraintPoint& p,
                                    float lambda0, float lambda1) {
    const vec3 impulse = lambda0 * c.tangent[0] + lambda1 * c.tangent[1];
    a.linearVelocity -= a.inverseMass * impulse;
    a.angularVelocity -= lambda0 * p.tangent[0].turnA + lambda1 * p.tangent[1].turnA;
    b.linearVelocity += b.inverseMass * impulse;
    b.angularVelocity += lambda0 * p.tangent[0].turnB + lambda1 * p.tangent[1].turnB;
    p.stepFrictionImpulse += impulse;
}

IMPULSE_INLINE void applyAlong(SolverBody& a, SolverBody& b, const vec3& direction, const ConstraintAxis& axis, float lambda) {
    a.linearVelocity -= (a.inverseMass * lambda) * direction;
    a.angularVelocity -= lambda * axis.turnA;
    b.linearVelocity += (b.inverseMass * lambda) * direction;
    b.angularVelocity += lambda * axis.turnB;
}

}  // namespace

void prepareContacts(std::vector<ContactManifold>& manifolds, const std::vector<Body>& bodies,
                     float restitutionThreshold, ContactSolverData& data) {
    // Solver slots: 0 is shared by every static body (zero inverse mass, at rest).
    data.bodies.assign(1, SolverBody{});
    data.bodyOfSlot.assign(1, 0);
    data.slotOfBody.assign(bodies.size(), 0);
    data.gyroscopicSlots.clear();
    for (size_t i = 0; i < bodies.size(); ++i) {
        const Body& body = bodies[i];
        if (!body.isAlive() || body.isStatic) continue;
        const uint32_t slot = static_cast<uint32_t>(data.bodies.size());
        data.slotOfBody[i] = slot;
        data.bodyOfSlot.push_back(static_cast<uint32_t>(i));
        SolverBody solverBody;
        solverBody.linearVelocity = body.linearVelocity;
        solverBody.inverseMass = body.inverseMass;
        solverBody.angularVelocity = body.angularVelocity;
        solverBody.orientation = body.orientation;
        data.bodies.push_back(solverBody);
        // Only a non-isotropic tensor makes w x (I w) non-zero.
        const mat3& inertia = body.inertiaBody;
        if (inertia != mat3(inertia[0][0])) data.gyroscopicSlots.push_back(slot);
    }

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
            slip += b.velocityAt(point.point) - a.velocityAt(point.point);
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
        constraint.restitution = manifold.restitution;
        constraint.collides = false;
        constraint.anchorTurnsA = a.isDynamic() && a.shape.type == ShapeType::Box;
        constraint.anchorTurnsB = b.isDynamic() && b.shape.type == ShapeType::Box;
        constraint.normal = n;
        constraint.tangent[0] = manifold.tangent[0];
        constraint.tangent[1] = manifold.tangent[1];
        constraint.pointCount = manifold.pointCount;
        for (int i = 0; i < manifold.pointCount; ++i) {
            ContactPoint& point = manifold.points[i];
            ConstraintPoint& cp = constraint.points[i];
            point.rA = point.point - a.position;
            point.rB = point.point - b.position;
            cp.anchorA = constraint.anchorTurnsA ? inverseRotate(a.orientation, point.rA) : point.rA;
            cp.anchorB = constraint.anchorTurnsB ? inverseRotate(b.orientation, point.rB) : point.rB;
            cp.adjustedSeparation = point.separation - glm::dot(point.rB - point.rA, n);
            cp.separation = point.separation;
            // k_n = 1/m_A + 1/m_B + n.[(I_A^-1 (r_A x n)) x r_A] + n.[(I_B^-1 (r_B x n)) x r_B]
            cp.normal = makeAxis(a, b, point.rA, point.rB, n);
            point.angularTermA = glm::dot(cp.normal.rAxD, cp.normal.turnA);
            point.angularTermB = glm::dot(cp.normal.rBxD, cp.normal.turnB);
            point.normalMass = cp.normal.mass;
            for (int t = 0; t < 2; ++t) {
                cp.tangent[t] = makeAxis(a, b, point.rA, point.rB, manifold.tangent[t]);
                point.tangentMass[t] = cp.tangent[t].mass;
            }
            const vec3 velocity = b.velocityAt(point.point) - a.velocityAt(point.point);
            const float normalVelocity = glm::dot(velocity, n);
            point.normalVelocityBefore = normalVelocity;
            // Newton's law: a touching point approaching faster than the threshold
            // leaves with e times the approach speed. A point still short of
            // contact is caught by the sub-steps' speculative limit when it
            // arrives and gets its bounce there (applyRestitution), not early.
            const bool collides = normalVelocity < -restitutionThreshold && point.separation <= kLinearSlop;
            cp.approachVelocity = normalVelocity;
            cp.collides = collides;
            cp.restitutionTarget = collides ? -manifold.restitution * normalVelocity : 0.0f;
            cp.collisionImpulse = 0.0f;
            cp.collisionFriction[0] = cp.collisionFriction[1] = 0.0f;
            constraint.collides = constraint.collides || collides;
            // A point at rest (before this step's gravity) is held by static
            // friction mu_s; one already sliding keeps kinetic mu.
            const vec3 tangential = velocity - normalVelocity * n;
            if (glm::dot(tangential, tangential) < kStickSpeed * kStickSpeed) point.useStaticFriction = true;
            constraint.pointFriction[i] = point.useStaticFriction ? manifold.staticFriction : manifold.friction;
            cp.normalImpulse = point.normalImpulse;
            // Last step's friction, a world vector, seen in today's tangent directions.
            cp.tangentImpulse[0] = glm::dot(point.frictionImpulse, manifold.tangent[0]);
            cp.tangentImpulse[1] = glm::dot(point.frictionImpulse, manifold.tangent[1]);
            cp.pushImpulse = 0.0f;
            cp.stepNormalImpulse = 0.0f;
            cp.stepFrictionImpulse = vec3(0.0f);
        }
    }
}

void warmStartContacts(ContactSolverData& data) {
    for (ContactConstraint& c : data.constraints) {
        SolverBody& a = data.bodies[c.a];
        SolverBody& b = data.bodies[c.b];
        for (int i = 0; i < c.pointCount; ++i) {
            ConstraintPoint& p = c.points[i];
            // Normal and friction impulses of the last sub-step as one impulse.
            const vec3 friction = p.tangentImpulse[0] * c.tangent[0] + p.tangentImpulse[1] * c.tangent[1];
            const vec3 impulse = p.normalImpulse * c.normal + friction;
            const vec3 turnA = p.normalImpulse * p.normal.turnA + p.tangentImpulse[0] * p.tangent[0].turnA +
                               p.tangentImpulse[1] * p.tangent[1].turnA;
            const vec3 turnB = p.normalImpulse * p.normal.turnB + p.tangentImpulse[0] * p.tangent[0].turnB +
                               p.tangentImpulse[1] * p.tangent[1].turnB;
            a.linearVelocity -= a.inverseMass * impulse;
            a.angularVelocity -= turnA;
            b.linearVelocity += b.inverseMass * impulse;
            b.angularVelocity += turnB;
            p.stepNormalImpulse += p.normalImpulse;
            p.stepFrictionImpulse += friction;
        }
    }
}

void solveCollisions(ContactSolverData& data, int iterations) {
    for (int iteration = 0; iteration < iterations; ++iteration) {
        for (ContactConstraint& c : data.constraints) {
            if (!c.collides) continue;
            SolverBody& a = data.bodies[c.a];
            SolverBody& b = data.bodies[c.b];
            for (int i = 0; i < c.pointCount; ++i) {
                ConstraintPoint& p = c.points[i];
                if (!p.collides) continue;
                // Friction during the impact, inside the cone of the impact's normal impulse.
                const float bound = c.pointFriction[i] * p.collisionImpulse;
                float total0 = p.collisionFriction[0] - p.tangent[0].mass * axisVelocity(a, b, c.tangent[0], p.tangent[0]);
                float total1 = p.collisionFriction[1] - p.tangent[1].mass * axisVelocity(a, b, c.tangent[1], p.tangent[1]);
                const float lengthSquared = total0 * total0 + total1 * total1;
                if (lengthSquared > bound * bound) {
                    const float scale = bound / std::sqrt(lengthSquared);
                    total0 *= scale;
                    total1 *= scale;
                }
                applyTangential(a, b, c, p, total0 - p.collisionFriction[0], total1 - p.collisionFriction[1]);
                p.collisionFriction[0] = total0;
                p.collisionFriction[1] = total1;
                // j = -(v_rel.n + e v_n,before) / k_n, the total kept >= 0.
                const float normalVelocity = axisVelocity(a, b, c.normal, p.normal);
                const float total =
                    std::max(p.collisionImpulse - p.normal.mass * (normalVelocity - p.restitutionTarget), 0.0f);
                const float applied = total - p.collisionImpulse;
                applyAlong(a, b, c.normal, p.normal, applied);
                p.collisionImpulse = total;
                p.stepNormalImpulse += applied;
            }
        }
    }
}

void solveContacts(ContactSolverData& data, float h, Sweep sweep, bool reverse) {
    const float inverseH = 1.0f / h;
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
            // No normal load and no friction to undo: nothing to do (a speculative point).
            if (p.normalImpulse == 0.0f && p.tangentImpulse[0] == 0.0f && p.tangentImpulse[1] == 0.0f) continue;
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
            const float applied0 = total0 - p.tangentImpulse[0], applied1 = total1 - p.tangentImpulse[1];
            applyTangential(a, b, c, p, applied0, applied1);
            p.tangentImpulse[0] = total0;
            p.tangentImpulse[1] = total1;
        }
        for (int k = 0; k < pointCount; ++k) {
            ConstraintPoint& p = c.points[reverse ? pointCount - 1 - k : k];
            const float separation = p.separation;
            // j = -(v_rel.n - target) / k_n, the target being -s/h for a gap (close
            // it, no more), else 0; the accumulated total stays >= 0 (contacts only push).
            const float target = separation > 0.0f ? -separation * inverseH : 0.0f;
            const float normalVelocity = axisVelocity(a, b, c.normal, p.normal);
            const float lambda = -p.normal.mass * (normalVelocity - target);
            const float total = std::max(p.normalImpulse + lambda, 0.0f);
            const float applied = total - p.normalImpulse;
            applyAlong(a, b, c.normal, p.normal, applied);
            p.normalImpulse = total;
            p.stepNormalImpulse += applied;
            // Split impulse: push overlap beyond the slop apart at a fraction of
            // it per sub-step, capped, on pseudo-velocities only.
            const float overlap = -(separation + kPushoutSlop);
            if (sweep == Sweep::Relax || (overlap <= 0.0f && p.pushImpulse == 0.0f)) continue;
            const float pushTarget = std::min(kPushoutRate * std::max(overlap, 0.0f) * inverseH, kMaxPushoutSpeed);
            const float pushVelocity = glm::dot(b.pushLinearVelocity - a.pushLinearVelocity, c.normal) +
                                       glm::dot(b.pushAngularVelocity, p.normal.rBxD) -
                                       glm::dot(a.pushAngularVelocity, p.normal.rAxD);
            const float pushTotal = std::max(p.pushImpulse - p.normal.mass * (pushVelocity - pushTarget), 0.0f);
            const float pushApplied = pushTotal - p.pushImpulse;
            p.pushImpulse = pushTotal;
            a.pushLinearVelocity -= (a.inverseMass * pushApplied) * c.normal;
            a.pushAngularVelocity -= pushApplied * p.normal.turnA;
            b.pushLinearVelocity += (b.inverseMass * pushApplied) * c.normal;
            b.pushAngularVelocity += pushApplied * p.normal.turnB;
        }
    }
}

void integrateSolverPositions(ContactSolverData& data, const std::vector<Body>& bodies, float h) {
    // Isotropic bodies turn at constant w; the others conserve L while they turn.
    std::vector<uint32_t>::const_iterator gyroscopic = data.gyroscopicSlots.begin();
    for (size_t slot = 1; slot < data.bodies.size(); ++slot) {
        SolverBody& solverBody = data.bodies[slot];
        solverBody.deltaPosition += h * (solverBody.linearVelocity + solverBody.pushLinearVelocity);
        if (gyroscopic != data.gyroscopicSlots.end() && *gyroscopic == slot) {
            ++gyroscopic;
            const Body& body = bodies[data.bodyOfSlot[slot]];
            solverBody.orientation = rotateBy(solverBody.orientation, solverBody.pushAngularVelocity, h);
            rotateRigidBody(solverBody.orientation, solverBody.angularVelocity, body.inertiaBody, h);
        } else {
            // First order is plenty over a sub-step (error O((w h)^3)) and skips the trigonometry.
            solverBody.orientation = integrateOrientation(
                solverBody.orientation, solverBody.angularVelocity + solverBody.pushAngularVelocity, h);
        }
        solverBody.pushLinearVelocity = vec3(0.0f);
        solverBody.pushAngularVelocity = vec3(0.0f);
        // After the turn: the L-preserving rotation recomputes w, which may exceed the cap.
        const float spin = glm::length(solverBody.angularVelocity);
        if (spin > kMaxAngularSpeed) solverBody.angularVelocity *= kMaxAngularSpeed / spin;
    }
    // Separations now, from how far the bodies moved since the start of the
    // step; the relax sweep and the next solve both see these poses.
    for (ContactConstraint& c : data.constraints) {
        const SolverBody& a = data.bodies[c.a];
        const SolverBody& b = data.bodies[c.b];
        for (int i = 0; i < c.pointCount; ++i) {
            ConstraintPoint& p = c.points[i];
            p.pushImpulse = 0.0f;
            const vec3 anchorA = c.anchorTurnsA ? rotate(a.orientation, p.anchorA) : p.anchorA;
            const vec3 anchorB = c.anchorTurnsB ? rotate(b.orientation, p.anchorB) : p.anchorB;
            const vec3 moved = b.deltaPosition - a.deltaPosition + anchorB - anchorA;
            p.separation = glm::dot(moved, c.normal) + p.adjustedSeparation;
        }
    }
}

void applyRestitution(ContactSolverData& data, float threshold) {
    for (ContactConstraint& c : data.constraints) {
        if (c.restitution == 0.0f) continue;
        SolverBody& a = data.bodies[c.a];
        SolverBody& b = data.bodies[c.b];
        for (int i = 0; i < c.pointCount; ++i) {
            ConstraintPoint& p = c.points[i];
            // Points that pushed this step after approaching faster than the
            // threshold, unless the first solve already treated them as a collision.
            if (p.collides || p.approachVelocity >= -threshold || p.stepNormalImpulse <= 0.0f) {
                continue;
            }
            p.restitutionTarget = -c.restitution * p.approachVelocity;
            const float normalVelocity = axisVelocity(a, b, c.normal, p.normal);
            const float total = std::max(p.normalImpulse - p.normal.mass * (normalVelocity - p.restitutionTarget), 0.0f);
            const float applied = total - p.normalImpulse;
            applyAlong(a, b, c.normal, p.normal, applied);
            p.normalImpulse = total;
            p.stepNormalImpulse += applied;
        }
    }
}

void finishContacts(ContactSolverData& data, std::vector<ContactManifold>& manifolds, std::vector<Body>& bodies) {
    for (size_t slot = 1; slot < data.bodies.size(); ++slot) {
        const SolverBody& solverBody = data.bodies[slot];
        Body& body = bodies[data.bodyOfSlot[slot]];
        body.linearVelocity = solverBody.linearVelocity;
        body.angularVelocity = solverBody.angularVelocity;
        body.position += solverBody.deltaPosition;
        body.orientation = solverBody.orientation;
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
            point.stepNormalImpulse = p.stepNormalImpulse;
            point.stepFrictionImpulse = p.stepFrictionImpulse;
            point.normalVelocityAfter = axisVelocity(a, b, c.normal, p.normal);
            point.targetVelocity = p.restitutionTarget;
            point.frictionBound = c.pointFriction[i] * p.stepNormalImpulse;
            // Friction held the point if it pushed and ends the step not sliding.
            const float slip0 = axisVelocity(a, b, c.tangent[0], p.tangent[0]);
            const float slip1 = axisVelocity(a, b, c.tangent[1], p.tangent[1]);
            point.sticking = p.stepNormalImpulse > 0.0f && slip0 * slip0 + slip1 * slip1 < kStickSpeed * kStickSpeed;
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
