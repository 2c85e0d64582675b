// The impact log: every impact of the run (a point that arrived faster than
// the impact speed, impactSpeed(): a landing too slow to bounce is one too),
// with what the impulse model promised beside what it did: the measured
// e = -v'_n / v_n beside the e it applies, the slip before and after,
// |j_t| / j_n beside mu and mu_s. Fed after each step from the world's own
// report of its impact stages (ContactPointInfo's impact fields), so it shows
// the impacts that bodies falling, thrown or struck really had. No GL, SDL or
// ImGui: tests read it.
#pragma once

#include "physics/world.h"

#include <cstdint>
#include <deque>
#include <string>

namespace impulse::app {

struct ImpactEntry {
    uint64_t step = 0;   ///< World::stepCount() after the step that had the impact
    double time = 0.0;   ///< simulated seconds at the end of that step
    BodyId bodyA, bodyB;
    std::string nameA, nameB;
    uint32_t featureId = 0;  ///< with the pair, finds the point in the Contact inspector
    vec3 point{0.0f};        ///< world
    vec3 normal{0.0f};       ///< from A to B
    float approachSpeed = 0.0f;  ///< -v_rel.n at arrival, > 0, m/s
    float leavingSpeed = 0.0f;   ///< v_rel.n once the impact was solved, m/s
    float measuredRestitution = 0.0f;  ///< leavingSpeed / approachSpeed
    float restitution = 0.0f;          ///< the e applied (appliedRestitution)
    float slipBefore = 0.0f, slipAfter = 0.0f;  ///< |tangential v_rel|, m/s
    float normalImpulse = 0.0f;    ///< the impact's j_n, N s
    float frictionImpulse = 0.0f;  ///< |j_t|, N s
    float friction = 0.0f, staticFriction = 0.0f;  ///< the pair's combined mu and mu_s
    bool stuck = false;  ///< friction stopped the slip within mu_s j_n (else it slid, at mu j_n)
    /// Kinetic energy the impact took, J (ContactPointInfo::impactEnergyLost).
    double energyLost = 0.0;

    /// |j_t| / j_n (0 without a normal impulse).
    float frictionRatio() const { return normalImpulse > 0.0f ? frictionImpulse / normalImpulse : 0.0f; }
};

class ImpactLog {
public:
    /// Most entries kept; the oldest go first.
    static constexpr size_t kCapacity = 20000;

    /// Adds the impacts of the world's last step, stamped with its step count and `time`.
    /// Costs nothing after a step without impacts (StepStats::impacts).
    void record(const World& world, double time);
    /// Forgets the entries of steps after `step` (a run taken back to that step).
    void forgetAfter(uint64_t step);
    void clear() { entries_.clear(); }

    /// Oldest first.
    const std::deque<ImpactEntry>& entries() const { return entries_; }

private:
    std::deque<ImpactEntry> entries_;
};

/// One log entry of an impact the world reported at a point.
ImpactEntry makeImpactEntry(const World& world, const ContactPointInfo& impact, double time);

/// The e the impact model applies to an impact: the pair's combined e, 0 for
/// an arrival slower than the world's restitution threshold.
float appliedRestitution(const World& world, const ContactPointInfo& impact);

}  // namespace impulse::app
