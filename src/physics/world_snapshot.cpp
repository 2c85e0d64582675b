// World::snapshot, World::snapshotAgainst and World::restore (world_snapshot.h).
#include "physics/world_snapshot.h"

#include "physics/world_internals.h"

#include <atomic>
#include <type_traits>

namespace impulse {

uint64_t nextLayoutRevision() {
    static std::atomic<uint64_t> last{0};
    return ++last;
}

namespace {

template <typename T>
size_t vectorBytes(const std::vector<T>& values) {
    return values.size() * sizeof(T);
}

/// `now` as its bytes that differ from `base` (the same length).
template <typename T>
ByteDelta deltaOf(const std::vector<T>& now, const std::vector<T>& base) {
    static_assert(std::is_trivially_copyable_v<T>, "kept and restored as bytes");
    return ByteDelta::encode(now.data(), base.data(), vectorBytes(now));
}

/// `base` with `delta`'s bytes written over it, into `target` (whose capacity is reused).
template <typename T>
void applyDelta(std::vector<T>& target, const std::vector<T>& base, const ByteDelta& delta) {
    target = base;
    delta.applyTo(target.data());
}

}  // namespace

size_t WorldSnapshot::bytes() const {
    size_t total = sizeof(*this) + vectorBytes(motion_) + vectorBytes(contacts_) + vectorBytes(sleepingContacts_) +
                   vectorBytes(reports_) + vectorBytes(sleepingReports_) + vectorBytes(impacts_) +
                   motionDelta_.bytes() + contactsDelta_.bytes() + sleepingContactsDelta_.bytes() +
                   reportsDelta_.bytes() + sleepingReportsDelta_.bytes();
    if (lastRecovery_) total += lastRecovery_->bodyName.capacity();
    return total;
}

size_t WorldSnapshot::stateBytes() const {
    const WorldSnapshot& full = base_ ? *base_ : *this;
    return vectorBytes(full.motion_) + vectorBytes(full.contacts_) + vectorBytes(full.sleepingContacts_) +
           vectorBytes(full.reports_) + vectorBytes(full.sleepingReports_);
}

size_t WorldSnapshot::layoutBytes() const {
    if (!layout_) return 0;
    size_t total = sizeof(Layout) + vectorBytes(layout_->bodies) + vectorBytes(layout_->freeSlots);
    for (const Body& body : layout_->bodies) total += body.name.capacity();
    return total;
}

namespace {

/// Each body slot's motion, written into `motion` (whose capacity is reused).
void motionOf(const std::vector<Body>& bodies, std::vector<BodyMotion>& motion) {
    motion.clear();
    motion.reserve(bodies.size());
    for (const Body& body : bodies) {
        motion.push_back(BodyMotion{body.position, body.orientation, body.linearVelocity, body.angularVelocity,
                                    body.rotation, body.inverseInertiaWorld, body.restTime, body.island,
                                    body.asleep, body.spinClamped});
    }
}

}  // namespace

WorldSnapshot World::snapshotAgainst(const std::shared_ptr<const WorldSnapshot>& base, LastStepReports reports) const {
    const std::shared_ptr<const WorldSnapshot>& full = base && base->base_ ? base->base_ : base;
    const Internals& in = *internals_;
    if (!full || full->motion_.size() != bodies_.size() || full->contacts_.size() != in.contacts.manifolds.size() ||
        full->sleepingContacts_.size() != in.sleepingContacts.manifolds.size()) {
        return snapshot(full.get());
    }
    WorldSnapshot out = snapshotWithoutState(full.get());
    // Compared through a reused buffer: a fresh one would be paged in on every keyframe.
    thread_local std::vector<BodyMotion> motion;
    motionOf(bodies_, motion);
    out.motionDelta_ = deltaOf(motion, full->motion_);
    out.contactsDelta_ = deltaOf(in.contacts.manifolds, full->contacts_);
    out.hasReports_ = reports == LastStepReports::kept;
    if (out.hasReports_) out.reportsDelta_ = deltaOf(in.contacts.reports, full->reports_);
    out.sleepingContactsDelta_ = deltaOf(in.sleepingContacts.manifolds, full->sleepingContacts_);
    out.sleepingReportsDelta_ = deltaOf(in.sleepingContacts.reports, full->sleepingReports_);
    out.base_ = full;
    // A world that moved this much is kept whole: later snapshots differ less from it.
    if (2 * (out.bytes() - sizeof(out)) > full->stateBytes()) return snapshot(full.get());
    return out;
}

WorldSnapshot World::snapshot(const WorldSnapshot* previous) const {
    WorldSnapshot out = snapshotWithoutState(previous);
    motionOf(bodies_, out.motion_);
    const Internals& in = *internals_;
    out.contacts_ = in.contacts.manifolds;
    out.reports_ = in.contacts.reports;
    out.sleepingContacts_ = in.sleepingContacts.manifolds;
    out.sleepingReports_ = in.sleepingContacts.reports;
    return out;
}

WorldSnapshot World::snapshotWithoutState(const WorldSnapshot* previous) const {
    WorldSnapshot out;
    if (previous != nullptr && previous->layout_ && previous->layout_->revision == layoutRevision_) {
        out.layout_ = previous->layout_;
    } else {
        out.layout_ = std::make_shared<const WorldSnapshot::Layout>(
            WorldSnapshot::Layout{bodies_, freeSlots_, liveBodies_, layoutRevision_});
    }
    out.settings_ = settings_;
    out.drag_ = drag_;
    out.stats_ = stats_;
    out.stepCount_ = stepCount_;
    out.lastRecovery_ = lastRecovery_;
    out.recoveryCount_ = recoveryCount_;
    out.impacts_ = internals_->stepImpacts;
    out.spinClampCount_ = spinClampCount_;
    return out;
}

void World::restore(const WorldSnapshot& snapshot) {
    const WorldSnapshot::Layout& layout = *snapshot.layout_;
    if (layoutRevision_ != layout.revision) {
        bodies_ = layout.bodies;
        freeSlots_ = layout.freeSlots;
        liveBodies_ = layout.liveBodies;
        layoutRevision_ = layout.revision;
    }
    Internals& in = *internals_;
    std::vector<BodyMotion> decodedMotion;
    const std::vector<BodyMotion>* motion = &snapshot.motion_;
    if (const WorldSnapshot* full = snapshot.base_.get()) {
        applyDelta(decodedMotion, full->motion_, snapshot.motionDelta_);
        motion = &decodedMotion;
        applyDelta(in.contacts.manifolds, full->contacts_, snapshot.contactsDelta_);
        if (snapshot.hasReports_) {
            applyDelta(in.contacts.reports, full->reports_, snapshot.reportsDelta_);
        } else {
            in.contacts.reports.assign(in.contacts.manifolds.size(), ContactReport{});
        }
        applyDelta(in.sleepingContacts.manifolds, full->sleepingContacts_, snapshot.sleepingContactsDelta_);
        applyDelta(in.sleepingContacts.reports, full->sleepingReports_, snapshot.sleepingReportsDelta_);
    } else {
        in.contacts.manifolds = snapshot.contacts_;
        in.contacts.reports = snapshot.reports_;
        in.sleepingContacts.manifolds = snapshot.sleepingContacts_;
        in.sleepingContacts.reports = snapshot.sleepingReports_;
    }
    for (size_t i = 0; i < bodies_.size(); ++i) {
        const BodyMotion& state = (*motion)[i];
        Body& body = bodies_[i];
        body.position = state.position;
        body.orientation = state.orientation;
        body.linearVelocity = state.linearVelocity;
        body.angularVelocity = state.angularVelocity;
        body.rotation = state.rotation;
        body.inverseInertiaWorld = state.inverseInertiaWorld;
        body.restTime = state.restTime;
        body.island = state.island;
        body.asleep = state.asleep;
        body.spinClamped = state.spinClamped;
    }
    settings_ = snapshot.settings_;
    drag_ = snapshot.drag_;
    stats_ = snapshot.stats_;
    stepCount_ = snapshot.stepCount_;
    lastRecovery_ = snapshot.lastRecovery_;
    recoveryCount_ = snapshot.recoveryCount_;
    in.stepImpacts = snapshot.impacts_;
    spinClampCount_ = snapshot.spinClampCount_;
    // The broadphases keep the pairs of the bodies at their last call. Their answers do
    // not depend on them (broad_phase.h); starting fresh keeps determinism from resting on that.
    for (PassGroup& group : in.passGroups) group.broadPhase = BroadPhase{};
    in.reachBroadPhase = BroadPhase{};
}

}  // namespace impulse
