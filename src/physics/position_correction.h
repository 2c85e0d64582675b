// The rigid position passes after a pass's velocities are final: overlap the
// sub-steps' push-out left beyond the slop (deep spawns), positions only.
#pragma once

#include "physics/body.h"
#include "physics/contact.h"
#include "physics/solver_data.h"

#include <vector>

namespace impulse {

/// The optional rigid position passes for overlap the sub-steps left beyond the
/// slop: `iterations` nonlinear Gauss-Seidel passes over positions (Box2D's
/// position solver), moving bodies apart along the normals without touching
/// velocities. A pass skips the manifolds whose every correction would be
/// zero: no point the sub-steps left within a quarter slop of needing one, and
/// neither body moved by a correction of these passes. A point's separation is
/// measured as in the sub-steps: each body carries the contact point by its
/// anchor (ConstraintPoint::anchorA/B). Resting contacts sit near -0.5 mm, so
/// most steps need no pass at all.
void solveContactPositions(ContactSolverData& data, std::vector<ContactManifold>& manifolds,
                           std::vector<Body>& bodies, int iterations);

}  // namespace impulse
