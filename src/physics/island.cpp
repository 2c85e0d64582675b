// Sleeping: islands of awake bodies joined by contacts fall asleep whole once
// every body has rested long enough, and wake whole (docs/physics.md, "Sleeping").
#include "physics/world.h"

#include "physics/world_internals.h"

#include <algorithm>
#include <limits>

namespace impulse {

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
    SlotSets& islands = in.islandSets;
    islands.reset(slotCount);
    const auto root = [&](uint32_t i) { return islands.root(i); };
    for (const ContactManifold& m : in.contacts.manifolds) {
        if (bodies_[m.a].isSimulated() && bodies_[m.b].isSimulated()) islands.unite(m.a, m.b);
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

}  // namespace impulse
