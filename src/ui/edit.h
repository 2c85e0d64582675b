// Panel logic without ImGui: every edit a panel makes goes through these
// functions, which go through World's validating API. Kept free of GL and
// ImGui so that tests can drive them directly.
#pragma once

#include "physics/world.h"

#include <array>
#include <string>
#include <vector>

namespace impulse::ui {

/// Outcome of the last edit, shown under the panel: empty when it was accepted.
struct EditStatus {
    std::string error;
    bool ok() const { return error.empty(); }
};

/// Edits one body. Reads the body's definition, applies a change and hands it
/// to World::updateBody(); a refused change leaves the body as it was and
/// keeps the message in `status`.
class BodyEditor {
public:
    /// Selects a body (or none); resets the inertia draft to the body's tensor.
    void select(const World& world, BodyId id);
    BodyId selected() const { return selected_; }
    /// Drops the selection if the body no longer exists.
    void validate(const World& world);

    /// Applies a whole edited definition. True when accepted.
    bool apply(World& world, const BodyDef& edited);

    bool setMass(World& world, float mass);
    bool setRestitution(World& world, float e);
    bool setFriction(World& world, float mu);
    /// A negative value removes the override (static mu follows mu).
    bool setStaticFriction(World& world, float muStatic);
    bool setStatic(World& world, bool isStatic);
    bool setShape(World& world, const Shape& shape);
    bool setPosition(World& world, const vec3& p);
    bool setLinearVelocity(World& world, const vec3& v);
    bool setAngularVelocity(World& world, const vec3& w);

    /// The tensor being typed in, entry by entry (column-major like GLM).
    mat3& inertiaDraft() { return inertiaDraft_; }
    /// Makes the draft symmetric by copying the entry just edited to its mirror.
    void mirrorDraftEntry(int column, int row);
    /// Validates the draft and, if physical, installs it as an override.
    bool applyInertiaDraft(World& world);
    /// Back to the tensor derived from shape and mass.
    bool useDerivedInertia(World& world);
    /// Reloads the draft from the body.
    void resetDraft(const World& world);

    const EditStatus& status() const { return status_; }
    void clearStatus() { status_.error.clear(); }

private:
    template <class Change>
    bool edit(World& world, Change&& change);

    BodyId selected_;
    mat3 inertiaDraft_{1.0f};
    EditStatus status_;
};

/// Applies world settings through World::setSettings(); a refusal keeps the old ones.
bool applySettings(World& world, const WorldSettings& settings, EditStatus& status);

/// Principal moments (ascending) and axes, plus whether the tensor passes validation.
struct InertiaReport {
    vec3 moments{0.0f};
    mat3 axes{1.0f};
    std::string problem;  ///< empty when physical
};
InertiaReport analyseInertia(const mat3& tensor);

/// A contact point chosen in the inspector, found again each step by its bodies and feature.
struct ContactKey {
    BodyId a, b;
    uint32_t feature = 0;
    bool valid = false;
    vec3 point{0.0f};  ///< where it was last seen (world, m)
};
/// Index of the point matching `key` in `contacts`, or -1. The same bodies and
/// feature match first; if the manifold changed features (the bodies shifted),
/// the point of the same pair nearest to where it was last seen is taken.
int findContact(const std::vector<ContactPointInfo>& contacts, const ContactKey& key);
/// findContact(), then moves `key` along to the point found (feature and position).
int trackContact(const std::vector<ContactPointInfo>& contacts, ContactKey& key);

/// Rolling history of the totals plotted by the Stats panel.
class StatsHistory {
public:
    static constexpr int kCapacity = 300;
    struct Sample {
        float kinetic = 0, potential = 0, total = 0, linearMomentum = 0, angularMomentum = 0, stepMs = 0;
    };
    void push(const Sample& s);
    void clear();
    int size() const { return count_; }
    /// Oldest first.
    Sample at(int i) const;
    /// One field of every sample, oldest first, for plotting.
    std::vector<float> series(float Sample::*field) const;
    const Sample& latest() const;

private:
    std::array<Sample, kCapacity> samples_{};
    int head_ = 0;  // next write
    int count_ = 0;
};
StatsHistory::Sample measure(const World& world, float stepMs);

/// Every *.json under `dir` (subfolders included), as paths relative to `dir`, sorted.
std::vector<std::string> listPresets(const std::string& dir);

}  // namespace impulse::ui
