#include "physics/world.h"

#include "physics/constants.h"
#include "physics/manifold.h"
#include "physics/solver.h"
#include "physics/thread_team.h"
#include "physics/world_internals.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace impulse {

World::World(const WorldSettings& settings)
    : layoutRevision_(nextLayoutRevision()),
      internals_(std::make_unique<Internals>()),
      team_(std::make_unique<ThreadTeam>(1)) {
    // Constructing from invalid settings is a programming error; fall back to defaults.
    settings_ = validateSettings(settings) ? WorldSettings{} : settings;
}

World::~World() = default;
World::World(const World& other)
    : settings_(other.settings_),
      bodies_(other.bodies_),
      freeSlots_(other.freeSlots_),
      liveBodies_(other.liveBodies_),
      drag_(other.drag_),
      stats_(other.stats_),
      stepCount_(other.stepCount_),
      lastRecovery_(other.lastRecovery_),
      recoveryCount_(other.recoveryCount_),
      layoutRevision_(other.layoutRevision_),
      spinClampCount_(other.spinClampCount_),
      internals_(std::make_unique<Internals>(*other.internals_)),
      team_(std::make_unique<ThreadTeam>(other.team_->size())) {}
World& World::operator=(const World& other) {
    if (this != &other) *this = World(other);
    return *this;
}
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;

Validation World::setThreadCount(int count) {
    if (auto error = validateThreadCount(count)) return error;
    if (count != team_->size()) team_ = std::make_unique<ThreadTeam>(count);
    return std::nullopt;
}

int World::threadCount() const { return team_->size(); }

Validation World::setSettings(const WorldSettings& settings) {
    if (auto error = validateSettings(settings)) return error;
    settings_ = settings;
    wakeAll();  // new gravity, materials or sleep rules may move what rests
    return std::nullopt;
}

// ---------------------------------------------------------------- bodies

BodyId World::idOf(uint32_t index) const { return BodyId{index, bodies_[index].generation}; }

bool World::isValid(BodyId id) const {
    return id.generation != 0 && id.index < bodies_.size() && bodies_[id.index].alive &&
           bodies_[id.index].generation == id.generation;
}

const Body& World::body(BodyId id) const {
    assert(isValid(id));
    return bodies_[id.index];
}

std::vector<BodyId> World::bodyIds() const {
    std::vector<BodyId> ids;
    ids.reserve(liveBodies_);
    for (uint32_t i = 0; i < bodies_.size(); ++i) {
        if (bodies_[i].isAlive()) ids.push_back(idOf(i));
    }
    return ids;
}

BodyId World::findBody(const std::string& name) const {
    for (uint32_t i = 0; i < bodies_.size(); ++i) {
        if (bodies_[i].isAlive() && bodies_[i].name == name) return idOf(i);
    }
    return BodyId{};
}

void World::applyDefinition(Body& body, const BodyDef& def) {
    body.name = def.name;
    body.shape = def.shape;
    body.isStatic = def.isStatic;
    body.mass = def.mass;
    body.restitution = def.restitution;
    body.friction = def.friction;
    body.staticFrictionSet = def.staticFriction.has_value();
    body.staticFriction = def.staticFriction.value_or(def.friction);
    body.inertiaOverridden = def.inertia.has_value();
    body.inertiaBody = def.inertia.value_or(shapeInertia(def.shape, def.mass));
    body.position = def.position;
    // Renormalise only what is off unit length: normalising a unit quaternion
    // can flip its last bit, and a saved-then-loaded world must be bit-identical.
    const float orientationLength = glm::length(def.orientation);
    body.orientation = std::fabs(orientationLength - 1.0f) > 1e-6f ? def.orientation / orientationLength : def.orientation;
    if (def.isStatic) {
        // Static bodies never move: no mass, no inertia, no velocity.
        body.inverseMass = 0.0f;
        body.inverseInertiaBody = mat3(0.0f);
        body.linearVelocity = vec3(0.0f);
        body.angularVelocity = vec3(0.0f);
    } else {
        body.inverseMass = 1.0f / def.mass;
        body.inverseInertiaBody = glm::inverse(body.inertiaBody);
        body.linearVelocity = def.linearVelocity;
        body.angularVelocity = def.angularVelocity;
    }
    body.updateWorldInertia();
}

