// The working set of one pass's solve: compact solver bodies, one constraint
// per manifold with its points, and the constraints coloured and packed into
// lane-parallel batches (kSimdWidth manifolds side by side, simd.h) for the
// sub-steps. Built by the preparation and packing stages, read and written by
// the others (solver.h lists them).
#pragma once

#include "physics/body.h"
#include "physics/contact.h"
#include "physics/simd.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace impulse {

/// The state the sub-steps work on: velocities and the motion since the start
/// of the step. Static bodies share slot 0, which has zero inverse mass and
/// stays at rest. Three blocks of 8 floats, each loaded for a batch of
/// contacts by one transpose: velocities, pseudo-velocities (and the spin
/// limit), pose.
struct alignas(32) SolverBody {
    vec3 linearVelocity{0.0f};
    vec3 angularVelocity{0.0f};
    float inverseMass = 0.0f;
    /// I^-1 of a body whose inertia is isotropic, as a scalar (its world tensor
    /// is this times the identity); 0 for the others and the static slot.
    float inverseInertia = 0.0f;
    vec3 pushLinearVelocity{0.0f};   ///< split-impulse pseudo-velocities, dropped after each sub-step
    vec3 pushAngularVelocity{0.0f};
    float maxAngularSpeed = 0.0f;    ///< rad/s, maxAngularSpeed(shape); 0 for the static slot
    float spinClamped = 0.0f;        ///< 1 once a move of this pass clamped the spin to it
    vec3 deltaPosition{0.0f};                    ///< moved since the start of the step
    quat orientation{1.0f, 0.0f, 0.0f, 0.0f};    ///< now; stored x, y, z, w
    /// How far a corner is from the centre (boundingRadius) for a body whose turn
    /// brings new corners to its contacts (a box); 0 for a sphere and the static
    /// slot. What a pass that ends early watches (solvePass).
    float cornerRadius = 0.0f;
};

/// Jacobian pieces of one direction d at one point: the velocity along d is
/// dot(vB - vA, d) + dot(wB, rB x d) - dot(wA, rA x d), and an impulse
/// lambda d changes wA by -lambda I_A^-1 (rA x d) and wB by +lambda I_B^-1 (rB x d).
struct ConstraintAxis {
    vec3 rAxD{0.0f}, rBxD{0.0f};
    vec3 turnA{0.0f}, turnB{0.0f};  ///< I^-1 (r x d)
    float mass = 0.0f;              ///< 1 / (1/m_A + 1/m_B + d.(turnA x rA) + d.(turnB x rB))
};

struct ConstraintPoint {
    /// Centre of mass -> point, world, at the start of the step (the inspector
    /// gets them through ContactPointReport).
    vec3 rA{0.0f}, rB{0.0f};
    /// rA, rB at the start of the step: in the body frame where the anchor turns
    /// with the body (dynamic boxes), else in the world frame (a sphere's
    /// contact stays under its centre as it rolls; static bodies do not move).
    vec3 anchorA{0.0f}, anchorB{0.0f};
    float adjustedSeparation = 0.0f;    ///< separation - (rB - rA).n, so s = (dB - dA).n + this
    float separation = 0.0f;            ///< at the start of the step
    float endSeparation = 0.0f;         ///< after the sub-steps
    /// The most negative v_rel.n met while pushing in the sub-steps: the
    /// approach speed at arrival (tracked where ContactConstraint::mayImpactPoints
    /// or mayLandPoints).
    float arrivalVelocity = 0.0f;
    float restitutionTarget = 0.0f;     ///< -e v_arrival for an impact, else 0
    float normalImpulse = 0.0f;
    float tangentImpulse[2] = {0.0f, 0.0f};
    float stepNormalImpulse = 0.0f;
    vec3 stepFrictionImpulse{0.0f};
    float impactNormalImpulse = 0.0f;  ///< see ContactPointReport
    vec3 impactFrictionImpulse{0.0f};
    bool impactSticking = false;
};

