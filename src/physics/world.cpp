#include "physics/world.h"

#include "physics/broad_phase.h"
#include "physics/constants.h"
#include "physics/contact_solver.h"
#include "physics/drag_constraint.h"
#include "physics/impact.h"
#include "physics/manifold.h"
#include "physics/thread_team.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace impulse {

// ---------------------------------------------------------------- combine rules

const char* toString(RestitutionCombine rule) {
    switch (rule) {
        case RestitutionCombine::Max: return "max";
        case RestitutionCombine::Min: return "min";
        case RestitutionCombine::Average: return "average";
        case RestitutionCombine::Multiply: return "multiply";
    }
    return "max";
}

const char* toString(FrictionCombine rule) {
    switch (rule) {
        case FrictionCombine::Geometric: return "geometric";
        case FrictionCombine::Average: return "average";
        case FrictionCombine::Min: return "min";
        case FrictionCombine::Max: return "max";
    }
    return "geometric";
}

std::optional<RestitutionCombine> parseRestitutionCombine(const std::string& text) {
    for (auto rule : {RestitutionCombine::Max, RestitutionCombine::Min, RestitutionCombine::Average,
                      RestitutionCombine::Multiply}) {
        if (text == toString(rule)) return rule;
    }
    return std::nullopt;
}

std::optional<FrictionCombine> parseFrictionCombine(const std::string& text) {
    for (auto rule : {FrictionCombine::Geometric, FrictionCombine::Average, FrictionCombine::Min, FrictionCombine::Max}) {
        if (text == toString(rule)) return rule;
    }
    return std::nullopt;
}

float combineRestitution(RestitutionCombine rule, float a, float b) {
    switch (rule) {
        case RestitutionCombine::Max: return std::max(a, b);
        case RestitutionCombine::Min: return std::min(a, b);
        case RestitutionCombine::Average: return 0.5f * (a + b);
        case RestitutionCombine::Multiply: return a * b;
    }
    return std::max(a, b);
}

float combineFriction(FrictionCombine rule, float a, float b) {
    switch (rule) {
        case FrictionCombine::Geometric: return std::sqrt(a * b);
        case FrictionCombine::Average: return 0.5f * (a + b);
        case FrictionCombine::Min: return std::min(a, b);
        case FrictionCombine::Max: return std::max(a, b);
    }
    return std::sqrt(a * b);
}

// ---------------------------------------------------------------- validation

Validation validateSettings(const WorldSettings& s) {
    auto fail = [](const char* field, const std::string& rule) { return Validation(FieldError{field, rule}); };
    if (!isFinite(s.gravity)) return fail("gravity", "must hold finite numbers");
    if (glm::length(s.gravity) > kMaxGravity) {
        return fail("gravity", "magnitude must be <= " + std::to_string(int(kMaxGravity)) + " m/s^2");
    }
    if (!isFinite(s.timestep) || s.timestep < kMinTimestep || s.timestep > kMaxTimestep) {
        return fail("timestep", "must be a number in [1e-05, 0.1] s");
    }
    if (s.substeps < 1 || s.substeps > kMaxSubsteps) {
        return fail("substeps", "must be an integer in [1, " + std::to_string(kMaxSubsteps) + "]");
    }
    if (s.velocityIterations < 1 || s.velocityIterations > kMaxVelocityIterations) {
        return fail("velocity_iterations", "must be an integer in [1, " + std::to_string(kMaxVelocityIterations) + "]");
    }
    if (s.positionIterations < 0 || s.positionIterations > kMaxPositionIterations) {
        return fail("position_iterations", "must be an integer in [0, " + std::to_string(kMaxPositionIterations) + "]");
    }
    if (!isFinite(s.restitutionThreshold) || s.restitutionThreshold < 0.0f || s.restitutionThreshold > kMaxSpeed) {
        return fail("restitution_threshold", "must be a number in [0, 1000] m/s");
    }
    if (!isFinite(s.sleepSpeed) || s.sleepSpeed < 0.0f || s.sleepSpeed > kMaxSleepSpeed) {
        return fail("sleep_speed", "must be a number in [0, 10] m/s");
    }
    if (!isFinite(s.sleepTime) || s.sleepTime <= 0.0f || s.sleepTime > kMaxSleepTime) {
        return fail("sleep_time", "must be a number in (0, 1000] s");
    }
    return std::nullopt;
}

