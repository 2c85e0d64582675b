// A world between two steps, as values: what World::restore needs so that the
// steps run from it repeat, bit for bit, the steps run from the world it was
// taken of (docs/physics.md, "Snapshots"). It keeps what the next step reads
// (each body's motion and sleep state, the contacts awake and asleep with
// their warm-start impulses and narrowphase caches, the drag, the settings,
// the step count) and what the panels show of the last step (its stats and
// the contacts' reports), but none of the step's scratch. The bodies'
// properties (shape, mass, materials, names, free slots) change only on an
// edit, so consecutive snapshots share them. A snapshot may also be kept against
// a full one of the same bodies and contacts (World::snapshotAgainst): then it
// holds only the bytes of the motion and contacts that differ from that one's.
#pragma once

#include "physics/byte_delta.h"
#include "physics/contact.h"
#include "physics/world.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace impulse {

/// What a step changes of a body slot.
struct BodyMotion {
    vec3 position{0.0f};
    quat orientation{1.0f, 0.0f, 0.0f, 0.0f};
    vec3 linearVelocity{0.0f};
    vec3 angularVelocity{0.0f};
    // Kept, not recomputed: the solver writes them with its own arithmetic.
    mat3 rotation{1.0f};
    mat3 inverseInertiaWorld{0.0f};
    float restTime = 0.0f;
    uint32_t island = 0;
    bool asleep = false;
    bool spinClamped = false;
};

class WorldSnapshot {
public:
    /// World::stepCount() of the world it was taken of.
    uint64_t stepCount() const { return stepCount_; }
    /// Bytes it holds apart from the bodies' properties and its base (which it may share).
    size_t bytes() const;
    /// Bytes of the bodies' motion and the contacts it stands for, as a full snapshot
    /// holds them: what taking or restoring it reads (less the reports, when it has none).
    size_t stateBytes() const;
    /// The full snapshot it is kept against; null when it is full itself.
    const std::shared_ptr<const WorldSnapshot>& base() const { return base_; }
    /// Bytes of the bodies' properties, shared with the snapshots of the same layout.
    size_t layoutBytes() const;
    /// Whether `other` holds the same bodies' properties (shared, counted once).
    bool sharesLayoutWith(const WorldSnapshot& other) const { return layout_ == other.layout_; }
    /// Whether it holds the last step's contact reports (World::snapshotAgainst): one
    /// without them stands for its step only once a step has run from an earlier one.
    bool hasLastStepReports() const { return hasReports_; }
    /// Names the bodies' properties it holds: the same for the snapshots that share them.
    const void* layoutId() const { return layout_.get(); }

private:
    friend class World;
    /// The bodies with their properties as of an edit; `revision` names that edit.
    struct Layout {
        std::vector<Body> bodies;
        std::vector<uint32_t> freeSlots;
        int liveBodies = 0;
        uint64_t revision = 0;
    };
    std::shared_ptr<const Layout> layout_;
    std::vector<BodyMotion> motion_;  // one per body slot
    WorldSettings settings_;
    DragState drag_;
    StepStats stats_;
    uint64_t stepCount_ = 0;
    std::optional<StepRecovery> lastRecovery_;
    uint64_t recoveryCount_ = 0;
    uint64_t spinClampCount_ = 0;
    std::vector<ContactManifold> contacts_, sleepingContacts_;
    std::vector<ContactReport> reports_, sleepingReports_;
    std::vector<ContactPointInfo> impacts_;  ///< World::impacts() of the last step
    // Set when kept against base_: the five arrays above are then empty, and each
    // delta holds the bytes of its array that differ from the base's.
    std::shared_ptr<const WorldSnapshot> base_;
    bool hasReports_ = true;  ///< false: kept against base_ without the awake contacts' reports
    ByteDelta motionDelta_, contactsDelta_, sleepingContactsDelta_, reportsDelta_, sleepingReportsDelta_;
};

}  // namespace impulse
