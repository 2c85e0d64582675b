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

/// The clock while a video is recorded: each rendered frame is one video frame, a fixed
/// 1/framesPerSecond of simulated time (times the time scale), whatever the wall clock
/// says. So a slow machine still gives a smooth clip, only slower to make; and no cap on
/// steps per frame: none is ever dropped.
class VideoFrameClock {
public:
    explicit VideoFrameClock(int framesPerSecond) : frameSeconds_(1.0 / framesPerSecond) {}

    /// Banks one video frame of simulated time; returns how many steps of `dt` it makes due.
    int advance(double dt, double timeScale) {
        if (dt <= 0.0) return 0;
        double stepsPerFrame = frameSeconds_ * std::max(timeScale, 0.0) / dt;
        // The world's timestep is a float: 1/60 s is 1.0000000497 of 1/60 s. A frame that
        // is a whole number of steps, or one step a whole number of frames, within that
        // rounding, is taken as exactly that, so the rounding never adds up to a step
        // missed (60 frames of 1/60 s make 60 steps, not 59).
        constexpr double kRounding = 1e-5;
        const double steps = std::round(stepsPerFrame), frames = std::round(1.0 / stepsPerFrame);
        if (steps >= 1.0 && std::fabs(stepsPerFrame - steps) < kRounding * steps) {
            stepsPerFrame = steps;
        } else if (frames >= 1.0 && std::fabs(1.0 / stepsPerFrame - frames) < kRounding * frames) {
            stepsPerFrame = 1.0 / frames;
        }
        accumulator_ += stepsPerFrame;
        int due = 0;
        while (accumulator_ >= 1.0 - 1e-9) {  // 3 x 1/3 may round below 1
            accumulator_ -= 1.0;
            ++due;
        }
        return due;
    }
    /// Like FixedStepClock::alpha: the frame is drawn this far into the next step.
    double alpha() const { return std::clamp(accumulator_, 0.0, 1.0); }
    void reset() { accumulator_ = 0.0; }

private:
    double frameSeconds_;
    double accumulator_ = 0.0;  // in steps
};

}  // namespace impulse::app