Validation validateDragSettings(const DragSettings& s) {
    if (!isFinite(s.frequency) || s.frequency <= 0.0f || s.frequency > 1000.0f) {
        return FieldError{"drag.frequency", "must be a number in (0, 1000] Hz"};
    }
    if (!isFinite(s.dampingRatio) || s.dampingRatio < 0.0f || s.dampingRatio > 100.0f) {
        return FieldError{"drag.damping_ratio", "must be a number in [0, 100]"};
    }
    if (!isFinite(s.maxForceInWeights) || s.maxForceInWeights <= 0.0f || s.maxForceInWeights > 1.0e4f) {
        return FieldError{"drag.max_force", "must be a number in (0, 10000] body weights"};
    }
    return std::nullopt;
}

// ---------------------------------------------------------------- internals

/// Manifolds with the reports of their last step (ContactReport), in parallel
/// arrays: the step streams the manifolds, only the inspector reads the reports.
struct ContactList {
    std::vector<ContactManifold> manifolds;  // sorted by (a, b)
    std::vector<ContactReport> reports;      // same index

    void push(const ContactList& from, size_t index) {
        manifolds.push_back(from.manifolds[index]);
        reports.push_back(from.reports[index]);
    }
    void clear() {
        manifolds.clear();
        reports.clear();
    }
    /// Keeps the contacts i for which keep(i) holds, in order. keep(i) may still
    /// read contact i: only the places before it are written by then.
    template <typename Predicate>
    void keepIf(Predicate keep) {
        size_t kept = 0;
        for (size_t i = 0; i < manifolds.size(); ++i) {
            if (!keep(i)) continue;
            manifolds[kept] = manifolds[i];
            reports[kept] = reports[i];
            ++kept;
        }
        manifolds.resize(kept);
        reports.resize(kept);
    }
};

struct World::Internals {
    BroadPhase broadPhase;
    ContactList contacts;
    // Contacts of sleeping islands (with each other and with static bodies), sorted by
    // (a, b): kept as they were, so a woken island resumes with its impulses.
    ContactList sleepingContacts;
    // Scratch reused every substep to avoid allocations on the hot path.
    std::vector<ContactManifold> previousManifolds;
    std::vector<Aabb> aabbs;
    std::vector<uint8_t> present;
    std::vector<uint8_t> isStatic;
    std::vector<float> spinReach;  // how far each body's farthest point turns this pass, m
    std::vector<BodyPair> pairs;
    ContactSolverData solverData;
    DragSolver dragSolver;
    // Body states before the current step, for the non-finite guard.
    struct SavedState {
        vec3 position, linearVelocity, angularVelocity;
        quat orientation;
    };
    std::vector<SavedState> savedStates;
    // Sleep scratch: union-find parents and the shortest rest time per island root.
    std::vector<uint32_t> islandParent;
    std::vector<float> islandRest;
    std::vector<uint32_t> islandsToWake;

    void forgetContactsOf(uint32_t index) {
        for (ContactList* list : {&contacts, &sleepingContacts}) {
            list->keepIf([&](size_t i) { return list->manifolds[i].a != index && list->manifolds[i].b != index; });
        }
    }
    /// Moves the contacts whose manifold satisfies `move` from `from` to `to`; both stay sorted by key.
    template <typename Predicate>
    static void moveContacts(ContactList& from, ContactList& to, Predicate move) {
        ContactList merged;
        size_t next = 0;  // of `to`
        from.keepIf([&](size_t i) {
            if (!move(from.manifolds[i])) return true;
            while (next < to.manifolds.size() && to.manifolds[next].key() < from.manifolds[i].key()) {
                merged.push(to, next++);
            }
            merged.push(from, i);
            return false;
        });
        if (merged.manifolds.empty()) return;
        while (next < to.manifolds.size()) merged.push(to, next++);
        to = std::move(merged);
    }
};

