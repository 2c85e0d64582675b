// The constraint graph of the sub-steps: constraints coloured so that no two
// of a colour share a dynamic body, each colour packed into batches of
// kSimdWidth lanes (one manifold a lane), and unpacked again after them.
#pragma once

#include "physics/solver_data.h"

namespace impulse {

/// Colours the constraints (greedily, in manifold order: no two constraints of
/// a colour share a dynamic body) and packs each colour into batches for the
/// sub-steps, carrying the impulses accumulated so far. The effective masses
/// are computed here, lane-parallel, and again after every move in a batch
/// whose tensor turns (integrate.h); the inspector's copy: effectiveMassTerms.
void buildContactBatches(ContactSolverData& data);
/// The batches' impulses, separations and arrival speeds back into the
/// constraints, after the sub-steps, and the deepest overlap they left
/// (ContactSolverData::deepestSeparation, and ContactConstraint::deepestSeparation per manifold).
void storeBatchImpulses(ContactSolverData& data);

}  // namespace impulse