BodyId World::createBody(const BodyDef& def, FieldError* error) {
    if (auto invalid = validateBodyDef(def)) {
        if (error) *error = *invalid;
        return BodyId{};
    }
    uint32_t index;
    if (!freeSlots_.empty()) {
        index = freeSlots_.back();
        freeSlots_.pop_back();
    } else {
        index = static_cast<uint32_t>(bodies_.size());
        bodies_.emplace_back();
    }
    if (def.isStatic) wakeAll();  // it may overlap a sleeping island (see updateBody)
    Body& body = bodies_[index];
    // Generations count up on reuse of a slot so stale handles stay stale; 0 is null.
    const uint32_t generation = body.generation + 1 == 0 ? 1 : body.generation + 1;
    body = Body{};
    applyDefinition(body, def);
    body.generation = generation;
    body.alive = true;
    ++liveBodies_;
    layoutRevision_ = nextLayoutRevision();
    return idOf(index);
}

bool World::removeBody(BodyId id) {
    if (!isValid(id)) return false;
    if (drag_.active && drag_.body == id) endDrag();
    wakeAround(id.index);  // what rested on it falls
    internals_->forgetContactsOf(id.index);
    Body& body = bodies_[id.index];
    const uint32_t generation = body.generation;
    body = Body{};
    body.generation = generation;
    freeSlots_.push_back(id.index);
    --liveBodies_;
    layoutRevision_ = nextLayoutRevision();
    return true;
}

void World::clear() {
    const WorldSettings settings = settings_;
    *this = World(settings);
}

BodyDef World::bodyDef(BodyId id) const {
    const Body& body = this->body(id);
    BodyDef def;
    def.name = body.name;
    def.shape = body.shape;
    def.isStatic = body.isStatic;
    def.mass = body.mass;
    def.position = body.position;
    def.orientation = body.orientation;
    def.linearVelocity = body.linearVelocity;
    def.angularVelocity = body.angularVelocity;
    def.restitution = body.restitution;
    def.friction = body.friction;
    if (body.staticFrictionSet) def.staticFriction = body.staticFriction;
    if (body.inertiaOverridden) def.inertia = body.inertiaBody;
    return def;
}

Validation World::updateBody(BodyId id, const BodyDef& def) {
    if (!isValid(id)) return FieldError{"body", "no such body (it was removed)"};
    if (auto error = validateBodyDef(def)) return error;
    Body& body = bodies_[id.index];
    // The broadphase pairs no static body with a sleeping one: a static body that
    // moves (or a body made static) could land in a sleeping island unnoticed.
    if (def.isStatic || body.isStatic) {
        wakeAll();
    } else {
        wakeAround(id.index);
    }
    const bool shapeChanged = def.shape.type != body.shape.type || def.shape.radius != body.shape.radius ||
                              def.shape.halfExtents != body.shape.halfExtents;
    if (shapeChanged || def.isStatic != body.isStatic) internals_->forgetContactsOf(id.index);
    if (def.isStatic && drag_.active && drag_.body == id) endDrag();
    applyDefinition(body, def);
    layoutRevision_ = nextLayoutRevision();
    return std::nullopt;
}

// ---------------------------------------------------------------- the step

void World::step() { step(settings_.timestep); }

void World::step(float dt) {
    // A non-positive or absurd dt is a caller error; doing nothing keeps the world intact.
    if (!isFinite(dt) || dt <= 0.0f || dt > kMaxTimestep) return;
    Internals& in = *internals_;
    in.savedStates.resize(bodies_.size());
    for (size_t i = 0; i < bodies_.size(); ++i) {
        Body& body = bodies_[i];
        in.savedStates[i] = {body.position, body.linearVelocity, body.angularVelocity, body.orientation};
        body.spinClamped = false;
    }
    lastRecovery_.reset();
    in.stepImpacts.clear();
    formPassGroups(dt);
    stats_.candidatePairs = 0;
    for (size_t group = 0; group < in.passGroupCount; ++group) runGroupPasses(group, dt);
    stats_.manifolds = static_cast<int>(in.contacts.manifolds.size());
    stats_.contactPoints = 0;
    for (const ContactManifold& manifold : in.contacts.manifolds) stats_.contactPoints += manifold.pointCount;
    stats_.spinClampedBodies = 0;
    for (const Body& body : bodies_) stats_.spinClampedBodies += body.spinClamped;
    spinClampCount_ += uint64_t(stats_.spinClampedBodies);
    if (const BodyId failed = firstNonFiniteBody()) {
        recoverFromNonFiniteState(failed);
    } else if (settings_.sleeping) {
        updateSleep(dt);
    }
    stats_.impacts = static_cast<int>(in.stepImpacts.size());
    // Without sleeping nobody sleeps: setSettings woke everyone when it was switched off.
    stats_.sleepingBodies = 0;
    stats_.sleepingContactPoints = 0;
    if (settings_.sleeping) {
        for (const Body& body : bodies_) stats_.sleepingBodies += body.isAlive() && body.asleep;
        for (const ContactManifold& m : internals_->sleepingContacts.manifolds) {
            stats_.sleepingContactPoints += m.pointCount;
        }
    }
    ++stepCount_;
}