World::World(const WorldSettings& settings)
    : internals_(std::make_unique<Internals>()), team_(std::make_unique<ThreadTeam>(1)) {
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
      internals_(std::make_unique<Internals>(*other.internals_)),
      team_(std::make_unique<ThreadTeam>(other.team_->size())) {}
World& World::operator=(const World& other) {
    if (this != &other) *this = World(other);
    return *this;
}
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;

Validation validateThreadCount(int count) {
    if (count < 1 || count > kMaxThreads) {
        return FieldError{"threads", "must be an integer in [1, " + std::to_string(kMaxThreads) + "]"};
    }
    return std::nullopt;
}

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
        const Body& body = bodies_[i];
        in.savedStates[i] = {body.position, body.linearVelocity, body.angularVelocity, body.orientation};
    }
    lastRecovery_.reset();
    const int passes = passCount(dt);
    const float substepDt = dt / float(passes);
    for (int i = 0; i < passes; ++i) substep(substepDt);
    if (const BodyId failed = firstNonFiniteBody()) {
        recoverFromNonFiniteState(failed);
    } else if (settings_.sleeping) {
        updateSleep(dt);
    }
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

void World::updateSleep(float dt) {
    Internals& in = *internals_;
    const size_t slotCount = bodies_.size();
    for (Body& body : bodies_) {
        if (!body.isAlive() || !body.isSimulated()) continue;
        // The fastest point of the body, bounded: centre speed plus spin times reach.
        const float speed =
            glm::length(body.linearVelocity) + glm::length(body.angularVelocity) * boundingRadius(body.shape);
        body.restTime = speed < settings_.sleepSpeed ? body.restTime + dt : 0.0f;
    }
    if (drag_.active) bodies_[drag_.body.index].restTime = 0.0f;

    // Islands: awake dynamic bodies joined by contacts (static bodies join nothing).
    std::vector<uint32_t>& parent = in.islandParent;
    parent.resize(slotCount);
    for (uint32_t i = 0; i < slotCount; ++i) parent[i] = i;
    const auto root = [&](uint32_t i) {
        while (parent[i] != i) i = parent[i] = parent[parent[i]];
        return i;
    };
    for (const ContactManifold& m : in.contacts.manifolds) {
        if (!bodies_[m.a].isSimulated() || !bodies_[m.b].isSimulated()) continue;
        const uint32_t ra = root(m.a), rb = root(m.b);
        // The smaller index becomes the root: the island's name does not depend on contact order.
        if (ra != rb) parent[std::max(ra, rb)] = std::min(ra, rb);
    }
    std::vector<float>& rest = in.islandRest;
    rest.assign(slotCount, std::numeric_limits<float>::infinity());
    for (uint32_t i = 0; i < slotCount; ++i) {
        if (!bodies_[i].isAlive() || !bodies_[i].isSimulated()) continue;
        float& islandRest = rest[root(i)];
        islandRest = std::min(islandRest, bodies_[i].restTime);
    }
    bool anyFellAsleep = false;
    for (uint32_t i = 0; i < slotCount; ++i) {
        Body& body = bodies_[i];
        if (!body.isAlive() || !body.isSimulated() || rest[root(i)] < settings_.sleepTime) continue;
        body.asleep = true;
        body.island = root(i);
        body.linearVelocity = vec3(0.0f);
        body.angularVelocity = vec3(0.0f);
        anyFellAsleep = true;
    }
    if (!anyFellAsleep) return;
    // Their contacts now join only sleeping and static bodies: kept aside, unsolved.
    Internals::moveContacts(in.contacts, in.sleepingContacts, [&](const ContactManifold& m) {
        return !bodies_[m.a].isSimulated() && !bodies_[m.b].isSimulated();
    });
}

void World::wakeIslands(std::vector<uint32_t>& islands) {
    if (islands.empty()) return;
    std::sort(islands.begin(), islands.end());
    islands.erase(std::unique(islands.begin(), islands.end()), islands.end());
    for (Body& body : bodies_) {
        if (!body.isAlive() || !body.asleep || !std::binary_search(islands.begin(), islands.end(), body.island)) {
            continue;
        }
        body.asleep = false;
        body.restTime = 0.0f;
    }
    Internals& in = *internals_;
    Internals::moveContacts(in.sleepingContacts, in.contacts, [&](const ContactManifold& m) {
        return !bodies_[m.a].asleep && !bodies_[m.b].asleep;
    });
}

