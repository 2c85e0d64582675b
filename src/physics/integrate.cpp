#include "physics/integrate.h"

#include "physics/batch_lanes.h"
#include "physics/constants.h"

#include <algorithm>

namespace impulse {

namespace {

// glm's q * v, lane by lane: v + 2 (w (u x v) + u x (u x v)), u = (x, y, z).
Vec3W rotate(const FloatW q[4], const Vec3W& v) {
    const Vec3W u{q[0], q[1], q[2]};
    const Vec3W uv = cross(u, v);
    const Vec3W uuv = cross(u, uv);
    const FloatW two = splat(2.0f);
    return v + two * (q[3] * uv + uuv);
}

}  // namespace

namespace {

// The move over a sub-step of a body whose inertia is not isotropic: the
// L-preserving rotation, in double.
void integrateGyroscopicBody(SolverBody& solverBody, const Body& body, float h) {
    solverBody.deltaPosition += h * (solverBody.linearVelocity + solverBody.pushLinearVelocity);
    if (solverBody.pushAngularVelocity != vec3(0.0f)) {
        // The push turns the body and its spin with it: the spin's energy
        // depends on w in the body frame, and a w left behind by the turn
        // changes it.
        const quat before = solverBody.orientation;
        solverBody.orientation = rotateBy(before, solverBody.pushAngularVelocity, h);
        const quat turn = solverBody.orientation * glm::conjugate(before);
        solverBody.angularVelocity = impulse::rotate(turn, solverBody.angularVelocity);
    }
    rotateRigidBody(solverBody.orientation, solverBody.angularVelocity, body.inertiaBody, h);
    solverBody.pushLinearVelocity = vec3(0.0f);
    solverBody.pushAngularVelocity = vec3(0.0f);
    // After the turn: the L-preserving rotation recomputes w, which may exceed the limit.
    const float spin = glm::length(solverBody.angularVelocity);
    if (spin > solverBody.maxAngularSpeed) {
        solverBody.angularVelocity *= solverBody.maxAngularSpeed / spin;
        solverBody.spinClamped = 1.0f;
    }
}

// The same for kSimdWidth isotropic bodies at once: first-order quaternion
// step q + h/2 (0, w) q, renormalised, then the spin limit.
void integrateSolverBodies(std::vector<SolverBody>& bodies, const uint32_t* slots, float h) {
    BodyBlock velocity(bodies, slots, kVelocityBlock);
    BodyBlock push(bodies, slots, kPushBlock);
    BodyBlock pose(bodies, slots, kPoseBlock);
    const FloatW step = splat(h), halfStep = splat(0.5f * h), zero = splat(0.0f);
    const Vec3W moved = pose.first() + step * (velocity.first() + push.first());
    const Vec3W w = velocity.second() + push.second();
    FloatW* q = &pose.columns[3];  // x, y, z, w
    // (0, w) q, as glm multiplies quaternions.
    const FloatW spinX = w.x * q[3] + w.y * q[2] - w.z * q[1];
    const FloatW spinY = w.y * q[3] + w.z * q[0] - w.x * q[2];
    const FloatW spinZ = w.z * q[3] + w.x * q[1] - w.y * q[0];
    const FloatW spinW = -(w.x * q[0] + w.y * q[1] + w.z * q[2]);
    FloatW next[4] = {q[0] + halfStep * spinX, q[1] + halfStep * spinY, q[2] + halfStep * spinZ, q[3] + halfStep * spinW};
    const FloatW length = sqrt(next[0] * next[0] + next[1] * next[1] + next[2] * next[2] + next[3] * next[3]);
    // As glm::normalize: a zero quaternion becomes the identity (a NaN stays NaN).
    const FloatW normal = notEqual(length, zero);
    const FloatW inverseLength = splat(1.0f) / select(normal, length, splat(1.0f));
    for (int k = 0; k < 4; ++k) q[k] = select(normal, next[k] * inverseLength, splat(k == 3 ? 1.0f : 0.0f));
    pose.columns[0] = moved.x, pose.columns[1] = moved.y, pose.columns[2] = moved.z;
    pose.store();
    const Vec3W spin = velocity.second();
    const FloatW spinSquared = dot(spin, spin);
    FloatW& limit = push.columns[6];  // SolverBody::maxAngularSpeed
    FloatW& clamped = push.columns[7];  // SolverBody::spinClamped
    const FloatW capped = greater(spinSquared, limit * limit);
    const FloatW scale = select(capped, limit / sqrt(max(spinSquared, splat(kMinDivisor))), splat(1.0f));
    velocity.set(velocity.first(), scale * spin);
    velocity.store();
    clamped = select(capped, splat(1.0f), clamped);
    push.set(Vec3W{zero, zero, zero}, Vec3W{zero, zero, zero});
    push.store();
}

}  // namespace

void integrateVelocities(ContactSolverData& data, const vec3& gravity, float h, ThreadTeam& team, int member) {
    const ThreadTeam::Share slots = team.share(data.slotCount() - 1, member);
    for (size_t slot = 1 + slots.begin; slot < 1 + slots.end; ++slot) data.bodies[slot].linearVelocity += h * gravity;
    team.sync();
}

void integrateSolverPositions(ContactSolverData& data, const std::vector<Body>& bodies, float h,
                              ThreadTeam& team, int member) {
    // kSimdWidth bodies at a time. Every isotropic body takes the lane step,
    // whichever chunk it is in: the chunks depend on the width, and the result
    // must not. The others then move from their state before the chunk.
    const size_t slotCount = data.slotCount();
    const ThreadTeam::Share chunks = team.share((slotCount - 1 + kSimdWidth - 1) / kSimdWidth, member);
    // The slots of a list (ascending) from the member's first: each chunk takes those before its end.
    const auto fromFirstChunk = [&chunks](const std::vector<uint32_t>& slots) {
        return std::lower_bound(slots.begin(), slots.end(), uint32_t(1 + chunks.begin * kSimdWidth));
    };
    std::vector<uint32_t>::const_iterator gyroscopic = fromFirstChunk(data.gyroscopicSlots);
    std::vector<uint32_t>::const_iterator corner = fromFirstChunk(data.cornerSlots);
    SolverBody before[kSimdWidth];  // a chunk's bodies that are not isotropic, before the lane step
    float largestUncovered = 0.0f;
    for (size_t chunk = chunks.begin; chunk < chunks.end; ++chunk) {
        const size_t first = 1 + chunk * kSimdWidth;
        const size_t last = std::min(first + kSimdWidth, slotCount);
        // Lanes past the last body repeat it: the same values are stored twice.
        uint32_t slots[kSimdWidth];
        for (int lane = 0; lane < kSimdWidth; ++lane) slots[lane] = uint32_t(std::min(first + lane, last - 1));
        const std::vector<uint32_t>::const_iterator chunkGyroscopic = gyroscopic;
        while (gyroscopic != data.gyroscopicSlots.end() && *gyroscopic < last) ++gyroscopic;
        for (auto slot = chunkGyroscopic; slot != gyroscopic; ++slot) before[slot - chunkGyroscopic] = data.bodies[*slot];
        // How far the corners go beyond the turn the pass's contacts hold (its
        // start's spin). The spin, not the push-out's pseudo-velocities: those
        // turn a body only as far as an overlap it has contacts for needs (a
        // heap spawned overlapping took extra passes for them).
        for (; corner != data.cornerSlots.end() && *corner < last; ++corner) {
            const uint32_t slot = *corner;
            const SolverBody& body = data.bodies[slot];
            const float cornerSpeed = body.cornerRadius * glm::length(body.angularVelocity);
            float& uncovered = data.uncoveredSweep[slot];
            uncovered += h * std::max(cornerSpeed - data.coveredCornerSpeed[slot], 0.0f);
            largestUncovered = std::max(largestUncovered, uncovered);
        }
        // One call site: GCC then inlines the lane step, as it did before the chunks were split.
        integrateSolverBodies(data.bodies, slots, h);
        for (auto slot = chunkGyroscopic; slot != gyroscopic; ++slot) {
            SolverBody& solverBody = data.bodies[*slot];
            solverBody = before[slot - chunkGyroscopic];
            integrateGyroscopicBody(solverBody, bodies[data.bodyOfSlot[*slot]], h);
        }
    }
    data.largestUncoveredSweep[size_t(member)] = largestUncovered;
    team.sync();
    // A body whose inertia is not isotropic turns its tensor with it (see followsTurn).
    const ThreadTeam::Share turning = team.share(data.gyroscopicSlots.size(), member);
    for (size_t i = turning.begin; i < turning.end; ++i) {
        const uint32_t slot = data.gyroscopicSlots[i];
        const Body& body = bodies[data.bodyOfSlot[slot]];
        data.inverseInertia[slot] =
            worldInverseInertia(glm::mat3_cast(data.bodies[slot].orientation), body.inverseInertiaBody);
    }
    team.sync();
    // Separations now, from how far the bodies moved since the start of the
    // step; the relax sweep and the next solve both see these poses.
    const FloatW zero = splat(0.0f);
    const ThreadTeam::Share batches = team.share(data.batches.size(), member);
    for (size_t index = batches.begin; index < batches.end; ++index) {
        ContactBatch& batch = data.batches[index];
        BatchPoint* points = &data.batchPoints[batch.firstPoint];
        if (batch.followsTurn) {
            computeBatchAxes(data, batch, &data.lanePoints[index * kSimdWidth], points, turnsOf(data, batch));
        }
        const BodyBlock poseA(data.bodies, batch.a, kPoseBlock);
        const BodyBlock poseB(data.bodies, batch.b, kPoseBlock);
        const Vec3W moved = poseB.first() - poseA.first();
        const FloatW* orientationA = &poseA.columns[3];
        const FloatW* orientationB = &poseB.columns[3];
        const FloatW turnsA = load(batch.anchorTurnsA), turnsB = load(batch.anchorTurnsB);
        const Vec3W normal = load(batch.normal);
        const BatchPointOnce* pointsOnce = &data.batchPointsOnce[batch.firstPoint];
        for (int i = 0; i < batch.pointCount; ++i) {
            BatchPoint& p = points[i];
            const BatchPointOnce& once = pointsOnce[i];
            const Vec3W anchorA = load(once.anchorA), anchorB = load(once.anchorB);
            const Vec3W turnedA = select(turnsA, rotate(orientationA, anchorA), anchorA);
            const Vec3W turnedB = select(turnsB, rotate(orientationB, anchorB), anchorB);
            store(p.separation, dot(moved + turnedB - turnedA, normal) + load(once.adjustedSeparation));
            store(p.pushImpulse, zero);
        }
    }
    team.sync();
}

}  // namespace impulse