namespace {

// Passes that keep a body spinning at `spin` (rad/s) within kMaxTurnPerPass a
// pass over dt, at most kMaxPasses (a non-finite spin takes those too).
int turnPasses(float spin, float dt) {
    const float passes = std::ceil(spin * dt / kMaxTurnPerPass);
    return passes < float(kMaxPasses) ? int(passes) : kMaxPasses;
}

// The spin that brings new corners to a body's contacts (rad/s): none for a sphere.
float cornerSpin(const Body& body) { return turnsCorners(body.shape) ? glm::length(body.angularVelocity) : 0.0f; }

}  // namespace

void World::formPassGroups(float dt) {
    // Contacts are found at the start of a pass, so a body turning more than
    // kMaxTurnPerPass in one meets the ground with corners they do not hold
    // (a box at 128 rad/s went 16 cm in). Its extra passes are paid by the
    // bodies it may reach in the step, not by the world.
    Internals& in = *internals_;
    const size_t slotCount = bodies_.size();
    in.passesNeeded.assign(slotCount, 0);
    int mostNeeded = settings_.passes;
    for (size_t i = 0; i < slotCount; ++i) {
        const Body& body = bodies_[i];
        if (!body.isAlive() || !body.isDynamic()) continue;
        in.passesNeeded[i] = std::max(settings_.passes, turnPasses(cornerSpin(body), dt));
        mostNeeded = std::max(mostNeeded, in.passesNeeded[i]);
    }
    in.passGroupOf.assign(slotCount, 0);
    if (in.passGroups.empty()) in.passGroups.resize(1);
    PassGroup& base = in.passGroups[0];
    base.passes = settings_.passes;
    base.bodies.clear();
    in.passGroupCount = 1;
    stats_.mostPasses = mostNeeded;
    stats_.bodiesInExtraPasses = 0;
    if (mostNeeded == settings_.passes) {
        // Nothing spins fast: the whole world takes the settings' passes.
        for (uint32_t i = 0; i < slotCount; ++i) {
            if (bodies_[i].isAlive()) base.bodies.push_back(i);
        }
        return;
    }

    findReach(dt);
    SlotSets& sets = in.reachSets;
    sets.reset(slotCount);
    if (!joinFewReached()) joinAllReached();
    // A group takes the passes of its fastest spinner; a root has the smallest
    // index of its group, so one sweep up collects them.
    for (uint32_t i = 0; i < slotCount; ++i) {
        const uint32_t root = sets.root(i);
        in.passesNeeded[root] = std::max(in.passesNeeded[root], in.passesNeeded[i]);
    }
    // The groups that need more passes, one pass group per count, ascending
    // after the base group (groups that need as many passes share them); the
    // base group holds the other bodies and every static body.
    std::vector<int> counts;
    for (uint32_t i = 0; i < slotCount; ++i) {
        if (bodies_[i].isAlive() && bodies_[i].isDynamic()) counts.push_back(in.passesNeeded[sets.root(i)]);
    }
    std::sort(counts.begin(), counts.end());
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
    if (counts.front() == settings_.passes) counts.erase(counts.begin());
    in.passGroupCount = 1 + counts.size();
    if (in.passGroups.size() < in.passGroupCount) in.passGroups.resize(in.passGroupCount);
    for (size_t g = 1; g < in.passGroupCount; ++g) {
        in.passGroups[g].passes = counts[g - 1];
        in.passGroups[g].bodies.clear();
    }
    for (uint32_t i = 0; i < slotCount; ++i) {
        if (!bodies_[i].isAlive()) continue;
        const int passes = bodies_[i].isDynamic() ? in.passesNeeded[sets.root(i)] : settings_.passes;
        if (passes == settings_.passes) {
            in.passGroups[0].bodies.push_back(i);
            continue;
        }
        const uint32_t group = 1 + uint32_t(std::lower_bound(counts.begin(), counts.end(), passes) - counts.begin());
        in.passGroupOf[i] = group;
        in.passGroups[group].bodies.push_back(i);
    }
    // Each extra group's collide sees the static bodies its bodies may reach.
    for (const BodyPair& pair : in.reachPairs) {
        const bool staticA = bodies_[pair.a].isStatic, staticB = bodies_[pair.b].isStatic;
        if (staticA == staticB) continue;
        const uint32_t group = in.passGroupOf[staticA ? pair.b : pair.a];
        if (group > 0) in.passGroups[group].bodies.push_back(staticA ? pair.a : pair.b);
    }
    for (size_t g = 1; g < in.passGroupCount; ++g) {
        std::vector<uint32_t>& bodies = in.passGroups[g].bodies;
        std::sort(bodies.begin(), bodies.end());
        bodies.erase(std::unique(bodies.begin(), bodies.end()), bodies.end());
    }
    // The base group's contacts stay in the world's list; the others' wait aside.
    for (size_t g = 1; g < in.passGroupCount; ++g) {
        Internals::moveContacts(in.contacts, in.passGroups[g].contacts, [&](const ContactManifold& m) {
            return in.passGroupOf[bodies_[m.a].isDynamic() ? m.a : m.b] == g;
        });
    }
}