void World::wakeAll() {
    if (stats_.sleepingBodies == 0) return;  // bodies fall asleep only in a step
    std::vector<uint32_t>& islands = internals_->islandsToWake;
    islands.clear();
    for (const Body& body : bodies_) {
        if (body.isAlive() && body.asleep) islands.push_back(body.island);
    }
    wakeIslands(islands);
}

void World::wakeAround(uint32_t index) {
    Internals& in = *internals_;
    std::vector<uint32_t>& islands = in.islandsToWake;
    islands.clear();
    if (bodies_[index].asleep) islands.push_back(bodies_[index].island);
    for (const ContactManifold& m : in.sleepingContacts.manifolds) {
        if (m.a != index && m.b != index) continue;
        const Body& other = bodies_[m.a == index ? m.b : m.a];
        if (other.asleep) islands.push_back(other.island);
    }
    wakeIslands(islands);
}

int World::passCount(float dt) const {
    float fastestSpinSquared = 0.0f;
    for (const Body& body : bodies_) {
        if (body.isAlive() && body.isDynamic()) {
            fastestSpinSquared = std::max(fastestSpinSquared, glm::dot(body.angularVelocity, body.angularVelocity));
        }
    }
    // At most kMaxTurnPerPass per pass for the fastest spinner, within the settings' limit.
    const float turnPasses = std::ceil(std::sqrt(fastestSpinSquared) * dt / kMaxTurnPerPass);
    if (!(turnPasses < float(kMaxSubsteps))) return kMaxSubsteps;
    return std::max(settings_.substeps, int(turnPasses));
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
    if (drag_.active && drag_.body == failed) endDrag();
    lastRecovery_ = StepRecovery{failed, culprit.name, stepCount_};
    ++recoveryCount_;
}

