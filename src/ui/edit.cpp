#include "ui/edit.h"

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace impulse::ui {

void BodyEditor::select(EditTarget& target, BodyId id) {
    target.select(id);
    shown_ = target.selected();
    status_.error.clear();
    resetDraft(target);
}

void BodyEditor::follow(const EditTarget& target) {
    if (shown_ == target.selected()) return;
    shown_ = target.selected();
    status_.error.clear();
}

void BodyEditor::resetDraft(const EditTarget& target) {
    const BodyId id = target.selected();
    if (id && target.world().isValid(id)) inertiaDraft_ = target.world().body(id).inertiaBody;
}

std::optional<BodyDef> BodyEditor::selectedDef(const EditTarget& target) {
    const BodyId id = target.selected();
    if (!id || !target.world().isValid(id)) {
        status_.error = "no body selected";
        return std::nullopt;
    }
    return target.world().bodyDef(id);
}

bool BodyEditor::apply(EditTarget& target, const BodyDef& edited) {
    if (!selectedDef(target)) return false;
    if (const Validation refused = target.setBody(target.selected(), edited)) {
        status_.error = "refused: " + refused->message();
        return false;
    }
    status_.error.clear();
    return true;
}

template <class Change>
bool BodyEditor::edit(EditTarget& target, Change&& change) {
    std::optional<BodyDef> def = selectedDef(target);
    if (!def) return false;
    change(*def);
    return apply(target, *def);
}

bool BodyEditor::setMass(EditTarget& target, float mass) {
    return edit(target, [&](BodyDef& d) { d.mass = mass; });
}
bool BodyEditor::setRestitution(EditTarget& target, float e) {
    return edit(target, [&](BodyDef& d) { d.restitution = e; });
}
bool BodyEditor::setFriction(EditTarget& target, float mu) {
    return edit(target, [&](BodyDef& d) { d.friction = mu; });
}
bool BodyEditor::setStaticFriction(EditTarget& target, float muStatic) {
    return edit(target, [&](BodyDef& d) {
        if (muStatic < 0.0f) {
            d.staticFriction.reset();
        } else {
            d.staticFriction = muStatic;
        }
    });
}
bool BodyEditor::setShape(EditTarget& target, const Shape& shape) {
    return edit(target, [&](BodyDef& d) { d.shape = shape; });
}
bool BodyEditor::setPosition(EditTarget& target, const vec3& p) {
    return edit(target, [&](BodyDef& d) { d.position = p; });
}
bool BodyEditor::setOrientation(EditTarget& target, const quat& q) {
    return edit(target, [&](BodyDef& d) { d.orientation = q; });
}
bool BodyEditor::setLinearVelocity(EditTarget& target, const vec3& v) {
    return edit(target, [&](BodyDef& d) { d.linearVelocity = v; });
}
bool BodyEditor::setAngularVelocity(EditTarget& target, const vec3& w) {
    return edit(target, [&](BodyDef& d) { d.angularVelocity = w; });
}

vec3 worldAxisAnglesDegrees(const quat& q) {
    const mat3 r = glm::mat3_cast(glm::normalize(q));  // r[column][row]
    // R = Rz(c) Ry(b) Rx(a): its bottom row is (-sin b, sin a cos b, cos a cos b) and its
    // first column (cos b cos c, cos b sin c, -sin b).
    const float sinB = std::clamp(-r[0][2], -1.0f, 1.0f);
    const float b = std::asin(sinB);
    float a, c;
    constexpr float kGimbalLock = 0.99999f;
    if (std::fabs(sinB) < kGimbalLock) {
        a = std::atan2(r[1][2], r[2][2]);
        c = std::atan2(r[0][1], r[0][0]);
    } else {
        // cos b = 0: only a - c (or a + c) is defined; with c = 0 the middle column gives a.
        a = std::atan2(-r[2][1], r[1][1]);
        c = 0.0f;
    }
    return glm::degrees(vec3(a, b, c));
}

quat orientationFromWorldAxisAngles(const vec3& degrees) {
    const vec3 radians = glm::radians(degrees);
    return glm::angleAxis(radians.z, vec3(0.0f, 0.0f, 1.0f)) * glm::angleAxis(radians.y, vec3(0.0f, 1.0f, 0.0f)) *
           glm::angleAxis(radians.x, vec3(1.0f, 0.0f, 0.0f));
}

bool BodyEditor::setStatic(EditTarget& target, bool isStatic) {
    const bool ok = edit(target, [&](BodyDef& d) {
        d.isStatic = isStatic;
        if (isStatic) {
            // A static body has no mass: drop the velocities and any inertia override.
            d.linearVelocity = vec3(0.0f);
            d.angularVelocity = vec3(0.0f);
            d.inertia.reset();
        }
    });
    if (ok) resetDraft(target);
    return ok;
}

void BodyEditor::mirrorDraftEntry(int column, int row) {
    if (column != row) inertiaDraft_[row][column] = inertiaDraft_[column][row];
}

bool BodyEditor::applyInertiaDraft(EditTarget& target) {
    std::optional<BodyDef> def = selectedDef(target);
    if (!def) return false;
    if (def->isStatic) {
        status_.error = "refused: inertia: a static body has no inertia";
        return false;
    }
    // Check first so the message names the physical rule even if updateBody words it differently.
    if (const Validation bad = validateInertia(inertiaDraft_)) {
        status_.error = "refused: " + bad->message() + " (the previous tensor stays)";
        return false;
    }
    def->inertia = inertiaDraft_;
    return apply(target, *def);
}

bool BodyEditor::useDerivedInertia(EditTarget& target) {
    const bool ok = edit(target, [](BodyDef& d) { d.inertia.reset(); });
    if (ok) resetDraft(target);
    return ok;
}

bool applySettings(EditTarget& target, const WorldSettings& settings, EditStatus& status) {
    if (const Validation refused = target.setSettings(settings)) {
        status.error = "refused: " + refused->message();
        return false;
    }
    status.error.clear();
    return true;
}

InertiaReport analyseInertia(const mat3& tensor) {
    InertiaReport report;
    if (const Validation bad = validateInertia(tensor)) report.problem = bad->message();
    if (isFinite(tensor)) {
        // Principal axes are only meaningful for the symmetric part.
        const mat3 symmetric = 0.5f * (tensor + glm::transpose(tensor));
        principalAxes(symmetric, report.moments, report.axes);
    }
    return report;
}

int findContact(const std::vector<ContactPointInfo>& contacts, const ContactKey& key) {
    if (!key.valid) return -1;
    // Farther than this from where it was, a point of the same pair is another point (m).
    constexpr float kSamePointDistance = 0.15f;
    int nearest = -1;
    float nearestDistance = kSamePointDistance;
    for (size_t i = 0; i < contacts.size(); ++i) {
        const ContactPointInfo& c = contacts[i];
        if (c.bodyA != key.a || c.bodyB != key.b) continue;
        if (c.featureId == key.feature) return static_cast<int>(i);
        const float d = glm::length(c.point - key.point);
        if (d < nearestDistance) {
            nearestDistance = d;
            nearest = static_cast<int>(i);
        }
    }
    return nearest;
}

int trackContact(const std::vector<ContactPointInfo>& contacts, ContactKey& key) {
    const int index = findContact(contacts, key);
    if (index >= 0) {
        key.feature = contacts[static_cast<size_t>(index)].featureId;
        key.point = contacts[static_cast<size_t>(index)].point;
    }
    return index;
}

BodyContacts contactsOf(const World& world, BodyId body) {
    BodyContacts of;
    of.indices = world.contactIndicesOf(body);
    of.points.reserve(of.indices.size());
    for (size_t i : of.indices) of.points.push_back(world.contactPoint(i));
    return of;
}

int trackContact(const World& world, ContactKey& key) {
    if (!key.valid) return -1;
    const BodyContacts of = contactsOf(world, key.a);
    const int found = trackContact(of.points, key);
    return found < 0 ? -1 : static_cast<int>(of.indices[static_cast<size_t>(found)]);
}

void StatsHistory::push(const Sample& s) {
    samples_[static_cast<size_t>(head_)] = s;
    head_ = (head_ + 1) % kCapacity;
    count_ = std::min(count_ + 1, kCapacity);
}

void StatsHistory::refreshLatest(const Sample& s) {
    if (count_ == 0) {
        push(s);
        return;
    }
    samples_[static_cast<size_t>((head_ - 1 + kCapacity) % kCapacity)] = s;
}

void StatsHistory::clear() {
    head_ = 0;
    count_ = 0;
}

StatsHistory::Sample StatsHistory::at(int i) const {
    const int start = (head_ - count_ + kCapacity) % kCapacity;
    return samples_[static_cast<size_t>((start + i) % kCapacity)];
}

std::vector<float> StatsHistory::series(float Sample::*field) const {
    std::vector<float> out(static_cast<size_t>(count_));
    for (int i = 0; i < count_; ++i) out[static_cast<size_t>(i)] = at(i).*field;
    return out;
}

const StatsHistory::Sample& StatsHistory::latest() const {
    static const Sample empty{};
    if (count_ == 0) return empty;
    return samples_[static_cast<size_t>((head_ - 1 + kCapacity) % kCapacity)];
}

StatsHistory::Sample measure(const World& world, float stepMs) {
    StatsHistory::Sample s;
    s.kinetic = static_cast<float>(world.kineticEnergy());
    s.potential = static_cast<float>(world.potentialEnergy());
    s.total = s.kinetic + s.potential;
    s.linearMomentum = static_cast<float>(glm::length(world.linearMomentum()));
    s.angularMomentum = static_cast<float>(glm::length(world.angularMomentum()));
    s.stepMs = stepMs;
    return s;
}

std::vector<std::string> listPresets(const std::string& dir) {
    namespace fs = std::filesystem;
    std::vector<std::string> out;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return out;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->is_regular_file(ec) && it->path().extension() == ".json") {
            out.push_back(fs::relative(it->path(), dir, ec).generic_string());
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace impulse::ui