void World::findReach(float dt) {
    // A body's AABB grown by how far its centre may move in the step (speed,
    // and gravity's gain over it), how far its spin turns its farthest point,
    // and the speculative reach; the dragged body's also holds the drag's
    // target. Two bodies whose boxes do not overlap cannot meet in the step,
    // unless an impulse of the step flings one beyond its box (then they meet
    // in the next).
    Internals& in = *internals_;
    const size_t slotCount = bodies_.size();
    const float gravityGain = glm::length(settings_.gravity) * dt;
    in.aabbs.resize(slotCount);
    in.present.assign(slotCount, 0);
    in.isStatic.assign(slotCount, 0);
    for (uint32_t i = 0; i < slotCount; ++i) {
        const Body& body = bodies_[i];
        if (!body.isAlive()) continue;
        in.present[i] = 1;
        in.isStatic[i] = !body.isSimulated();
        const float reach = kSpeculativeDistance + dt * (glm::length(body.linearVelocity) + gravityGain) +
                            dt * glm::length(body.angularVelocity) * boundingRadius(body.shape);
        Aabb& box = in.aabbs[i];
        box = shapeAabb(body.shape, body.position, body.rotation, reach);
        if (drag_.active && drag_.body.index == i) {
            box.lower = glm::min(box.lower, drag_.target);
            box.upper = glm::max(box.upper, drag_.target);
        }
    }
    in.reachPairs.clear();
}

bool World::joinFewReached() {
    // From each fast spinner, the bodies whose reach overlaps that of one
    // already joined, each tested against every body: cheap while the groups
    // are small (a spinner in the air, on the ground, in a small heap).
    Internals& in = *internals_;
    const uint32_t slotCount = uint32_t(bodies_.size());
    std::vector<uint32_t>& queue = in.reachQueue;
    queue.clear();
    std::vector<uint8_t>& joined = in.reachJoined;
    joined.assign(slotCount, 0);
    const auto join = [&](uint32_t from, uint32_t body) {
        if (joined[body]) return;
        joined[body] = 1;
        in.reachSets.unite(from, body);
        queue.push_back(body);
    };
    for (uint32_t spinner = 0; spinner < slotCount; ++spinner) {
        if (joined[spinner] || in.passesNeeded[spinner] <= settings_.passes) continue;
        join(spinner, spinner);
        for (size_t next = queue.size() - 1; next < queue.size(); ++next) {
            if (queue.size() > size_t(kMaxGrownPassGroup)) return false;
            const uint32_t member = queue[next];
            const Body& body = bodies_[member];
            // A sleeping island wakes whole: who reaches one body reaches them all.
            if (body.asleep) {
                for (uint32_t other = 0; other < slotCount; ++other) {
                    if (bodies_[other].isAlive() && bodies_[other].asleep && bodies_[other].island == body.island) {
                        join(member, other);
                    }
                }
            }
            const Aabb& reach = in.aabbs[member];
            for (uint32_t other = 0; other < slotCount; ++other) {
                if (other == member || !in.present[other] || !reach.overlaps(in.aabbs[other])) continue;
                if (bodies_[other].isStatic) {
                    in.reachPairs.push_back(BodyPair{std::min(member, other), std::max(member, other)});
                } else {
                    join(member, other);
                }
            }
        }
    }
    return true;
}

void World::joinAllReached() {
    // Every pair of bodies that may meet, from a broadphase over the reach boxes.
    Internals& in = *internals_;
    const uint32_t slotCount = uint32_t(bodies_.size());
    in.reachSets.reset(slotCount);
    in.reachPairs.clear();
    in.reachBroadPhase.findPairs(in.aabbs, in.present, in.isStatic, in.reachPairs);
    for (const BodyPair& pair : in.reachPairs) {
        if (bodies_[pair.a].isDynamic() && bodies_[pair.b].isDynamic()) in.reachSets.unite(pair.a, pair.b);
    }
    // A sleeping island wakes whole.
    for (uint32_t i = 0; i < slotCount; ++i) {
        if (bodies_[i].isAlive() && bodies_[i].asleep && bodies_[i].island < slotCount) {
            in.reachSets.unite(i, bodies_[i].island);
        }
    }
}

