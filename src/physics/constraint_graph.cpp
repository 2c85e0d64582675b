#include "physics/constraint_graph.h"

#include "physics/batch_lanes.h"
#include "physics/prefetch.h"

#include <algorithm>
#include <cstddef>

namespace impulse {

namespace {

constexpr int kColourCount = 64;  ///< one bit each in ContactSolverData::slotColours
constexpr int kOverflowColour = kColourCount;  ///< a constraint of a body with 64 colours taken: alone in its batch

/// The packing's sort key: by colour, then most points first, so that a
/// batch's lanes mostly have the same number of points.
uint32_t batchKey(int colour, int pointCount) {
    return uint32_t(colour * kMaxManifoldPoints + (kMaxManifoldPoints - pointCount));
}
int pointCountOfKey(uint32_t key) { return kMaxManifoldPoints - int(key % kMaxManifoldPoints); }

/// Where the packing put constraint m: its batch and its lane there.
struct PackedLane {
    size_t batch;
    int lane;
};
PackedLane packedLaneOf(const ContactSolverData& data, size_t m) {
    const uint32_t laneIndex = data.laneOfConstraint[m];
    return {laneIndex / kSimdWidth, int(laneIndex % kSimdWidth)};
}

void setLane(Lanes& lanes, int lane, float value) { lanes.v[lane] = value; }
void setLane(Lanes3& lanes, int lane, const vec3& value) {
    lanes.x.v[lane] = value.x;
    lanes.y.v[lane] = value.y;
    lanes.z.v[lane] = value.z;
}

}  // namespace

void buildContactBatches(ContactSolverData& data) {
    // Greedy colouring in manifold order; the static slot 0 never takes a colour.
    const size_t count = data.constraints.size();
    data.slotColours.assign(data.bodies.size(), 0);
    std::vector<uint32_t>& order = data.batchOrder;
    order.resize(count);
    // Counting sort by (colour, most points first): a batch's lanes then
    // mostly have the same number of points.
    constexpr int kKeys = (kColourCount + 1) * kMaxManifoldPoints;
    std::vector<uint32_t> keyOf(count);
    uint32_t bucketStart[kKeys + 1] = {};
    for (size_t m = 0; m < count; ++m) {
        if (m + kPrefetchRecordsAhead < count) {
            prefetchBytes(&data.constraints[m + kPrefetchRecordsAhead], offsetof(ContactConstraint, anchorTurnsA));
        }
        const ContactConstraint& c = data.constraints[m];
        const uint64_t used = data.slotColours[c.a] | data.slotColours[c.b];
        int colour = kOverflowColour;
        if (used != ~uint64_t(0)) {
            colour = __builtin_ctzll(~used);
            if (c.a != 0) data.slotColours[c.a] |= uint64_t(1) << colour;
            if (c.b != 0) data.slotColours[c.b] |= uint64_t(1) << colour;
        }
        keyOf[m] = batchKey(colour, c.pointCount);
        ++bucketStart[keyOf[m] + 1];
    }
    for (int k = 0; k < kKeys; ++k) bucketStart[k + 1] += bucketStart[k];
    for (size_t m = 0; m < count; ++m) order[bucketStart[keyOf[m]]++] = uint32_t(m);

    // The batches' layout follows from the sorted keys alone.
    data.batches.clear();
    data.colourStarts.clear();
    data.overflowFrom = ~size_t(0);
    data.laneOfConstraint.resize(count);
    data.lanePoints.clear();
    size_t pointTotal = 0;
    uint32_t lastColour = ~0u;
    for (size_t next = 0; next < count;) {
        const uint32_t colour = keyOf[order[next]] / kMaxManifoldPoints;
        if (colour != lastColour) {
            data.colourStarts.push_back(uint32_t(data.batches.size()));
            if (colour == kOverflowColour) data.overflowFrom = data.colourStarts.size() - 1;
            lastColour = colour;
        }
        ContactBatch& batch = data.batches.emplace_back();
        batch.firstPoint = uint32_t(pointTotal);
        batch.pointCount = pointCountOfKey(keyOf[order[next]]);
        pointTotal += size_t(batch.pointCount);
        const int laneCount = colour == kOverflowColour ? 1 : kSimdWidth;
        for (int lane = 0; lane < kSimdWidth; ++lane) {
            const bool filled = lane < laneCount && next < count && keyOf[order[next]] / kMaxManifoldPoints == colour;
            if (!filled) {
                data.lanePoints.push_back(0);  // and slot 0, the default, for A and B
                continue;
            }
            const uint32_t m = order[next++];
            data.laneOfConstraint[m] = uint32_t((data.batches.size() - 1) * kSimdWidth + size_t(lane));
            data.lanePoints.push_back(uint8_t(pointCountOfKey(keyOf[m])));
        }
    }
    data.colourStarts.push_back(uint32_t(data.batches.size()));
    data.deferredBatches.resize(data.batches.size());
    data.batchLandings.assign(data.batches.size(), BatchLandings{});
    // A lane whose manifold has fewer points keeps these zeros.
    data.batchPoints.assign(pointTotal, BatchPoint{});
    data.batchPointsOnce.assign(pointTotal, BatchPointOnce{});

    // The lanes are filled walking the constraints in memory order: in colour
    // order they are far apart, and at 16k bodies they come from memory, while
    // the batches are a few megabytes.
    for (size_t m = 0; m < count; ++m) {
        prefetchAhead(data.constraints, m);
        const ContactConstraint& c = data.constraints[m];
        const auto [batchIndex, lane] = packedLaneOf(data, m);
        ContactBatch& batch = data.batches[batchIndex];
        batch.a[lane] = c.a;
        batch.b[lane] = c.b;
        setLane(batch.normal, lane, c.normal);
        setLane(batch.tangent[0], lane, c.tangent[0]);
        setLane(batch.tangent[1], lane, c.tangent[1]);
        setLane(batch.anchorTurnsA, lane, laneMask(c.anchorTurnsA));
        setLane(batch.anchorTurnsB, lane, laneMask(c.anchorTurnsB));
        setLane(batch.supportA, lane, laneMask(c.supportA));
        setLane(batch.supportB, lane, laneMask(c.supportB));
        batch.supportsHeavy = batch.supportsHeavy || c.supportA || c.supportB;
        batch.tracksArrival = batch.tracksArrival || (c.mayLandPoints | c.mayImpactPoints) != 0;
        setLane(batch.landingLanes, lane, laneMask(c.mayLandPoints != 0));
        setLane(batch.friction, lane, c.friction);
        setLane(batch.staticFriction, lane, c.staticFriction);
        BatchPoint* points = &data.batchPoints[batch.firstPoint];
        BatchPointOnce* pointsOnce = &data.batchPointsOnce[batch.firstPoint];
        for (int i = 0; i < c.pointCount; ++i) {
            const ConstraintPoint& cp = pointOf(data, c, i);
            BatchPoint& p = points[i];
            BatchPointOnce& once = pointsOnce[i];
            setLane(p.rA, lane, cp.rA);
            setLane(p.rB, lane, cp.rB);
            setLane(once.anchorA, lane, cp.anchorA);
            setLane(once.anchorB, lane, cp.anchorB);
            setLane(once.adjustedSeparation, lane, cp.adjustedSeparation);
            setLane(p.separation, lane, cp.separation);
            setLane(p.normalImpulse, lane, cp.normalImpulse);
            setLane(p.tangentImpulse[0], lane, cp.tangentImpulse[0]);
            setLane(p.tangentImpulse[1], lane, cp.tangentImpulse[1]);
            setLane(once.stepNormalImpulse, lane, cp.stepNormalImpulse);
        }
    }

    // Static and empty lanes: the batch's own copy of slot 0 (see ContactSolverData::bodies).
    const SolverBody staticBody = data.bodies[0];
    const mat3 staticInverseInertia = data.inverseInertia[0];
    for (ContactBatch& batch : data.batches) {
        const auto isStatic = [](uint32_t slot) { return slot == 0; };
        if (std::none_of(std::begin(batch.a), std::end(batch.a), isStatic) &&
            std::none_of(std::begin(batch.b), std::end(batch.b), isStatic)) {
            continue;
        }
        const uint32_t copy = uint32_t(data.bodies.size());
        data.bodies.push_back(staticBody);
        data.inverseInertia.push_back(staticInverseInertia);
        std::replace(std::begin(batch.a), std::end(batch.a), 0u, copy);
        std::replace(std::begin(batch.b), std::end(batch.b), 0u, copy);
    }

    data.batchPointTurns.clear();
    const auto turnsWithL = [&](uint32_t slot) {
        return std::binary_search(data.gyroscopicSlots.begin(), data.gyroscopicSlots.end(), slot);
    };
    for (size_t k = 0; k < data.batches.size(); ++k) {
        ContactBatch& batch = data.batches[k];
        batch.followsTurn = std::any_of(std::begin(batch.a), std::end(batch.a), turnsWithL) ||
                            std::any_of(std::begin(batch.b), std::end(batch.b), turnsWithL);
        if (batch.followsTurn) {
            batch.firstTurns = uint32_t(data.batchPointTurns.size());
            data.batchPointTurns.resize(data.batchPointTurns.size() + size_t(batch.pointCount));
        }
        computeBatchAxes(data, batch, &data.lanePoints[k * kSimdWidth], &data.batchPoints[batch.firstPoint],
                         turnsOf(data, batch));
    }
}

void storeBatchImpulses(ContactSolverData& data) {
    // The batches' copies of slot 0 go: the stages after the sub-steps work by slot.
    data.bodies.resize(data.slotCount());
    data.inverseInertia.resize(data.slotCount());
    // In memory order, as the packing filled the lanes.
    data.deepestSeparation = 0.0f;
    for (size_t m = 0; m < data.constraints.size(); ++m) {
        prefetchAheadForWrite(data.constraints, m);
        ContactConstraint& c = data.constraints[m];
        const auto [batchIndex, lane] = packedLaneOf(data, m);
        const ContactBatch& batch = data.batches[batchIndex];
        const BatchPoint* points = &data.batchPoints[batch.firstPoint];
        const BatchPointOnce* pointsOnce = &data.batchPointsOnce[batch.firstPoint];
        c.deepestSeparation = 0.0f;
        for (int i = 0; i < c.pointCount; ++i) {
            const BatchPoint& p = points[i];
            const BatchPointOnce& once = pointsOnce[i];
            ConstraintPoint& cp = pointOf(data, c, i);
            cp.endSeparation = p.separation.v[lane];
            cp.arrivalVelocity = p.arrivalVelocity.v[lane];
            c.deepestSeparation = std::min(c.deepestSeparation, cp.endSeparation);
            cp.normalImpulse = p.normalImpulse.v[lane];
            cp.tangentImpulse[0] = p.tangentImpulse[0].v[lane];
            cp.tangentImpulse[1] = p.tangentImpulse[1].v[lane];
            // With the last sub-step's impulses (see beginSubStep). The tangents
            // are fixed for the step, so the sums along them add up to the vector.
            cp.stepNormalImpulse = once.stepNormalImpulse.v[lane] + cp.normalImpulse;
            cp.stepFrictionImpulse +=
                (once.stepTangentImpulse[0].v[lane] + cp.tangentImpulse[0]) * c.tangent[0] +
                (once.stepTangentImpulse[1].v[lane] + cp.tangentImpulse[1]) * c.tangent[1];
        }
        data.deepestSeparation = std::min(data.deepestSeparation, c.deepestSeparation);
    }
}

}  // namespace impulse
