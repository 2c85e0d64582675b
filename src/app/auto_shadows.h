// Shadows: On, Off or Auto. Auto cuts optional shadow work on the software tier while
// the 3D pass (the rasteriser's time for the view, not the physics, which cutting
// shadows cannot shorten) runs over its budget, and restores it once there is room.
//
// RenderBudget decides the cut: the 3D pass is judged by the median of a window of
// frames, so one slow frame (a scheduler hiccup) changes nothing; a window a little over
// the budget is cut only if the next one is too. What a step costs is measured whenever
// it is cut or restored, from the windows just before and just after; it comes back when
// the pass plus that cost fits into 90% of the budget.
//
// Those measurements are noisy (the host's speed drifts) and may be taken while the
// load changes (a pile falls while its shadows are cut), so two more rules:
// - a pass with room is given the step back after a while even if its cost seems
//   too high (a probe), which measures it again;
// - a restore that is cut again within kHeldWindows was a mistake: the waits before
//   the next restore and the next probe double, so a load right at the budget makes
//   the picture change ever more rarely, not every second.
#pragma once

#include "render/render_tier.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace impulse::app {

class RenderBudget {
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

    explicit RenderBudget(double budgetMs) : budgetMs_(budgetMs) {}

    /// How many steps of optional work are cut now: 0 (none) to kMaxCut.
    int cut() const { return cut_; }
    /// Windows judged so far, and the last one's median (ms).
    int windowsJudged() const { return windowsJudged_; }
    double lastMedian() const { return lastMedian_; }

    /// After each frame: the time judged (ms).
    void record(double ms) {
        window_.push_back(ms);
        if (window_.size() < kWindowFrames) return;
        const double median = windowMedian();
        window_.clear();
        ++windowsJudged_;
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

    /// Back to no cut, with nothing measured (Auto was left, or the scene changed).
    void reset() { *this = RenderBudget(budgetMs_); }

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
    int windowsJudged_ = 0;
    int windowsAtCut_ = 0;
    int lateWindows_ = 0;  // judged over the budget in a row
    int cutBefore_ = 0;                         // the cut during the last judged window
    double lastMedian_ = 0.0;                   // that window's median
    std::array<double, kMaxCut + 1> costOf_{};  // [c]: what restoring step c adds to a frame, last measured
    int restoreWindows_ = kFirstRestoreWindows;
    int probeWindows_ = kFirstProbeWindows;
};

/// The Shadows setting (World panel, saved with the app's settings, --shadows).
enum class ShadowMode { automatic, on, off };

const char* shadowModeName(ShadowMode mode);  ///< "auto", "on", "off"
/// "auto", "on" or "off"; false for anything else.
bool parseShadowMode(const std::string& text, ShadowMode& out);

/// What is cut from the shadows, in the order Auto cuts: bodies stop receiving them,
/// then they go off.
enum class ShadowCut { none, onBodies, all };

/// One frame's stage times (ms), and its shadow cut.
struct FrameTimes {
    double frame = 0.0;    ///< since the previous frame's start
    double busy = 0.0;     ///< work of this frame, without the wait for the 60 Hz cap
    double physics = 0.0;  ///< every step of the frame (before the draw lists, on the main thread)
    /// The 3D pass's GL work: on the software tier from its start until a fence after it
    /// signals (the rasteriser's time); on the standard tier a GL timer query's, a frame
    /// or two late. Negative: not known yet.
    double render3d = -1.0;
    double render = 0.0;   ///< draw lists, debug layer, 3D pass (see FrameInfo::renderMs)
    double ui = 0.0;       ///< panels' ImGui calls and their GL drawing
    double uiDraw = 0.0;   ///< the GL drawing part of ui (software tier: waited for)
    double uiGl = -1.0;    ///< the panels' GL work by a timer query (standard tier); negative: unknown
    double present = 0.0;  ///< screenshot and buffer swap
    ShadowCut shadowCut = ShadowCut::none;  ///< what this frame was drawn without
};

/// Decides what each frame draws of the shadows from the setting, the tier and the
/// 3D pass's recent times.
class AutoShadows {
public:
    /// The 3D pass may take this much of a 60 Hz frame (ms): the panels (~2 ms on
    /// llvmpipe) and the buffer swap (~1 ms under Xvfb) need the rest. A settled
    /// pile1000 with full shadows (~12 ms) fits; a falling one (~16 ms) does not.
    static constexpr double kRenderBudgetMs = 13.0;

    /// What the next frame cuts.
    ShadowCut cut(ShadowMode mode, const render::TierSettings& tier) const {
        if (mode == ShadowMode::off) return ShadowCut::all;
        if (mode == ShadowMode::on || !tier.autoShadowCut) return ShadowCut::none;
        return static_cast<ShadowCut>(budget_.cut());
    }
    /// After each frame: only its 3D pass counts (physics, panels and the wait for the
    /// display do not: cutting shadows shortens none of them).
    void record(const FrameTimes& times, ShadowMode mode, const render::TierSettings& tier) {
        if (mode != ShadowMode::automatic || !tier.autoShadowCut) {
            budget_.reset();
            return;
        }
        if (times.render3d >= 0.0) budget_.record(times.render3d);
    }
    /// The world was replaced: what the cuts saved was measured on the old one.
    void reset() { budget_.reset(); }
    /// The judged windows since the last reset (see RenderBudget).
    const RenderBudget& budget() const { return budget_; }

private:
    static_assert(static_cast<int>(ShadowCut::all) == RenderBudget::kMaxCut, "one cut per ShadowCut step");
    RenderBudget budget_{kRenderBudgetMs};
};

/// What Stats says about the shadows: which, and why.
std::string describeShadows(ShadowMode mode, const render::TierSettings& tier, ShadowCut cut, double render3dMs);

}  // namespace impulse::app
