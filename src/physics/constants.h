// Tuning constants of the solver, with their units. Nothing in the solver uses a
// bare number: change them here and every stage follows.
#pragma once

namespace impulse {

// What used to be one "linear slop" of 5 mm is six roles, each named here
// (same values, so results did not change): tune one without the others.

// Overlap the position passes leave alone (m): they correct only what lies
// deeper, so resting contacts (near -0.5 mm after the push-out) need no pass.
inline constexpr float kPositionSlop = 0.005f;

// A position pass looks at a manifold only if the sub-steps left a point
// deeper than this (m): the slop less a quarter slop, which covers the rounding
// between the sub-steps' measure (quaternions) and the passes' (matrices).
inline constexpr float kPositionCheckDepth = -0.75f * kPositionSlop;

// Contacts are created this far before bodies touch (m), so a resting stack keeps
// its manifolds and a fast approach is caught by a speculative constraint.
inline constexpr float kSpeculativeDistance = 0.01f;

// A point this close (m) is touching: an approach faster than the restitution
// threshold is an impact now (and in a chain), not one that arrives later.
inline constexpr float kTouchingDistance = 0.005f;
// A sphere's path to a box is followed to its first touch (aimSphereAtBoxArrival)
// until within this distance (m), in at most this many advances; a grazing path
// that has not come so close by then keeps the manifold as detected.
inline constexpr float kArrivalTolerance = 1.0e-5f;
inline constexpr int kArrivalAdvanceSteps = 32;

// A manifold with a point this close (m) is an edge of the contact graph that
// finds which body rests on which (the support levels of Sweep::Support).
inline constexpr float kSupportContactDistance = 0.005f;

// Box-box reference face hysteresis (m): B's face is taken over A's, and an
// edge pair over the faces, only when clearly better (by these), so the choice
// and the feature ids persist from step to step while the boxes rest.
inline constexpr float kReferenceFaceTolerance = 0.0005f;
inline constexpr float kEdgeContactTolerance = 0.0025f;

// Lower bound of a divisor (k, or a squared length) in the lane-parallel code:
// an empty lane (0) must not divide by zero; far below any real value.
inline constexpr float kMinDivisor = 1e-30f;

// An impact group gains energy only beyond this fraction of its kinetic energy
// (1): rounding; an elastic frictionless bounce keeps its energy to ~1e-7.
inline constexpr double kImpactEnergyTolerance = 1e-6;

// Overlap left alone by the split-impulse push-out (m): a resting contact
// keeps touching, and a 10-box tower sags at most 5 mm.
inline constexpr float kPushoutSlop = 0.0005f;

// Fraction of the overlap beyond the slop that the split impulse removes per
// sub-step (1); with 10 sub-steps a step removes about 90 % of it.
inline constexpr float kPushoutRate = 0.2f;

// Fastest speed at which overlapping bodies are pushed apart (m/s).
inline constexpr float kMaxPushoutSpeed = 3.0f;

// Fraction of the remaining penetration removed per position iteration (1).
inline constexpr float kPositionBaumgarte = 0.2f;

// Largest positional correction in one position iteration (m): deep overlaps are
// resolved over several steps instead of launching bodies.
inline constexpr float kMaxPositionCorrection = 0.2f;

// A contact point that slides slower than this is not sliding: the friction
// axes follow no slip direction, and the point counts as sticking (m/s).
inline constexpr float kStickSpeed = 0.01f;

/// Extra rounds of normal and friction solves, in the lanes of a landing, in
/// the sweep where it lands (ContactSolverData::landingSpeed): solved once,
/// corner after corner, a block landing at 3 m/s on a 20 degree ramp was
/// left turning at 3 rad/s for the rest of the sub-step, which tilted it by
/// 2 mm; rocking back onto its face in the next steps, it slid off.
inline constexpr int kLandingRounds = 3;

/// Most landings of one manifold in a pass (its sweeps): a block's corners
/// arriving one after another land in a few; one landing sweep after sweep
/// is being pressed into the ground by another body, and started cold each
/// time (beginSubStep) it never kept the load it carries: in the soak a
/// 0.5 kg box struck by a heavier one sank 8.8 cm in one step.
inline constexpr int kMaxLandingsPerPass = 3;

// Most sequential-impulse sweeps over the points of one impact (1): one point
// is exact after the first (its normal and friction are solved together); the
// rest settle the coupling between a box's points through its inertia (a
// spinning stick landing on an edge needed more than 10). Some two-point
// edges converge slowly or cycle (7 % of pile1000's impacts still changed by
// 1e-4 to 2 % per sweep after 40): more sweeps cost, and hardly help them.
inline constexpr int kImpactSweeps = 20;
// An impact's sweeps stop early once one changes no impulse by more than this
// fraction of the largest (1): 1e-5 of a bounce's impulse is a few um/s.
inline constexpr float kImpactConvergence = 1.0e-5f;

// Rounds of impacts set off by impacts in one impact stage (1): a row of N
// touching balls passes a strike along in at most N - 1. What is still
// approaching after them is left to the sub-steps' rigid contacts.
inline constexpr int kMaxImpactRounds = 32;

// Two contact points closer than this are the same point when matching features
// fails, e.g. after a manifold switches reference face (m).
inline constexpr float kContactMatchDistance = 0.05f;

// A box-box manifold is reused while the two boxes move less than this
// relative to each other since it was computed (m), and turn less than
// the angle whose half has cosine kManifoldReuseCosHalfAngle: cos(0.25 deg), the half angle of 0.5 deg. At 0.5 deg a
// corner 1 m from the centre moves 9 mm, inside the 1 cm speculative reach.
inline constexpr float kManifoldReuseDistance = 0.001f;
inline constexpr float kManifoldReuseCosHalfAngle = 0.99999048f;

// Spin limit, on the speed of the body's farthest point about its centre
// (m/s): |w| times the shape's bounding radius (maxAngularSpeed(shape)). It
// keeps a badly tuned inertia tensor from spinning a body up without end. A
// limit of 400 rad/s whatever the size cut a 1 cm marble rolling at 5 m/s
// (500 rad/s) down and broke its rolling; this one keeps 400 rad/s for a 1 m
// box (bounding radius 0.87 m) and lets a smaller body spin faster in
// proportion. The step clamps a spin beyond it and counts the bodies it
// clamped (Body::spinClamped, StepStats::spinClampedBodies); a definition
// beyond it is refused.
inline constexpr float kMaxSurfaceSpeed = 350.0f;
// Largest turn of any body within one collide-and-solve pass (rad): contacts
// are found at the start of a pass, and a body turning further meets the
// ground with corners they do not hold. A step with a faster spinner takes
// more passes (World::step).
inline constexpr float kMaxTurnPerPass = 0.5f;
// Furthest a body's corners may go within a pass beyond the turn its contacts
// were found for (m), through spin gained in the pass (a plate's edge caught
// at 45 m/s spun it from 6 to 184 rad/s, and its far corner went 5.2 cm into
// the ground in a pass that turned it less than kMaxTurnPerPass): the pass then
// ends early and the rest of the step finds contacts again. 4 cm keeps the
// soak's digs under its 5 cm aim; 1 cm gave 259 of pile1000's first 600 steps
// an extra pass for the world (boxes knocked spinning as the pile falls), 4 cm 76.
inline constexpr float kMaxUncoveredSweep = 0.04f;
// A fast spinner's pass group (World::formPassGroups) is grown body by body,
// each tested against every body, while the groups hold at most this many
// bodies (1): 64 x 1,000 box tests cost less than a broadphase over the
// world's reach, which finds larger groups.
inline constexpr int kMaxGrownPassGroup = 64;
// A body resting on one this many times lighter is held up by the light one
// held still (Sweep::Support); below it sequential impulses converge well.
inline constexpr float kSupportMassRatio = 10.0f;
// "Resting on": the contact normal within 45 degrees of the vertical.
inline constexpr float kSupportNormalCos = 0.7071f;

// Gravity the drag's force cap is measured in when the world's is weaker
// (m/s^2): under zero gravity a cap of "50 body weights" must still pull.
inline constexpr float kDragReferenceGravity = 9.81f;

// Largest allowed body half-size or radius (m) and largest mass (kg) accepted by
// validation: beyond these single precision no longer resolves contacts.
inline constexpr float kMaxBodySize = 1000.0f;
inline constexpr float kMinBodySize = 0.001f;
inline constexpr float kMaxMass = 1.0e6f;
inline constexpr float kMinMass = 1.0e-4f;
// Principal moments a tensor may have (kg m^2): the range the allowed masses and
// sizes produce (2/5 kMinMass kMinBodySize^2 to 2/3 kMaxMass kMaxBodySize^2).
// Beyond it the inverse over- or underflows in single precision.
inline constexpr float kMinMoment = 4.0e-11f;
inline constexpr float kMaxMoment = 7.0e11f;
// A tensor must be at least this share of the body's own (its shape's at its
// mass) in every direction. Far below it an impulse at a lever arm r turns the
// body I^-1 r^2 m times as fast as it moves it, and the float sums of an
// impulse along the arm, whose turns cancel, leave 6e-8 of that: at 4e-11 of
// its own a box's impact chains grew 10-100x a round to non-finite
// (docs/physics.md, "Tiny inertia"). At 1e-3 that rounding is below 2e-4.
inline constexpr float kMinOwnInertiaShare = 1.0e-3f;

// Limits on the drag settings accepted by validation.
inline constexpr float kMaxDragFrequency = 1000.0f;     // Hz
inline constexpr float kMaxDragDampingRatio = 100.0f;   // 1
inline constexpr float kMaxDragForceInWeights = 1.0e4f;  // body weights

// Limits on world settings accepted by validation.
inline constexpr float kMaxGravity = 1000.0f;      // m/s^2, magnitude
inline constexpr float kMinTimestep = 1.0e-5f;     // s
inline constexpr float kMaxTimestep = 0.1f;        // s
inline constexpr int kMaxPasses = 64;             // collide-and-solve passes per step
inline constexpr int kMaxSubSteps = 500;          // solver sub-steps per pass
inline constexpr int kMaxPositionIterations = 100;
inline constexpr float kMaxSpeed = 1000.0f;        // m/s: the restitution threshold's limit, and the tunnelling tests' top speed
inline constexpr float kMaxSleepSpeed = 10.0f;     // m/s
inline constexpr float kMaxSleepTime = 1000.0f;    // s
// Beyond these a state is as broken as NaN (float spacing at 1e6 m is 6 cm):
// the step guard rolls it back. A body definition may hold anything up to
// them, so every world a run leaves loads again: with 1000 m/s and 1e5 m as
// the definitions' limits, a crate blown sideways by a gravity of 360 m/s^2
// was past them within 3 s, and the app's save of it (and its autosave) did
// not load.
inline constexpr float kBlownUpPosition = 1.0e6f;  // m, distance from the origin
inline constexpr float kBlownUpSpeed = 1.0e5f;     // m/s
inline constexpr float kMaxQuaternionLength = 1.0e6f;  // unnormalised orientations in a definition

}  // namespace impulse
