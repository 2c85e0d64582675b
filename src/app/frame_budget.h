// Holds the frame rate by cutting optional drawing work one step at a time while
// frames run over their budget, and restoring it once the frame has room again.
//
// Frames are judged by the median of a window of frames, so one slow frame (a
// scheduler hiccup) changes nothing. What a step costs is measured whenever it is cut
// or restored, from the windows just before and just after; it comes back only when
// the frame plus that cost fits into 90% of the budget. So the frame does not flicker
// between two levels while the load stays the same: after a restore that overran, the
// load must first fall by a tenth of the budget below where that try was made.
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
    /// Windows at a level before the step above may come back: the first measures what
    /// the last move changed.
    static constexpr int kWindowsBeforeRestore = 2;

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
            // The step between the two levels, in whichever direction it was taken.
            const bool cutNow = cut_ > cutBefore_;
            costOf_[std::max(cut_, cutBefore_)] =
                std::max(cutNow ? lastMedian_ - median : median - lastMedian_, 0.0);
        }
        lastMedian_ = median;
        cutBefore_ = cut_;
        if (median > budgetMs_) {
            if (cut_ < kMaxCut) moveTo(cut_ + 1);
        } else if (cut_ > 0 && windowsAtCut_ >= kWindowsBeforeRestore &&
                   median + costOf_[cut_] <= kRestoreShare * budgetMs_) {
            moveTo(cut_ - 1);
        }
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

    void moveTo(int cut) {
        cut_ = cut;
        windowsAtCut_ = 0;
    }

    double budgetMs_;
    int cut_ = 0;
    std::vector<double> window_;
    int windowsAtCut_ = 0;
    int cutBefore_ = 0;                         // the cut during the last judged window
    double lastMedian_ = 0.0;                   // that window's median
    std::array<double, kMaxCut + 1> costOf_{};  // [c]: what restoring step c adds to a frame, last measured
};

}  // namespace impulse::app