/// a, b and pointCount first: the colouring reads only these, for every constraint.
struct ContactConstraint {
    uint32_t a = 0, b = 0;  ///< solver body slots
    int pointCount = 0;
    bool anchorTurnsA = false, anchorTurnsB = false;
    /// A is the light body under a heavy B (or B under A): see Sweep::Support.
    bool supportA = false, supportB = false;
    /// Bit i: point i, of a box on a static or kinematic body, may arrive
    /// faster than the landing speed during the sub-steps
    /// (ContactSolverData::landingSpeed): they track its arrival.
    uint8_t mayLandPoints = 0;
    /// Bit i: point i may arrive faster than the impact speed during the
    /// sub-steps (not an impact before them): they track its arrival, and
    /// findArrivals makes an impact of it.
    uint8_t mayImpactPoints = 0;
    /// Bit i: point i began the pass touching (within kPositionSlop either way:
    /// not a deep overlap being pushed apart), still (closing slower than
    /// kStickSpeed) and carrying no load from the last step: a push the
    /// sub-steps give it came through the bodies' other contacts.
    uint8_t stillPoints = 0;
    float restitution = 0.0f;
    float friction = 0.0f, staticFriction = 0.0f;  ///< mu and mu_s of the pair
    float deepestSeparation = 0.0f;  ///< of its points after the sub-steps (<= 0), see storeBatchImpulses
    vec3 normal{0.0f};
    vec3 tangent[2];
    /// Its points are ContactSolverData::constraintPoints from here on, in a row:
    /// a step's passes stream only the points in use (most manifolds have fewer than four).
    uint32_t firstPoint = 0;
};

/// A point where an impact starts (impact.h).
struct ImpactSeed {
    uint32_t constraint = 0;
    int point = 0;
    float arrivalVelocity = 0.0f;  ///< v_rel.n at arrival, < 0
};

/// What an impact did to the relative velocity at one of its points (v_B - v_A
/// at the surfaces), for the impact log (ContactPointInfo): read by no stage.
struct ImpactMeasure {
    uint32_t constraint = 0;
    int point = 0;
    float arrivalVelocity = 0.0f;  ///< v_rel.n at arrival, < 0
    float leavingVelocity = 0.0f;  ///< v_rel.n once the impact is solved
    vec3 slipBefore{0.0f};         ///< tangential v_rel at arrival
    vec3 slipAfter{0.0f};          ///< tangential v_rel once the impact is solved
    /// Kinetic energy the relative motion lost, J: 1/2 m (u^2 - u'^2) along the
    /// normal and each tangent, with the point's effective masses m = 1/k.
    float energyLost = 0.0f;
};

/// Lane-parallel form of the i-th point of each lane's manifold: only what the
/// sweeps read and cannot compute again for less, since in a large scene they
/// run at the speed of memory (docs/physics.md, "Batches"). A lane whose
/// manifold has fewer points holds zeros, which solve to zero impulses.
struct alignas(64) BatchPoint {
    Lanes separation;   ///< now: after the last move
    Lanes pushImpulse;  ///< split (position-only) impulse of this sub-step
    Lanes normalImpulse;
    Lanes tangentImpulse[2];
    Lanes3 rA, rB;      ///< lever arms at the start of the step, world
    Lanes3 rAxN, rBxN;  ///< r x n of A and B
    Lanes normalMass;   ///< 1 / k_n
    Lanes arrivalVelocity;  ///< most negative v_n met while pushing (tracked in ContactBatch::tracksArrival)
    Lanes tangentMass[2];   ///< 1 / k_t
    /// The normal impulse the last sweep began with (tracked lanes: a
    /// landing's next sub-step starts from it). In the struct's padding.
    Lanes sweepStartImpulse;
};

/// The turn vectors I^-1 (r x d) of a point of a batch that follows the turn
/// (ContactBatch::followsTurn): [0] along the normal, [1] and [2] along the tangents.
struct BatchPointTurns {
    Lanes3 turnA[3], turnB[3];
};

/// The rest of a batched point, read once a sub-step (by beginSubStep and
/// integrateSolverPositions), apart from BatchPoint so that the sweeps do not
/// stream it. Same index as the point's BatchPoint.
struct BatchPointOnce {
    Lanes3 anchorA, anchorB;
    Lanes adjustedSeparation;
    Lanes stepNormalImpulse;
    Lanes stepTangentImpulse[2];
    Lanes loadBeforeLanding;   ///< that, in the sweep its lane landed in: the next sub-step's warm start
};

