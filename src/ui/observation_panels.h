// What the experiment recorded of the run (app::Observations), as tabs of the
// column panels: the impact log's table beside the Contact inspector, and the
// plots of body quantities, with their CSV export, beside the Stats.
#pragma once

#include "app/observations.h"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>

namespace impulse::ui {

/// A tab bar whose tabs hold nothing themselves: the window draws the chosen tab's
/// content after it. Returns the index of the tab shown; `select` >= 0 brings that one
/// to the front.
int tabBar(const char* id, std::initializer_list<const char*> labels, int select = -1);

/// The impact log, newest first, the configured values beside the measured ones.
class ImpactLogTab {
public:
    /// Returns the entry whose row was clicked this frame, or null. Entries after the
    /// step shown (a past step of the run) are dimmed: they have not happened there yet.
    const app::ImpactEntry* draw(const app::ImpactLog& log, uint64_t shownStep);
    /// How far the table was last scrolled to the right (pixels).
    float scrollX() const { return scrollX_; }

private:
    float scrollX_ = 0.0f;
    size_t clicked_ = ~size_t(0);  ///< index into the log of the row last clicked
    uint64_t clickedStep_ = 0;     ///< its step, to find it again as the log grows
};

/// Picks body quantities to plot against time, draws them, and exports them to CSV.
class PlotsTab {
public:
    /// The body to plot follows `selected` whenever that changes; its combo picks another.
    /// The plot shows where the step shown is (a line) and keeps it in its time window;
    /// returns the step of a sample clicked in the plot.
    std::optional<uint64_t> draw(const World& world, BodyId selected, app::PlotSamples& plots, uint64_t shownStep,
                                 float textScale);

    /// A file an export button asked for this frame, once; the app writes it (and asks
    /// before replacing a file it did not write).
    struct Export {
        std::string path;
        bool wholeRun = false;  ///< every body at every step in impulse-sim's columns; else the plotted series
    };
    std::optional<Export> takeExport();
    /// Whether the plot is shown in a window of its own (its "own window" button), not the tab.
    bool inOwnWindow() const { return inOwnWindow_; }
    void setInOwnWindow(bool own) { inOwnWindow_ = own; }
    /// The line under the export buttons (the run export's progress and outcome).
    void setMessage(const std::string& message, bool isError) {
        message_ = message;
        messageIsError_ = isError;
    }

private:
    BodyId body_;          ///< whose quantity "plot it" adds
    BodyId lastSelected_;  ///< the selection body_ last followed
    int quantity_ = static_cast<int>(app::BodyQuantity::PositionY);
    float windowSeconds_ = 10.0f;
    bool inOwnWindow_ = false;
    std::string csvPath_ = "plots.csv";
    std::string message_;
    bool messageIsError_ = false;
    std::optional<Export> export_;
};

}  // namespace impulse::ui
