// The timeline's arithmetic, apart from its drawing: where a step sits on the
// scrubber strip and which step a point of it means, where playback goes next
// (forward, backward, wrapping within a loop range), and how a held step key or
// button repeats. No GL, SDL or ImGui: tested alone (tests/app/test_timeline.cpp).
#pragma once

#include "physics/body.h"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace impulse::app {

/// The steps [first, last] spread over a strip from x to x + width (window pixels).
struct StepScale {
    uint64_t first = 0, last = 0;
    float x = 0.0f, width = 0.0f;

    /// The x of a step (clamped to the strip).
    float xOf(uint64_t step) const;
    /// The step nearest to x (clamped to [first, last]).
    uint64_t stepAt(float px) const;
};

/// A loop's in and out points: playback wraps from one to the other.
struct LoopRange {
    uint64_t in = 0, out = 0;
};

/// In and out set in either order: the earlier is the in point. None when they are the
/// same step (a loop needs two).
std::optional<LoopRange> loopBetween(uint64_t a, uint64_t b);

enum class PlayDirection { forward, backward };

/// Where playback goes after one step from `shown`.
struct PlayStep {
    uint64_t step = 0;
    /// Playing backward reached the run's start (with no loop to wrap): playback stops there.
    bool stop = false;
};

/// One step of playback from `shown` in a run recorded from `runStart` to `runEnd`.
/// Forward goes to shown + 1 (beyond the recorded end the run goes on and is recorded);
/// backward to shown - 1, stopping at runStart. With a loop, a step that would leave it
/// (or one taken from outside it) goes to its other end instead, as far as the run is
/// recorded: a loop beyond the recorded end is played into forward and not at all backward.
PlayStep nextPlayStep(uint64_t shown, PlayDirection direction, uint64_t runStart, uint64_t runEnd,
                      const std::optional<LoopRange>& loop);

/// A step key or button held down: one step on the press, then, after kDelay, steps at
/// kRate a second, whatever the frame rate or the keyboard's own repeat.
class HoldRepeat {
public:
    static constexpr double kDelay = 0.4;  ///< s before the first repeat
    static constexpr double kRate = 15.0;  ///< steps a second while held after that

    /// Called once a frame with whether it is held and the time now (s); returns the
    /// steps to take this frame.
    int update(bool held, double now);

private:
    bool held_ = false;
    double pressedAt_ = 0.0;
    long repeatsDone_ = 0;
};

/// The history budget a user may set, MiB: enough for a few keyframes of a large world,
/// and no more than a desktop's memory.
inline constexpr long long kMinHistoryBudgetMiB = 16;
inline constexpr long long kMaxHistoryBudgetMiB = 65536;
/// The budget in bytes, or the rule a typed value breaks (field "history budget").
Validation historyBudgetBytes(long long mib, size_t& bytes);

}  // namespace impulse::app