/// Up to kSimdWidth manifolds of one colour, solved side by side, one per
/// lane. No two lanes share a dynamic body, so their impulses commute and a
/// batch gives exactly what solving its manifolds one after another would.
struct ContactBatch {
    /// Solver slots; an empty lane uses slot 0 twice. During the sub-steps the
    /// batch's own copy of slot 0 stands for it (ContactSolverData::bodies).
    uint32_t a[kSimdWidth] = {}, b[kSimdWidth] = {};
    uint32_t firstPoint = 0;                          ///< into ContactSolverData::batchPoints (and ...Once)
    int pointCount = 0;                               ///< the most points of any lane
    /// A lane holds a body whose inertia is not isotropic. Its tensor turns
    /// with it, so the batch's effective masses are computed again every
    /// sub-step with the tensor of now (the lever arms stay those of the start
    /// of the step, as for every contact): with the tensor of the start of the
    /// step, a fast-turning box was kicked by impulses that changed its angular
    /// momentum by the wrong amount and gained energy bounce after bounce.
    bool followsTurn = false;
    uint32_t firstTurns = 0;  ///< if followsTurn: into ContactSolverData::batchPointTurns, one per point
    /// A lane may arrive faster than the impact or landing speed: the sweeps
    /// track its points' arrival speed (ContactConstraint::mayImpactPoints,
    /// mayLandPoints).
    bool tracksArrival = false;
    /// Some lane landed in this sub-step (ContactSolverData::landingSpeed):
    /// the next one starts those lanes with no friction and the normal
    /// impulse they carried before the landing (beginSubStep).
    bool landed = false;
    /// A lane holds a heavy body resting on a light one (Sweep::Support).
    bool supportsHeavy = false;
    Lanes3 normal;
    Lanes3 tangent[2];
    Lanes anchorTurnsA, anchorTurnsB;  ///< lane masks (all bits set: the anchor turns with the body)
    Lanes supportA, supportB;          ///< lane masks of ContactConstraint::supportA / supportB
    Lanes friction, staticFriction;    ///< mu, mu_s
    /// Lane mask of the lanes that may land: those with ContactConstraint::mayLandPoints.
    Lanes landingLanes;
};

/// A batch's landings (ContactSolverData::landingSpeed), apart from
/// ContactBatch so that the sweeps, which rarely need them, do not stream them.
struct BatchLandings {
    Lanes landedLanes;       ///< lane mask of the lanes that landed in this sub-step
    Lanes sweepLandedLanes;  ///< lane mask of those that landed in this sweep (their rounds to solve)
    Lanes passLandings;      ///< per lane: how many times it landed in this pass (kMaxLandingsPerPass)
};

