// The impact model, in one place: every impact — a touching point that
// approaches at the start of a pass, a speculative gap that closes during the
// sub-steps, or a point set approaching by another impact of the same stage —
// obeys Newton's restitution with the approach speed at arrival and Coulomb
// friction bounded by that impact's own normal impulse (static mu_s while the
// impulse that stops the slip fits in mu_s j_n, kinetic mu against the slip
// otherwise). One point with no other contact gets the textbook single impulse:
// exactly where normal and friction do not couple, else to kImpactConvergence
// (impact.cpp, solveEvent). Bodies joined by impacts never leave with more kinetic energy than
// they may (see ImpactRules).
#pragma once

#include "physics/body.h"
#include "physics/solver_data.h"

#include <cstdint>
#include <vector>

namespace impulse {

/// When an impact stage runs in a pass.
enum class ImpactStage : uint8_t {
    /// Before the sub-steps: the seeds are touching points (within kTouchingDistance)
    /// approaching faster than the threshold, found by prepareContacts.
    BeforeSubSteps,
    /// After the sub-steps: the seeds are points whose gap closed during them
    /// (they pushed) at an arrival speed above the impact speed (findArrivals).
    /// The sub-steps already stopped the approach: that impulse is part of the
    /// impact's normal impulse, and so bounds its friction.
    AfterSubSteps,
};

struct ImpactRules {
    ImpactStage stage = ImpactStage::BeforeSubSteps;
    float threshold = 1.0f;  ///< restitution threshold, m/s: slower arrivals do not bounce
    /// After the sub-steps a group may leave with the kinetic energy it began
    /// the step with plus gravity's work since (or what the sub-steps left it,
    /// if more); before them, with what it had.
    vec3 gravity{0.0f};
    /// After the sub-steps: the dragged body's group has no energy bound (the
    /// drag does work). 0: no drag.
    uint32_t draggedSlot = 0;
};

/// The e an impact applies at a point arriving at `arrivalVelocity` (< 0): the
/// pair's `restitution`, 0 for an arrival slower than the restitution threshold.
inline float appliedRestitution(float restitution, float arrivalVelocity, float threshold) {
    return arrivalVelocity < -threshold ? restitution : 0.0f;
}

/// The approach speed above which a meeting is an impact: the restitution
/// threshold, or less where a landing too slow to bounce still needs the
/// impact's friction (its slip stopped if it fits in mu_s j_n). Twice
/// gravity's speed-up in a step: the sub-steps meet a resting point
/// approaching at less (a sub-step's gravity), a landing from higher than
/// 2 g dt^2 (5.4 mm at 60 Hz) at more. In zero gravity kStickSpeed.
float impactSpeed(float restitutionThreshold, const vec3& gravity, float dt);

/// The points after the sub-steps whose gap closed during them at an arrival
/// speed above `impactSpeed`, into data.impactSeeds (in constraint order).
void findArrivals(ContactSolverData& data, float impactSpeed);

/// Resolves the impacts of data.impactSeeds and those they set off, on the
/// solver bodies' velocities. Adds each impact's impulses to the points' step
/// totals and impact report; after the sub-steps, a point that bounced starts
/// the next pass cold (its last sub-step's impulse, the one that stopped the
/// approach, would push the leaving bodies apart again).
void resolveImpacts(ContactSolverData& data, const std::vector<Body>& bodies, const ImpactRules& rules);

}  // namespace impulse
