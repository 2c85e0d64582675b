#include "app/impact_log.h"

#include "physics/impact.h"

#include <algorithm>

namespace impulse::app {

ImpactEntry makeImpactEntry(const World& world, const ContactPointInfo& impact, double time) {
    ImpactEntry entry;
    entry.step = world.stepCount();
    entry.time = time;
    entry.bodyA = impact.bodyA;
    entry.bodyB = impact.bodyB;
    entry.nameA = world.body(impact.bodyA).name;
    entry.nameB = world.body(impact.bodyB).name;
    entry.featureId = impact.featureId;
    entry.point = impact.point;
    entry.normal = impact.normal;
    entry.approachSpeed = -impact.impactArrivalVelocity;
    entry.leavingSpeed = impact.impactLeavingVelocity;
    entry.measuredRestitution = entry.leavingSpeed / entry.approachSpeed;
    entry.restitution = appliedRestitution(world, impact);
    entry.slipBefore = glm::length(impact.impactSlipBefore);
    entry.slipAfter = glm::length(impact.impactSlipAfter);
    entry.normalImpulse = impact.impactNormalImpulse;
    entry.frictionImpulse = glm::length(impact.impactFrictionImpulse);
    entry.friction = impact.friction;
    entry.staticFriction = impact.staticFriction;
    entry.stuck = impact.impactSticking;
    entry.energyLost = impact.impactEnergyLost;
    return entry;
}

float appliedRestitution(const World& world, const ContactPointInfo& impact) {
    return impulse::appliedRestitution(impact.restitution, impact.impactArrivalVelocity,
                                       world.settings().restitutionThreshold);
}

void ImpactLog::record(const World& world, double time) {
    if (world.stats().impacts == 0) return;
    for (const ContactPointInfo& impact : world.impacts()) entries_.push_back(makeImpactEntry(world, impact, time));
    while (entries_.size() > kCapacity) entries_.pop_front();
}

void ImpactLog::forgetAfter(uint64_t step) {
    const auto firstLater =
        std::find_if(entries_.begin(), entries_.end(), [step](const ImpactEntry& e) { return e.step > step; });
    entries_.erase(firstLater, entries_.end());
}

}  // namespace impulse::app
