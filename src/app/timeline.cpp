#include "app/timeline.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace impulse::app {

float StepScale::xOf(uint64_t step) const {
    if (last <= first) return x;
    step = std::clamp(step, first, last);
    return x + width * static_cast<float>(static_cast<double>(step - first) / static_cast<double>(last - first));
}

uint64_t StepScale::stepAt(float px) const {
    if (last <= first || width <= 0.0f) return first;
    const double fraction = std::clamp(static_cast<double>(px - x) / static_cast<double>(width), 0.0, 1.0);
    return first + static_cast<uint64_t>(std::llround(fraction * static_cast<double>(last - first)));
}

std::optional<LoopRange> loopBetween(uint64_t a, uint64_t b) {
    if (a == b) return std::nullopt;
    return LoopRange{std::min(a, b), std::max(a, b)};
}

PlayStep nextPlayStep(uint64_t shown, PlayDirection direction, uint64_t runStart, uint64_t runEnd,
                      const std::optional<LoopRange>& loop) {
    // A branch may have cut the run short of the loop: forward, playing then records on
    // until it reaches the in point; backward, the loop ends at the recorded end, and
    // one that starts beyond it is not played.
    if (direction == PlayDirection::forward) {
        if (loop && loop->in <= runEnd && (shown >= loop->out || shown < loop->in)) return PlayStep{loop->in, false};
        return PlayStep{shown + 1, false};
    }
    if (loop && loop->in < runEnd && (shown <= loop->in || shown > loop->out)) {
        return PlayStep{std::min(loop->out, runEnd), false};
    }
    if (shown <= runStart) return PlayStep{runStart, true};
    return PlayStep{shown - 1, shown - 1 == runStart};
}

int HoldRepeat::update(bool held, double now) {
    if (!held) {
        held_ = false;
        return 0;
    }
    if (!held_) {
        held_ = true;
        pressedAt_ = now;
        repeatsDone_ = 0;
        return 1;
    }
    const double sinceDelay = now - pressedAt_ - kDelay;
    if (sinceDelay < 0.0) return 0;
    // Repeats due by now (the first one at the end of the delay), less those taken.
    const long due = static_cast<long>(std::floor(sinceDelay * kRate)) + 1;
    const int steps = static_cast<int>(std::max(0L, due - repeatsDone_));
    repeatsDone_ = std::max(repeatsDone_, due);
    return steps;
}

Validation historyBudgetBytes(long long mib, size_t& bytes) {
    if (mib < kMinHistoryBudgetMiB || mib > kMaxHistoryBudgetMiB) {
        return FieldError{"history budget", "must be " + std::to_string(kMinHistoryBudgetMiB) + " to " +
                                                std::to_string(kMaxHistoryBudgetMiB) + " MiB, not " +
                                                std::to_string(mib)};
    }
    bytes = static_cast<size_t>(mib) << 20;
    return std::nullopt;
}

}  // namespace impulse::app
