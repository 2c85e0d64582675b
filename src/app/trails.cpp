#include "app/trails.h"

#include <algorithm>
#include <cmath>

namespace impulse::app {

vec3 markedPointOffset(const Shape& shape) {
    if (shape.type == ShapeType::Box) return shape.halfExtents;
    return vec3(shape.radius / std::sqrt(3.0f));
}

TrailPoint trailPointOf(const Body& body) {
    return {body.position, body.position + body.rotation * markedPointOffset(body.shape)};
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
            trail.moves.clear();
        }
        trail.points.push_back(trailPointOf(b));
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
        while (!trail.moves.empty() && trail.moves.front().step < trail.firstStep) {
            trail.moves.erase(trail.moves.begin());
        }
    }
}

void BodyTrails::noteMoves(const World& world) {
    if (!recording_ || times_.empty()) return;
    const uint64_t step = world.stepCount();
    for (BodyId id : world.bodyIds()) {
        const Body& b = world.body(id);
        if (b.isStatic || id.index >= trails_.size()) continue;
        BodyTrail& trail = trails_[id.index];
        if (trail.body != id || trail.points.empty() || trail.lastStep() != step) continue;
        const TrailPoint now = trailPointOf(b);
        const TrailPoint& stepped = trail.points.back();
        const bool moved = now.centre != stepped.centre || now.mark != stepped.mark;
        const bool noted = !trail.moves.empty() && trail.moves.back().step == step;
        if (moved && noted) {
            trail.moves.back().to = now;
        } else if (moved) {
            trail.moves.push_back({step, now});
        } else if (noted) {
            trail.moves.pop_back();
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
        while (!trail.moves.empty() && trail.moves.back().step >= step) trail.moves.pop_back();
    }
}

void BodyTrails::shownPoints(const BodyTrail& trail, uint64_t shownStep, double seconds, bool marks,
                             std::vector<ShownTrailPoint>& out) const {
    if (!holds(shownStep) || trail.points.empty() || trail.firstStep > shownStep) return;
    const double shownTime = timeAt(shownStep);
    const uint64_t last = std::min(trail.lastStep(), shownStep);
    uint64_t first = last;
    while (first > trail.firstStep && shownTime - timeAt(first - 1) <= seconds) --first;
    auto move = std::lower_bound(trail.moves.begin(), trail.moves.end(), first,
                                 [](const TrailMove& m, uint64_t step) { return m.step < step; });
    for (uint64_t step = first; step <= last; ++step) {
        const TrailPoint& point = trail.points[step - trail.firstStep];
        const float age = float(shownTime - timeAt(step));
        out.push_back({marks ? point.mark : point.centre, age});
        if (move != trail.moves.end() && move->step == step) {
            // A turn moves the marked point only: the centre's line goes on unbroken.
            const vec3& to = marks ? move->to.mark : move->to.centre;
            if (to != out.back().position) out.push_back({to, age, true});
            ++move;
        }
    }
}

}  // namespace impulse::app
