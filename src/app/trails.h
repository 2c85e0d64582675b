// The paths the view's trails draw: after every step of the run, each dynamic
// body's centre of mass and a point fixed on its surface (the marked point, whose
// path shows the spin), kept for the last kMaxSeconds of simulated time. Recorded
// only while the trails are shown, so a run without them pays nothing. The points
// keep their step, so a run taken back to a step forgets the later ones
// (forgetAfter), as the plots do, and the view draws only those at or before the
// step shown. A body an edit puts elsewhere (the gizmo, the Body panel, undo) is
// noted as a move, so its path is not drawn across the jump. No GL, SDL or ImGui.
#pragma once

#include "physics/world.h"

#include <cstdint>
#include <deque>
#include <vector>

namespace impulse::app {

/// Where the marked point sits in the body's frame: a box's corner (+x, +y, +z), a
/// sphere's surface on the same diagonal, so that a spin about any principal axis moves it.
vec3 markedPointOffset(const Shape& shape);

struct TrailPoint {
    vec3 centre;  ///< the centre of mass after the step, m
    vec3 mark;    ///< the marked point after the step, m
};

/// The body's centre of mass and marked point where it is now.
TrailPoint trailPointOf(const Body& body);

/// An edit after a step's motion put the body elsewhere: its path goes on from `to`.
struct TrailMove {
    uint64_t step = 0;
    TrailPoint to;
};

/// One body's points, one per step from `firstStep` on without a gap (a body that
/// leaves the record, deleted or made static, and comes back starts a new trail).
struct BodyTrail {
    BodyId body;
    uint64_t firstStep = 0;
    std::deque<TrailPoint> points;
    std::vector<TrailMove> moves;  ///< ascending steps, within the points' steps
    uint64_t lastStep() const { return firstStep + points.size() - 1; }
};

/// A point of a trail as drawn: where, and how many seconds before the step shown.
struct ShownTrailPoint {
    vec3 position;
    float age = 0.0f;
    bool startsLine = false;  ///< where a move put the body: no line from the point before
};

class BodyTrails {
public:
    /// The longest trail the view can ask for (s of simulated time); older points go.
    static constexpr double kMaxSeconds = 10.0;

    /// Off forgets every point; on records from the next step.
    void setRecording(bool on);
    bool recording() const { return recording_; }
    /// The points of `world` after a step (World::stepCount()), `time` simulated seconds
    /// since the load or reset. A step already kept (a recorded run played again after
    /// a rewind) adds nothing; a step that does not follow the last kept one (the view
    /// jumped past them) starts the record anew there.
    void record(const World& world, double time);
    /// Notes where `world`'s bodies are, at the last step kept, if an edit made since
    /// that step's motion put them elsewhere (or back where the step left them: no move).
    /// Called after each edit (an undo too) and before each step of a run played again
    /// with its edits, so that every way a body is moved is noted.
    void noteMoves(const World& world);
    /// Forgets the points of steps after `step` and the moves at it (a run taken back
    /// to that step: the edits made there are the new run's).
    void forgetAfter(uint64_t step);
    /// A new world (a load or reset): every point goes.
    void clear();

    /// Every body's trail, by handle index (a slot may be empty).
    const std::vector<BodyTrail>& trails() const { return trails_; }
    /// The trail of `body`; null when none is kept.
    const BodyTrail* trailOf(BodyId body) const;
    /// Whether the record holds `step`: only then is a trail drawn at it.
    bool holds(uint64_t step) const { return !times_.empty() && step >= firstStep_ && step <= lastStep(); }
    uint64_t firstStep() const { return firstStep_; }
    uint64_t lastStep() const { return firstStep_ + times_.size() - 1; }
    /// Simulated time after `step`; `holds(step)` must be true.
    double timeAt(uint64_t step) const { return times_[step - firstStep_]; }

    /// The stretch of `trail` shown at `shownStep`: its points at or before that step and
    /// at most `seconds` older, oldest first, centres or marked points, each move's point
    /// after its step's. Appended to `out`; nothing when the record does not hold `shownStep`.
    void shownPoints(const BodyTrail& trail, uint64_t shownStep, double seconds, bool marks,
                     std::vector<ShownTrailPoint>& out) const;

private:
    bool recording_ = false;
    uint64_t firstStep_ = 0;
    std::deque<double> times_;  // one per step kept, from firstStep_
    std::vector<BodyTrail> trails_;
};

}  // namespace impulse::app
