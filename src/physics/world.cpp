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
        const Body& body = bodies_[i];
        in.savedStates[i] = {body.position, body.linearVelocity, body.angularVelocity, body.orientation};
    }
    lastRecovery_.reset();
    in.stepImpacts.clear();
    const int passes = passCount(dt);
    const float passDt = dt / float(passes);
    for (int i = 0; i < passes; ++i) runPass(passDt);
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

int World::passCount(float dt) const {
    float fastestSpinSquared = 0.0f;
    for (const Body& body : bodies_) {
        if (body.isAlive() && body.isDynamic()) {
            fastestSpinSquared = std::max(fastestSpinSquared, glm::dot(body.angularVelocity, body.angularVelocity));
        }
    }
    // At most kMaxTurnPerPass per pass for the fastest spinner, within the settings' limit.
    const float turnPasses = std::ceil(std::sqrt(fastestSpinSquared) * dt / kMaxTurnPerPass);
    if (!(turnPasses < float(kMaxPasses))) return kMaxPasses;
    return std::max(settings_.passes, int(turnPasses));
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

void World::runPass(float dt) {
    Internals& in = *internals_;
    collide(dt);
    std::vector<ContactManifold>& manifolds = in.contacts.manifolds;
    SolverPass pass{settings_, dt, bodies_, manifolds, in.contacts.reports, in.solverData, *team_,
                    drag_.active ? &drag_ : nullptr, &in.dragSolver};
    solvePass(pass);

    stats_.candidatePairs = static_cast<int>(in.pairs.size());
    stats_.manifolds = static_cast<int>(manifolds.size());
    stats_.contactPoints = 0;
    for (const ContactManifold& manifold : manifolds) stats_.contactPoints += manifold.pointCount;
    if (!in.solverData.impactMeasures.empty()) collectImpacts();
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

void World::collide(float dt) {
    Internals& in = *internals_;
    // AABBs grow by the distance each body can travel this pass, so fast bodies
    // get speculative contacts instead of tunnelling.
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
            manifold = impulse::collide(ShapePose{&a.shape, a.position, a.rotation}, ShapePose{&b.shape, b.position, b.rotation},
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
