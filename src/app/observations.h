// What the experiment records of its run, step by step, for the panels and the
// overlays: the impact log, the strongest impact of each step, the plotted
// series and the bodies' trails. Each keeps the step of its entries, so that a run taken back to a
// step forgets what came after it.
#pragma once

#include "app/classroom.h"
#include "app/impact_log.h"
#include "app/plot_samples.h"
#include "app/trails.h"

namespace impulse::app {

struct Observations {
    ImpactLog impacts;
    ImpactBookkeepingLog strongestImpacts;
    PlotSamples plots;
    BodyTrails trails;

    /// Just before each step of `world`, after its inputs.
    void beforeStep(const World& world) { strongestImpacts.beforeStep(world); }
    /// After each step of `world`, `time` simulated seconds since the load or reset.
    void record(const World& world, double time) {
        impacts.record(world, time);
        strongestImpacts.record(world, time);
        plots.record(world, time);
        trails.record(world, time);
    }
    /// A run taken back to `step` (World::stepCount()): what came after it goes.
    void forgetAfter(uint64_t step) {
        impacts.forgetAfter(step);
        strongestImpacts.forgetAfter(step);
        plots.forgetAfter(step);
        trails.forgetAfter(step);
    }
    /// A new world is in force (a load, a reset, or an undo of one).
    void restart(const World& world) {
        impacts.clear();
        strongestImpacts.clear();
        plots.rebind(world);
        trails.clear();
    }
};

}  // namespace impulse::app
