#include "app/classroom.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <utility>

namespace impulse::app {

BodyMotion bodyMotion(const Body& body, const glm::dvec3& systemCentre) {
    BodyMotion motion;
    if (body.isStatic) return motion;
    motion.momentum = double(body.mass) * glm::dvec3(body.linearVelocity);
    motion.spin = body.spinAngularMomentum();
    motion.angularMomentum = glm::cross(glm::dvec3(body.position) - systemCentre, motion.momentum) + motion.spin;
    motion.kineticEnergy = body.kineticEnergy();
    return motion;
}

SystemMotion systemMotion(const World& world, const std::vector<BodyId>& bodies) {
    std::vector<const Body*> members;
    const auto take = [&](BodyId id) {
        if (world.isValid(id) && world.body(id).isDynamic()) members.push_back(&world.body(id));
    };
    if (bodies.empty()) {
        for (BodyId id : world.bodyIds()) take(id);
    } else {
        for (BodyId id : bodies) take(id);
    }
    SystemMotion system;
    system.bodies = members.size();
    glm::dvec3 massMoment(0.0);
    for (const Body* b : members) {
        system.mass += b->mass;
        massMoment += double(b->mass) * glm::dvec3(b->position);
        system.momentum += double(b->mass) * glm::dvec3(b->linearVelocity);
    }
    if (system.mass <= 0.0) return system;
    system.centre = massMoment / system.mass;
    system.velocity = system.momentum / system.mass;
    // A second pass: the angular momentum is taken about the centre just found.
    for (const Body* b : members) {
        const BodyMotion motion = bodyMotion(*b, system.centre);
        system.angularMomentum += motion.angularMomentum;
        system.kineticEnergy += motion.kineticEnergy;
    }
    return system;
}

namespace {

/// `body`'s kinetic energy with `impulse` (linear, kg m/s) and `angularImpulse`
/// (about its centre, kg m^2/s) taken back out of its velocities.
double energyWithout(const Body& body, const glm::dvec3& impulse, const glm::dvec3& angularImpulse) {
    if (body.isStatic) return 0.0;
    Body before = body;
    before.linearVelocity = vec3(glm::dvec3(body.linearVelocity) - impulse / double(body.mass));
    before.angularVelocity =
        vec3(glm::dvec3(body.angularVelocity) - glm::dmat3(body.inverseInertiaWorld) * angularImpulse);
    return before.kineticEnergy();
}

}  // namespace

std::optional<ImpactBookkeeping> strongestImpact(const World& world, double time) {
    if (world.stats().impacts == 0) return std::nullopt;
    // The impact points of each pair, in report order (deterministic).
    std::vector<std::vector<const ContactPointInfo*>> pairs;
    std::map<std::pair<uint32_t, uint32_t>, size_t> pairIndex;
    for (const ContactPointInfo& c : world.impacts()) {
        const auto key = std::make_pair(c.bodyA.index, c.bodyB.index);
        const auto [it, added] = pairIndex.emplace(key, pairs.size());
        if (added) pairs.emplace_back();
        pairs[it->second].push_back(&c);
    }
    const auto normalImpulse = [](const std::vector<const ContactPointInfo*>& points) {
        double sum = 0.0;
        for (const ContactPointInfo* c : points) sum += c->impactNormalImpulse;
        return sum;
    };
    size_t strongest = 0;
    for (size_t i = 1; i < pairs.size(); ++i) {
        if (normalImpulse(pairs[i]) > normalImpulse(pairs[strongest])) strongest = i;
    }
    const std::vector<const ContactPointInfo*>& points = pairs[strongest];
    const ContactPointInfo& first = *points.front();

    ImpactBookkeeping impact;
    impact.first = makeImpactEntry(world, first, time);
    impact.points = int(points.size());
    glm::dvec3 pointSum(0.0), angularOnA(0.0), angularOnB(0.0);
    for (const ContactPointInfo* c : points) {
        const glm::dvec3 j = double(c->impactNormalImpulse) * glm::dvec3(c->normal) + glm::dvec3(c->impactFrictionImpulse);
        impact.impulseOnB += j;
        angularOnA += glm::cross(glm::dvec3(c->rA), -j);
        angularOnB += glm::cross(glm::dvec3(c->rB), j);
        pointSum += glm::dvec3(c->point);
        const double u = -double(c->impactArrivalVelocity);
        const double e = appliedRestitution(world, *c);
        impact.predictedLoss += (1.0 - e * e) * 0.5 * c->normalMass * u * u;
    }
    impact.point = vec3(pointSum / double(points.size()));
    const Body& a = world.body(first.bodyA);
    const Body& b = world.body(first.bodyB);
    impact.energyAfter = a.kineticEnergy() + b.kineticEnergy();
    impact.energyBefore = energyWithout(a, -impact.impulseOnB, angularOnA) + energyWithout(b, impact.impulseOnB, angularOnB);
    return impact;
}

std::vector<BodyMomentum> dynamicBodiesMotion(const World& world) {
    std::vector<BodyMomentum> out;
    for (BodyId id : world.bodyIds()) {
        const Body& body = world.body(id);
        if (body.isDynamic()) {
            out.push_back(BodyMomentum{id, body.mass, body.position, body.linearVelocity, vec3(body.spinAngularMomentum())});
        }
    }
    return out;
}

namespace {

/// Keeps the motion of `impact`'s pair and then of the other dynamic bodies, up to
/// kMomentaBodiesKept, after the step from `world` and before it from `before` (when
/// that is the step before: else none).
void keepMomenta(const World& world, const std::vector<BodyMomentum>& before, ImpactBookkeeping& impact) {
    const std::vector<BodyMomentum> after = dynamicBodiesMotion(world);
    const auto find = [](const std::vector<BodyMomentum>& motions, BodyId id) {
        return std::find_if(motions.begin(), motions.end(), [id](const BodyMomentum& m) { return m.body == id; });
    };
    const auto keep = [&](const BodyMomentum& m) {
        if (impact.bodiesAfter.size() == kMomentaBodiesKept) {
            ++impact.bodiesLeftOut;
            return;
        }
        impact.bodiesAfter.push_back(m);
        if (!before.empty()) {
            // A body spawned or deleted changes the world between steps, never in one.
            const auto then = find(before, m.body);
            impact.bodiesBefore.push_back(then != before.end() ? *then : BodyMomentum{m.body, m.mass, m.position});
        }
    };
    const BodyId a = impact.first.bodyA, b = impact.first.bodyB;
    for (BodyId id : {a, b}) {
        if (const auto it = find(after, id); it != after.end()) keep(*it);
    }
    for (const BodyMomentum& m : after) {
        if (m.body != a && m.body != b) keep(m);
    }
}

}  // namespace

void ImpactBookkeepingLog::beforeStep(const World& world) {
    motionBeforeStep_ = dynamicBodiesMotion(world);
    beforeStep_ = world.stepCount();
}

void ImpactBookkeepingLog::record(const World& world, double time) {
    std::optional<ImpactBookkeeping> impact = strongestImpact(world, time);
    if (!impact) return;
    const bool stepBefore = beforeStep_ + 1 == world.stepCount();
    keepMomenta(world, stepBefore ? motionBeforeStep_ : std::vector<BodyMomentum>{}, *impact);
    entries_.push_back(std::move(*impact));
    while (entries_.size() > kCapacity) entries_.pop_front();
}

void ImpactBookkeepingLog::forgetAfter(uint64_t step) {
    while (!entries_.empty() && entries_.back().first.step > step) entries_.pop_back();
}

const ImpactBookkeeping* ImpactBookkeepingLog::latestAtOrBefore(uint64_t step) const {
    // Steps ascend: the first entry after `step`, then one back.
    const auto later = std::upper_bound(entries_.begin(), entries_.end(), step,
                                        [](uint64_t s, const ImpactBookkeeping& e) { return s < e.first.step; });
    return later == entries_.begin() ? nullptr : &*std::prev(later);
}

const ImpactBookkeeping* impactShownAt(const ImpactBookkeepingLog& log, const World& world) {
    const ImpactBookkeeping* impact = log.latestAtOrBefore(world.stepCount());
    if (!impact) return nullptr;
    const double age = double(world.stepCount() - impact->first.step) * world.settings().timestep;
    return age < kImpactShownSeconds ? impact : nullptr;
}

std::string labelValue(double value) {
    constexpr double kShownAsZero = 5e-4;  // below half the last digit of %.3g at 1
    if (!(std::abs(value) >= kShownAsZero)) return "0";
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", value);
    return text;
}

glm::vec2 labelInsideView(glm::vec2 at, glm::vec2 size, const glm::vec4& view) {
    constexpr float kInset = 2.0f;
    at.x = std::max(view.x + kInset, std::min(at.x, view.x + view.z - size.x - kInset));
    at.y = std::max(view.y + kInset, std::min(at.y, view.y + view.w - size.y - kInset));
    return at;
}

}  // namespace impulse::app
