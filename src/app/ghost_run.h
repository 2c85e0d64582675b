// The ghost: a previous run shown beside the current one, its world kept at the
// step shown (or at its end, if it ended before), and how far its bodies are from
// the same bodies now. No GL, SDL or ImGui here.
#pragma once

#include "app/run_timeline.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace impulse::app {

/// How far a body of the ghost run is from the same body (same handle) now.
struct BodyDivergence {
    BodyId body;
    float distance = 0.0f;  ///< between the centres of mass, m
    float angle = 0.0f;     ///< of the rotation from one orientation to the other, rad
};
/// The worst of the bodies at one step: the farthest and the most turned.
struct Divergence {
    uint64_t step = 0;
    BodyDivergence farthest;
    BodyDivergence mostTurned;
};

class GhostRun {
public:
    /// Which previous run is shown; none when hidden.
    std::optional<size_t> index() const { return index_; }
    /// Shows previousRuns[index] (nullopt or no such run: hides it) beside `shown`.
    void show(std::optional<size_t> index, const std::vector<Run>& previousRuns, const World& shown);
    /// Brings the ghost's world to `shown`'s step and notes its divergence.
    void follow(const std::vector<Run>& previousRuns, const World& shown);
    /// The ghost run's world at the step shown; null without a ghost.
    const World* world() const { return index_ ? &world_ : nullptr; }
    /// Per body of `shown` that the ghost has too (same handle).
    std::vector<BodyDivergence> divergence(const World& shown) const;
    /// The worst of divergence() at `shown`'s step.
    Divergence worstDivergence(const World& shown) const;
    /// The worst divergence at each step shown with this ghost, ascending steps.
    const std::vector<Divergence>& divergenceSeries() const { return divergenceSeries_; }

private:
    std::optional<size_t> index_;
    World world_;
    double time_ = 0.0;
    bool following_ = false;  // world_ is the ghost run's, at an earlier shown step
    std::vector<Divergence> divergenceSeries_;
};

}  // namespace impulse::app
