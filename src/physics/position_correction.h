// The rigid position passes after a pass's velocities are final: overlap the
// sub-steps' push-out left beyond the slop (deep spawns), positions only.
#pragma once

#include "physics/body.h"
#include "physics/contact.h"
#include "physics/solver_data.h"

#include <vector>

namespace impulse {

/// `iterations` nonlinear Gauss-Seidel passes over positions (Box2D's position
/// solver) for overlap beyond kPositionSlop, velocities untouched. A point is
/// measured as in the sub-steps (each body carries it by its anchor); a pass
/// skips manifolds no deeper than kPositionCheckDepth whose bodies it has not moved.
void solveContactPositions(ContactSolverData& data, std::vector<ContactManifold>& manifolds,
                           std::vector<Body>& bodies, int iterations);

}  // namespace impulse
