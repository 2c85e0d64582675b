// Holds the frame rate by cutting optional drawing work one step at a time while
// frames run over their budget, and restoring it once the frame has room again.
//
// Frames are judged by the median of a window of frames, so one slow frame (a
// scheduler hiccup) changes nothing; a window a little over the budget is cut only if
// the next one is too. What a step costs is measured whenever it is cut
// or restored, from the windows just before and just after; it comes back when the
// frame plus that cost fits into 90% of the budget.
//
// Those measurements are noisy (the host's speed drifts) and may be taken while the
// load changes (a pile falls while its shadows are cut), so two more rules:
// - a frame with room is given the step back after a while even if its cost seems
//   too high (a probe), which measures it again;
// - a restore that is cut again within kHeldWindows was a mistake: the waits before
//   the next restore and the next probe double, so a load right at the budget makes
//   the picture change ever more rarely, not every second.
#pragma once

#include <algorithm>
#include <array>
#include <vector>

namespace impulse::app {

class FrameBudget {
public:
    static constexpr int kMaxCut = 2;
    /// Frames judged together: half a second at 60 fps.
    static constexpr size_t kWindowFrames = 30;
    /// A step is restored only if the estimate leaves this share of the budget spare:
    /// the host's speed drifts by several per cent from one second to the next.
    static constexpr double kRestoreShare = 0.9;
    /// A window this far over the budget is cut at once (a pile starts falling); one
    /// less late may be the host's drift, and is cut after a second late window.
    static constexpr double kClearOverrun = 1.1;
    /// Windows at a level before the step above may come back (the first measures what
    /// the last move changed), and before a probe (10 s); each doubles after a restore
    /// that did not hold, up to kMaxWaitWindows (80 s).
    static constexpr int kFirstRestoreWindows = 2;
    static constexpr int kFirstProbeWindows = 20;
    static constexpr int kMaxWaitWindows = 160;
    /// A restore that lasts this many windows (5 s) held: the waits start again.
    static constexpr int kHeldWindows = 10;

    explicit FrameBudget(double budgetMs) : budgetMs_(budgetMs) {}

    /// How many steps of optional work are cut now: 0 (none) to kMaxCut.
    int cut() const { return cut_; }

    /// After each frame: its work in ms.
    void record(double workMs) {
        window_.push_back(workMs);
        if (window_.size() < kWindowFrames) return;
        const double median = windowMedian();
        window_.clear();
        ++windowsAtCut_;
        if (cut_ != cutBefore_) {
            // The first window after a move: the step between the two levels, in
            // whichever direction it was taken.
            const double grew = median - lastMedian_;
            costOf_[std::max(cut_, cutBefore_)] = std::max(cut_ < cutBefore_ ? grew : -grew, 0.0);
        }
        lastMedian_ = median;
        cutBefore_ = cut_;
        if (restored_ && windowsAtCut_ == kHeldWindows) {
            restoreWindows_ = kFirstRestoreWindows;
            probeWindows_ = kFirstProbeWindows;
        }
        lateWindows_ = median > budgetMs_ ? lateWindows_ + 1 : 0;
        if (lateWindows_ > 0) {
            if (cut_ == kMaxCut || (median <= kClearOverrun * budgetMs_ && lateWindows_ < 2)) return;
            if (restored_ && windowsAtCut_ < kHeldWindows) {
                restoreWindows_ = std::min(2 * restoreWindows_, kMaxWaitWindows);
                probeWindows_ = std::min(2 * probeWindows_, kMaxWaitWindows);
            }
            moveTo(cut_ + 1, false);
            return;
        }
        const double room = kRestoreShare * budgetMs_;
        const bool fits = median + costOf_[cut_] <= room && windowsAtCut_ >= restoreWindows_;
        const bool probe = median <= room && windowsAtCut_ >= probeWindows_;
        if (cut_ > 0 && (fits || probe)) moveTo(cut_ - 1, true);
    }

    /// Back to no cut, with nothing measured (the feature was switched off, or the
    /// scene changed).
    void reset() { *this = FrameBudget(budgetMs_); }

private:
    double windowMedian() {
        const auto middle = window_.begin() + static_cast<std::ptrdiff_t>(window_.size() / 2);
        std::nth_element(window_.begin(), middle, window_.end());
        return *middle;
    }

    void moveTo(int cut, bool restored) {
        cut_ = cut;
        restored_ = restored;
        windowsAtCut_ = 0;
        lateWindows_ = 0;
    }

    double budgetMs_;
    int cut_ = 0;
    bool restored_ = false;  // the present cut was reached by a restore
    std::vector<double> window_;
    int windowsAtCut_ = 0;
    int lateWindows_ = 0;  // judged over the budget in a row
    int cutBefore_ = 0;                         // the cut during the last judged window
    double lastMedian_ = 0.0;                   // that window's median
    std::array<double, kMaxCut + 1> costOf_{};  // [c]: what restoring step c adds to a frame, last measured
    int restoreWindows_ = kFirstRestoreWindows;
    int probeWindows_ = kFirstProbeWindows;
};

}  // namespace impulse::app
