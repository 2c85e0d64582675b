#include "physics/solver.h"

#include "physics/constants.h"
#include "physics/constraint_graph.h"
#include "physics/contact_prepare.h"
#include "physics/contact_sweeps.h"
#include "physics/impact.h"
#include "physics/integrate.h"
#include "physics/position_correction.h"

#include <algorithm>
#include <cmath>

namespace impulse {
namespace {

Body* draggedBody(SolverPass& pass) {
    return pass.drag ? &pass.bodies[pass.drag->body.index] : nullptr;
}

ImpactRules impactRules(const SolverPass& pass, ImpactStage stage) {
    ImpactRules rules;
    rules.stage = stage;
    rules.threshold = pass.settings.restitutionThreshold;
    rules.gravity = pass.settings.gravity;
    rules.draggedSlot = pass.drag ? pass.data.slotOfBody[pass.drag->body.index] : 0;
    return rules;
}

// The drag's spring on the dragged body's slot, by member 0 while the others wait.
void solveDragStage(SolverPass& pass, int member, float h) {
    Body* dragged = draggedBody(pass);
    if (dragged == nullptr) return;
    if (member == 0) {
        const DragState& drag = *pass.drag;
        SolverBody& slot = pass.data.bodies[pass.data.slotOfBody[drag.body.index]];
        // The cap is in body weights; under zero gravity use Earth's so it still pulls.
        const float weight =
            dragged->mass * std::max(glm::length(pass.settings.gravity), kDragReferenceGravity);
        prepareDrag(*pass.dragSolver, dragged->position + slot.deltaPosition, slot.orientation, *dragged,
                    drag.localAnchor, drag.target, drag.settings.frequency, drag.settings.dampingRatio,
                    drag.settings.maxForceInWeights * weight, h);
        solveDrag(*pass.dragSolver, slot);
    }
    pass.team.sync();
}

}  // namespace

void runStage(SolverPass& pass, SolverStage stage, int member, int subStep) {
    ContactSolverData& data = pass.data;
    const WorldSettings& settings = pass.settings;
    const float h = pass.subStepLength();
    // Odd sub-steps solve the batches backwards and relax them forwards.
    const bool reverse = subStep % 2 == 1;
    switch (stage) {
        case SolverStage::PrepareContacts:
            prepareContacts(pass.manifolds, pass.bodies, pass.passBodies, settings.restitutionThreshold,
                            settings.gravity, pass.dt, data);
            data.largestUncoveredSweep.assign(size_t(pass.team.size()), 0.0f);
            break;
        case SolverStage::ImpactsBefore:
            resolveImpacts(data, pass.bodies, impactRules(pass, ImpactStage::BeforeSubSteps));
            break;
        case SolverStage::PackBatches:
            buildContactBatches(data);
            break;
        case SolverStage::IntegrateVelocities:
            integrateVelocities(data, settings.gravity, h, pass.team, member);
            break;
        case SolverStage::WarmStart:
            beginSubStep(data, settings.warmStarting, subStep == 0, pass.team, member);
            break;
        case SolverStage::Drag:
            solveDragStage(pass, member, h);
            break;
        case SolverStage::Solve:
            solveContacts(data, h, Sweep::Solve, reverse, pass.team, member);
            break;
        case SolverStage::Support:
            if (data.supportsHeavy) solveContacts(data, h, Sweep::Support, reverse, pass.team, member);
            break;
        case SolverStage::IntegratePositions:
            integrateSolverPositions(data, pass.bodies, h, pass.team, member);
            break;
        case SolverStage::Relax:
            solveContacts(data, h, Sweep::Relax, !reverse, pass.team, member);
            break;
        case SolverStage::StoreImpulses:
            storeBatchImpulses(data);
            break;
        case SolverStage::ImpactsAfter:
            findArrivals(data, impactSpeed(settings.restitutionThreshold, settings.gravity, pass.dt));
            resolveImpacts(data, pass.bodies, impactRules(pass, ImpactStage::AfterSubSteps));
            break;
        case SolverStage::WriteBack:
            finishContacts(data, pass.manifolds, pass.reports, pass.bodies);
            if (pass.drag) pass.drag->force = pass.dragSolver->impulse / h;
            break;
        case SolverStage::CorrectPositions:
            solveContactPositions(data, pass.manifolds, pass.bodies, settings.positionIterations);
            if (Body* dragged = draggedBody(pass)) {
                pass.drag->anchor = dragged->position + rotate(dragged->orientation, pass.drag->localAnchor);
            }
            break;
    }
}

void solvePass(SolverPass& pass) {
    for (SolverStage stage : kStagesBeforeSubSteps) runStage(pass, stage);
    const std::vector<float>& uncovered = pass.data.largestUncoveredSweep;
    const int subSteps = pass.subStepCount();
    pass.subStepsRun = subSteps;
    pass.team.run([&pass, &uncovered, subSteps](int member) {
        // The pass's contacts hold the corners that its start's motion brings
        // near: a body that gains spin within the pass (a corner caught at
        // speed) brings others round that they do not hold. Every member reads
        // the same largest sweep beyond what they hold (a max over all bodies
        // whatever the share) and stops at the same sub-step.
        for (int subStep = 0; subStep < subSteps; ++subStep) {
            for (SolverStage stage : kSubStepStages) runStage(pass, stage, member, subStep);
            if (!pass.mayEndEarly || subStep + 1 == subSteps) continue;
            // Read after IntegratePositions' barrier; rewritten only after the next sub-step's first.
            if (*std::max_element(uncovered.begin(), uncovered.end()) > kMaxUncoveredSweep) {
                if (member == 0) pass.subStepsRun = subStep + 1;
                break;
            }
        }
    });
    for (SolverStage stage : kStagesAfterSubSteps) runStage(pass, stage);
}

}  // namespace impulse
