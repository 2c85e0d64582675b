// The sub-steps' sweeps over the packed batches, colour by colour: the warm
// start, the solve (friction, rigid normal impulse, split push-out), the
// support sweep for heavy bodies on light ones, and the relax sweep.
#pragma once

#include "physics/solver_data.h"
#include "physics/thread_team.h"

#include <cstdint>

namespace impulse {

/// beginSubStep, solveContacts and integrateSolverPositions run on every
/// member of `team` (inside ThreadTeam::run), each taking its share of every
/// colour, and return after a barrier. Results do not depend on the team's size.

/// Starts a sub-step: adds the impulses the last sub-step ended with to the
/// step's totals (not at the first: they are then last step's), then applies
/// them again (warm starting) or, without warm starting, sets them to zero.
void beginSubStep(ContactSolverData& data, bool warmStart, bool first, ThreadTeam& team, int member);

/// The sweeps of a sub-step.
enum class Sweep : uint8_t {
    Solve,  ///< before the move: rigid contacts, speculative gaps, split push-out
    Relax,  ///< after the move: the velocities again, no push-out
    /// After Solve, where a heavy body rests on one kSupportMassRatio times
    /// lighter: normal and push-out again with the light body held still (shock
    /// propagation; docs/physics.md, "Heavy on light"). Not accumulated: carried
    /// into the next warm start, these impulses yanked the light body about.
    Support,
};

/// One sequential-impulse sweep over the batches for a sub-step of length h:
/// friction (static mu_s while the impulse that stops the slip fits in
/// mu_s j_n, else kinetic mu against the slip), then the rigid normal impulse on the velocities (a speculative
/// point, s > 0, may close its gap but no more), then in Solve the split
/// push-out impulse on the pseudo-velocities of overlapping points. `reverse`
/// walks backwards.
void solveContacts(ContactSolverData& data, float h, Sweep sweep, bool reverse, ThreadTeam& team, int member);

}  // namespace impulse
