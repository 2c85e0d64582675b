// What the experiment records of its run, step by step, for the panels: the
// impact log and the plotted series. Both keep the step of each entry, so that
// a run taken back to a step forgets what came after it.
#pragma once

#include "app/impact_log.h"
#include "app/plot_samples.h"

namespace impulse::app {

struct Observations {
    ImpactLog impacts;
    PlotSamples plots;

    /// After each step of `world`, `time` simulated seconds since the load or reset.
    void record(const World& world, double time) {
        impacts.record(world, time);
        plots.record(world, time);
    }
    /// A run taken back to `step` (World::stepCount()): what came after it goes.
    void forgetAfter(uint64_t step) {
        impacts.forgetAfter(step);
        plots.forgetAfter(step);
    }
    /// A new world is in force (a load, a reset, or an undo of one).
    void restart(const World& world) {
        impacts.clear();
        plots.rebind(world);
    }
};

}  // namespace impulse::app
