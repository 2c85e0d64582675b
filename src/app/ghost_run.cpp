#include "app/ghost_run.h"

#include <algorithm>
#include <cmath>

namespace impulse::app {

namespace {

/// The angle of the rotation that takes orientation a to b, rad.
float angleBetween(const quat& a, const quat& b) {
    return 2.0f * std::acos(std::min(1.0f, std::fabs(glm::dot(a, b))));
}

}  // namespace

void GhostRun::show(std::optional<size_t> index, const std::vector<Run>& previousRuns, const World& shown) {
    index_ = index && *index < previousRuns.size() ? index : std::nullopt;
    following_ = false;
    divergenceSeries_.clear();
    follow(previousRuns, shown);
}

void GhostRun::follow(const std::vector<Run>& previousRuns, const World& shown) {
    if (!index_) return;
    const Run& ghost = previousRuns[*index_];
    const uint64_t step = std::clamp(shown.stepCount(), ghost.start(), ghost.end);
    // Playing forward, the ghost takes one step with the run instead of a seek.
    if (following_ && world_.stepCount() + 1 == step) {
        replayStep(ghost, world_, time_);
    } else if (!following_ || world_.stepCount() != step) {
        seekRun(ghost, world_, time_, step, following_);
    }
    following_ = true;
    if (divergenceSeries_.empty() || divergenceSeries_.back().step < shown.stepCount()) {
        divergenceSeries_.push_back(worstDivergence(shown));
    }
}

std::vector<BodyDivergence> GhostRun::divergence(const World& shown) const {
    std::vector<BodyDivergence> result;
    if (!index_) return result;
    for (BodyId id : shown.bodyIds()) {
        if (!world_.isValid(id)) continue;
        const Body& now = shown.body(id);
        const Body& then = world_.body(id);
        result.push_back(BodyDivergence{id, glm::length(now.position - then.position),
                                        angleBetween(now.orientation, then.orientation)});
    }
    return result;
}

Divergence GhostRun::worstDivergence(const World& shown) const {
    Divergence worst;
    worst.step = shown.stepCount();
    for (const BodyDivergence& body : divergence(shown)) {
        if (body.distance > worst.farthest.distance) worst.farthest = body;
        if (body.angle > worst.mostTurned.angle) worst.mostTurned = body;
    }
    return worst;
}

}  // namespace impulse::app
