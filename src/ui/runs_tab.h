// The Contact inspector's Runs tab: the runs a branch kept (when each was left, at
// which step), which one is the ghost drawn beside the run, hiding it or making it
// the current run again, and how far the two have come apart: per body, the worst
// body, and the worst over the steps shown, plotted.
#pragma once

#include "app/experiment.h"

#include <optional>

namespace impulse::ui {

/// What the Runs tab asks of the experiment (through the app, which redraws after).
struct GhostRequest {
    bool choose = false;              ///< show `ghost` (an index of previousRuns()), or none: hide
    std::optional<size_t> ghost;
    bool promote = false;             ///< the ghost becomes the current run
};

class RunsTab {
public:
    GhostRequest draw(const app::Experiment& experiment, float textScale);
};

}  // namespace impulse::ui
