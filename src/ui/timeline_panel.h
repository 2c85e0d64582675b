// The timeline under the 3D view: the run's recorded range as a scrubber strip
// (keyframe ticks, marks where inputs and impacts happened, the loop range and
// the shown step), its buttons (jump to start or end, step, play either way, the
// loop's in and out points) and the history's size and budget. A click or drag
// on the strip asks for a seek; the app does it (app/timeline.h's arithmetic).
#pragma once

#include "app/experiment.h"
#include "app/timeline.h"
#include "ui/layout.h"
#include "ui/panels.h"

#include <cstdint>
#include <optional>
#include <string>

namespace impulse::ui {

/// What the timeline keeps between frames, changed by its buttons and the app's keys.
struct TimelineControls {
    /// Playing (SimControls::paused false) goes backward through the recorded run.
    bool backward = false;
    /// The loop's points as set (I, O): playback loops while both are set and differ.
    std::optional<uint64_t> loopIn, loopOut;
    std::optional<app::LoopRange> loop() const {
        return loopIn && loopOut ? app::loopBetween(*loopIn, *loopOut) : std::nullopt;
    }
};

/// What the timeline asked for this frame besides a seek (PanelRequests::seek).
struct TimelineRequests {
    bool stepBackHeld = false, stepForwardHeld = false;  ///< the step buttons are held down
    std::optional<size_t> historyBudget;                 ///< bytes, validated
};

class TimelinePanel {
public:
    void draw(const app::Experiment& experiment, const Rect& rect, float textScale, SimControls& sim,
              TimelineControls& controls, TimelineRequests& requests, PanelRequests& panelRequests);
    /// Where the strip was last drawn (window pixels): test scripts click it (the layout report).
    const Rect& strip() const { return strip_; }

private:
    void drawStrip(const app::Experiment& experiment, const app::StepScale& scale, const TimelineControls& controls,
                   float height, PanelRequests& requests);
    void historyPopup(const app::Experiment& experiment, TimelineRequests& requests);

    Rect strip_;
    std::optional<uint64_t> scrubbedTo_;  ///< the step the held strip last asked for
    int budgetMiB_ = 0;                   ///< the popup's field, until applied
    std::string budgetError_;
};

}  // namespace impulse::ui
