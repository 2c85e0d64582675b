// The Data tab's logic without ImGui: every body as a row of what a class
// tabulates (name, m, e, mu, position, velocity, momentum, KE), sorted by any
// column, edited in place through the same EditTarget::setBody as the Body
// panel (so every change is an undoable command and a refused value leaves the
// world as it was), and written as CSV with the system's totals.
#pragma once

#include "app/classroom.h"
#include "ui/edit.h"

#include <string>
#include <vector>

namespace impulse::ui {

enum class DataColumn { name, mass, restitution, friction, position, velocity, momentum, kineticEnergy };

struct DataRow {
    BodyId id;
    std::string name;
    bool isStatic = false;
    float mass = 0.0f;  ///< kg; 0 for a static body (it has none)
    float restitution = 0.0f, friction = 0.0f;
    vec3 position{0.0f}, velocity{0.0f};
    app::BodyMotion motion;  ///< p, I w, L about the system's centre, KE
};

/// Every body of `world` in body order, angular momentum about `system`'s centre.
std::vector<DataRow> dataRows(const World& world, const app::SystemMotion& system);

/// Sorts by `column`: names alphabetically with numbers in them by value (ball2
/// before ball10), numbers by value, vectors by length;
/// equal keys keep their order (body order, for rows just made).
void sortRows(std::vector<DataRow>& rows, DataColumn column, bool ascending);

/// Sets one number (mass, restitution or friction) of body `id` through
/// EditTarget::setBody. Returns "" or the refusal naming the body, the field and
/// the rule ("crate: mass: must be > 0"; a static body's mass is refused too);
/// a refusal changes nothing.
std::string editBodyNumber(EditTarget& target, BodyId id, DataColumn column, float value);
/// The same for a vector (position or velocity).
std::string editBodyVector(EditTarget& target, BodyId id, DataColumn column, const vec3& value);

/// The rows as CSV: a header, one line per row in the given order, then the
/// totals of the dynamic bodies (p, L about their centre of mass, KE). Numbers
/// with 9 significant digits (a float's round trip).
std::string dataCsv(const std::vector<DataRow>& rows, const app::SystemMotion& system);

}  // namespace impulse::ui
