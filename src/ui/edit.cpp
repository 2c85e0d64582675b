#include "ui/edit.h"

#include <algorithm>
#include <filesystem>

namespace impulse::ui {

void BodyEditor::select(const World& world, BodyId id) {
    selected_ = world.isValid(id) ? id : BodyId{};
    status_.error.clear();
    resetDraft(world);
}

void BodyEditor::validate(const World& world) {
    if (selected_ && !world.isValid(selected_)) {
        selected_ = BodyId{};
        status_.error.clear();
    }
}

void BodyEditor::resetDraft(const World& world) {
    if (selected_ && world.isValid(selected_)) inertiaDraft_ = world.body(selected_).inertiaBody;
}

bool BodyEditor::apply(World& world, const BodyDef& edited) {
    if (!selected_ || !world.isValid(selected_)) {
        status_.error = "no body selected";
        return false;
    }
    const Validation refused = world.updateBody(selected_, edited);
    if (refused) {
        status_.error = "refused: " + refused->message();
        return false;
    }
    status_.error.clear();
    return true;
}

template <class Change>
bool BodyEditor::edit(World& world, Change&& change) {
    if (!selected_ || !world.isValid(selected_)) {
        status_.error = "no body selected";
        return false;
    }
    BodyDef def = world.bodyDef(selected_);
    change(def);
    return apply(world, def);
}

bool BodyEditor::setMass(World& world, float mass) {
    return edit(world, [&](BodyDef& d) { d.mass = mass; });
}
bool BodyEditor::setRestitution(World& world, float e) {
    return edit(world, [&](BodyDef& d) { d.restitution = e; });
}
bool BodyEditor::setFriction(World& world, float mu) {
    return edit(world, [&](BodyDef& d) { d.friction = mu; });
}
bool BodyEditor::setStaticFriction(World& world, float muStatic) {
    return edit(world, [&](BodyDef& d) {
        if (muStatic < 0.0f) {
            d.staticFriction.reset();
        } else {
            d.staticFriction = muStatic;
        }
    });
}
bool BodyEditor::setShape(World& world, const Shape& shape) {
    return edit(world, [&](BodyDef& d) { d.shape = shape; });
}
bool BodyEditor::setPosition(World& world, const vec3& p) {
    return edit(world, [&](BodyDef& d) { d.position = p; });
}
bool BodyEditor::setLinearVelocity(World& world, const vec3& v) {
    return edit(world, [&](BodyDef& d) { d.linearVelocity = v; });
}
bool BodyEditor::setAngularVelocity(World& world, const vec3& w) {
    return edit(world, [&](BodyDef& d) { d.angularVelocity = w; });
}

bool BodyEditor::setStatic(World& world, bool isStatic) {
    if (!selected_ || !world.isValid(selected_)) {
        status_.error = "no body selected";
        return false;
    }
    BodyDef def = world.bodyDef(selected_);
    def.isStatic = isStatic;
    if (isStatic) {
        // A static body has no mass: drop the velocities and any inertia override.
        def.linearVelocity = vec3(0.0f);
        def.angularVelocity = vec3(0.0f);
        def.inertia.reset();
    }
    const bool ok = apply(world, def);
    if (ok) resetDraft(world);
    return ok;
}

void BodyEditor::mirrorDraftEntry(int column, int row) {
    if (column != row) inertiaDraft_[row][column] = inertiaDraft_[column][row];
}

bool BodyEditor::applyInertiaDraft(World& world) {
    if (!selected_ || !world.isValid(selected_)) {
        status_.error = "no body selected";
        return false;
    }
    if (world.body(selected_).isStatic) {
        status_.error = "refused: inertia: a static body has no inertia";
        return false;
    }
    // Check first so the message names the physical rule even if updateBody words it differently.
    if (const Validation bad = validateInertia(inertiaDraft_)) {
        status_.error = "refused: " + bad->message() + " (the previous tensor stays)";
        return false;
    }
    BodyDef def = world.bodyDef(selected_);
    def.inertia = inertiaDraft_;
    return apply(world, def);
}

bool BodyEditor::useDerivedInertia(World& world) {
    if (!selected_ || !world.isValid(selected_)) {
        status_.error = "no body selected";
        return false;
    }
    BodyDef def = world.bodyDef(selected_);
    def.inertia.reset();
    const bool ok = apply(world, def);
    if (ok) resetDraft(world);
    return ok;
}

bool applySettings(World& world, const WorldSettings& settings, EditStatus& status) {
    if (const Validation refused = world.setSettings(settings)) {
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

void StatsHistory::push(const Sample& s) {
    samples_[static_cast<size_t>(head_)] = s;
    head_ = (head_ + 1) % kCapacity;
    count_ = std::min(count_ + 1, kCapacity);
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
