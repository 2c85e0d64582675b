#include "physics/contact_solver.h"

#include "physics/constants.h"
#include "physics/prefetch.h"

#include <glm/gtc/constants.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <utility>

namespace impulse {
namespace {

// n.[(I^-1 (r x n)) x r]: how much of a unit impulse along n turns into
// velocity along n at the point through rotation.
float angularTerm(const mat3& inverseInertia, const vec3& r, const vec3& n) {
    return glm::dot(n, glm::cross(inverseInertia * glm::cross(r, n), r));
}

}  // namespace

EffectiveMassTerms effectiveMassTerms(const ContactManifold& manifold, const ContactPointReport& p, const Body& a,
                                      const Body& b) {
    EffectiveMassTerms terms;
    terms.angularTermA = angularTerm(a.inverseInertiaWorld, p.rA, manifold.normal);
    terms.angularTermB = angularTerm(b.inverseInertiaWorld, p.rB, manifold.normal);
    const auto mass = [&](float angularA, float angularB) {
        const float k = a.inverseMass + b.inverseMass + angularA + angularB;
        return k > 0.0f ? 1.0f / k : 0.0f;
    };
    terms.normalMass = mass(terms.angularTermA, terms.angularTermB);
    for (int t = 0; t < 2; ++t) {
        const vec3& d = manifold.tangent[t];
        terms.tangentMass[t] =
            mass(angularTerm(a.inverseInertiaWorld, p.rA, d), angularTerm(b.inverseInertiaWorld, p.rB, d));
    }
    return terms;
}

void initManifold(ContactManifold& out, const Manifold& manifold, const ContactManifold* previous,
                  bool warmStarting) {
    out.normal = manifold.normal;
    out.pointCount = manifold.pointCount;
    for (int i = 0; i < manifold.pointCount; ++i) {
        const ManifoldPoint& source = manifold.points[i];
        ContactPoint& point = out.points[i];
        point = ContactPoint{};
        point.id = source.id;
        point.point = source.point;
        point.separation = source.separation;
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
        if (match == nullptr || !warmStarting) continue;
        point.normalImpulse = match->normalImpulse;
        // Keep only the part of last step's friction that lies in today's tangent plane.
        point.frictionImpulse = match->frictionImpulse - glm::dot(match->frictionImpulse, out.normal) * out.normal;
        point.warmStarted = true;
    }
}

namespace {

// The per-batch bodies of the colour walks; GCC declines to inline them on its own.
#define IMPULSE_INLINE_LAMBDA __attribute__((always_inline))

constexpr uint32_t kUnsupported = ~0u;

// The support levels of the contact graph: 0 for the static slot, 1 for a body
// touching a static body, and so on (breadth first over manifolds with a point
// within the slop); kUnsupported for a body with no chain of touching contacts
// down to a static body.
void computeSupportLevels(ContactSolverData& data, const std::vector<ContactManifold>& manifolds) {
    const size_t slotCount = data.bodies.size();
    std::vector<uint32_t>& start = data.supportEdgeStart;
    std::vector<uint32_t>& edges = data.supportEdges;
    start.assign(slotCount + 1, 0);
    std::vector<uint8_t> touching(manifolds.size(), 0);
    for (size_t m = 0; m < manifolds.size(); ++m) {
        const ContactManifold& manifold = manifolds[m];
        for (int i = 0; i < manifold.pointCount; ++i) touching[m] |= manifold.points[i].separation <= kLinearSlop;
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
                     float restitutionThreshold, const vec3& gravity, float dt, ContactSolverData& data) {
    // Solver slots: 0 is shared by every static or sleeping body (zero inverse mass, at rest).
    data.bodies.assign(1, SolverBody{});
    data.bodyOfSlot.assign(1, 0);
    data.inverseInertia.assign(1, mat3(0.0f));
    data.slotOfBody.assign(bodies.size(), 0);
    data.gyroscopicSlots.clear();
    for (size_t i = 0; i < bodies.size(); ++i) {
        const Body& body = bodies[i];
        if (!body.isAlive() || !body.isSimulated()) continue;
        const uint32_t slot = static_cast<uint32_t>(data.bodies.size());
        data.slotOfBody[i] = slot;
        data.bodyOfSlot.push_back(static_cast<uint32_t>(i));
        SolverBody solverBody;
        solverBody.linearVelocity = body.linearVelocity;
        solverBody.inverseMass = body.inverseMass;
        solverBody.angularVelocity = body.angularVelocity;
        solverBody.orientation = body.orientation;
        if (body.hasIsotropicInertia()) solverBody.inverseInertia = body.inverseInertiaBody[0][0];
        data.bodies.push_back(solverBody);
        data.inverseInertia.push_back(body.inverseInertiaWorld);
        if (!body.hasIsotropicInertia()) data.gyroscopicSlots.push_back(slot);
    }

    data.constraints.resize(manifolds.size());
    // Room for every point a manifold may have, so that the loop below only
    // counts: growing the array point by point showed in pile1000's profile.
    if (data.constraintPoints.size() < manifolds.size() * kMaxManifoldPoints) {
        data.constraintPoints.resize(manifolds.size() * kMaxManifoldPoints);
    }
    uint32_t pointTotal = 0;
    data.impactSeeds.clear();
    data.mayImpactConstraints.clear();
    data.supportsHeavy = false;
    const float gravityLength = glm::length(gravity);
    // Gravity may speed an approach up by g dt before it arrives.
    const float mayArriveBelow = gravityLength * dt - restitutionThreshold;
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
        // Friction directions: along the sliding direction when sliding, so that
        // kinetic friction opposes the motion exactly; a fixed basis otherwise.
        vec3 velocities[kMaxManifoldPoints];  // v_B - v_A at each point
        vec3 slip(0.0f);
        for (int i = 0; i < manifold.pointCount; ++i) {
            const ContactPoint& point = manifold.points[i];
            velocities[i] = b.velocityAt(point.point) - a.velocityAt(point.point);
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
        constraint.mayImpactPoints = 0;
        for (int i = 0; i < manifold.pointCount; ++i) {
            ContactPoint& point = manifold.points[i];
            ConstraintPoint& cp = pointOf(data, constraint, i);
            cp.rA = point.point - a.position;
            cp.rB = point.point - b.position;
            // r R = R^T r: into the body frame.
            cp.anchorA = constraint.anchorTurnsA ? cp.rA * a.rotation : cp.rA;
            cp.anchorB = constraint.anchorTurnsB ? cp.rB * b.rotation : cp.rB;
            cp.adjustedSeparation = point.separation - glm::dot(cp.rB - cp.rA, n);
            cp.separation = point.separation;
            const float normalVelocity = glm::dot(velocities[i], n);
            point.normalVelocityBefore = normalVelocity;
            // A touching point approaching faster than the threshold is an
            // impact now; one still short of contact that may arrive faster
            // than it gets its impact when it arrives (findArrivals), not early.
            if (normalVelocity < -restitutionThreshold && point.separation <= kLinearSlop) {
                data.impactSeeds.push_back({uint32_t(m), i, normalVelocity});
            } else if (normalVelocity < mayArriveBelow) {
                constraint.mayImpactPoints |= uint8_t(1u << i);
            }
            cp.restitutionTarget = 0.0f;
            cp.normalImpulse = point.normalImpulse;
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

// ---------------------------------------------------------------- batches

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

// All bits set: a lane mask that select() reads as true.
float laneMask(bool on) {
    const uint32_t bits = on ? ~uint32_t(0) : 0;
    float mask;
    std::memcpy(&mask, &bits, sizeof mask);
    return mask;
}

// A world inverse inertia per lane; m[c][r] is column c, row r, as in glm.
struct Mat3W {
    FloatW m[3][3];
};
Vec3W operator*(const Mat3W& a, const Vec3W& v) {
    return {a.m[0][0] * v.x + a.m[1][0] * v.y + a.m[2][0] * v.z, a.m[0][1] * v.x + a.m[1][1] * v.y + a.m[2][1] * v.z,
            a.m[0][2] * v.x + a.m[1][2] * v.y + a.m[2][2] * v.z};
}
Mat3W gatherInverseInertia(const std::vector<mat3>& inverseInertia, const uint32_t* slots) {
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
AxisW computeAxis(const Vec3W& rA, const Vec3W& rB, const Vec3W& d, const Mat3W& inverseInertiaA,
                  const Mat3W& inverseInertiaB, FloatW inverseMasses, FloatW present) {
    AxisW axis;
    axis.rAxD = cross(rA, d);
    axis.rBxD = cross(rB, d);
    axis.turnA = inverseInertiaA * axis.rAxD;
    axis.turnB = inverseInertiaB * axis.rBxD;
    const FloatW k = inverseMasses + dot(axis.rAxD, axis.turnA) + dot(axis.rBxD, axis.turnB);
    const FloatW zero = splat(0.0f);
    // max() keeps lanes with k = 0 (an empty lane) from dividing by zero.
    const FloatW mass = select(greater(k, zero), splat(1.0f) / max(k, splat(1e-30f)), zero);
    axis.mass = select(present, mass, zero);
    return axis;
}

// Where a batch's turn vectors I^-1 (r x d) come from: the bodies' scalar
// inverse inertia times r x d (an isotropic body's world tensor is that scalar
// times the identity exactly, worldInverseInertia), or in a batch holding a
// body whose inertia is not isotropic (ContactBatch::followsTurn) its
// BatchPointTurns. There the sweeps read the stored vectors for every lane
// (an isotropic lane's equal the scalar form up to the sign of a zero), but the
// warm start sums them over three directions, which rounds otherwise than the
// scalar form: an isotropic lane takes the scalar form there, whatever the
// width put into its batch.
struct TurnSource {
    const BatchPointTurns* turns;  ///< the batch's first point's, or null
    FloatW inverseInertiaA, inverseInertiaB;  ///< 0 in a lane whose body is not isotropic (or static)
    AxisW axis(const Vec3W& rAxD, const Vec3W& rBxD, FloatW mass, int point, int direction) const {
        // No per-lane choice here: it cost the sweeps' loop its registers
        // (spheres1000 +2 % in instructions).
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

BatchPointTurns* turnsOf(ContactSolverData& data, const ContactBatch& batch) {
    return batch.followsTurn ? &data.batchPointTurns[batch.firstTurns] : nullptr;
}

// One 8-float block of each lane's body, transposed: columns 0-2 and 3-5 are
// two vectors (velocity and angular velocity, or their push counterparts).
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
static_assert(offsetof(SolverBody, pushLinearVelocity) == 32 && offsetof(SolverBody, pushAngularVelocity) == 44,
              "push block: v, w");
static_assert(offsetof(SolverBody, deltaPosition) == 64 && offsetof(SolverBody, orientation) == 76,
              "pose block: delta position, orientation x y z w");
static_assert(sizeof(SolverBody) == 96, "three blocks of 8 floats");
constexpr size_t kVelocityBlock = offsetof(SolverBody, linearVelocity);
constexpr size_t kPushBlock = offsetof(SolverBody, pushLinearVelocity);
constexpr size_t kPoseBlock = offsetof(SolverBody, deltaPosition);

// glm's q * v, lane by lane: v + 2 (w (u x v) + u x (u x v)), u = (x, y, z).
Vec3W rotate(const FloatW q[4], const Vec3W& v) {
    const Vec3W u{q[0], q[1], q[2]};
    const Vec3W uv = cross(u, v);
    const Vec3W uuv = cross(u, uv);
    const FloatW two = splat(2.0f);
    return v + two * (q[3] * uv + uuv);
}

FloatW axisVelocity(const Vec3W& vA, const Vec3W& wA, const Vec3W& vB, const Vec3W& wB, const Vec3W& direction,
                    const AxisW& axis) {
    return dot(vB - vA, direction) + dot(wB, axis.rBxD) - dot(wA, axis.rAxD);
}

}  // namespace

namespace {

// Effective masses and Jacobians of a packed batch, lane-parallel, with the
// lever arms of the start of the step. lanePoints: each lane's point count.
void computeBatchAxes(const ContactSolverData& data, const ContactBatch& batch, const uint8_t* lanePoints,
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
        batch.tracksArrival = batch.tracksArrival || c.mayImpactPoints != 0;
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

namespace {

// Runs visit(batch) over this member's share of every colour, colour after
// colour (backwards if `reverse`), with a barrier after each colour. The
// overflow group's batches may share bodies: member 0 takes them all.
template <typename Visit>
void forEachColour(ContactSolverData& data, ThreadTeam& team, int member, bool reverse, Visit visit) {
    const size_t colours = data.colourStarts.empty() ? 0 : data.colourStarts.size() - 1;
    for (size_t k = 0; k < colours; ++k) {
        const size_t colour = reverse ? colours - 1 - k : k;
        const size_t first = data.colourStarts[colour], count = data.colourStarts[colour + 1] - first;
        ThreadTeam::Share share = team.share(count, member);
        if (colour == data.overflowFrom) share = member == 0 ? ThreadTeam::Share{0, count} : ThreadTeam::Share{0, 0};
        for (size_t i = share.begin; i < share.end; ++i) {
            visit(data.batches[first + (reverse ? share.end - 1 - (i - share.begin) : i)]);
        }
        team.sync();
    }
}

}  // namespace

void storeBatchImpulses(ContactSolverData& data) {
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

void beginSubStep(ContactSolverData& data, bool warmStart, bool first, ThreadTeam& team, int member) {
    const FloatW zero = splat(0.0f);
    forEachColour(data, team, member, false, [&data, warmStart, first, zero](ContactBatch& batch) IMPULSE_INLINE_LAMBDA {
        BatchPoint* points = &data.batchPoints[batch.firstPoint];
        // The impulses a sub-step ends with are all it applied (warm start and
        // sweeps): they count towards the step's totals.
        if (!first) {
            BatchPointOnce* pointsOnce = &data.batchPointsOnce[batch.firstPoint];
            for (int i = 0; i < batch.pointCount; ++i) {
                const BatchPoint& p = points[i];
                BatchPointOnce& once = pointsOnce[i];
                store(once.stepNormalImpulse, load(once.stepNormalImpulse) + load(p.normalImpulse));
                for (int k = 0; k < 2; ++k) {
                    Lanes& total = once.stepTangentImpulse[k];
                    store(total, load(total) + load(p.tangentImpulse[k]));
                }
            }
        }
        if (!warmStart) {
            for (int i = 0; i < batch.pointCount; ++i) {
                store(points[i].normalImpulse, zero);
                store(points[i].tangentImpulse[0], zero);
                store(points[i].tangentImpulse[1], zero);
            }
            return;
        }
        BodyBlock blockA(data.bodies, batch.a, kVelocityBlock);
        BodyBlock blockB(data.bodies, batch.b, kVelocityBlock);
        Vec3W vA = blockA.first(), wA = blockA.second(), vB = blockB.first(), wB = blockB.second();
        const FloatW inverseMassA = blockA.columns[6], inverseMassB = blockB.columns[6];
        const TurnSource turnSource{turnsOf(data, batch), blockA.columns[7], blockB.columns[7]};
        const Vec3W normal = load(batch.normal), tangent0 = load(batch.tangent[0]), tangent1 = load(batch.tangent[1]);
        for (int i = 0; i < batch.pointCount; ++i) {
            BatchPoint& p = points[i];
            // Normal and friction impulses of the last sub-step as one impulse.
            const FloatW normalImpulse = load(p.normalImpulse);
            const FloatW tangentImpulse0 = load(p.tangentImpulse[0]), tangentImpulse1 = load(p.tangentImpulse[1]);
            const Vec3W impulse = normalImpulse * normal + (tangentImpulse0 * tangent0 + tangentImpulse1 * tangent1);
            const auto [turnA, turnB] =
                turnSource.turnsBy(p, i, impulse, normalImpulse, tangentImpulse0, tangentImpulse1);
            vA = vA - inverseMassA * impulse;
            wA = wA - turnA;
            vB = vB + inverseMassB * impulse;
            wB = wB + turnB;
        }
        // A before B: an empty lane's slot 0 is both, and gets its zeros back either way.
        blockA.set(vA, wA);
        blockA.store();
        blockB.set(vB, wB);
        blockB.store();
    });
}

namespace {

// solveContacts for one kind of sweep, chosen at compile time so that the
// support sweep's masks cost the others nothing.
template <Sweep kSweep>
void sweepBatches(ContactSolverData& data, float h, bool reverse, ThreadTeam& team, int member) {
    const FloatW inverseH = splat(1.0f / h);
    const FloatW zero = splat(0.0f);
    forEachColour(data, team, member, reverse, [&data, reverse, inverseH, zero](ContactBatch& batch) IMPULSE_INLINE_LAMBDA {
        constexpr bool support = kSweep == Sweep::Support;
        if (support && !batch.supportsHeavy) return;
        BodyBlock blockA(data.bodies, batch.a, kVelocityBlock);
        BodyBlock blockB(data.bodies, batch.b, kVelocityBlock);
        Vec3W vA = blockA.first(), wA = blockA.second(), vB = blockB.first(), wB = blockB.second();
        FloatW inverseMassA = blockA.columns[6], inverseMassB = blockB.columns[6];
        const TurnSource turnSource{turnsOf(data, batch), blockA.columns[7], blockB.columns[7]};
        const Vec3W normal = load(batch.normal);
        const Vec3W tangent[2] = {load(batch.tangent[0]), load(batch.tangent[1])};
        BatchPoint* points = &data.batchPoints[batch.firstPoint];
        const int pointCount = batch.pointCount;
        const FloatW friction = load(batch.friction), staticFriction = load(batch.staticFriction);
        // Support: the light body of each such lane held still (its share of
        // k_n dropped, nothing applied to it); the other lanes apply nothing.
        FloatW holdA = zero, holdB = zero;
        if constexpr (support) {
            holdA = load(batch.supportA);
            holdB = load(batch.supportB);
        }
        const FloatW supportLane = holdA | holdB;
        const auto supportAxis = [&](AxisW axis) {
            const FloatW k = select(holdA, zero, inverseMassA + dot(axis.rAxD, axis.turnA)) +
                             select(holdB, zero, inverseMassB + dot(axis.rBxD, axis.turnB));
            // A lane's padding points (its manifold has fewer) keep mass 0.
            const FloatW real = select(notEqual(axis.mass, zero), supportLane, zero);
            axis.mass = select(real, splat(1.0f) / max(k, splat(1e-30f)), zero);
            axis.turnA = select(holdA, Vec3W{zero, zero, zero}, axis.turnA);
            axis.turnB = select(holdB, Vec3W{zero, zero, zero}, axis.turnB);
            return axis;
        };
        // Friction first: its bound uses the normal impulse accumulated so far,
        // and the normal solve that follows then has the last word on penetration.
        for (int k = 0; k < pointCount && !support; ++k) {
            const int i = reverse ? pointCount - 1 - k : k;
            BatchPoint& p = points[i];
            // No lane with a normal load or friction to undo (speculative points):
            // every lane would apply exactly zero.
            const FloatW old0 = load(p.tangentImpulse[0]), old1 = load(p.tangentImpulse[1]);
            const FloatW normalImpulse = load(p.normalImpulse);
            if (!anyLane(notEqual(normalImpulse, zero) | notEqual(old0, zero) | notEqual(old1, zero))) continue;
            const Vec3W rA = load(p.rA), rB = load(p.rB);
            const auto tangentAxis = [&](int t) {
                return turnSource.axis(cross(rA, tangent[t]), cross(rB, tangent[t]), load(p.tangentMass[t]), i,
                                       1 + t);
            };
            const AxisW axis0 = tangentAxis(0), axis1 = tangentAxis(1);
            // The impulse that would stop sliding, per tangent direction...
            const FloatW slip0 = axisVelocity(vA, wA, vB, wB, tangent[0], axis0);
            const FloatW slip1 = axisVelocity(vA, wA, vB, wB, tangent[1], axis1);
            FloatW total0 = old0 - axis0.mass * slip0, total1 = old1 - axis1.mass * slip1;
            // ...kept if the accumulated total fits in the static cone mu_s j_n
            // (stick), else scaled to the cone's edge against the slip: mu j_n
            // for a point that slides, decided at every solve so that a point
            // that breaks away slides at once; mu_s j_n for one not sliding yet,
            // whose neighbours' solves may still take their share of the load.
            // A point with no load gets bound 0: nothing applied, as it should.
            const FloatW lengthSquared = total0 * total0 + total1 * total1;
            const FloatW staticBound = staticFriction * normalImpulse;
            const FloatW outside = greater(lengthSquared, staticBound * staticBound);
            const FloatW sliding = greater(slip0 * slip0 + slip1 * slip1, splat(kStickSpeed * kStickSpeed));
            const FloatW bound = select(sliding, friction * normalImpulse, staticBound);
            // max() keeps lanes inside the cone (possibly 0/0) from dividing by zero.
            const FloatW scale = bound / sqrt(max(lengthSquared, splat(1e-30f)));
            total0 = select(outside, total0 * scale, total0);
            total1 = select(outside, total1 * scale, total1);
            const FloatW applied0 = total0 - old0, applied1 = total1 - old1;
            const Vec3W impulse = applied0 * tangent[0] + applied1 * tangent[1];
            vA = vA - inverseMassA * impulse;
            wA = wA - (applied0 * axis0.turnA + applied1 * axis1.turnA);
            vB = vB + inverseMassB * impulse;
            wB = wB + (applied0 * axis0.turnB + applied1 * axis1.turnB);
            store(p.tangentImpulse[0], total0);
            store(p.tangentImpulse[1], total1);
        }
        // j = -(v_rel.n - target) / k_n, the target being -s/h for a gap (close
        // it, no more), else 0; the accumulated total stays >= 0 (contacts only push).
        const bool tracksArrival = batch.tracksArrival;
        const auto solveNormal = [&](BatchPoint& p, const AxisW& axis, FloatW separation) {
            const FloatW target = select(greater(separation, zero), -separation * inverseH, zero);
            const FloatW oldImpulse = support ? zero : load(p.normalImpulse);
            const FloatW normalVelocity = axisVelocity(vA, wA, vB, wB, normal, axis);
            FloatW lambda = -axis.mass * (normalVelocity - target);
            if constexpr (support) {
                // At most what stops the heavy body's own motion towards the
                // light one: held up, never lifted (the light body may be
                // moving up, and following it would add energy).
                const FloatW heavyApproach = select(holdA, -(dot(vB, normal) + dot(wB, axis.rBxD)),
                                                    dot(vA, normal) + dot(wA, axis.rAxD));
                lambda = min(lambda, axis.mass * max(heavyApproach, zero));
            }
            const FloatW total = max(oldImpulse + lambda, zero);
            if (tracksArrival && !support) {
                store(p.arrivalVelocity, min(load(p.arrivalVelocity), select(greater(total, zero), normalVelocity, zero)));
            }
            const FloatW applied = total - oldImpulse;
            vA = vA - (inverseMassA * applied) * normal;
            wA = wA - applied * axis.turnA;
            vB = vB + (inverseMassB * applied) * normal;
            wB = wB + applied * axis.turnB;
            if (!support) store(p.normalImpulse, total);
        };
        const auto normalAxis = [&](const BatchPoint& p, int i) {
            return turnSource.axis(load(p.rAxN), load(p.rBxN), load(p.normalMass), i, 0);
        };
        if constexpr (kSweep == Sweep::Relax) {
            for (int k = 0; k < pointCount; ++k) {
                const int i = reverse ? pointCount - 1 - k : k;
                BatchPoint& p = points[i];
                solveNormal(p, normalAxis(p, i), load(p.separation));
            }
        } else {
            BodyBlock pushA(data.bodies, batch.a, kPushBlock);
            BodyBlock pushB(data.bodies, batch.b, kPushBlock);
            Vec3W pvA = pushA.first(), pwA = pushA.second(), pvB = pushB.first(), pwB = pushB.second();
            if constexpr (support) {
                inverseMassA = select(holdA, zero, inverseMassA);
                inverseMassB = select(holdB, zero, inverseMassB);
            }
            for (int k = 0; k < pointCount; ++k) {
                const int i = reverse ? pointCount - 1 - k : k;
                BatchPoint& p = points[i];
                const AxisW axis = support ? supportAxis(normalAxis(p, i)) : normalAxis(p, i);
                const FloatW separation = load(p.separation);
                solveNormal(p, axis, separation);
                // Split impulse: push overlap beyond the slop apart at a fraction of
                // it per sub-step, capped, on pseudo-velocities only. Points neither
                // overlapping nor pushed yet this sub-step are left alone.
                const FloatW overlap = -(separation + splat(kPushoutSlop));
                const FloatW oldPush = support ? zero : load(p.pushImpulse);
                const FloatW active = greater(overlap, zero) | notEqual(oldPush, zero);
                if (!anyLane(active)) continue;
                const FloatW pushTarget =
                    min(splat(kPushoutRate) * max(overlap, zero) * inverseH, splat(kMaxPushoutSpeed));
                const FloatW pushVelocity = axisVelocity(pvA, pwA, pvB, pwB, normal, axis);
                const FloatW pushTotal = max(oldPush - axis.mass * (pushVelocity - pushTarget), zero);
                const FloatW pushApplied = select(active, pushTotal - oldPush, zero);
                if (!support) store(p.pushImpulse, select(active, pushTotal, oldPush));
                pvA = pvA - (inverseMassA * pushApplied) * normal;
                pwA = pwA - pushApplied * axis.turnA;
                pvB = pvB + (inverseMassB * pushApplied) * normal;
                pwB = pwB + pushApplied * axis.turnB;
            }
            pushA.set(pvA, pwA);
            pushA.store();
            pushB.set(pvB, pwB);
            pushB.store();
        }
        blockA.set(vA, wA);
        blockA.store();
        blockB.set(vB, wB);
        blockB.store();
    });
}

}  // namespace

void solveContacts(ContactSolverData& data, float h, Sweep sweep, bool reverse, ThreadTeam& team, int member) {
    switch (sweep) {
        case Sweep::Solve: sweepBatches<Sweep::Solve>(data, h, reverse, team, member); break;
        case Sweep::Relax: sweepBatches<Sweep::Relax>(data, h, reverse, team, member); break;
        case Sweep::Support: sweepBatches<Sweep::Support>(data, h, reverse, team, member); break;
    }
}

namespace {

// The move over a sub-step of a body whose inertia is not isotropic: the
// L-preserving rotation, in double.
void integrateGyroscopicBody(SolverBody& solverBody, const Body& body, float h) {
    solverBody.deltaPosition += h * (solverBody.linearVelocity + solverBody.pushLinearVelocity);
    if (solverBody.pushAngularVelocity != vec3(0.0f)) {
        // The push turns the body and its spin with it: the spin's energy
        // depends on w in the body frame, and a w left behind by the turn
        // gained up to 1 % of it in one step.
        const quat before = solverBody.orientation;
        solverBody.orientation = rotateBy(before, solverBody.pushAngularVelocity, h);
        const quat turn = solverBody.orientation * glm::conjugate(before);
        solverBody.angularVelocity = impulse::rotate(turn, solverBody.angularVelocity);
    }
    rotateRigidBody(solverBody.orientation, solverBody.angularVelocity, body.inertiaBody, h);
    solverBody.pushLinearVelocity = vec3(0.0f);
    solverBody.pushAngularVelocity = vec3(0.0f);
    // After the turn: the L-preserving rotation recomputes w, which may exceed the cap.
    const float spin = glm::length(solverBody.angularVelocity);
    if (spin > kMaxAngularSpeed) solverBody.angularVelocity *= kMaxAngularSpeed / spin;
}

// The same for kSimdWidth isotropic bodies at once: first-order quaternion
// step q + h/2 (0, w) q, renormalised, then the spin cap.
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
    push.set(Vec3W{zero, zero, zero}, Vec3W{zero, zero, zero});
    push.store();
    const Vec3W spin = velocity.second();
    const FloatW spinSquared = dot(spin, spin);
    const FloatW cap = splat(kMaxAngularSpeed);
    const FloatW capped = greater(spinSquared, cap * cap);
    const FloatW scale = select(capped, cap / sqrt(max(spinSquared, splat(1e-30f))), splat(1.0f));
    velocity.set(velocity.first(), scale * spin);
    velocity.store();
}

}  // namespace

void integrateSolverPositions(ContactSolverData& data, const std::vector<Body>& bodies, float h,
                              ThreadTeam& team, int member) {
    // kSimdWidth bodies at a time. Every isotropic body takes the lane step,
    // whichever chunk it is in: the chunks depend on the width, and the result
    // must not. The others then move from their state before the chunk.
    const size_t slotCount = data.bodies.size();
    const ThreadTeam::Share chunks = team.share((slotCount - 1 + kSimdWidth - 1) / kSimdWidth, member);
    std::vector<uint32_t>::const_iterator gyroscopic = std::lower_bound(
        data.gyroscopicSlots.begin(), data.gyroscopicSlots.end(), uint32_t(1 + chunks.begin * kSimdWidth));
    SolverBody before[kSimdWidth];  // a chunk's bodies that are not isotropic, before the lane step
    for (size_t chunk = chunks.begin; chunk < chunks.end; ++chunk) {
        const size_t first = 1 + chunk * kSimdWidth;
        const size_t last = std::min(first + kSimdWidth, slotCount);
        // Lanes past the last body repeat it: the same values are stored twice.
        uint32_t slots[kSimdWidth];
        for (int lane = 0; lane < kSimdWidth; ++lane) slots[lane] = uint32_t(std::min(first + lane, last - 1));
        const std::vector<uint32_t>::const_iterator chunkGyroscopic = gyroscopic;
        while (gyroscopic != data.gyroscopicSlots.end() && *gyroscopic < last) ++gyroscopic;
        for (auto slot = chunkGyroscopic; slot != gyroscopic; ++slot) before[slot - chunkGyroscopic] = data.bodies[*slot];
        // One call site: GCC then inlines the lane step, as it did before the chunks were split.
        integrateSolverBodies(data.bodies, slots, h);
        for (auto slot = chunkGyroscopic; slot != gyroscopic; ++slot) {
            SolverBody& solverBody = data.bodies[*slot];
            solverBody = before[slot - chunkGyroscopic];
            integrateGyroscopicBody(solverBody, bodies[data.bodyOfSlot[*slot]], h);
        }
    }
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

void finishContacts(ContactSolverData& data, std::vector<ContactManifold>& manifolds,
                    std::vector<ContactReport>& reports, std::vector<Body>& bodies) {
    for (size_t slot = 1; slot < data.bodies.size(); ++slot) {
        if (slot + kPrefetchRecordsAhead < data.bodies.size()) {
            prefetchBody(bodies[data.bodyOfSlot[slot + kPrefetchRecordsAhead]]);
        }
        const SolverBody& solverBody = data.bodies[slot];
        Body& body = bodies[data.bodyOfSlot[slot]];
        body.linearVelocity = solverBody.linearVelocity;
        body.angularVelocity = solverBody.angularVelocity;
        body.position += solverBody.deltaPosition;
        body.orientation = solverBody.orientation;
        body.updateWorldInertia();
    }
    reports.resize(manifolds.size());
    for (size_t m = 0; m < manifolds.size(); ++m) {
        prefetchAheadForWrite(manifolds, m);
        prefetchAhead(data.constraints, m);
        prefetchAheadForWrite(reports, m);
        ContactManifold& manifold = manifolds[m];
        const ContactConstraint& c = data.constraints[m];
        const SolverBody& a = data.bodies[c.a];
        const SolverBody& b = data.bodies[c.b];
        for (int i = 0; i < manifold.pointCount; ++i) {
            ContactPoint& point = manifold.points[i];
            ContactPointReport& report = reports[m].points[i];
            const ConstraintPoint& p = pointOf(data, c, i);
            point.normalImpulse = p.normalImpulse;
            point.frictionImpulse = p.tangentImpulse[0] * c.tangent[0] + p.tangentImpulse[1] * c.tangent[1];
            report.stepNormalImpulse = p.stepNormalImpulse;
            report.stepFrictionImpulse = p.stepFrictionImpulse;
            // At the points' offsets from the start of the step, as the solver saw them.
            report.rA = p.rA;
            report.rB = p.rB;
            const auto [rA, rB] = surfaceArms(c, p);
            const vec3 velocity = (b.linearVelocity + glm::cross(b.angularVelocity, rB)) -
                                  (a.linearVelocity + glm::cross(a.angularVelocity, rA));
            report.normalVelocityAfter = glm::dot(velocity, c.normal);
            report.targetVelocity = p.restitutionTarget;
            // Friction held the point if it pushed and ends the step not sliding.
            const float slip0 = glm::dot(velocity, c.tangent[0]);
            const float slip1 = glm::dot(velocity, c.tangent[1]);
            point.sticking = p.stepNormalImpulse > 0.0f && slip0 * slip0 + slip1 * slip1 < kStickSpeed * kStickSpeed;
            report.frictionBound = (point.sticking ? c.staticFriction : c.friction) * p.stepNormalImpulse;
            report.impactNormalImpulse = p.impactNormalImpulse;
            report.impactFrictionImpulse = p.impactFrictionImpulse;
            report.impactSticking = p.impactSticking;
        }
    }
}

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
    // A point needs a correction below -kLinearSlop. The passes measure it as
    // the sub-steps did (the same anchors, matrix instead of quaternion
    // rotation), so a quarter slop covers the rounding between the two.
    constexpr float kMayCorrectBelow = -0.75f * kLinearSlop;
    if (!(data.deepestSeparation < kMayCorrectBelow)) return;
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
            const bool mayCorrect = data.constraints[m].deepestSeparation < kMayCorrectBelow ||
                                    corrected[manifold.a] || corrected[manifold.b];
            if (mayCorrect) correctPositions(manifold, data, data.constraints[m], bodies, corrected);
        }
    }
}

}  // namespace impulse
