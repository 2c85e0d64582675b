// Lane-parallel helpers of the stages that work on the packed batches (packing,
// warm start, sweeps, move): a batch's bodies loaded and stored by transposes,
// its effective masses and turn vectors. Internal to those units, and kept in
// one translation unit each (an anonymous namespace) so that the hot loops
// inline them as they did when the solver was one file.
#pragma once

#include "physics/constants.h"
#include "physics/solver_data.h"

#include <cstddef>
#include <cstring>
#include <utility>
#include <vector>

namespace impulse {
namespace {

// The per-batch bodies of the colour walks; GCC declines to inline them on its own.
#define IMPULSE_INLINE_LAMBDA __attribute__((always_inline))

// All bits set: a lane mask that select() reads as true.
[[maybe_unused]] float laneMask(bool on) {
    const uint32_t bits = on ? ~uint32_t(0) : 0;
    float mask;
    std::memcpy(&mask, &bits, sizeof mask);
    return mask;
}

// A world inverse inertia per lane; m[c][r] is column c, row r, as in glm.
struct Mat3W {
    FloatW m[3][3];
};
[[maybe_unused]] Vec3W operator*(const Mat3W& a, const Vec3W& v) {
    return {a.m[0][0] * v.x + a.m[1][0] * v.y + a.m[2][0] * v.z, a.m[0][1] * v.x + a.m[1][1] * v.y + a.m[2][1] * v.z,
            a.m[0][2] * v.x + a.m[1][2] * v.y + a.m[2][2] * v.z};
}
[[maybe_unused]] Mat3W gatherInverseInertia(const std::vector<mat3>& inverseInertia, const uint32_t* slots) {
    Lanes staged[3][3];
    for (int lane = 0; lane < kSimdWidth; ++lane) {
        const mat3& m = inverseInertia[slots[lane]];
        for (int c = 0; c < 3; ++c) {
            for (int r = 0; r < 3; ++r) staged[c][r].v[lane] = m[c][r];
        }
    }
    Mat3W out;
    for (int c = 0; c < 3; ++c) {
        for (int r = 0; r < 3; ++r) out.m[c][r] = load(staged[c][r]);
    }
    return out;
}

struct AxisW {
    Vec3W rAxD, rBxD, turnA, turnB;
    FloatW mass;
};

// The wide ConstraintAxis of direction d; `present` masks lanes that have
// this point (the others get zero mass, so they solve to zero impulses).
[[maybe_unused]] AxisW computeAxis(const Vec3W& rA, const Vec3W& rB, const Vec3W& d, const Mat3W& inverseInertiaA,
                  const Mat3W& inverseInertiaB, FloatW inverseMasses, FloatW present) {
    AxisW axis;
    axis.rAxD = cross(rA, d);
    axis.rBxD = cross(rB, d);
    axis.turnA = inverseInertiaA * axis.rAxD;
    axis.turnB = inverseInertiaB * axis.rBxD;
    const FloatW k = inverseMasses + dot(axis.rAxD, axis.turnA) + dot(axis.rBxD, axis.turnB);
    const FloatW zero = splat(0.0f);
    // max() keeps lanes with k = 0 (an empty lane) from dividing by zero.
    const FloatW mass = select(greater(k, zero), splat(1.0f) / max(k, splat(kMinDivisor)), zero);
    axis.mass = select(present, mass, zero);
    return axis;
}

// A batch's turn vectors I^-1 (r x d): the scalar inverse inertia times r x d,
// or the stored BatchPointTurns in a batch that follows the turn. The warm
// start keeps the scalar form for isotropic lanes there: its sum over three
// directions rounds otherwise, and which batches follow depends on the width.
struct TurnSource {
    const BatchPointTurns* turns;  ///< the batch's first point's, or null
    FloatW inverseInertiaA, inverseInertiaB;  ///< 0 in a lane whose body is not isotropic (or static)
    AxisW axis(const Vec3W& rAxD, const Vec3W& rBxD, FloatW mass, int point, int direction) const {
        // No per-lane choice here: it costs the sweeps' loop its registers.
        if (turns != nullptr) {
            const BatchPointTurns& t = turns[point];
            return {rAxD, rBxD, load(t.turnA[direction]), load(t.turnB[direction]), mass};
        }
        return {rAxD, rBxD, inverseInertiaA * rAxD, inverseInertiaB * rBxD, mass};
    }
    /// What the point's impulses (normal and tangent, together `impulse`) do to
    /// A's and B's angular velocities, before the minus for A: I^-1 (r x impulse).
    std::pair<Vec3W, Vec3W> turnsBy(const BatchPoint& p, int point, const Vec3W& impulse,
                                    FloatW normalImpulse, FloatW tangentImpulse0,
                                    FloatW tangentImpulse1) const {
        if (turns != nullptr) {
            const BatchPointTurns& t = turns[point];
            const Vec3W tensorA = normalImpulse * load(t.turnA[0]) + tangentImpulse0 * load(t.turnA[1]) +
                                  tangentImpulse1 * load(t.turnA[2]);
            const Vec3W tensorB = normalImpulse * load(t.turnB[0]) + tangentImpulse0 * load(t.turnB[1]) +
                                  tangentImpulse1 * load(t.turnB[2]);
            return {select(isotropic(inverseInertiaA), inverseInertiaA * cross(load(p.rA), impulse), tensorA),
                    select(isotropic(inverseInertiaB), inverseInertiaB * cross(load(p.rB), impulse), tensorB)};
        }
        return {inverseInertiaA * cross(load(p.rA), impulse), inverseInertiaB * cross(load(p.rB), impulse)};
    }
    static FloatW isotropic(FloatW inverseInertia) { return greater(inverseInertia, splat(0.0f)); }
};

[[maybe_unused]] BatchPointTurns* turnsOf(ContactSolverData& data, const ContactBatch& batch) {
    return batch.followsTurn ? &data.batchPointTurns[batch.firstTurns] : nullptr;
}

// One 8-float block of each lane's body, transposed: columns 0-2 and 3-5 are
// two vectors (velocity and angular velocity, or their push counterparts).
// No two lanes of a batch share a dynamic body, nor two batches that members
// run at once a slot (the overflow colour's run on one member; static lanes
// have their batch's own copy, ContactSolverData::bodies): the stores race
// with nothing.
struct BodyBlock {
    float* rows[kSimdWidth];
    FloatW columns[8];
    BodyBlock(std::vector<SolverBody>& bodies, const uint32_t* slots, size_t offset) {
        for (int lane = 0; lane < kSimdWidth; ++lane) {
            rows[lane] = reinterpret_cast<float*>(reinterpret_cast<char*>(&bodies[slots[lane]]) + offset);
        }
        transposeLoad(rows, columns);
    }
    Vec3W first() const { return {columns[0], columns[1], columns[2]}; }
    Vec3W second() const { return {columns[3], columns[4], columns[5]}; }
    void set(const Vec3W& first, const Vec3W& second) {
        columns[0] = first.x, columns[1] = first.y, columns[2] = first.z;
        columns[3] = second.x, columns[4] = second.y, columns[5] = second.z;
    }
    void store() { transposeStore(rows, columns); }
};
static_assert(offsetof(SolverBody, linearVelocity) == 0 && offsetof(SolverBody, angularVelocity) == 12 &&
                  offsetof(SolverBody, inverseMass) == 24 && offsetof(SolverBody, inverseInertia) == 28,
              "velocity block: v, w, 1/m, scalar I^-1");
static_assert(offsetof(SolverBody, pushLinearVelocity) == 32 && offsetof(SolverBody, pushAngularVelocity) == 44 &&
                  offsetof(SolverBody, maxAngularSpeed) == 56 && offsetof(SolverBody, spinClamped) == 60,
              "push block: v, w, spin limit, clamped flag");
static_assert(offsetof(SolverBody, deltaPosition) == 64 && offsetof(SolverBody, orientation) == 76,
              "pose block: delta position, orientation x y z w");
static_assert(sizeof(SolverBody) == 96, "three blocks of 8 floats");
constexpr size_t kVelocityBlock = offsetof(SolverBody, linearVelocity);
constexpr size_t kPushBlock = offsetof(SolverBody, pushLinearVelocity);
constexpr size_t kPoseBlock = offsetof(SolverBody, deltaPosition);

// Effective masses and Jacobians of a packed batch, lane-parallel, with the
// lever arms of the start of the step. lanePoints: each lane's point count.
// Out of line: inlined into the move it costs that loop its registers.
[[maybe_unused]] __attribute__((noinline)) void computeBatchAxes(const ContactSolverData& data,
                                                                 const ContactBatch& batch, const uint8_t* lanePoints,
                                                                 BatchPoint* points, BatchPointTurns* turns) {
    const Mat3W inverseInertiaA = gatherInverseInertia(data.inverseInertia, batch.a);
    const Mat3W inverseInertiaB = gatherInverseInertia(data.inverseInertia, batch.b);
    Lanes inverseMassSums;  // 1/m_A + 1/m_B
    for (int lane = 0; lane < kSimdWidth; ++lane) {
        inverseMassSums.v[lane] = data.bodies[batch.a[lane]].inverseMass + data.bodies[batch.b[lane]].inverseMass;
    }
    const FloatW inverseMasses = load(inverseMassSums);
    const Vec3W normal = load(batch.normal), tangent0 = load(batch.tangent[0]), tangent1 = load(batch.tangent[1]);
    for (int i = 0; i < batch.pointCount; ++i) {
        Lanes present;
        for (int lane = 0; lane < kSimdWidth; ++lane) present.v[lane] = laneMask(i < lanePoints[lane]);
        BatchPoint& p = points[i];
        const Vec3W ra = load(p.rA), rb = load(p.rB);
        const FloatW mask = load(present);
        // k_n = 1/m_A + 1/m_B + n.[(I_A^-1 (r_A x n)) x r_A] + n.[(I_B^-1 (r_B x n)) x r_B]
        const auto axisAlong = [&](const Vec3W& d) {
            return computeAxis(ra, rb, d, inverseInertiaA, inverseInertiaB, inverseMasses, mask);
        };
        const AxisW axes[3] = {axisAlong(normal), axisAlong(tangent0), axisAlong(tangent1)};
        store(p.rAxN, axes[0].rAxD);
        store(p.rBxN, axes[0].rBxD);
        store(p.normalMass, axes[0].mass);
        store(p.tangentMass[0], axes[1].mass);
        store(p.tangentMass[1], axes[2].mass);
        for (int d = 0; d < 3 && turns != nullptr; ++d) {
            store(turns[i].turnA[d], axes[d].turnA);
            store(turns[i].turnB[d], axes[d].turnB);
        }
    }
}

}  // namespace
}  // namespace impulse
