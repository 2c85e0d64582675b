// What World keeps behind its public API: the broadphase, the contact lists
// (awake and sleeping), the solver's working set and the step's scratch. Shared
// by the units that implement World (world, island, world_queries).
#pragma once

#include "physics/broad_phase.h"
#include "physics/contact.h"
#include "physics/drag_constraint.h"
#include "physics/solver_data.h"
#include "physics/world.h"

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

}  // namespace impulse
