#include "app/run_history.h"

#include <algorithm>

namespace impulse::app {

size_t RunHistory::bytesOf(const std::vector<const RunHistory*>& histories) {
    std::vector<const WorldSnapshot*> worlds;
    size_t total = 0;
    for (const RunHistory* history : histories) {
        total += history->keyframes_.size() * sizeof(Keyframe);
        for (const Keyframe& keyframe : history->keyframes_) {
            worlds.push_back(keyframe.world.get());
            if (keyframe.world->base()) worlds.push_back(keyframe.world->base().get());
        }
    }
    std::sort(worlds.begin(), worlds.end());
    worlds.erase(std::unique(worlds.begin(), worlds.end()), worlds.end());
    std::vector<std::pair<const void*, size_t>> layouts;
    for (const WorldSnapshot* world : worlds) {
        total += world->bytes();
        layouts.emplace_back(world->layoutId(), world->layoutBytes());
    }
    std::sort(layouts.begin(), layouts.end());
    layouts.erase(std::unique(layouts.begin(), layouts.end()), layouts.end());
    for (const auto& layout : layouts) total += layout.second;
    return total;
}

void RunHistory::clear() {
    keyframes_.clear();
    spacing_ = kFirstSpacing;
    bytes_ = 0;
}

RunHistory::Kept RunHistory::keep(const World& world, double simulatedTime, bool pinned) {
    const uint64_t step = world.stepCount();
    const bool replacing = !keyframes_.empty() && keyframes_.back().world->stepCount() == step;
    if (replacing) {
        pinned = pinned || keyframes_.back().pinned;
        keyframes_.pop_back();
    }
    // One kept only to shorten re-runs leaves out the step's contact reports: a seek to
    // its step runs to it from the keyframe before (Experiment::seek).
    auto snapshot = keyframes_.empty()
                        ? world.snapshot()
                        : world.snapshotAgainst(keyframes_.back().world,
                                                pinned ? LastStepReports::kept : LastStepReports::dropped);
    keyframes_.push_back(Keyframe{std::make_shared<const WorldSnapshot>(std::move(snapshot)), simulatedTime, pinned});
    // Counting only what the new keyframe adds keeps a keep's cost flat as the
    // history grows (a recount walks every keyframe: 778 at 5 minutes of pile1000).
    // It adds only itself when the full snapshot it is kept against and its body
    // properties are the previous keyframe's; otherwise (a replaced keyframe, an
    // edit, a new full snapshot's properties) everything is counted again.
    const WorldSnapshot& added = *keyframes_.back().world;
    const WorldSnapshot* previous = keyframes_.size() > 1 ? keyframes_[keyframes_.size() - 2].world.get() : nullptr;
    const bool addsOnlyItself = !replacing && previous && previous->layoutId() == added.layoutId() &&
                                (!added.base() || added.base().get() == previous || added.base() == previous->base());
    if (addsOnlyItself) {
        bytes_ += sizeof(Keyframe) + added.bytes();
    } else {
        bytes_ = bytesOf({this});
    }
    return thinToBudget() ? Kept::addedAndThinned : Kept::added;
}

RunHistory::Kept RunHistory::stepped(const World& world, double simulatedTime) {
    if (world.stepCount() % spacing_ != 0) return Kept::none;
    const Kept kept = keep(world, simulatedTime, false);
    while (keyframes_.back().world->stateBytes() / spacing_ > kMaxStateBytesPerStep) spacing_ *= 2;
    return kept;
}

const RunHistory::Keyframe* RunHistory::atOrBefore(uint64_t step) const {
    const auto after = std::upper_bound(keyframes_.begin(), keyframes_.end(), step,
                                        [](uint64_t s, const Keyframe& k) { return s < k.world->stepCount(); });
    return after == keyframes_.begin() ? nullptr : &*(after - 1);
}

void RunHistory::dropAfter(uint64_t step) {
    while (!keyframes_.empty() && keyframes_.back().world->stepCount() > step) keyframes_.pop_back();
    bytes_ = bytesOf({this});
}

void RunHistory::setBudget(size_t bytes) {
    budget_ = bytes;
    thinToBudget();
}

void RunHistory::setHeldElsewhere(size_t bytes) {
    heldElsewhere_ = bytes;
    thinToBudget();
}

bool RunHistory::thinToBudget() {
    // The first keyframe (the run's start), the latest (where the run goes on) and
    // the pinned ones stay whatever the budget: they hold the run's inputs.
    const auto droppable = [&](size_t i) { return i > 0 && i + 1 < keyframes_.size() && !keyframes_[i].pinned; };
    bool thinned = false;
    while (bytes_ + heldElsewhere_ > budget_) {
        bool any = false;
        for (size_t i = 0; i < keyframes_.size() && !any; ++i) any = droppable(i);
        if (!any) return thinned;
        // Every other one goes: those on a multiple of the doubled spacing stay.
        spacing_ *= 2;
        std::vector<Keyframe> kept;
        for (size_t i = 0; i < keyframes_.size(); ++i) {
            if (!droppable(i) || keyframes_[i].world->stepCount() % spacing_ == 0) {
                kept.push_back(std::move(keyframes_[i]));
            }
        }
        thinned = thinned || kept.size() < keyframes_.size();
        keyframes_ = std::move(kept);
        bytes_ = bytesOf({this});
    }
    return thinned;
}

}  // namespace impulse::app