void World::runGroupPasses(size_t group, float dt) {
    Internals& in = *internals_;
    PassGroup& passGroup = in.passGroups[group];
    // Every dynamic body may spin fast: the base group then holds static bodies only.
    const auto dynamic = [this](uint32_t i) { return bodies_[i].isDynamic(); };
    if (std::none_of(passGroup.bodies.begin(), passGroup.bodies.end(), dynamic)) return;
    if (group > 0) std::swap(in.contacts, passGroup.contacts);
    // A pass that ends early (a body gained spin in it) is finished on fresh
    // contacts, what the early end was for, in the sub-steps it had left, of
    // their planned length. But if the spin now turns a body more than
    // kMaxTurnPerPass in what is left of a pass, as after a whole pass whose
    // impacts left a body spinning faster than the passes left allow (a stick
    // landing at 52 m/s went from 12 to 254 rad/s in the impact stage after a
    // pass's sub-steps, turned 2.1 rad in the next pass and put its end 23 cm
    // into the ground), the rest of the step goes to as many passes as keep
    // the spin within it, all of them within kMaxPasses. Otherwise the passes
    // are those planned, of the same length.
    const int subSteps = settings_.subSteps;
    const auto cutPassLength = [&](float passDt, int subStepsLeft) {
        return passDt * float(subStepsLeft) / float(subSteps);
    };
    int passesLeft = passGroup.passes, passesRun = 0;
    int subStepsLeft = subSteps;  // of the pass under way
    float passDt = dt / float(passGroup.passes);
    while (passesLeft > 0) {
        const float length = subStepsLeft == subSteps ? passDt : cutPassLength(passDt, subStepsLeft);
        subStepsLeft -= runPass(length, subStepsLeft, group, passesRun + passesLeft < kMaxPasses);
        ++passesRun;
        const bool whole = subStepsLeft == 0;
        if (whole) {
            --passesLeft;
            subStepsLeft = subSteps;
        }
        if (passesLeft == 0) break;
        const float rest = passDt * (float(passesLeft) - float(subSteps - subStepsLeft) / float(subSteps));
        float fastest = 0.0f;
        for (uint32_t i : passGroup.bodies) fastest = std::max(fastest, cornerSpin(bodies_[i]));
        const int needed = turnPasses(fastest, rest);
        if (whole && needed <= passesLeft) continue;
        const float longestLeft = passesLeft > 1 ? passDt : cutPassLength(passDt, subStepsLeft);
        if (!whole && turnPasses(fastest, longestLeft) <= 1) continue;
        passesLeft = std::min(kMaxPasses - passesRun, std::max(passesLeft, needed));
        passDt = rest / float(passesLeft);
        subStepsLeft = subSteps;
    }
    stats_.mostPasses = std::max(stats_.mostPasses, passesRun);
    if (passesRun > settings_.passes) {
        for (uint32_t i : passGroup.bodies) stats_.bodiesInExtraPasses += bodies_[i].isDynamic();
    }
    stats_.candidatePairs += static_cast<int>(in.pairs.size());
    if (group == 0) return;
    std::swap(in.contacts, passGroup.contacts);
    Internals::moveContacts(passGroup.contacts, in.contacts, [](const ContactManifold&) { return true; });
}

void World::recoverFromNonFiniteState(BodyId failed) {
    // NaN spreads through contacts within a step, so every body goes back to
    // its state before the step; the contacts, possibly poisoned, are dropped.
    Internals& in = *internals_;
    for (size_t i = 0; i < bodies_.size(); ++i) {
        Body& body = bodies_[i];
        if (!body.isAlive()) continue;
        const Internals::SavedState& saved = in.savedStates[i];
        body.position = saved.position;
        body.orientation = saved.orientation;
        body.linearVelocity = saved.linearVelocity;
        body.angularVelocity = saved.angularVelocity;
        body.updateWorldInertia();
    }
    // Without its velocities the same step cannot fail the same way again.
    Body& culprit = bodies_[failed.index];
    culprit.linearVelocity = vec3(0.0f);
    culprit.angularVelocity = vec3(0.0f);
    in.contacts.clear();
    in.stepImpacts.clear();
    if (drag_.active && drag_.body == failed) endDrag();
    lastRecovery_ = StepRecovery{failed, culprit.name, stepCount_};
    ++recoveryCount_;
}