void World::substep(float dt) {
    Internals& in = *internals_;

    // 1. Collision detection. AABBs grow by the distance each body can travel
    // this step, so fast bodies get speculative contacts instead of tunnelling.
    const size_t slotCount = bodies_.size();
    in.aabbs.resize(slotCount);
    in.present.assign(slotCount, 0);
    in.isStatic.assign(slotCount, 0);
    in.spinReach.assign(slotCount, 0.0f);
    for (size_t i = 0; i < slotCount; ++i) {
        if (i + kPrefetchRecordsAhead < slotCount) prefetchBody(bodies_[i + kPrefetchRecordsAhead]);
        const Body& body = bodies_[i];
        if (!body.isAlive()) continue;
        in.present[i] = 1;
        // Sleeping bodies stand still like static ones: no pairs among them.
        in.isStatic[i] = !body.isSimulated();
        in.spinReach[i] = dt * glm::length(body.angularVelocity) * boundingRadius(body.shape);
        const float sweep = dt * glm::length(body.linearVelocity) + in.spinReach[i];
        in.aabbs[i] = shapeAabb(body.shape, body.position, body.rotation, 0.5f * kSpeculativeDistance + sweep);
    }
    in.broadPhase.findPairs(in.aabbs, in.present, in.isStatic, in.pairs);

    std::vector<ContactManifold>& manifolds = in.contacts.manifolds;
    std::swap(manifolds, in.previousManifolds);
    manifolds.clear();
    in.islandsToWake.clear();
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
        // Speculative reach: how far the closest features can approach this pass,
        // through the relative motion and through each body's spin.
        const float margin = kSpeculativeDistance + dt * glm::length(b.linearVelocity - a.linearVelocity) +
                             in.spinReach[pair.a] + in.spinReach[pair.b];
        // Both lists are sorted by pair key: walk them together to find last step's manifold.
        while (previousIndex < in.previousManifolds.size() && in.previousManifolds[previousIndex].key() < pair.key()) {
            ++previousIndex;
        }
        const ContactManifold* previous = previousIndex < in.previousManifolds.size() &&
                                                  in.previousManifolds[previousIndex].key() == pair.key()
                                              ? &in.previousManifolds[previousIndex]
                                              : nullptr;
        const BodyPose poseA{a.position, a.orientation, &a.rotation};
        const BodyPose poseB{b.position, b.orientation, &b.rotation};
        Manifold manifold;
        ManifoldCache cache;
        if (previous != nullptr && reuseManifold(previous->cache, poseA, poseB, manifold)) {
            cache = previous->cache;
        } else {
            manifold = collide(ShapePose{&a.shape, a.position, a.rotation}, ShapePose{&b.shape, b.position, b.rotation},
                               margin);
            const bool boxes = a.shape.type == ShapeType::Box && b.shape.type == ShapeType::Box;
            if (boxes && manifold.pointCount > 0) cache = cacheManifold(manifold, poseA, poseB);
        }
        if (manifold.pointCount == 0) continue;
        ContactManifold& contact = manifolds.emplace_back();
        contact.a = pair.a;
        contact.b = pair.b;
        contact.cache = cache;
        contact.restitution = combineRestitution(settings_.restitutionCombine, a.restitution, b.restitution);
        contact.friction = combineFriction(settings_.frictionCombine, a.friction, b.friction);
        contact.staticFriction = combineFriction(settings_.frictionCombine, a.staticFriction, b.staticFriction);
        initManifold(contact, manifold, previous, settings_.warmStarting);
        // Touching a sleeping body wakes its island before the solve, which then moves it.
        if (a.asleep) in.islandsToWake.push_back(a.island);
        if (b.asleep) in.islandsToWake.push_back(b.island);
    }
    // The reports stay parallel to the manifolds (finishContacts writes them),
    // also while waking moves contacts in.
    in.contacts.reports.resize(manifolds.size());
    wakeIslands(in.islandsToWake);

    // 2. Prepare once per pass: anchors, tangents, the impacts of touching points.
    prepareContacts(manifolds, bodies_, settings_.restitutionThreshold, settings_.gravity, dt, in.solverData);
    Body* dragged = drag_.active ? &bodies_[drag_.body.index] : nullptr;
    const uint32_t draggedSlot = dragged ? in.solverData.slotOfBody[drag_.body.index] : 0;
    ImpactRules impactRules;
    impactRules.threshold = settings_.restitutionThreshold;
    impactRules.gravity = settings_.gravity;
    impactRules.draggedSlot = draggedSlot;

    // 3. Impacts of touching points, from the velocities before the solve.
    resolveImpacts(in.solverData, bodies_, impactRules);
    buildContactBatches(in.solverData);

    // 4. Sub-steps: gravity, warm start, solve (with the drag and the split
    // push-out), move, relax; on every member of the thread team.
    const int subSteps = settings_.velocityIterations;
    const float h = dt / float(subSteps);
    ThreadTeam& team = *team_;
    team.run([&](int member) {
        for (int subStep = 0; subStep < subSteps; ++subStep) {
            const ThreadTeam::Share slots = team.share(in.solverData.bodies.size() - 1, member);
            for (size_t slot = 1 + slots.begin; slot < 1 + slots.end; ++slot) {
                in.solverData.bodies[slot].linearVelocity += h * settings_.gravity;
            }
            team.sync();
            beginSubStep(in.solverData, settings_.warmStarting, subStep == 0, team, member);
            const bool reverse = subStep % 2 == 1;
            if (dragged && member == 0) {
                // The cap is in body weights; under zero gravity use Earth's so it still pulls.
                const SolverBody& slot = in.solverData.bodies[draggedSlot];
                const float weight = dragged->mass * std::max(glm::length(settings_.gravity), 9.81f);
                prepareDrag(in.dragSolver, dragged->position + slot.deltaPosition,
                            slot.orientation, *dragged, drag_.localAnchor, drag_.target,
                            drag_.settings.frequency, drag_.settings.dampingRatio,
                            drag_.settings.maxForceInWeights * weight, h);
                solveDrag(in.dragSolver, in.solverData.bodies[draggedSlot]);
            }
            if (dragged) team.sync();
            solveContacts(in.solverData, h, Sweep::Solve, reverse, team, member);
            if (in.solverData.supportsHeavy) solveContacts(in.solverData, h, Sweep::Support, reverse, team, member);
            integrateSolverPositions(in.solverData, bodies_, h, team, member);
            // Relax: the velocities again, now against the moved bodies, no push.
            solveContacts(in.solverData, h, Sweep::Relax, !reverse, team, member);
        }
    });
    storeBatchImpulses(in.solverData);
    if (dragged) drag_.force = in.dragSolver.impulse / h;

    // 5. Impacts of gaps that closed during the sub-steps, then velocities
    // and poses back to the bodies.
    findArrivals(in.solverData, settings_.restitutionThreshold);
    impactRules.stage = ImpactStage::AfterSubSteps;
    resolveImpacts(in.solverData, bodies_, impactRules);
    finishContacts(in.solverData, manifolds, in.contacts.reports, bodies_);

    // 6. Optional rigid position passes for overlap left beyond the slop.
    solveContactPositions(in.solverData, manifolds, bodies_, settings_.positionIterations);
    if (dragged) drag_.anchor = dragged->position + rotate(dragged->orientation, drag_.localAnchor);

    stats_.candidatePairs = static_cast<int>(in.pairs.size());
    stats_.manifolds = static_cast<int>(manifolds.size());
    stats_.contactPoints = 0;
    for (const ContactManifold& manifold : manifolds) stats_.contactPoints += manifold.pointCount;
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

