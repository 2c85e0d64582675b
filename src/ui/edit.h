// Panel logic without ImGui: every edit a panel makes goes through these
// functions, which hand it to an EditTarget (the app's experiment), which goes
// through World's validating API. Kept free of GL and ImGui so that tests can
// drive them directly.
#pragma once

#include "physics/world.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace impulse::ui {

/// Outcome of the last edit, shown under the panel: empty when it was accepted.
struct EditStatus {
    std::string error;
    bool ok() const { return error.empty(); }
};

/// What the panels read and change: the world (read-only here), the selection, and
/// the validated edits. The app's experiment stands behind it and records each edit;
/// a refused edit changes nothing and returns the rule broken.
class EditTarget {
public:
    virtual ~EditTarget() = default;
    virtual const World& world() const = 0;
    virtual BodyId selected() const = 0;
    /// A null or stale handle selects nothing.
    virtual void select(BodyId id) = 0;
    /// Replaces the whole definition of a body (World::updateBody's rules).
    virtual Validation setBody(BodyId id, const BodyDef& def) = 0;
    virtual Validation setSettings(const WorldSettings& settings) = 0;
    /// The mouse drag's spring: the next grab's and the current one's.
    virtual const DragSettings& dragSettings() const = 0;
    virtual Validation setDragSettings(const DragSettings& settings) = 0;
    /// What undo / redo would take back or apply again ("crate: mass"); empty when nothing.
    virtual std::string nextUndo() const = 0;
    virtual std::string nextRedo() const = 0;
};

/// Edits the selected body. Reads the body's definition, applies a change and
/// hands it to EditTarget::setBody(); a refused change leaves the body as it was
/// and keeps the message in `status`.
class BodyEditor {
public:
    /// Selects a body (or none); resets the message and the inertia draft to the body's tensor.
    void select(EditTarget& target, BodyId id);
    /// Forgets the message of a body that is no longer the selection (deleted, or another chosen).
    void follow(const EditTarget& target);

    /// Applies a whole edited definition to the selected body. True when accepted.
    bool apply(EditTarget& target, const BodyDef& edited);

    bool setMass(EditTarget& target, float mass);
    bool setRestitution(EditTarget& target, float e);
    bool setFriction(EditTarget& target, float mu);
    /// A negative value removes the override (static mu follows mu).
    bool setStaticFriction(EditTarget& target, float muStatic);
    bool setStatic(EditTarget& target, bool isStatic);
    bool setShape(EditTarget& target, const Shape& shape);
    bool setPosition(EditTarget& target, const vec3& p);
    bool setOrientation(EditTarget& target, const quat& q);
    bool setLinearVelocity(EditTarget& target, const vec3& v);
    bool setAngularVelocity(EditTarget& target, const vec3& w);

    /// The tensor being typed in, entry by entry (column-major like GLM).
    mat3& inertiaDraft() { return inertiaDraft_; }
    const mat3& inertiaDraft() const { return inertiaDraft_; }
    /// Makes the draft symmetric by copying the entry just edited to its mirror.
    void mirrorDraftEntry(int column, int row);
    /// Validates the draft and, if physical, installs it as an override.
    bool applyInertiaDraft(EditTarget& target);
    /// Back to the tensor derived from shape and mass.
    bool useDerivedInertia(EditTarget& target);
    /// Reloads the draft from the selected body.
    void resetDraft(const EditTarget& target);

    const EditStatus& status() const { return status_; }
    void clearStatus() { status_.error.clear(); }

private:
    /// The selected body's definition, or none (with the message) when nothing is selected.
    std::optional<BodyDef> selectedDef(const EditTarget& target);
    template <class Change>
    bool edit(EditTarget& target, Change&& change);

    BodyId shown_;  // the body the message and the draft are about
    mat3 inertiaDraft_{1.0f};
    EditStatus status_;
};

/// An orientation as the Body panel shows it: angles in degrees about the world's fixed
/// axes, turned about x first, then y, then z (R = Rz Ry Rx). y is in [-90, 90]; at
/// +-90 (x and z then turn about the same line) z is 0 and x carries the turn.
vec3 worldAxisAnglesDegrees(const quat& q);
/// The orientation those angles give (exactly the inverse of the above within their ranges).
quat orientationFromWorldAxisAngles(const vec3& degrees);

/// Applies world settings through EditTarget::setSettings(); a refusal keeps the old ones.
bool applySettings(EditTarget& target, const WorldSettings& settings, EditStatus& status);

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

/// The points of `body` copied out of the world, each with its index in World::contacts()
/// (a pile has thousands of points; a body a few).
struct BodyContacts {
    std::vector<size_t> indices;
    std::vector<ContactPointInfo> points;
};
BodyContacts contactsOf(const World& world, BodyId body);
/// trackContact() among the world's points, copying only those of the key's first body;
/// returns the point's index in World::contacts(), or -1.
int trackContact(const World& world, ContactKey& key);

/// Rolling history of the totals plotted by the Stats panel.
class StatsHistory {
public:
    static constexpr int kCapacity = 300;
    struct Sample {
        float kinetic = 0, potential = 0, total = 0, linearMomentum = 0, angularMomentum = 0, stepMs = 0;
    };
    void push(const Sample& s);
    /// Replaces the newest sample (adds one to an empty history): while paused, the
    /// totals follow edits (gravity, positions) without the plots moving on.
    void refreshLatest(const Sample& s);
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