int World::runPass(float dt, int subSteps, size_t group, bool mayEndEarly) {
    Internals& in = *internals_;
    PassGroup& passGroup = in.passGroups[group];
    collide(dt, passGroup);
    const bool dragged = drag_.active && in.passGroupOf[drag_.body.index] == group;
    SolverPass pass{settings_,     dt,        bodies_,
                    in.contacts.manifolds, in.contacts.reports, in.solverData,
                    *team_,        dragged ? &drag_ : nullptr, &in.dragSolver,
                    &passGroup.bodies};
    pass.subSteps = subSteps;
    pass.mayEndEarly = mayEndEarly;
    solvePass(pass);
    if (!in.solverData.impactMeasures.empty()) collectImpacts();
    return pass.subStepsRun;
}

void World::collectImpacts() {
    Internals& in = *internals_;
    // A point struck more than once in the pass (in both impact stages) is one
    // entry with the later impact, as its report holds that one's impulses. Sorted
    // in place: no stage reads the measures, and the next pass clears them.
    std::vector<ImpactMeasure>& measures = in.solverData.impactMeasures;
    std::stable_sort(measures.begin(), measures.end(), [](const ImpactMeasure& a, const ImpactMeasure& b) {
        return a.constraint != b.constraint ? a.constraint < b.constraint : a.point < b.point;
    });
    for (size_t k = 0; k < measures.size(); ++k) {
        const ImpactMeasure& measure = measures[k];
        const bool later = k + 1 < measures.size() && measures[k + 1].constraint == measure.constraint &&
                           measures[k + 1].point == measure.point;
        if (later) continue;
        ContactPointInfo info =
            contactInfo(in.contacts.manifolds[measure.constraint], in.contacts.reports[measure.constraint], measure.point);
        info.impactArrivalVelocity = measure.arrivalVelocity;
        info.impactLeavingVelocity = measure.leavingVelocity;
        info.impactSlipBefore = measure.slipBefore;
        info.impactSlipAfter = measure.slipAfter;
        info.impactEnergyLost = measure.energyLost;
        in.stepImpacts.push_back(info);
    }
}

namespace {

// Speculative reach of a pair: how far the closest features can approach this
// pass, through the relative motion and through each body's spin.
float speculativeMargin(const Body& a, const Body& b, const BodyPair& pair, float dt,
                        const std::vector<float>& spinReach) {
    return kSpeculativeDistance + dt * glm::length(b.linearVelocity - a.linearVelocity) + spinReach[pair.a] +
           spinReach[pair.b];
}

// A pair's manifold at `margin` into `manifold` (and its cache, for box pairs):
// last step's, carried by the bodies, while its cache holds, else the
// narrowphase's. Inlined: it is the narrowphase loop's body.
__attribute__((always_inline)) inline void pairManifold(const Body& a, const Body& b, float margin, float dt,
                                                        const ContactManifold* previous, Manifold& manifold,
                                                        ManifoldCache& cache) {
    const BodyPose poseA{a.position, a.orientation, &a.rotation};
    const BodyPose poseB{b.position, b.orientation, &b.rotation};
    if (previous != nullptr && reuseManifold(previous->cache, poseA, poseB, margin, manifold)) {
        cache = previous->cache;
        return;
    }
    manifold = impulse::collide(ShapePose{&a.shape, a.position, a.rotation},
                                ShapePose{&b.shape, b.position, b.rotation}, margin, b.linearVelocity - a.linearVelocity,
                                dt);
    const bool boxes = a.shape.type == ShapeType::Box && b.shape.type == ShapeType::Box;
    if (boxes && manifold.pointCount > 0) cache = cacheManifold(manifold, poseA, poseB, margin);
}

__attribute__((always_inline)) inline void initContact(ContactManifold& contact, const BodyPair& pair, const Body& a,
                                                       const Body& b, const Manifold& manifold,
                                                       const ManifoldCache& cache, const ContactManifold* previous,
                                                       const WorldSettings& settings) {
    contact.a = pair.a;
    contact.b = pair.b;
    contact.cache = cache;
    contact.restitution = combineRestitution(settings.restitutionCombine, a.restitution, b.restitution);
    contact.friction = combineFriction(settings.frictionCombine, a.friction, b.friction);
    contact.staticFriction = combineFriction(settings.frictionCombine, a.staticFriction, b.staticFriction);
    initManifold(contact, manifold, previous, settings.warmStarting);
}

// How much farther than their own reach two moving bodies in contact may drive
// each other in a pass: closing at c along the normal through their smallest
// gap s, they move together for the rest of the pass, each at its share of
// their inverse mass. A 5.9 kg stick falling at 14 m/s onto a 0.69 kg ball 7 cm
// above the ground drove it 6 cm into the ground within a step, where the
// ball's own reach found no contact. (Spin is left out: its reach, the
// farthest point's whole turn, would count every tumbling pile as driven.)
void noteDrivenBodies(const BodyPair& pair, const Body& a, const Body& b, const Manifold& manifold, float dt,
                      std::vector<DrivenBody>& driven) {
    const float closing = -glm::dot(b.linearVelocity - a.linearVelocity, manifold.normal);
    // Resting and parting pairs, nearly all, drive nothing whatever their gaps.
    if (!(dt * closing > kSpeculativeDistance)) return;
    float smallestGap = manifold.points[0].separation;
    for (int i = 1; i < manifold.pointCount; ++i) smallestGap = std::min(smallestGap, manifold.points[i].separation);
    // An overlap is no way to go: pressed bodies are not driven by it.
    const float together = dt * closing - std::max(smallestGap, 0.0f);
    if (!(together > kSpeculativeDistance)) return;
    const float inverseMasses = a.inverseMass + b.inverseMass;
    const float reachA = together * a.inverseMass / inverseMasses, reachB = together * b.inverseMass / inverseMasses;
    if (reachA > kSpeculativeDistance) driven.push_back({pair.a, reachA});
    if (reachB > kSpeculativeDistance) driven.push_back({pair.b, reachB});
}

Aabb grown(const Aabb& box, float by) { return Aabb{box.lower - vec3(by), box.upper + vec3(by)}; }

const ContactManifold* manifoldOf(const std::vector<ContactManifold>& sorted, size_t count, uint64_t key) {
    const auto end = sorted.begin() + ptrdiff_t(count);
    const auto found = std::lower_bound(sorted.begin(), end, key,
                                        [](const ContactManifold& m, uint64_t k) { return m.key() < k; });
    return found != end && found->key() == key ? &*found : nullptr;
}

}  // namespace

