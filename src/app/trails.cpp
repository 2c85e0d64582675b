#include "app/trails.h"

#include <algorithm>
#include <cmath>

namespace impulse::app {

vec3 markedPointOffset(const Shape& shape) {
    if (shape.type == ShapeType::Box) return shape.halfExtents;
    return vec3(shape.radius / std::sqrt(3.0f));
}

void BodyTrails::setRecording(bool on) {
    if (!on) clear();
    recording_ = on;
}

void BodyTrails::clear() {
    times_.clear();
    trails_.clear();
}

const BodyTrail* BodyTrails::trailOf(BodyId body) const {
    if (body.index >= trails_.size()) return nullptr;
    const BodyTrail& trail = trails_[body.index];
    return trail.body == body && !trail.points.empty() ? &trail : nullptr;
}

void BodyTrails::record(const World& world, double time) {
    if (!recording_) return;
    const uint64_t step = world.stepCount();
    if (holds(step)) return;  // the run played again after a rewind: the same points
    if (!times_.empty() && step != lastStep() + 1) clear();
    if (times_.empty()) firstStep_ = step;
    times_.push_back(time);
    for (BodyId id : world.bodyIds()) {
        const Body& b = world.body(id);
        if (b.isStatic) continue;
        if (id.index >= trails_.size()) trails_.resize(id.index + 1);
        BodyTrail& trail = trails_[id.index];
        // Another body in the slot, or this one back after a gap: no line across.
        if (trail.body != id || trail.points.empty() || trail.lastStep() + 1 != step) {
            trail.body = id;
            trail.firstStep = step;
            trail.points.clear();
        }
        trail.points.push_back({b.position, b.position + b.rotation * markedPointOffset(b.shape)});
    }
    // Points older than the longest trail are never drawn.
    while (times_.front() < time - kMaxSeconds) {
        times_.pop_front();
        ++firstStep_;
    }
    for (BodyTrail& trail : trails_) {
        while (!trail.points.empty() && trail.firstStep < firstStep_) {
            trail.points.pop_front();
            ++trail.firstStep;
        }
    }
}

void BodyTrails::forgetAfter(uint64_t step) {
    if (times_.empty()) return;
    if (step < firstStep_) {
        clear();
        return;
    }
    while (lastStep() > step) times_.pop_back();
    for (BodyTrail& trail : trails_) {
        while (!trail.points.empty() && trail.lastStep() > step) trail.points.pop_back();
    }
}

void BodyTrails::shownPoints(const BodyTrail& trail, uint64_t shownStep, double seconds, bool marks,
                             std::vector<ShownTrailPoint>& out) const {
    if (!holds(shownStep) || trail.points.empty() || trail.firstStep > shownStep) return;
    const double shownTime = timeAt(shownStep);
    const uint64_t last = std::min(trail.lastStep(), shownStep);
    uint64_t first = last;
    while (first > trail.firstStep && shownTime - timeAt(first - 1) <= seconds) --first;
    for (uint64_t step = first; step <= last; ++step) {
        const TrailPoint& point = trail.points[step - trail.firstStep];
        out.push_back({marks ? point.mark : point.centre, float(shownTime - timeAt(step))});
    }
}

}  // namespace impulse::app
