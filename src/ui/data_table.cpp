#include "ui/data_table.h"

#include <algorithm>
#include <cstdio>
#include <string_view>

namespace impulse::ui {

std::vector<DataRow> dataRows(const World& world, const app::SystemMotion& system) {
    std::vector<DataRow> rows;
    for (BodyId id : world.bodyIds()) {
        const Body& b = world.body(id);
        DataRow row;
        row.id = id;
        row.name = b.name;
        row.isStatic = b.isStatic;
        row.mass = b.isStatic ? 0.0f : b.mass;
        row.restitution = b.restitution;
        row.friction = b.friction;
        row.position = b.position;
        row.velocity = b.linearVelocity;
        row.motion = app::bodyMotion(b, system.centre);
        rows.push_back(std::move(row));
    }
    return rows;
}

namespace {

/// Names in the order a reader expects: runs of digits compare as numbers
/// (ball2 before ball10), the rest character by character.
bool naturalLess(const std::string& a, const std::string& b) {
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (digit(a[i]) && digit(b[j])) {
            const size_t aStart = i, bStart = j;
            while (i < a.size() && digit(a[i])) ++i;
            while (j < b.size() && digit(b[j])) ++j;
            // Leading zeros aside, the longer run is the larger number.
            std::string_view x(a.data() + aStart, i - aStart), y(b.data() + bStart, j - bStart);
            x.remove_prefix(std::min(x.find_first_not_of('0'), x.size()));
            y.remove_prefix(std::min(y.find_first_not_of('0'), y.size()));
            if (x.size() != y.size()) return x.size() < y.size();
            if (x != y) return x < y;
        } else {
            if (a[i] != b[j]) return a[i] < b[j];
            ++i;
            ++j;
        }
    }
    return a.size() - i < b.size() - j;
}

}  // namespace

void sortRows(std::vector<DataRow>& rows, DataColumn column, bool ascending) {
    const auto key = [column](const DataRow& r) -> double {
        switch (column) {
            case DataColumn::mass: return r.mass;
            case DataColumn::restitution: return r.restitution;
            case DataColumn::friction: return r.friction;
            case DataColumn::position: return glm::length(r.position);
            case DataColumn::velocity: return glm::length(r.velocity);
            case DataColumn::momentum: return glm::length(r.motion.momentum);
            case DataColumn::kineticEnergy: return r.motion.kineticEnergy;
            case DataColumn::name: break;
        }
        return 0.0;
    };
    std::stable_sort(rows.begin(), rows.end(), [&](const DataRow& a, const DataRow& b) {
        if (column == DataColumn::name) return ascending ? naturalLess(a.name, b.name) : naturalLess(b.name, a.name);
        return ascending ? key(a) < key(b) : key(b) < key(a);
    });
}

namespace {

template <class Change>
std::string editBody(EditTarget& target, BodyId id, Change&& change) {
    const World& world = target.world();
    if (!world.isValid(id)) return "that body is gone";
    BodyDef def = world.bodyDef(id);
    change(def);
    const Validation refused = target.setBody(id, def);
    return refused ? world.body(id).name + ": " + refused->message() : "";
}

}  // namespace

std::string editBodyNumber(EditTarget& target, BodyId id, DataColumn column, float value) {
    // World::updateBody would take it and leave it unused; the scene format refuses it.
    if (column == DataColumn::mass && target.world().isValid(id) && target.world().body(id).isStatic) {
        return target.world().body(id).name + ": mass: a static body has no mass";
    }
    return editBody(target, id, [&](BodyDef& d) {
        if (column == DataColumn::mass) d.mass = value;
        if (column == DataColumn::restitution) d.restitution = value;
        if (column == DataColumn::friction) d.friction = value;
    });
}

std::string editBodyVector(EditTarget& target, BodyId id, DataColumn column, const vec3& value) {
    return editBody(target, id, [&](BodyDef& d) {
        if (column == DataColumn::position) d.position = value;
        if (column == DataColumn::velocity) d.linearVelocity = value;
    });
}

std::string dataCsv(const std::vector<DataRow>& rows, const app::SystemMotion& system) {
    std::string csv = "name,static,m,e,mu,px,py,pz,vx,vy,vz,p_x,p_y,p_z,KE\n";
    char line[512];
    for (const DataRow& r : rows) {
        // Names are the scene's (letters, digits, _ and the like); quoted in case of a comma.
        std::snprintf(line, sizeof line, "\"%s\",%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n",
                      r.name.c_str(), r.isStatic ? 1 : 0, double(r.mass), double(r.restitution), double(r.friction),
                      double(r.position.x), double(r.position.y), double(r.position.z), double(r.velocity.x),
                      double(r.velocity.y), double(r.velocity.z), r.motion.momentum.x, r.motion.momentum.y,
                      r.motion.momentum.z, r.motion.kineticEnergy);
        csv += line;
    }
    std::snprintf(line, sizeof line,
                  "\"total (%zu dynamic)\",,%.9g,,,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n"
                  "\"L about the centre of mass\",,,,,,,,,,,%.9g,%.9g,%.9g,\n",
                  system.bodies, system.mass, system.centre.x, system.centre.y, system.centre.z, system.velocity.x,
                  system.velocity.y, system.velocity.z, system.momentum.x, system.momentum.y, system.momentum.z,
                  system.kineticEnergy, system.angularMomentum.x, system.angularMomentum.y, system.angularMomentum.z);
    csv += line;
    return csv;
}

}  // namespace impulse::ui
