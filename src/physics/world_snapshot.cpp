// World::snapshot and World::restore (world_snapshot.h).
#include "physics/world_snapshot.h"

#include "physics/world_internals.h"

#include <atomic>

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

}  // namespace

size_t WorldSnapshot::bytes() const {
    size_t total = sizeof(*this) + vectorBytes(motion_) + vectorBytes(contacts_) + vectorBytes(sleepingContacts_) +
                   vectorBytes(reports_) + vectorBytes(sleepingReports_) + vectorBytes(impacts_);
    if (lastRecovery_) total += lastRecovery_->bodyName.capacity();
    return total;
}

size_t WorldSnapshot::layoutBytes() const {
    if (!layout_) return 0;
    size_t total = sizeof(Layout) + vectorBytes(layout_->bodies) + vectorBytes(layout_->freeSlots);
    for (const Body& body : layout_->bodies) total += body.name.capacity();
    return total;
}

WorldSnapshot World::snapshot(const WorldSnapshot* previous) const {
    WorldSnapshot out;
    if (previous != nullptr && previous->layout_ && previous->layout_->revision == layoutRevision_) {
        out.layout_ = previous->layout_;
    } else {
        out.layout_ = std::make_shared<const WorldSnapshot::Layout>(
            WorldSnapshot::Layout{bodies_, freeSlots_, liveBodies_, layoutRevision_});
    }
    out.motion_.reserve(bodies_.size());
    for (const Body& body : bodies_) {
        out.motion_.push_back(BodyMotion{body.position, body.orientation, body.linearVelocity, body.angularVelocity,
                                         body.rotation, body.inverseInertiaWorld, body.restTime, body.island,
                                         body.asleep});
    }
    out.settings_ = settings_;
    out.drag_ = drag_;
    out.stats_ = stats_;
    out.stepCount_ = stepCount_;
    out.lastRecovery_ = lastRecovery_;
    out.recoveryCount_ = recoveryCount_;
    const Internals& in = *internals_;
    out.contacts_ = in.contacts.manifolds;
    out.reports_ = in.contacts.reports;
    out.sleepingContacts_ = in.sleepingContacts.manifolds;
    out.sleepingReports_ = in.sleepingContacts.reports;
    out.impacts_ = in.stepImpacts;
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
    for (size_t i = 0; i < bodies_.size(); ++i) {
        const BodyMotion& motion = snapshot.motion_[i];
        Body& body = bodies_[i];
        body.position = motion.position;
        body.orientation = motion.orientation;
        body.linearVelocity = motion.linearVelocity;
        body.angularVelocity = motion.angularVelocity;
        body.rotation = motion.rotation;
        body.inverseInertiaWorld = motion.inverseInertiaWorld;
        body.restTime = motion.restTime;
        body.island = motion.island;
        body.asleep = motion.asleep;
    }
    settings_ = snapshot.settings_;
    drag_ = snapshot.drag_;
    stats_ = snapshot.stats_;
    stepCount_ = snapshot.stepCount_;
    lastRecovery_ = snapshot.lastRecovery_;
    recoveryCount_ = snapshot.recoveryCount_;
    Internals& in = *internals_;
    in.contacts.manifolds = snapshot.contacts_;
    in.contacts.reports = snapshot.reports_;
    in.sleepingContacts.manifolds = snapshot.sleepingContacts_;
    in.sleepingContacts.reports = snapshot.sleepingReports_;
    in.stepImpacts = snapshot.impacts_;
    // The broadphase keeps the pairs of the bodies at its last call. Its answer does
    // not depend on them (broad_phase.h); starting fresh keeps determinism from resting on that.
    in.broadPhase = BroadPhase{};
}

}  // namespace impulse