// ---------------------------------------------------------------- queries

std::optional<RayHit> World::rayCast(const vec3& origin, const vec3& direction, float maxDistance) const {
    const float length = glm::length(direction);
    if (!isFinite(origin) || !isFinite(direction) || !(length > 0.0f)) return std::nullopt;
    const vec3 dir = direction / length;
    std::optional<RayHit> best;
    float bestDistance = maxDistance;
    for (uint32_t i = 0; i < bodies_.size(); ++i) {
        const Body& body = bodies_[i];
        if (!body.isAlive()) continue;
        // Work in the body frame, where the box is axis-aligned.
        const vec3 o = inverseRotate(body.orientation, origin - body.position);
        const vec3 d = inverseRotate(body.orientation, dir);
        float hitDistance = -1.0f;
        vec3 localNormal(0.0f);
        if (body.shape.type == ShapeType::Sphere) {
            const float r = body.shape.radius;
            const float b = glm::dot(o, d);
            const float c = glm::dot(o, o) - r * r;
            const float discriminant = b * b - c;
            if (c > 0.0f && discriminant >= 0.0f && b < 0.0f) {
                hitDistance = -b - std::sqrt(discriminant);
                localNormal = (o + hitDistance * d) / r;
            }
        } else {
            // Slab test: the ray enters the box at the last of the three slab entries.
            const vec3& h = body.shape.halfExtents;
            float enter = -INFINITY, exit = INFINITY;
            int enterAxis = -1;
            bool missed = false;
            for (int k = 0; k < 3; ++k) {
                if (std::fabs(d[k]) < 1e-12f) {
                    missed = missed || std::fabs(o[k]) > h[k];
                    continue;
                }
                float t0 = (-h[k] - o[k]) / d[k];
                float t1 = (h[k] - o[k]) / d[k];
                if (t0 > t1) std::swap(t0, t1);
                if (t0 > enter) {
                    enter = t0;
                    enterAxis = k;
                }
                exit = std::min(exit, t1);
            }
            if (!missed && enterAxis >= 0 && enter <= exit && enter > 0.0f) {
                hitDistance = enter;
                localNormal[enterAxis] = d[enterAxis] > 0.0f ? -1.0f : 1.0f;
            }
        }
        if (hitDistance >= 0.0f && hitDistance <= bestDistance) {
            bestDistance = hitDistance;
            best = RayHit{idOf(i), origin + hitDistance * dir, rotate(body.orientation, localNormal), hitDistance};
        }
    }
    return best;
}

