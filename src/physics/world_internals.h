// What World keeps behind its public API: the broadphase, the contact lists
// (awake and sleeping), the solver's working set and the step's scratch. Shared
// by the units that implement World (world, island, world_queries).
#pragma once

#include "physics/broad_phase.h"
#include "physics/contact.h"
#include "physics/drag_constraint.h"
#include "physics/solver_data.h"
#include "physics/world.h"

#include <algorithm>
#include <vector>

namespace impulse {

/// A value for World::layoutRevision_ that no world has had yet in this process.
uint64_t nextLayoutRevision();

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
            if (kept != i) {
                manifolds[kept] = manifolds[i];
                reports[kept] = reports[i];
            }
            ++kept;
        }
        manifolds.resize(kept);
        reports.resize(kept);
    }
};

/// Union-find over body slots. The smaller index becomes the root: a set's
/// name does not depend on the order of the unions.
struct SlotSets {
    std::vector<uint32_t> parent;

    void reset(size_t slotCount) {
        parent.resize(slotCount);
        for (uint32_t i = 0; i < slotCount; ++i) parent[i] = i;
    }
    uint32_t root(uint32_t i) {
        while (parent[i] != i) i = parent[i] = parent[parent[i]];
        return i;
    }
    void unite(uint32_t a, uint32_t b) {
        const uint32_t ra = root(a), rb = root(b);
        if (ra != rb) parent[std::max(ra, rb)] = std::min(ra, rb);
    }
};

/// A body that a pair in contact may drive farther in a pass than its own
/// motion reaches (World::collide), and how much farther (m).
struct DrivenBody {
    uint32_t body = 0;
    float reach = 0.0f;
};

/// Bodies that take a step's passes together (World::step): those a fast
/// spinner may reach in the step take its extra passes, the others the
/// settings' passes.
struct PassGroup {
    int passes = 1;
    /// Its dynamic bodies (awake or asleep) and the static bodies they may
    /// reach in the step, ascending: what its passes' collide sees.
    std::vector<uint32_t> bodies;
    BroadPhase broadPhase;  // kept from step to step: a group's membership changes rarely
    ContactList contacts;   // its contacts while another group's passes run
};

struct World::Internals {
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
    std::vector<uint32_t> staticBodies;     // of the pass group collide works on
    std::vector<DrivenBody> drivenBodies;   // World::collideDrivenWithStatic
    std::vector<BodyPair> pairs;
    // The step's pass groups: the first takes the settings' passes (and is the
    // whole world while nothing spins fast), the others more, ascending.
    std::vector<PassGroup> passGroups;
    size_t passGroupCount = 0;            // in use this step
    std::vector<uint32_t> passGroupOf;    // per body slot, of dynamic bodies
    // What a fast spinner may reach in a step: the bodies' AABBs swept over the
    // whole step, their overlaps, and union-find parents over them.
    BroadPhase reachBroadPhase;
    std::vector<BodyPair> reachPairs;  // all, or those of a fast group with a static body
    SlotSets reachSets;
    std::vector<uint32_t> reachQueue;  // World::joinFewReached
    std::vector<uint8_t> reachJoined;
    std::vector<int> passesNeeded;        // per body slot
    ContactSolverData solverData;
    /// The points that had an impact in the last step, as each pass left them
    /// (a step of several passes writes the reports again in every pass).
    std::vector<ContactPointInfo> stepImpacts;
    DragSolver dragSolver;
    // Body states before the current step, for the non-finite guard.
    struct SavedState {
        vec3 position, linearVelocity, angularVelocity;
        quat orientation;
    };
    std::vector<SavedState> savedStates;
    // Sleep scratch: the islands and the shortest rest time per island root.
    SlotSets islandSets;
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
        ContactList moved;
        from.keepIf([&](size_t i) {
            if (!move(from.manifolds[i])) return true;
            moved.push(from, i);
            return false;
        });
        // Merged into `to` in place from the back: only the contacts of `to`
        // past the first moved one shift (a spinner's few contacts return to
        // a pile's thousands every step, World::runGroupPasses).
        size_t kept = to.manifolds.size(), left = moved.manifolds.size();
        size_t write = kept + left;
        to.manifolds.resize(write);
        to.reports.resize(write);
        while (left > 0) {
            --write;
            const bool fromTo = kept > 0 && to.manifolds[kept - 1].key() > moved.manifolds[left - 1].key();
            const ContactList& source = fromTo ? to : moved;
            const size_t index = fromTo ? --kept : --left;
            to.manifolds[write] = source.manifolds[index];
            to.reports[write] = source.reports[index];
        }
    }
};

}  // namespace impulse
