// Moving the bodies by one sub-step: positions and orientations (the implicit
// gyroscopic rotation for a body whose inertia is not isotropic), then every
// batched point's separation from how far its bodies moved.
#pragma once

#include "physics/body.h"
#include "physics/solver_data.h"
#include "physics/thread_team.h"

#include <vector>

namespace impulse {

/// Gravity's velocity over a sub-step of length h, on every awake body's slot.
void integrateVelocities(ContactSolverData& data, const vec3& gravity, float h, ThreadTeam& team, int member);
/// Moves the solver bodies by one sub-step (velocity plus push pseudo-velocity,
/// which is then dropped), with the L-preserving rotation for bodies whose
/// inertia is not isotropic (their contacts' axes then follow the turn, see
/// ContactBatch::followsTurn), and updates the separation of every batched point.
/// Each body's corners' sweep beyond what the pass's contacts hold adds to
/// data.uncoveredSweep; each member notes the largest in data.largestUncoveredSweep.
void integrateSolverPositions(ContactSolverData& data, const std::vector<Body>& bodies, float h,
                              ThreadTeam& team, int member);

}  // namespace impulse
