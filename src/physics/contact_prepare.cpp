#include "physics/contact_prepare.h"

#include "physics/constants.h"
#include "physics/impact.h"
#include "physics/prefetch.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace impulse {

namespace {

// Whether a point began the pass touching (within kPositionSlop either way:
// not a deep overlap being pushed apart) and still (closing slower than kStickSpeed).
bool restsInContact(float separation, float normalVelocity) {
    return std::fabs(separation) <= kPositionSlop && std::fabs(normalVelocity) <= kStickSpeed;
}

constexpr uint32_t kUnsupported = ~0u;

/// The lever arm from a body's centre to a point of its manifold, `out` the normal away
/// from the body. A sphere's goes to its surface along the normal whatever the point:
/// that is where a sphere touches (a sphere pair turned to its line of centres at
/// arrival, aimSpheresAtArrival, has its point off today's line, where an arm to it
/// would turn the spheres; from the midpoint of a gap, the sub-steps' friction turned a
/// landing ball too much). A box's goes to the point (surfaceArms moves it to the box's
/// surface for the impacts).
vec3 armTo(const Body& body, const vec3& toPoint, const vec3& out) {
    return body.shape.type == ShapeType::Sphere ? body.shape.radius * out : toPoint;
}

// The support levels of the contact graph: 0 for the static slot, 1 for a body
// touching a static body, and so on (breadth first over manifolds with a point
// within kSupportContactDistance); kUnsupported for a body with no chain of touching contacts
// down to a static body.
void computeSupportLevels(ContactSolverData& data, const std::vector<ContactManifold>& manifolds) {
    const size_t slotCount = data.bodies.size();
    std::vector<uint32_t>& start = data.supportEdgeStart;
    std::vector<uint32_t>& edges = data.supportEdges;
    start.assign(slotCount + 1, 0);
    std::vector<uint8_t> touching(manifolds.size(), 0);
    for (size_t m = 0; m < manifolds.size(); ++m) {
        const ContactManifold& manifold = manifolds[m];
        for (int i = 0; i < manifold.pointCount; ++i) touching[m] |= manifold.points[i].separation <= kSupportContactDistance;
        if (!touching[m]) continue;
        ++start[data.constraints[m].a + 1];
        ++start[data.constraints[m].b + 1];
    }
    for (size_t slot = 0; slot < slotCount; ++slot) start[slot + 1] += start[slot];
    edges.resize(start[slotCount]);
    std::vector<uint32_t> fill(start.begin(), start.end() - 1);
    for (size_t m = 0; m < manifolds.size(); ++m) {
        if (!touching[m]) continue;
        const ContactConstraint& c = data.constraints[m];
        edges[fill[c.a]++] = c.b;
        edges[fill[c.b]++] = c.a;
    }
    std::vector<uint32_t>& level = data.supportLevel;
    level.assign(slotCount, kUnsupported);
    level[0] = 0;
    std::vector<uint32_t> queue{0};
    for (size_t head = 0; head < queue.size(); ++head) {
        const uint32_t slot = queue[head];
        for (uint32_t e = start[slot]; e < start[slot + 1]; ++e) {
            const uint32_t next = edges[e];
            if (level[next] != kUnsupported) continue;
            level[next] = level[slot] + 1;
            queue.push_back(next);
        }
    }
}

}  // namespace

