// Fixed-timestep accumulator: wall time (scaled for slow motion) is banked and
// spent in whole physics steps; what is left over sets the render
// interpolation factor. A cap on steps per frame keeps a slow frame from
// triggering ever more steps (the "spiral of death"): the surplus is dropped.
#pragma once

#include <algorithm>
#include <cmath>

namespace impulse::app {

class FixedStepClock {
public:
    struct Plan {
        int steps = 0;       ///< physics steps to take this frame
        bool dropped = false; ///< time was discarded because of the cap
    };

    /// Banks `frameSeconds * timeScale` and returns how many steps of `dt` to take.
    /// Paused: nothing is banked, except that `stepOnce` yields exactly one step.
    Plan advance(double frameSeconds, double dt, double timeScale, int maxSteps, bool paused, bool stepOnce) {
        Plan plan;
        if (dt <= 0.0) return plan;
        if (paused) {
            accumulator_ = 0.0;
            plan.steps = stepOnce ? 1 : 0;
            dt_ = dt;
            return plan;
        }
        // A frame longer than this is a stall (debugger, window drag): do not try to catch up.
        frameSeconds = std::clamp(frameSeconds, 0.0, 0.25);
        accumulator_ += frameSeconds * std::max(timeScale, 0.0);
        while (accumulator_ >= dt && plan.steps < maxSteps) {
            accumulator_ -= dt;
            ++plan.steps;
        }
        if (accumulator_ >= dt) {
            accumulator_ = std::fmod(accumulator_, dt);
            plan.dropped = true;
        }
        dt_ = dt;
        return plan;
    }

    /// Fraction of a step banked but not yet simulated, in [0, 1): the render blends
    /// the previous and current states by it.
    double alpha() const { return dt_ > 0.0 ? std::clamp(accumulator_ / dt_, 0.0, 1.0) : 1.0; }
    void reset() { accumulator_ = 0.0; }

private:
    double accumulator_ = 0.0;
    double dt_ = 0.0;
};

}  // namespace impulse::app
