#include "physics/settings.h"

#include "physics/constants.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace impulse {

// ---------------------------------------------------------------- combine rules

const char* toString(RestitutionCombine rule) {
    switch (rule) {
        case RestitutionCombine::Max: return "max";
        case RestitutionCombine::Min: return "min";
        case RestitutionCombine::Average: return "average";
        case RestitutionCombine::Multiply: return "multiply";
    }
    return "max";
}

const char* toString(FrictionCombine rule) {
    switch (rule) {
        case FrictionCombine::Geometric: return "geometric";
        case FrictionCombine::Average: return "average";
        case FrictionCombine::Min: return "min";
        case FrictionCombine::Max: return "max";
    }
    return "geometric";
}

std::optional<RestitutionCombine> parseRestitutionCombine(const std::string& text) {
    for (auto rule : {RestitutionCombine::Max, RestitutionCombine::Min, RestitutionCombine::Average,
                      RestitutionCombine::Multiply}) {
        if (text == toString(rule)) return rule;
    }
    return std::nullopt;
}

std::optional<FrictionCombine> parseFrictionCombine(const std::string& text) {
    for (auto rule : {FrictionCombine::Geometric, FrictionCombine::Average, FrictionCombine::Min, FrictionCombine::Max}) {
        if (text == toString(rule)) return rule;
    }
    return std::nullopt;
}

// ---------------------------------------------------------------- validation

Validation validateSettings(const WorldSettings& s) {
    auto fail = [](const char* field, const std::string& rule) { return Validation(FieldError{field, rule}); };
    if (!isFinite(s.gravity)) return fail("gravity", "must hold finite numbers");
    if (glm::length(s.gravity) > kMaxGravity) {
        return fail("gravity", "magnitude must be <= " + std::to_string(int(kMaxGravity)) + " m/s^2");
    }
    if (!isFinite(s.timestep) || s.timestep < kMinTimestep || s.timestep > kMaxTimestep) {
        return fail("timestep", "must be a number in [1e-05, 0.1] s");
    }
    if (s.passes < 1 || s.passes > kMaxPasses) {
        return fail("passes", "must be an integer in [1, " + std::to_string(kMaxPasses) + "]");
    }
    if (s.subSteps < 1 || s.subSteps > kMaxSubSteps) {
        return fail("sub_steps", "must be an integer in [1, " + std::to_string(kMaxSubSteps) + "]");
    }
    if (s.positionIterations < 0 || s.positionIterations > kMaxPositionIterations) {
        return fail("position_iterations", "must be an integer in [0, " + std::to_string(kMaxPositionIterations) + "]");
    }
    if (!isFinite(s.restitutionThreshold) || s.restitutionThreshold < 0.0f || s.restitutionThreshold > kMaxSpeed) {
        return fail("restitution_threshold", "must be a number in [0, 1000] m/s");
    }
    if (!isFinite(s.sleepSpeed) || s.sleepSpeed < 0.0f || s.sleepSpeed > kMaxSleepSpeed) {
        return fail("sleep_speed", "must be a number in [0, 10] m/s");
    }
    if (!isFinite(s.sleepTime) || s.sleepTime <= 0.0f || s.sleepTime > kMaxSleepTime) {
        return fail("sleep_time", "must be a number in (0, 1000] s");
    }
    // Within the step guard's reach: beyond it no body stays to be removed.
    const auto withinGuard = [](const vec3& v) { return isFinite(v) && glm::all(glm::lessThanEqual(glm::abs(v), vec3(kBlownUpPosition))); };
    if (!withinGuard(s.bounds.min)) return fail("bounds.min", "must hold finite numbers in [-1e6, 1e6] m");
    if (!withinGuard(s.bounds.max)) return fail("bounds.max", "must hold finite numbers in [-1e6, 1e6] m");
    for (int axis = 0; axis < 3; ++axis) {
        if (!(s.bounds.min[axis] < s.bounds.max[axis])) {
            char detail[96];
            std::snprintf(detail, sizeof detail, "%c: min %g >= max %g", "xyz"[axis], double(s.bounds.min[axis]),
                          double(s.bounds.max[axis]));
            return fail("bounds", std::string("min must be less than max on every axis (") + detail + ")");
        }
    }
    return std::nullopt;
}

Validation validateDragSettings(const DragSettings& s) {
    if (!isFinite(s.frequency) || s.frequency <= 0.0f || s.frequency > kMaxDragFrequency) {
        return FieldError{"drag.frequency", "must be a number in (0, 1000] Hz"};
    }
    if (!isFinite(s.dampingRatio) || s.dampingRatio < 0.0f || s.dampingRatio > kMaxDragDampingRatio) {
        return FieldError{"drag.damping_ratio", "must be a number in [0, 100]"};
    }
    if (!isFinite(s.maxForceInWeights) || s.maxForceInWeights <= 0.0f || s.maxForceInWeights > kMaxDragForceInWeights) {
        return FieldError{"drag.max_force", "must be a number in (0, 10000] body weights"};
    }
    return std::nullopt;
}

Validation validateThreadCount(int count) {
    if (count < 1 || count > kMaxThreads) {
        return FieldError{"threads", "must be an integer in [1, " + std::to_string(kMaxThreads) + "]"};
    }
    return std::nullopt;
}


}  // namespace impulse