void World::collide(float dt, PassGroup& group) {
    Internals& in = *internals_;
    // AABBs grow by the distance each body can travel this pass, so fast bodies
    // get speculative contacts instead of tunnelling.
    const size_t slotCount = bodies_.size();
    in.aabbs.resize(slotCount);
    in.present.assign(slotCount, 0);
    in.isStatic.assign(slotCount, 0);
    in.spinReach.assign(slotCount, 0.0f);
    in.staticBodies.clear();
    const std::vector<uint32_t>& groupBodies = group.bodies;
    for (size_t k = 0; k < groupBodies.size(); ++k) {
        if (k + kPrefetchRecordsAhead < groupBodies.size()) prefetchBody(bodies_[groupBodies[k + kPrefetchRecordsAhead]]);
        const uint32_t i = groupBodies[k];
        const Body& body = bodies_[i];
        in.present[i] = 1;
        // Sleeping bodies stand still like static ones: no pairs among them.
        in.isStatic[i] = !body.isSimulated();
        if (body.isStatic) in.staticBodies.push_back(i);
        in.spinReach[i] = dt * glm::length(body.angularVelocity) * boundingRadius(body.shape);
        const float sweep = dt * glm::length(body.linearVelocity) + in.spinReach[i];
        in.aabbs[i] = shapeAabb(body.shape, body.position, body.rotation, 0.5f * kSpeculativeDistance + sweep);
    }
    group.broadPhase.findPairs(in.aabbs, in.present, in.isStatic, in.pairs);

    std::vector<ContactManifold>& manifolds = in.contacts.manifolds;
    std::swap(manifolds, in.previousManifolds);
    manifolds.clear();
    in.islandsToWake.clear();
    in.drivenBodies.clear();
    size_t previousIndex = 0;
    for (size_t pairIndex = 0; pairIndex < in.pairs.size(); ++pairIndex) {
        const BodyPair& pair = in.pairs[pairIndex];
        if (pairIndex + kPrefetchPairsAhead < in.pairs.size()) {
            prefetchBody(bodies_[in.pairs[pairIndex + kPrefetchPairsAhead].b]);
        }
        prefetchAhead(in.previousManifolds, previousIndex);
        // The manifold this pair may add, a few ahead, inside the capacity kept from earlier steps.
        if (manifolds.size() + kPrefetchRecordsAhead < manifolds.capacity()) {
            prefetchBytesForWrite(manifolds.data() + manifolds.size() + kPrefetchRecordsAhead,
                                  sizeof(ContactManifold));
        }
        const Body& a = bodies_[pair.a];
        const Body& b = bodies_[pair.b];
        const float margin = speculativeMargin(a, b, pair, dt, in.spinReach);
        // Both lists are sorted by pair key: walk them together to find last step's manifold.
        while (previousIndex < in.previousManifolds.size() && in.previousManifolds[previousIndex].key() < pair.key()) {
            ++previousIndex;
        }
        const ContactManifold* previous = previousIndex < in.previousManifolds.size() &&
                                                  in.previousManifolds[previousIndex].key() == pair.key()
                                              ? &in.previousManifolds[previousIndex]
                                              : nullptr;
        Manifold manifold;
        ManifoldCache cache;
        pairManifold(a, b, margin, dt, previous, manifold, cache);
        if (manifold.pointCount == 0) continue;
        initContact(manifolds.emplace_back(), pair, a, b, manifold, cache, previous, settings_);
        if (a.isSimulated() && b.isSimulated()) noteDrivenBodies(pair, a, b, manifold, dt, in.drivenBodies);
        // Touching a sleeping body wakes its island before the solve, which then moves it.
        if (a.asleep) in.islandsToWake.push_back(a.island);
        if (b.asleep) in.islandsToWake.push_back(b.island);
    }
    if (!in.drivenBodies.empty()) collideDrivenWithStatic(dt);
    // The reports stay parallel to the manifolds (finishContacts writes them),
    // also while waking moves contacts in.
    in.contacts.reports.resize(manifolds.size());
    wakeIslands(in.islandsToWake);
}