void prepareContacts(std::vector<ContactManifold>& manifolds, const std::vector<Body>& bodies,
                     const std::vector<uint32_t>* passBodies, float restitutionThreshold, const vec3& gravity,
                     float dt, ContactSolverData& data) {
    // Solver slots: 0 is shared by every static or sleeping body (zero inverse mass, at rest).
    data.bodies.assign(1, SolverBody{});
    data.bodyOfSlot.assign(1, 0);
    data.inverseInertia.assign(1, mat3(0.0f));
    data.coveredCornerSpeed.assign(1, 0.0f);
    data.slotOfBody.assign(bodies.size(), 0);
    data.gyroscopicSlots.clear();
    data.cornerSlots.clear();
    const size_t candidates = passBodies ? passBodies->size() : bodies.size();
    for (size_t k = 0; k < candidates; ++k) {
        const uint32_t i = passBodies ? (*passBodies)[k] : uint32_t(k);
        const Body& body = bodies[i];
        if (!body.isAlive() || !body.isSimulated()) continue;
        const uint32_t slot = static_cast<uint32_t>(data.bodies.size());
        data.slotOfBody[i] = slot;
        data.bodyOfSlot.push_back(i);
        SolverBody solverBody;
        solverBody.linearVelocity = body.linearVelocity;
        solverBody.inverseMass = body.inverseMass;
        solverBody.angularVelocity = body.angularVelocity;
        solverBody.orientation = body.orientation;
        solverBody.maxAngularSpeed = maxAngularSpeed(body.shape);
        solverBody.cornerRadius = turnsCorners(body.shape) ? boundingRadius(body.shape) : 0.0f;
        if (body.hasIsotropicInertia()) solverBody.inverseInertia = body.inverseInertiaBody[0][0];
        data.bodies.push_back(solverBody);
        data.inverseInertia.push_back(body.inverseInertiaWorld);
        data.coveredCornerSpeed.push_back(solverBody.cornerRadius * glm::length(body.angularVelocity));
        if (!body.hasIsotropicInertia()) data.gyroscopicSlots.push_back(slot);
        if (solverBody.cornerRadius != 0.0f) data.cornerSlots.push_back(slot);
    }
    data.uncoveredSweep.assign(data.bodies.size(), 0.0f);

    data.constraints.resize(manifolds.size());
    // Room for every point a manifold may have, so that the loop below only
    // counts: growing the array point by point cost a size check a point.
    if (data.constraintPoints.size() < manifolds.size() * kMaxManifoldPoints) {
        data.constraintPoints.resize(manifolds.size() * kMaxManifoldPoints);
    }
    uint32_t pointTotal = 0;
    data.impactSeeds.clear();
    data.impactMeasures.clear();
    data.mayImpactConstraints.clear();
    data.supportsHeavy = false;
    const float gravityLength = glm::length(gravity);
    const float impactAbove = impactSpeed(restitutionThreshold, gravity, dt);
    data.landingSpeed = 0.5f * impactAbove;
    const float mayImpactBelow = gravityLength * dt - impactAbove;
    const float mayLandBelow = gravityLength * dt - data.landingSpeed;
    const vec3 up = gravityLength > 0.0f ? -gravity / gravityLength : vec3(0.0f);
    for (size_t m = 0; m < manifolds.size(); ++m) {
        if (const ContactManifold* ahead = recordToPrefetchThrough(manifolds, m)) prefetchBody(bodies[ahead->b]);
        prefetchAhead(manifolds, m);
        prefetchAheadForWrite(data.constraints, m);
        ContactManifold& manifold = manifolds[m];
        ContactConstraint& constraint = data.constraints[m];
        const Body& a = bodies[manifold.a];
        const Body& b = bodies[manifold.b];
        const vec3& n = manifold.normal;
        // From each centre to the point (the anchors carry it), and the lever arms.
        vec3 carriedA[kMaxManifoldPoints], carriedB[kMaxManifoldPoints];
        vec3 armsA[kMaxManifoldPoints], armsB[kMaxManifoldPoints];
        // Friction directions: along the sliding direction when sliding, so that
        // kinetic friction opposes the motion exactly; a fixed basis otherwise.
        vec3 velocities[kMaxManifoldPoints];  // v_B - v_A at each point
        vec3 slip(0.0f);
        for (int i = 0; i < manifold.pointCount; ++i) {
            const ContactPoint& point = manifold.points[i];
            carriedA[i] = point.point - a.position;
            carriedB[i] = point.point - b.position;
            armsA[i] = armTo(a, carriedA[i], n);
            armsB[i] = armTo(b, carriedB[i], -n);
            velocities[i] = (b.linearVelocity + glm::cross(b.angularVelocity, armsB[i])) -
                            (a.linearVelocity + glm::cross(a.angularVelocity, armsA[i]));
            slip += velocities[i];
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
        constraint.friction = manifold.friction;
        constraint.staticFriction = manifold.staticFriction;
        constraint.anchorTurnsA = a.isDynamic() && a.shape.type == ShapeType::Box;
        constraint.anchorTurnsB = b.isDynamic() && b.shape.type == ShapeType::Box;
        const float rise = glm::dot(n, up);  // > 0: B above A
        constraint.supportA = a.isDynamic() && b.isDynamic() && rise >= kSupportNormalCos &&
                              b.mass >= kSupportMassRatio * a.mass;
        constraint.supportB = a.isDynamic() && b.isDynamic() && -rise >= kSupportNormalCos &&
                              a.mass >= kSupportMassRatio * b.mass;
        data.supportsHeavy = data.supportsHeavy || constraint.supportA || constraint.supportB;
        constraint.normal = n;
        constraint.tangent[0] = manifold.tangent[0];
        constraint.tangent[1] = manifold.tangent[1];
        constraint.pointCount = manifold.pointCount;
        constraint.firstPoint = pointTotal;
        pointTotal += uint32_t(manifold.pointCount);
        constraint.mayLandPoints = 0;
        // Only a box landing on a static or kinematic body (the ground, a ramp)
        // is solved as a landing: a sphere's single point is settled by its
        // first solve, and landings on dynamic bodies, all the time in a
        // tumbling pile, made pile1000 3 % slower for no case a test sees.
        // And only a manifold that carried no load last step: a box pressed
        // into the ground by a heavy body above, landing sub-step after
        // sub-step and started cold each time, sank up to 11 cm in the soak
        // (13 cm when only its loaded points could not land).
        const auto loaded = [&manifold] {
            for (int i = 0; i < manifold.pointCount; ++i) {
                if (manifold.points[i].normalImpulse > 0.0f) return true;
            }
            return false;
        };
        const bool mayLand =
            ((constraint.anchorTurnsA && !b.isDynamic()) || (constraint.anchorTurnsB && !a.isDynamic())) && !loaded();
        constraint.mayImpactPoints = 0;
        constraint.stillPoints = 0;
        for (int i = 0; i < manifold.pointCount; ++i) {
            ContactPoint& point = manifold.points[i];
            ConstraintPoint& cp = pointOf(data, constraint, i);
            cp.rA = armsA[i];
            cp.rB = armsB[i];
            // The anchors carry the point itself, whatever the arms: both bodies' meet there at
            // the start of the step, as the sub-steps' separations and the position passes assume.
            // r R = R^T r: into the body frame.
            cp.anchorA = constraint.anchorTurnsA ? carriedA[i] * a.rotation : carriedA[i];
            cp.anchorB = constraint.anchorTurnsB ? carriedB[i] * b.rotation : carriedB[i];
            cp.adjustedSeparation = point.separation - glm::dot(carriedB[i] - carriedA[i], n);
            cp.separation = point.separation;
            const float normalVelocity = glm::dot(velocities[i], n);
            point.normalVelocityBefore = normalVelocity;
            // A touching point approaching faster than the threshold is a
            // bounce now. One that may arrive faster than the impact speed
            // (the landing speed, where it may land) is tracked in the
            // sub-steps, and gets its impact when it arrives
            // (findArrivals), not early: one too slow to bounce, stopped here,
            // would hover up to kTouchingDistance above where it lands.
            if (normalVelocity < -restitutionThreshold && point.separation <= kTouchingDistance) {
                data.impactSeeds.push_back({uint32_t(m), i, normalVelocity});
            } else if (normalVelocity < (mayLand ? mayLandBelow : mayImpactBelow) &&
                       !restsInContact(point.separation, normalVelocity)) {
                // Gravity may speed an approach up by g dt before it arrives. A
                // point resting in contact does not arrive, whatever the threshold
                // (below g dt every point would be watched): pushed in the
                // sub-steps along a row that an arrival struck, it is part of that
                // impact (takeBackPassedPushes), not an arrival of its own.
                if (mayLand) constraint.mayLandPoints |= uint8_t(1u << i);
                if (normalVelocity < mayImpactBelow) constraint.mayImpactPoints |= uint8_t(1u << i);
            }
            cp.restitutionTarget = 0.0f;
            cp.normalImpulse = point.normalImpulse;
            if (point.normalImpulse == 0.0f && restsInContact(point.separation, normalVelocity)) {
                constraint.stillPoints |= uint8_t(1u << i);
            }
            // Last step's friction, a world vector, seen in today's tangent directions.
            cp.tangentImpulse[0] = glm::dot(point.frictionImpulse, manifold.tangent[0]);
            cp.tangentImpulse[1] = glm::dot(point.frictionImpulse, manifold.tangent[1]);
            cp.stepNormalImpulse = 0.0f;
            cp.stepFrictionImpulse = vec3(0.0f);
            cp.arrivalVelocity = 0.0f;
            cp.impactNormalImpulse = 0.0f;
            cp.impactFrictionImpulse = vec3(0.0f);
            cp.impactSticking = false;
        }
        if (constraint.mayImpactPoints != 0) data.mayImpactConstraints.push_back(uint32_t(m));
    }
    // A heavy body rests on a light one only where the light one is lower in
    // the contact graph: a light body sliding into the foot of a heavy one
    // lying on the ground does not hold it up.
    if (!data.supportsHeavy) return;
    computeSupportLevels(data, manifolds);
    data.supportsHeavy = false;
    for (ContactConstraint& c : data.constraints) {
        const uint32_t levelA = data.supportLevel[c.a], levelB = data.supportLevel[c.b];
        c.supportA = c.supportA && levelA < levelB;
        c.supportB = c.supportB && levelB < levelA;
        data.supportsHeavy = data.supportsHeavy || c.supportA || c.supportB;
    }
}

}  // namespace impulse
