#include "app/run_history.h"

#include <algorithm>

namespace impulse::app {

size_t RunHistory::bytesOf(size_t index) const {
    const WorldSnapshot& world = *keyframes_[index].world;
    // The body properties are counted with the first keyframe that holds them.
    const bool sharedWithPrevious = index > 0 && world.sharesLayoutWith(*keyframes_[index - 1].world);
    return sizeof(Keyframe) + world.bytes() + (sharedWithPrevious ? 0 : world.layoutBytes());
}

void RunHistory::clear() {
    keyframes_.clear();
    spacing_ = kFirstSpacing;
    bytes_ = 0;
}

void RunHistory::keep(const World& world, double simulatedTime, bool pinned) {
    const uint64_t step = world.stepCount();
    if (!keyframes_.empty() && keyframes_.back().world->stepCount() == step) {
        pinned = pinned || keyframes_.back().pinned;
        bytes_ -= bytesOf(keyframes_.size() - 1);
        keyframes_.pop_back();
    }
    const WorldSnapshot* previous = keyframes_.empty() ? nullptr : keyframes_.back().world.get();
    keyframes_.push_back(
        Keyframe{std::make_shared<const WorldSnapshot>(world.snapshot(previous)), simulatedTime, pinned});
    bytes_ += bytesOf(keyframes_.size() - 1);
    thinToBudget();
}

void RunHistory::stepped(const World& world, double simulatedTime) {
    if (world.stepCount() % spacing_ != 0) return;
    keep(world, simulatedTime, false);
    while (keyframes_.back().world->bytes() / spacing_ > kMaxBytesPerStep) spacing_ *= 2;
}

const RunHistory::Keyframe* RunHistory::atOrBefore(uint64_t step) const {
    const auto after = std::upper_bound(keyframes_.begin(), keyframes_.end(), step,
                                        [](uint64_t s, const Keyframe& k) { return s < k.world->stepCount(); });
    return after == keyframes_.begin() ? nullptr : &*(after - 1);
}

void RunHistory::dropAfter(uint64_t step) {
    while (!keyframes_.empty() && keyframes_.back().world->stepCount() > step) {
        bytes_ -= bytesOf(keyframes_.size() - 1);
        keyframes_.pop_back();
    }
}

void RunHistory::setBudget(size_t bytes) {
    budget_ = bytes;
    thinToBudget();
}

void RunHistory::thinToBudget() {
    // The first keyframe (the run's start), the latest (where the run goes on) and
    // the pinned ones stay whatever the budget: they hold the run's inputs.
    const auto droppable = [&](size_t i) { return i > 0 && i + 1 < keyframes_.size() && !keyframes_[i].pinned; };
    while (bytes_ > budget_) {
        bool any = false;
        for (size_t i = 0; i < keyframes_.size() && !any; ++i) any = droppable(i);
        if (!any) return;
        // Every other one goes: those on a multiple of the doubled spacing stay.
        spacing_ *= 2;
        std::vector<Keyframe> kept;
        for (size_t i = 0; i < keyframes_.size(); ++i) {
            if (!droppable(i) || keyframes_[i].world->stepCount() % spacing_ == 0) {
                kept.push_back(std::move(keyframes_[i]));
            }
        }
        keyframes_ = std::move(kept);
        bytes_ = 0;
        for (size_t i = 0; i < keyframes_.size(); ++i) bytes_ += bytesOf(i);
    }
}

}  // namespace impulse::app