/// Working set of one step's solve.
struct ContactSolverData {
    /// Slot 0: the shared static body. From the packing to the end of the
    /// sub-steps `bodies` (and `inverseInertia`) also hold, past slotCount(),
    /// each batch's own copy of slot 0 for its static and empty lanes: a
    /// colour's batches run on several threads at once and each writes its
    /// bodies' blocks back whole, which two may not do to the same memory.
    std::vector<SolverBody> bodies;
    std::vector<uint32_t> slotOfBody;     ///< body index -> solver slot
    std::vector<uint32_t> gyroscopicSlots;  ///< slots of bodies whose inertia is not isotropic, ascending
    std::vector<uint32_t> cornerSlots;      ///< slots with a SolverBody::cornerRadius (boxes), ascending
    std::vector<uint32_t> bodyOfSlot;       ///< solver slot -> body index
    /// The pass's slots, slot 0 included (without the batches' copies of it).
    size_t slotCount() const { return bodyOfSlot.size(); }
    std::vector<mat3> inverseInertia;       ///< per solver slot, world frame; zero for slot 0
    std::vector<ContactConstraint> constraints;  ///< parallel to the manifolds
    /// The constraints' points, in their order (with room for kMaxManifoldPoints a
    /// constraint: the tail past the last one's points is not used).
    std::vector<ConstraintPoint> constraintPoints;
    /// Where the impacts of an impact stage start, in constraint order: before
    /// the sub-steps from prepareContacts, after them from findArrivals.
    std::vector<ImpactSeed> impactSeeds;
    /// The pass's impacts, point by point, in the order the impact stages solved them.
    std::vector<ImpactMeasure> impactMeasures;
    /// Constraints with a point that may arrive during the sub-steps
    /// (ContactConstraint::mayImpactPoints), ascending.
    std::vector<uint32_t> mayImpactConstraints;
    /// A point that the sweeps find arriving faster than this lands: its
    /// manifold's sweep is solved to convergence (kLandingRounds) and the
    /// next sub-step starts it without the landing's impulses. Half the impact speed (impactSpeed()):
    /// gravity's speed-up in a step, which a resting point does not meet in
    /// one sub-step.
    float landingSpeed = 0.0f;
    std::vector<ContactBatch> batches;      ///< the constraints of the sub-steps, colour by colour
    /// Per batch: scratch of the sweeps, where each member lists the batches
    /// of its share of a colour whose landing rounds it solves after the share.
    std::vector<uint32_t> deferredBatches;
    std::vector<BatchLandings> batchLandings;  ///< per batch
    std::vector<uint32_t> colourStarts;     ///< first batch of each colour, then batches.size()
    size_t overflowFrom = ~size_t(0);       ///< index into colourStarts of the overflow group, if any
    /// Per slot: the corner speed the pass's contacts were found for, |w| times
    /// cornerRadius at its start (World::collide's margin holds that turn).
    std::vector<float> coveredCornerSpeed;
    /// Per slot: how far its corners went in the pass beyond that (m): the
    /// sub-steps' corner speed over coveredCornerSpeed, times h, summed.
    std::vector<float> uncoveredSweep;
    /// Per team member: the largest uncoveredSweep of a body it moved
    /// (integrateSolverPositions; solvePass ends a pass early on it).
    std::vector<float> largestUncoveredSweep;
    float deepestSeparation = 0.0f;         ///< most negative point separation after the sub-steps (<= 0)
    bool supportsHeavy = false;             ///< some constraint has supportA or supportB
    std::vector<uint32_t> supportLevel;      ///< per slot: steps of touching contacts down to a static body
    std::vector<uint32_t> supportEdgeStart, supportEdges;  ///< scratch: the touching contact graph
    std::vector<BatchPoint> batchPoints;
    std::vector<BatchPointOnce> batchPointsOnce;  ///< parallel to batchPoints
    std::vector<BatchPointTurns> batchPointTurns;  ///< of the batches that follow the turn
    std::vector<uint64_t> slotColours;      ///< per solver slot: the colours its constraints use
    std::vector<uint32_t> batchOrder;       ///< scratch: constraints sorted by colour
    std::vector<uint32_t> laneOfConstraint;  ///< per constraint: its batch * kSimdWidth + its lane
    std::vector<uint8_t> lanePoints;        ///< per batch lane: its manifold's point count, 0 if empty
    std::vector<uint32_t> impactGroup;      ///< scratch of the impact energy limit: union-find parent per slot
    std::vector<uint8_t> impactMoved;       ///< scratch of an impact stage: per slot, an impact moved it
    /// Scratch of an impact stage's chains: the constraints of each slot,
    /// impactContacts[impactContactStart[slot] .. impactContactStart[slot + 1]).
    std::vector<uint32_t> impactContactStart, impactContacts;
    std::vector<uint8_t> correctedBodies;   ///< scratch of the position passes: per body, moved by them
};

/// Each body's arm to its own surface point of constraint point p: where the
/// surfaces meet once a gap has closed. A dynamic box's arm goes to the point midway
/// between the surfaces (detection's), so it is moved by half the gap along n (r x n
/// stays the sub-steps'); a sphere's is at its surface already (armTo in
/// contact_prepare.cpp), and a static body's moves nothing.
inline std::pair<vec3, vec3> surfaceArms(const ContactConstraint& c, const ConstraintPoint& p) {
    const vec3 halfGap = 0.5f * p.separation * c.normal;
    return {c.anchorTurnsA ? p.rA - halfGap : p.rA, c.anchorTurnsB ? p.rB + halfGap : p.rB};
}

/// Point i of constraint c.
inline ConstraintPoint& pointOf(ContactSolverData& data, const ContactConstraint& c, int i) {
    return data.constraintPoints[c.firstPoint + uint32_t(i)];
}
inline const ConstraintPoint& pointOf(const ContactSolverData& data, const ContactConstraint& c, int i) {
    return data.constraintPoints[c.firstPoint + uint32_t(i)];
}

}  // namespace impulse