void World::collideDrivenWithStatic(float dt) {
    Internals& in = *internals_;
    std::vector<DrivenBody>& driven = in.drivenBodies;
    // Each body once, with the farthest any pair may drive it.
    std::sort(driven.begin(), driven.end(), [](const DrivenBody& x, const DrivenBody& y) {
        return x.body != y.body ? x.body < y.body : x.reach > y.reach;
    });
    driven.erase(std::unique(driven.begin(), driven.end(),
                             [](const DrivenBody& x, const DrivenBody& y) { return x.body == y.body; }),
                 driven.end());
    std::vector<ContactManifold>& manifolds = in.contacts.manifolds;
    const size_t collided = manifolds.size();
    for (const DrivenBody& drive : driven) {
        const Aabb reach = grown(in.aabbs[drive.body], drive.reach);
        for (const uint32_t other : in.staticBodies) {
            if (!reach.overlaps(in.aabbs[other])) continue;
            const BodyPair pair{std::min(drive.body, other), std::max(drive.body, other)};
            const Body& a = bodies_[pair.a];
            const Body& b = bodies_[pair.b];
            const float margin = speculativeMargin(a, b, pair, dt, in.spinReach) + drive.reach;
            const ContactManifold* previous = manifoldOf(in.previousManifolds, in.previousManifolds.size(), pair.key());
            Manifold manifold;
            ManifoldCache cache;
            pairManifold(a, b, margin, dt, previous, manifold, cache);
            if (manifold.pointCount == 0) continue;
            // The pair's manifold of the shorter reach, if it had one, gives way.
            const ContactManifold* shorter = manifoldOf(manifolds, collided, pair.key());
            ContactManifold& contact =
                shorter != nullptr ? manifolds[size_t(shorter - manifolds.data())] : manifolds.emplace_back();
            initContact(contact, pair, a, b, manifold, cache, previous, settings_);
        }
    }
    // Sorted by pair key, as the next pass's walk over them needs.
    const auto byKey = [](const ContactManifold& x, const ContactManifold& y) { return x.key() < y.key(); };
    const auto added = manifolds.begin() + ptrdiff_t(collided);
    std::sort(added, manifolds.end(), byKey);
    std::inplace_merge(manifolds.begin(), added, manifolds.end(), byKey);
}

// ---------------------------------------------------------------- drag

Validation World::beginDrag(BodyId id, const vec3& grabPoint, const DragSettings& settings) {
    if (!isValid(id)) return FieldError{"body", "no such body"};
    if (auto error = validateDragSettings(settings)) return error;
    if (!isFinite(grabPoint)) return FieldError{"drag.point", "must hold finite numbers"};
    if (bodies_[id.index].isStatic) return FieldError{"body", "a static body cannot be dragged"};
    wakeAround(id.index);
    const Body& body = bodies_[id.index];
    drag_ = DragState{};
    drag_.active = true;
    drag_.body = id;
    drag_.localAnchor = inverseRotate(body.orientation, grabPoint - body.position);
    drag_.anchor = grabPoint;
    drag_.target = grabPoint;
    drag_.settings = settings;
    return std::nullopt;
}

void World::setDragTarget(const vec3& target) {
    if (drag_.active && isFinite(target)) drag_.target = target;
}

Validation World::setDragSettings(const DragSettings& settings) {
    if (auto error = validateDragSettings(settings)) return error;
    drag_.settings = settings;
    return std::nullopt;
}

void World::endDrag() {
    // The body keeps its velocity (throwing); the tuning stays for the next grab.
    const DragSettings settings = drag_.settings;
    drag_ = DragState{};
    drag_.settings = settings;
}

}  // namespace impulse
