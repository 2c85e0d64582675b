// The solve of one collide-and-solve pass as a short list of named stages (as
// in Box2D v3's solver.c), each a call into the file that holds its concept.
// World::step detects contacts (World::collide) and then runs solvePass; the
// tests run the same stages through solvePass or runStage, never a copy of
// their order.
#pragma once

#include "physics/body.h"
#include "physics/contact.h"
#include "physics/drag_constraint.h"
#include "physics/settings.h"
#include "physics/solver_data.h"
#include "physics/thread_team.h"

#include <cstdint>
#include <vector>

namespace impulse {

/// The stages of a pass, in the order they run (docs/physics.md maps each to its file).
enum class SolverStage : uint8_t {
    PrepareContacts,      ///< solver slots, constraints, touching impacts (contact_prepare)
    ImpactsBefore,        ///< impacts of touching points (impact)
    PackBatches,          ///< colour the constraints, pack the batches (constraint_graph)
    IntegrateVelocities,  ///< sub-step: gravity (integrate)
    WarmStart,            ///< sub-step: last sub-step's impulses again (contact_sweeps)
    Drag,                 ///< sub-step: the mouse drag's spring (drag_constraint)
    Solve,                ///< sub-step: friction, rigid normal impulse, split push-out (contact_sweeps)
    Support,              ///< sub-step: heavy bodies on light ones, if any (contact_sweeps)
    IntegratePositions,   ///< sub-step: move the bodies, separations again (integrate)
    Relax,                ///< sub-step: the velocities against the moved bodies (contact_sweeps)
    StoreImpulses,        ///< unpack the batches into the constraints (constraint_graph)
    ImpactsAfter,         ///< impacts of gaps that closed in the sub-steps (impact)
    WriteBack,            ///< bodies, warm-start impulses and reports, drag force (contact)
    CorrectPositions,     ///< rigid position passes for deep overlap (position_correction)
};

inline constexpr SolverStage kStagesBeforeSubSteps[] = {SolverStage::PrepareContacts,
                                                        SolverStage::ImpactsBefore, SolverStage::PackBatches};
/// Run `subSteps` times, on every member of the thread team.
inline constexpr SolverStage kSubStepStages[] = {SolverStage::IntegrateVelocities,
                                                 SolverStage::WarmStart,
                                                 SolverStage::Drag,
                                                 SolverStage::Solve,
                                                 SolverStage::Support,
                                                 SolverStage::IntegratePositions,
                                                 SolverStage::Relax};
inline constexpr SolverStage kStagesAfterSubSteps[] = {SolverStage::StoreImpulses, SolverStage::ImpactsAfter,
                                                       SolverStage::WriteBack, SolverStage::CorrectPositions};

/// What one pass's solve reads and writes. World owns all of it.
struct SolverPass {
    const WorldSettings& settings;
    float dt;  ///< s, the pass; each sub-step is dt / subStepCount()
    std::vector<Body>& bodies;
    std::vector<ContactManifold>& manifolds;
    std::vector<ContactReport>& reports;  ///< one per manifold, written by WriteBack
    ContactSolverData& data;
    ThreadTeam& team;
    DragState* drag = nullptr;  ///< null while nothing is dragged
    DragSolver* dragSolver = nullptr;
    /// The bodies this pass may move (ascending; World::step's pass group),
    /// or null: every awake dynamic body.
    const std::vector<uint32_t>* passBodies = nullptr;
    /// End the sub-steps early once a body's corners went kMaxUncoveredSweep
    /// beyond what the pass's contacts hold (a spin gained within the pass);
    /// World::step then runs the rest on fresh contacts (World::runGroupPasses).
    bool mayEndEarly = false;
    /// The pass's sub-steps, 0 for settings.subSteps: fewer for the rest of a
    /// pass that ended early, so its sub-steps keep their planned length.
    int subSteps = 0;
    /// Out: the sub-steps run, subStepCount() unless the pass ended early.
    int subStepsRun = 0;

    int subStepCount() const { return subSteps > 0 ? subSteps : settings.subSteps; }
    float subStepLength() const { return dt / float(subStepCount()); }
};

/// Runs one stage. A sub-step stage runs on every member of pass.team (inside
/// ThreadTeam::run) with its sub-step's index; the others on the caller, member 0.
void runStage(SolverPass& pass, SolverStage stage, int member = 0, int subStep = 0);

/// The whole solve of a pass: the stages before, in and after the sub-steps
/// (fewer sub-steps if pass.mayEndEarly and a body's corners went too far).
void solvePass(SolverPass& pass);

}  // namespace impulse