std::vector<ContactPointInfo> World::contacts() const {
    std::vector<ContactPointInfo> result;
    // The app asks every frame (thousands of points in a pile): one allocation, not a doubling series.
    size_t pointCount = 0;
    for (const ContactList* list : {&internals_->contacts, &internals_->sleepingContacts}) {
        for (const ContactManifold& manifold : list->manifolds) pointCount += size_t(manifold.pointCount);
    }
    result.reserve(pointCount);
    const auto addPoints = [&](const ContactManifold& manifold, const ContactReport& report) {
        const Body& a = bodies_[manifold.a];
        const Body& b = bodies_[manifold.b];
        for (int i = 0; i < manifold.pointCount; ++i) {
            const ContactPoint& point = manifold.points[i];
            const ContactPointReport& pointReport = report.points[i];
            ContactPointInfo info;
            info.bodyA = idOf(manifold.a);
            info.bodyB = idOf(manifold.b);
            info.point = point.point;
            info.normal = manifold.normal;
            info.rA = pointReport.rA;
            info.rB = pointReport.rB;
            info.separation = point.separation;
            info.featureId = point.id;
            info.inverseMassA = a.inverseMass;
            info.inverseMassB = b.inverseMass;
            const EffectiveMassTerms terms = effectiveMassTerms(manifold, pointReport, a, b);
            info.angularTermA = terms.angularTermA;
            info.angularTermB = terms.angularTermB;
            info.normalMass = terms.normalMass;
            info.tangentMass[0] = terms.tangentMass[0];
            info.tangentMass[1] = terms.tangentMass[1];
            info.tangent[0] = manifold.tangent[0];
            info.tangent[1] = manifold.tangent[1];
            info.normalVelocityBefore = point.normalVelocityBefore;
            info.normalVelocityAfter = pointReport.normalVelocityAfter;
            info.targetNormalVelocity = pointReport.targetVelocity;
            info.restitution = manifold.restitution;
            info.friction = manifold.friction;
            info.staticFriction = manifold.staticFriction;
            info.normalImpulse = pointReport.stepNormalImpulse;
            info.frictionImpulse = pointReport.stepFrictionImpulse;
            info.frictionBound = pointReport.frictionBound;
            info.sticking = point.sticking;
            info.impactNormalImpulse = pointReport.impactNormalImpulse;
            info.impactFrictionImpulse = pointReport.impactFrictionImpulse;
            info.impactSticking = pointReport.impactSticking;
            info.warmStarted = point.warmStarted;
            result.push_back(info);
        }
    };
    // Sleeping islands' contacts too: they hold what they held when the island fell asleep.
    for (const ContactList* list : {&internals_->contacts, &internals_->sleepingContacts}) {
        for (size_t m = 0; m < list->manifolds.size(); ++m) addPoints(list->manifolds[m], list->reports[m]);
    }
    return result;
}

double World::kineticEnergy() const {
    double energy = 0.0;
    for (const Body& body : bodies_) {
        if (!body.isAlive() || body.isStatic) continue;
        const glm::dvec3 v(body.linearVelocity);
        const glm::dvec3 w(inverseRotate(body.orientation, body.angularVelocity));
        energy += 0.5 * body.mass * glm::dot(v, v) + 0.5 * glm::dot(w, glm::dmat3(body.inertiaBody) * w);
    }
    return energy;
}

double World::potentialEnergy() const {
    double energy = 0.0;
    const glm::dvec3 g(settings_.gravity);
    for (const Body& body : bodies_) {
        if (body.isAlive() && body.isDynamic()) energy -= body.mass * glm::dot(g, glm::dvec3(body.position));
    }
    return energy;
}

glm::dvec3 World::linearMomentum() const {
    glm::dvec3 momentum(0.0);
    for (const Body& body : bodies_) {
        if (body.isAlive() && body.isDynamic()) momentum += double(body.mass) * glm::dvec3(body.linearVelocity);
    }
    return momentum;
}

glm::dvec3 World::angularMomentum() const {
    glm::dvec3 momentum(0.0);
    for (const Body& body : bodies_) {
        if (!body.isAlive() || body.isStatic) continue;
        const glm::dmat3 rotation(body.rotation);
        const glm::dvec3 spin =
            rotation * (glm::dmat3(body.inertiaBody) * (glm::transpose(rotation) * glm::dvec3(body.angularVelocity)));
        momentum += glm::cross(glm::dvec3(body.position), double(body.mass) * glm::dvec3(body.linearVelocity)) + spin;
    }
    return momentum;
}

BodyId World::firstNonFiniteBody() const {
    for (uint32_t i = 0; i < bodies_.size(); ++i) {
        const Body& body = bodies_[i];
        if (!body.isAlive()) continue;
        const bool finite = isFinite(body.position) && isFinite(body.orientation) && isFinite(body.linearVelocity) &&
                            isFinite(body.angularVelocity);
        // Compared without sqrt so an overflowing square also counts as blown up.
        const bool blownUp = glm::dot(body.position, body.position) > kBlownUpPosition * kBlownUpPosition ||
                             glm::dot(body.linearVelocity, body.linearVelocity) > kBlownUpSpeed * kBlownUpSpeed;
        if (!finite || blownUp) return idOf(i);
    }
    return BodyId{};
}

}  // namespace impulse
