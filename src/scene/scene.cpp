// Scene files (JSON, versions 1 and 2) <-> World. Over 800 lines: reader, checks and writer
// of one format stay together so a key is added in one place.
//
// Loading has three layers of checks, each reported with the JSON path:
//  1. syntax: nlohmann's parser, driven through a SAX handler so that we also
//     get the byte offset of number overflows, reject duplicate keys and bound
//     the nesting depth;
//  2. structure: known keys only, the right JSON types, required keys present,
//     single-precision range — the scene format's own rules;
//  3. values: validateBodyDef / validateSettings from the physics layer, the one
//     place where the body model's rules live. Their field names are scene-file
//     key names, so mapping them to a JSON path is a prefix.
//
// Saving writes every float as the shortest decimal that reads back to the same
// float, so save -> load is bit-exact and the files stay readable.
#include "scene/scene.h"
#include "scene/scene_json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <utility>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

namespace impulse::scene {
namespace {

// An orientation whose length is this close to 1 is kept bit for bit: renormalising
// a float quaternion is not idempotent, and save -> load must not move a body.
constexpr double kUnitQuaternionTolerance = 1.0e-6;

}  // namespace

namespace json_io {

[[noreturn]] void fail(std::string path, std::string rule) {
    throw Failure{std::move(path), std::move(rule)};
}

std::string join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
}
std::string index(const std::string& path, std::size_t i) {
    return path + "[" + std::to_string(i) + "]";
}

namespace {

// ---------------------------------------------------------------- syntax

// Builds the DOM like nlohmann's own SAX DOM parser, plus: the position of every
// parse error (the DOM parser drops it for number overflow), duplicate keys and
// a nesting limit, each with the JSON path where it happened.
class Builder : public nlohmann::json_sax<json> {
public:
    json root;
    bool failed = false;
    std::size_t errorByte = 0;
    bool hasErrorByte = false;
    std::string errorPath;
    std::string errorRule;

    bool null() override { return value(json(nullptr)); }
    bool boolean(bool v) override { return value(json(v)); }
    bool number_integer(number_integer_t v) override { return value(json(v)); }
    bool number_unsigned(number_unsigned_t v) override { return value(json(v)); }
    bool number_float(number_float_t v, const string_t&) override { return value(json(v)); }
    bool string(string_t& v) override { return value(json(std::move(v))); }
    bool binary(binary_t& v) override { return value(json(std::move(v))); }

    bool start_object(std::size_t) override { return open(json::object()); }
    bool start_array(std::size_t) override { return open(json::array()); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }

    bool key(string_t& k) override {
        Frame& top = stack_.back();
        if (top.node->contains(k)) {
            return error(join(top.path, k), "duplicate key '" + k + "'");
        }
        // No object of the format has more than 12 keys; a flood of them is refused early.
        if (top.node->size() >= kMaxObjectKeys) {
            return error(join(top.path, k), "more than " + std::to_string(kMaxObjectKeys) + " keys in one object");
        }
        top.key = k;
        return true;
    }

    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& ex) override {
        failed = true;
        hasErrorByte = true;
        errorByte = position;
        errorPath = nextPath();
        errorRule = ex.what();
        // "[json.exception.parse_error.101] parse error at line 1, column 8: syntax error ..." ->
        // "syntax error ...": we print our own line and column.
        if (auto p = errorRule.find("] "); p != std::string::npos) {
            errorRule.erase(0, p + 2);
        }
        if (errorRule.compare(0, 15, "parse error at ") == 0) {
            if (auto p = errorRule.find(": "); p != std::string::npos) {
                errorRule.erase(0, p + 2);
            }
        }
        if (ex.id != 406) {
            errorPath.clear();  // a syntax error has no meaningful JSON path
        }
        return false;
    }

private:
    struct Frame {
        json* node;
        std::string path;
        std::string key;  // last key read, for objects
    };
    std::vector<Frame> stack_;
    std::size_t valueCount_ = 0;

    bool error(std::string path, std::string rule) {
        failed = true;
        errorPath = std::move(path);
        errorRule = std::move(rule);
        return false;
    }

    // Path of the value about to be read.
    std::string nextPath() const {
        if (stack_.empty()) {
            return "";
        }
        const Frame& top = stack_.back();
        return top.node->is_array() ? index(top.path, top.node->size()) : join(top.path, top.key);
    }

    json* place(json&& v) {
        if (stack_.empty()) {
            root = std::move(v);
            return &root;
        }
        Frame& top = stack_.back();
        if (top.node->is_array()) {
            top.node->push_back(std::move(v));
            return &top.node->back();
        }
        json& slot = (*top.node)[top.key];
        slot = std::move(v);
        return &slot;
    }

    bool value(json&& v) {
        if (!withinLimits()) return false;
        place(std::move(v));
        return true;
    }

    // Limits checked while parsing, so that a huge file is refused before its
    // document is built: the body count and the total number of values.
    bool withinLimits() {
        if (++valueCount_ > kMaxJsonValues) {
            return error(nextPath(), "more than " + std::to_string(kMaxJsonValues) +
                                         " JSON values (more than any scene of " + std::to_string(kMaxBodies) +
                                         " bodies needs)");
        }
        if (stack_.size() == 2 && stack_[1].path == "bodies" && stack_[1].node->is_array() &&
            stack_[1].node->size() >= kMaxBodies) {
            return error("bodies", "more than the limit of " + std::to_string(kMaxBodies) + " bodies");
        }
        return true;
    }

    bool open(json&& container) {
        if (static_cast<int>(stack_.size()) >= kMaxNestingDepth) {
            return error(nextPath(), "nested deeper than " + std::to_string(kMaxNestingDepth) + " levels");
        }
        if (!withinLimits()) return false;
        std::string path = nextPath();
        json* node = place(std::move(container));
        stack_.push_back(Frame{node, std::move(path), {}});
        return true;
    }

    bool close() {
        stack_.pop_back();
        return true;
    }
};

// 1-based line and column (in bytes) of the byte offset nlohmann reports, which
// counts the characters read up to and including the offending one (the end of
// input counts as one character past the last).
std::string lineColumn(const std::string& text, std::size_t byteCount) {
    const std::size_t end = std::max<std::size_t>(byteCount, 1);
    const std::size_t scanned = std::min(end - 1, text.size());
    std::size_t line = 1;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < scanned; ++i) {
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    const std::size_t column = end > lineStart ? end - lineStart : 1;
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// ---------------------------------------------------------------- structure

std::string typeName(const json& j) {
    switch (j.type()) {
        case json::value_t::null:
            return "null";
        case json::value_t::boolean:
            return "a boolean";
        case json::value_t::string:
            return "a string";
        case json::value_t::array:
            return "an array";
        case json::value_t::object:
            return "an object";
        case json::value_t::number_float:
        case json::value_t::number_integer:
        case json::value_t::number_unsigned:
            return "a number";
        default:
            return j.type_name();
    }
}

}  // namespace

[[noreturn]] void wrongType(const std::string& path, const std::string& expected, const json& got) {
    fail(path, "expected " + expected + ", got " + typeName(got));
}

namespace {

std::size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0u : 1u)});
            diagonal = up;
        }
    }
    return row[b.size()];
}

}  // namespace

// Every key of `object` must be in `allowed`; a typo names the closest key.
void checkKeys(const json& object, const std::string& path, const std::vector<const char*>& allowed) {
    for (auto it = object.begin(); it != object.end(); ++it) {
        const std::string& key = it.key();
        if (std::find_if(allowed.begin(), allowed.end(), [&](const char* k) { return key == k; }) !=
            allowed.end()) {
            continue;
        }
        std::string rule = "unknown key '" + key + "'";
        const char* best = nullptr;
        std::size_t bestDistance = 3;  // suggest only near misses
        for (const char* candidate : allowed) {
            const std::size_t d = editDistance(key, candidate);
            if (d < bestDistance) {
                bestDistance = d;
                best = candidate;
            }
        }
        if (best != nullptr) {
            rule += " (did you mean '" + std::string(best) + "'?)";
        }
        fail(path, rule);
    }
}

const json& requireObject(const json& j, const std::string& path) {
    if (!j.is_object()) wrongType(path, "an object", j);
    return j;
}

const json& requireKey(const json& object, const std::string& key, const std::string& path) {
    auto it = object.find(key);
    if (it == object.end()) fail(join(path, key), "required key is missing");
    return *it;
}

float readFloat(const json& j, const std::string& path) {
    if (!j.is_number()) wrongType(path, "a number", j);
    const double d = j.get<double>();  // the parser refuses non-finite numbers
    if (std::fabs(d) > static_cast<double>(FLT_MAX)) {
        std::ostringstream text;
        text << d << " is outside the single-precision range (magnitude at most " << FLT_MAX << ")";
        fail(path, text.str());
    }
    return static_cast<float>(d);
}

int readInt(const json& j, const std::string& path) {
    if (!j.is_number_integer()) wrongType(path, "an integer", j);
    // Out-of-range values are clamped and left to validateSettings, which knows the limits.
    if (j.is_number_unsigned()) {
        return static_cast<int>(
            std::min<json::number_unsigned_t>(j.get<json::number_unsigned_t>(), INT32_MAX));
    }
    return static_cast<int>(
        std::clamp<json::number_integer_t>(j.get<json::number_integer_t>(), INT32_MIN, INT32_MAX));
}

bool readBool(const json& j, const std::string& path) {
    if (!j.is_boolean()) wrongType(path, "a boolean (true or false)", j);
    return j.get<bool>();
}

std::string readString(const json& j, const std::string& path) {
    if (!j.is_string()) wrongType(path, "a string", j);
    return j.get<std::string>();
}

void requireArray(const json& j, std::size_t size, const std::string& what, const std::string& path) {
    if (!j.is_array()) wrongType(path, what, j);
    if (j.size() != size) fail(path, "expected " + what + ", got " + std::to_string(j.size()) + " elements");
}

vec3 readVec3(const json& j, const std::string& path) {
    requireArray(j, 3, "an array of 3 numbers", path);
    return vec3(readFloat(j[0], index(path, 0)), readFloat(j[1], index(path, 1)),
                readFloat(j[2], index(path, 2)));
}

namespace {

// [w, x, y, z], normalised unless `exact`. A zero quaternion has no direction to normalise to.
quat readOrientation(const json& j, const std::string& path, bool exact) {
    requireArray(j, 4, "an array of 4 numbers [w, x, y, z]", path);
    float c[4];
    for (std::size_t i = 0; i < 4; ++i) c[i] = readFloat(j[i], index(path, i));
    double lengthSquared = 0.0;
    for (float x : c) lengthSquared += static_cast<double>(x) * static_cast<double>(x);
    if (lengthSquared == 0.0) fail(path, "a zero quaternion is not a rotation (length must be > 0)");
    const double length = std::sqrt(lengthSquared);
    if (!exact && std::fabs(length - 1.0) > kUnitQuaternionTolerance) {
        for (float& x : c) x = static_cast<float>(static_cast<double>(x) / length);
    }
    return quat(c[0], c[1], c[2], c[3]);
}

// Rows of the tensor as written; GLM stores columns, so m[col][row].
mat3 readMatrix(const json& j, const std::string& path) {
    requireArray(j, 3, "an array of 3 rows", path);
    mat3 m(0.0f);
    for (std::size_t r = 0; r < 3; ++r) {
        const std::string rowPath = index(path, r);
        requireArray(j[r], 3, "a row of 3 numbers", rowPath);
        for (std::size_t c = 0; c < 3; ++c) m[c][r] = readFloat(j[r][c], index(rowPath, c));
    }
    return m;
}

Shape readShape(const json& j, const std::string& path) {
    requireObject(j, path);
    checkKeys(j, path, {"type", "half_extents", "radius"});
    const std::string type = readString(requireKey(j, "type", path), join(path, "type"));
    if (type == "box") {
        if (j.contains("radius")) fail(join(path, "radius"), "a box has half_extents, not a radius");
        return Shape::box(readVec3(requireKey(j, "half_extents", path), join(path, "half_extents")));
    }
    if (type == "sphere") {
        if (j.contains("half_extents"))
            fail(join(path, "half_extents"), "a sphere has a radius, not half_extents");
        return Shape::sphere(readFloat(requireKey(j, "radius", path), join(path, "radius")));
    }
    fail(join(path, "type"), "unknown shape type '" + type + "' (expected \"box\" or \"sphere\")");
}

}  // namespace

namespace {

// The keys of the two step counts: version 1 called the passes "substeps" and
// the sub-steps "velocity_iterations"; version 2 names them for what they count.
struct StepCountKeys {
    const char* passes;
    const char* subSteps;
};
StepCountKeys stepCountKeys(int version) {
    if (version == 1) return {"substeps", "velocity_iterations"};
    return {"passes", "sub_steps"};
}

// A step-count key of the other version gets a rule that says so, not "unknown key".
void refuseOtherVersionKeys(const json& j, const std::string& path, int version) {
    const StepCountKeys mine = stepCountKeys(version), other = stepCountKeys(version == 1 ? 2 : 1);
    for (const auto& [theirs, ours] : {std::pair{other.passes, mine.passes}, std::pair{other.subSteps, mine.subSteps}}) {
        if (j.contains(theirs)) {
            fail(join(path, theirs), "a version " + std::to_string(version == 1 ? 2 : 1) +
                                         " key; this file is version " + std::to_string(version) + ", where it is '" +
                                         ours + "'");
        }
    }
}

}  // namespace

WorldSettings readSettings(const json& j, const std::string& path, int version) {
    requireObject(j, path);
    const StepCountKeys counts = stepCountKeys(version);
    refuseOtherVersionKeys(j, path, version);
    checkKeys(j, path,
              {"gravity", "timestep", counts.passes, counts.subSteps, "position_iterations",
               "restitution_threshold", "restitution_combine", "friction_combine", "warm_starting",
               "sleeping", "sleep_speed", "sleep_time", "bounds"});
    WorldSettings s;
    auto has = [&](const char* key) { return j.contains(key); };
    auto at = [&](const char* key) -> const json& { return j.at(key); };
    if (has("gravity")) s.gravity = readVec3(at("gravity"), join(path, "gravity"));
    if (has("timestep")) s.timestep = readFloat(at("timestep"), join(path, "timestep"));
    if (has(counts.passes)) s.passes = readInt(at(counts.passes), join(path, counts.passes));
    if (has(counts.subSteps)) s.subSteps = readInt(at(counts.subSteps), join(path, counts.subSteps));
    if (has("position_iterations")) {
        s.positionIterations = readInt(at("position_iterations"), join(path, "position_iterations"));
    }
    if (has("restitution_threshold")) {
        s.restitutionThreshold = readFloat(at("restitution_threshold"), join(path, "restitution_threshold"));
    }
    if (has("restitution_combine")) {
        const std::string p = join(path, "restitution_combine");
        const std::string text = readString(at("restitution_combine"), p);
        auto rule = parseRestitutionCombine(text);
        if (!rule) fail(p, "unknown rule '" + text + "' (expected max, min, average or multiply)");
        s.restitutionCombine = *rule;
    }
    if (has("friction_combine")) {
        const std::string p = join(path, "friction_combine");
        const std::string text = readString(at("friction_combine"), p);
        auto rule = parseFrictionCombine(text);
        if (!rule) fail(p, "unknown rule '" + text + "' (expected geometric, average, min or max)");
        s.frictionCombine = *rule;
    }
    if (has("warm_starting")) s.warmStarting = readBool(at("warm_starting"), join(path, "warm_starting"));
    if (has("sleeping")) s.sleeping = readBool(at("sleeping"), join(path, "sleeping"));
    if (has("sleep_speed")) s.sleepSpeed = readFloat(at("sleep_speed"), join(path, "sleep_speed"));
    if (has("sleep_time")) s.sleepTime = readFloat(at("sleep_time"), join(path, "sleep_time"));
    if (has("bounds")) {
        const std::string p = join(path, "bounds");
        requireObject(at("bounds"), p);
        checkKeys(at("bounds"), p, {"min", "max"});
        s.bounds.min = readVec3(requireKey(at("bounds"), "min", p), join(p, "min"));
        s.bounds.max = readVec3(requireKey(at("bounds"), "max", p), join(p, "max"));
    }
    return s;
}

BodyDef readBody(const json& j, const std::string& path, std::size_t bodyIndex, BodyReading reading) {
    requireObject(j, path);
    checkKeys(j, path,
              {"name", "static", "shape", "mass", "position", "orientation", "linear_velocity",
               "angular_velocity", "restitution", "friction", "static_friction", "inertia"});
    auto has = [&](const char* key) { return j.contains(key); };
    auto at = [&](const char* key) -> const json& { return j.at(key); };
    BodyDef def;
    def.name = has("name") ? readString(at("name"), join(path, "name")) : "body" + std::to_string(bodyIndex);
    if (has("static")) def.isStatic = readBool(at("static"), join(path, "static"));
    def.shape = readShape(requireKey(j, "shape", path), join(path, "shape"));
    if (has("mass")) {
        if (def.isStatic && reading == BodyReading::File) fail(join(path, "mass"), "a static body has no mass (remove 'mass' or 'static')");
        def.mass = readFloat(at("mass"), join(path, "mass"));
    }
    def.position = readVec3(requireKey(j, "position", path), join(path, "position"));
    if (has("orientation")) def.orientation = readOrientation(at("orientation"), join(path, "orientation"), reading == BodyReading::Exact);
    if (has("linear_velocity"))
        def.linearVelocity = readVec3(at("linear_velocity"), join(path, "linear_velocity"));
    if (has("angular_velocity")) {
        def.angularVelocity = readVec3(at("angular_velocity"), join(path, "angular_velocity"));
    }
    if (has("restitution")) def.restitution = readFloat(at("restitution"), join(path, "restitution"));
    if (has("friction")) def.friction = readFloat(at("friction"), join(path, "friction"));
    if (has("static_friction"))
        def.staticFriction = readFloat(at("static_friction"), join(path, "static_friction"));
    if (has("inertia")) def.inertia = readMatrix(at("inertia"), join(path, "inertia"));
    return def;
}

void requireFormat(const json& root, const std::string& format, int version) {
    const std::string given = readString(requireKey(root, "format", ""), "format");
    if (given != format) fail("format", "expected \"" + format + "\", got \"" + given + "\"");
    const json& number = requireKey(root, "version", "");
    if (!number.is_number_integer()) wrongType("version", "an integer", number);
    if (number != version) {
        fail("version", "unsupported version " + number.dump() + " (this reader understands version " +
                            std::to_string(version) + ")");
    }
}

// The optional `camera` key: all four entries, angles in degrees.
SceneCamera readCamera(const json& j, const std::string& path) {
    requireObject(j, path);
    checkKeys(j, path, {"target", "distance", "yaw", "pitch"});
    SceneCamera camera;
    camera.target = readVec3(requireKey(j, "target", path), join(path, "target"));
    camera.distance = readFloat(requireKey(j, "distance", path), join(path, "distance"));
    if (!(camera.distance > 0.0f) || camera.distance > kMaxCameraDistance) {
        fail(join(path, "distance"), "must be > 0 and at most " + std::to_string(static_cast<int>(kMaxCameraDistance)) +
                                         " (metres from the target)");
    }
    camera.yawDegrees = readFloat(requireKey(j, "yaw", path), join(path, "yaw"));
    if (std::fabs(camera.yawDegrees) > 360.0f) fail(join(path, "yaw"), "must be within [-360, 360] degrees");
    camera.pitchDegrees = readFloat(requireKey(j, "pitch", path), join(path, "pitch"));
    if (std::fabs(camera.pitchDegrees) > kMaxCameraPitchDegrees) {
        fail(join(path, "pitch"), "must be within [-" + std::to_string(static_cast<int>(kMaxCameraPitchDegrees)) +
                                      ", " + std::to_string(static_cast<int>(kMaxCameraPitchDegrees)) +
                                      "] degrees (straight up or down has no yaw)");
    }
    return camera;
}

// The optional `note`: a few paragraphs of text.
std::string readNote(const json& j, const std::string& path) {
    std::string note = readString(j, path);
    if (note.size() > kMaxNoteBytes) {
        fail(path, "is " + std::to_string(note.size()) + " bytes, more than the limit of " +
                       std::to_string(kMaxNoteBytes));
    }
    return note;
}

// The optional `show`: names of classroom views, each at most once.
std::vector<ShownView> readShownViews(const json& j, const std::string& path) {
    if (!j.is_array()) wrongType(path, "an array of view names", j);
    std::vector<ShownView> views;
    for (std::size_t i = 0; i < j.size(); ++i) {
        const std::string name = readString(j[i], index(path, i));
        const std::optional<ShownView> view = shownViewNamed(name);
        if (!view) fail(index(path, i), "unknown view '" + name + "' (expected one of " + shownViewList() + ")");
        if (std::find(views.begin(), views.end(), *view) != views.end()) {
            fail(index(path, i), "'" + name + "' is listed twice");
        }
        views.push_back(*view);
    }
    return views;
}

Scene readScene(const json& root) {
    if (!root.is_object()) wrongType("", "a JSON object at the top level", root);
    checkKeys(root, "", {"version", "name", "note", "world", "bodies", "camera", "show"});

    auto version = root.find("version");
    if (version == root.end()) {
        fail("version", "required key is missing (this reader understands version " +
                            std::to_string(kFormatVersion) + ")");
    }
    if (!version->is_number_integer()) wrongType("version", "an integer", *version);
    if (*version < kOldestFormatVersion || *version > kFormatVersion) {
        fail("version", "unsupported version " + version->dump() + " (this reader understands versions " +
                            std::to_string(kOldestFormatVersion) + " to " + std::to_string(kFormatVersion) + ")");
    }
    const int formatVersion = version->get<int>();

    Scene scene;
    if (root.contains("name")) scene.name = readString(root.at("name"), "name");
    if (root.contains("note")) scene.note = readNote(root.at("note"), "note");
    if (root.contains("world")) scene.settings = readSettings(root.at("world"), "world", formatVersion);
    if (Validation e = validateSettings(scene.settings)) {
        // validateSettings names the current keys; a version 1 file is told its own.
        const StepCountKeys current = stepCountKeys(kFormatVersion), file = stepCountKeys(formatVersion);
        const std::string field = e->field == current.passes     ? file.passes
                                  : e->field == current.subSteps ? file.subSteps
                                                                 : e->field;
        fail(join("world", field), e->rule);
    }
    if (root.contains("camera")) scene.camera = readCamera(root.at("camera"), "camera");
    if (root.contains("show")) scene.show = readShownViews(root.at("show"), "show");

    if (root.contains("bodies")) {
        const json& bodies = root.at("bodies");
        if (!bodies.is_array()) wrongType("bodies", "an array", bodies);
        if (bodies.size() > kMaxBodies) {
            fail("bodies", std::to_string(bodies.size()) + " bodies is more than the limit of " +
                               std::to_string(kMaxBodies));
        }
        scene.bodies.reserve(bodies.size());
        std::map<std::string, std::size_t> names;
        for (std::size_t i = 0; i < bodies.size(); ++i) {
            const std::string path = index("bodies", i);
            BodyDef def = readBody(bodies[i], path, i, BodyReading::File);
            if (Validation e = validateBodyDef(def))
                fail(e->field.empty() ? path : join(path, e->field), e->rule);
            auto [it, inserted] = names.emplace(def.name, i);
            if (!inserted) {
                fail(join(path, "name"),
                     "duplicate name '" + def.name + "' (also bodies[" + std::to_string(it->second) + "])");
            }
            scene.bodies.push_back(std::move(def));
        }
    }
    return scene;
}

// ---------------------------------------------------------------- output

namespace {

// The shortest decimal that reads back as the same float, as the double it spells.
// nlohmann writes doubles in their shortest round-trip form, so the file holds
// e.g. 0.1 rather than 0.10000000149011612, and reading it and converting to
// float gives back exactly `f`.
double shortest(float f) {
    if (!std::isfinite(f)) return static_cast<double>(f);  // written as null: cannot be saved
    char text[32];
    for (int digits = 1; digits <= 9; ++digits) {
        std::snprintf(text, sizeof text, "%.*g", digits, static_cast<double>(f));
        const double d = std::strtod(text, nullptr);
        const float back = static_cast<float>(d);
        if (std::memcmp(&back, &f, sizeof f) == 0) return d;
    }
    return static_cast<double>(f);  // unreachable: 9 significant digits always round-trip a float
}

}  // namespace

ordered_json number(float f) {
    return ordered_json(shortest(f));
}
ordered_json array(const vec3& v) {
    return ordered_json::array({number(v.x), number(v.y), number(v.z)});
}

ordered_json cameraJson(const SceneCamera& c) {
    ordered_json camera = ordered_json::object();
    camera["target"] = array(c.target);
    camera["distance"] = number(c.distance);
    camera["yaw"] = number(c.yawDegrees);
    camera["pitch"] = number(c.pitchDegrees);
    return camera;
}

ordered_json bodyJson(const BodyDef& def, BodyReading reading) {
    ordered_json b = ordered_json::object();
    b["name"] = def.name;
    if (def.isStatic) b["static"] = true;
    ordered_json shape = ordered_json::object();
    if (def.shape.type == ShapeType::Sphere) {
        shape["type"] = "sphere";
        shape["radius"] = number(def.shape.radius);
    } else {
        shape["type"] = "box";
        shape["half_extents"] = array(def.shape.halfExtents);
    }
    b["shape"] = shape;
    if (!def.isStatic || reading == BodyReading::Exact) b["mass"] = number(def.mass);
    b["position"] = array(def.position);
    const quat& q = def.orientation;
    b["orientation"] = ordered_json::array({number(q.w), number(q.x), number(q.y), number(q.z)});
    b["linear_velocity"] = array(def.linearVelocity);
    b["angular_velocity"] = array(def.angularVelocity);
    b["restitution"] = number(def.restitution);
    b["friction"] = number(def.friction);
    if (def.staticFriction) b["static_friction"] = number(*def.staticFriction);
    if (def.inertia) {
        const mat3& m = *def.inertia;
        ordered_json rows = ordered_json::array();
        for (int r = 0; r < 3; ++r)
            rows.push_back(ordered_json::array({number(m[0][r]), number(m[1][r]), number(m[2][r])}));
        b["inertia"] = rows;
    }
    return b;
}

ordered_json settingsJson(const WorldSettings& s) {
    ordered_json w = ordered_json::object();
    w["gravity"] = array(s.gravity);
    w["timestep"] = number(s.timestep);
    const StepCountKeys counts = stepCountKeys(kFormatVersion);
    w[counts.passes] = s.passes;
    w[counts.subSteps] = s.subSteps;
    w["position_iterations"] = s.positionIterations;
    w["restitution_threshold"] = number(s.restitutionThreshold);
    w["restitution_combine"] = toString(s.restitutionCombine);
    w["friction_combine"] = toString(s.frictionCombine);
    w["warm_starting"] = s.warmStarting;
    w["sleeping"] = s.sleeping;
    w["sleep_speed"] = number(s.sleepSpeed);
    w["sleep_time"] = number(s.sleepTime);
    // Written only when not the default, which a file without the key gets.
    if (s.bounds != WorldBounds{}) {
        ordered_json bounds = ordered_json::object();
        bounds["min"] = array(s.bounds.min);
        bounds["max"] = array(s.bounds.max);
        w["bounds"] = std::move(bounds);
    }
    return w;
}

// One line, with a space after every ',' and ':' (nlohmann's compact form has none).
void writeInline(const ordered_json& j, std::string& out) {
    if (j.is_object()) {
        out += '{';
        bool first = true;
        for (auto it = j.begin(); it != j.end(); ++it) {
            out += first ? "" : ", ";
            first = false;
            out += ordered_json(it.key()).dump();
            out += ": ";
            writeInline(it.value(), out);
        }
        out += '}';
    } else if (j.is_array()) {
        out += '[';
        for (std::size_t i = 0; i < j.size(); ++i) {
            out += i == 0 ? "" : ", ";
            writeInline(j[i], out);
        }
        out += ']';
    } else {
        out += j.dump();
    }
}

namespace {

std::string errorText(int code) {
    return std::error_code(code, std::generic_category()).message();
}

std::string tooLarge(const char* kind) {
    return "larger than the " + std::to_string(kMaxFileBytes / (1024 * 1024)) + " MiB limit for " + kind;
}

}  // namespace

std::variant<json, SceneError> parseJson(const std::string& text, const std::string& fileName, const char* kind) {
    if (text.size() > kMaxFileBytes) return SceneError{fileName, "", tooLarge(kind)};
    Builder builder;
    const bool ok = json::sax_parse(text, &builder);
    if (!ok || builder.failed) {
        std::string rule = builder.errorRule.empty() ? "invalid JSON" : builder.errorRule;
        if (builder.hasErrorByte) rule = lineColumn(text, builder.errorByte) + ": " + rule;
        return SceneError{fileName, builder.errorPath, rule};
    }
    return std::move(builder.root);
}

std::variant<std::string, SceneError> readFileText(const std::string& path, const char* kind) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return SceneError{path, "", "cannot open: " + errorText(errno)};
    std::string text;
    char buffer[1 << 16];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
        text.append(buffer, static_cast<std::size_t>(in.gcount()));
        if (text.size() > kMaxFileBytes) return SceneError{path, "", tooLarge(kind)};
    }
    if (in.bad()) return SceneError{path, "", "read failed: " + errorText(errno)};
    return text;
}

std::string saveTextFile(const std::string& text, const std::string& path) {
    const std::string temporary = path + ".tmp";
    std::FILE* file = std::fopen(temporary.c_str(), "wb");
    if (file == nullptr)
        return "cannot save '" + path + "': cannot create '" + temporary + "': " + errorText(errno);
    bool ok = std::fwrite(text.data(), 1, text.size(), file) == text.size() && std::fflush(file) == 0;
    int error = ok ? 0 : errno;
#if defined(__unix__) || defined(__APPLE__)
    // The data must be on disk before the rename makes it the file's content.
    if (ok && ::fsync(::fileno(file)) != 0) {
        ok = false;
        error = errno;
    }
#endif
    if (std::fclose(file) != 0 && ok) {
        ok = false;
        error = errno;
    }
    if (ok && std::rename(temporary.c_str(), path.c_str()) != 0) {
        ok = false;
        error = errno;
    }
    if (!ok) {
        std::remove(temporary.c_str());
        return "cannot save '" + path + "': " + errorText(error);
    }
    return "";
}

}  // namespace json_io

using namespace json_io;

std::optional<ShownView> shownViewNamed(std::string_view name) {
    for (const ShownViewName& v : kShownViewNames) {
        if (v.name == name) return v.view;
    }
    return std::nullopt;
}

std::string_view shownViewName(ShownView view) {
    for (const ShownViewName& v : kShownViewNames) {
        if (v.view == view) return v.name;
    }
    return "?";  // unreachable: kShownViewNames names every view
}

std::string shownViewList() {
    std::string list;
    for (const ShownViewName& v : kShownViewNames) list += (list.empty() ? "" : ", ") + std::string(v.name);
    return list;
}

std::string SceneError::message() const {
    std::string text = file;
    if (!path.empty()) text += ": " + path;
    return text + ": " + rule;
}

BodyDef* findBody(Scene& scene, const std::string& name) {
    return const_cast<BodyDef*>(findBody(static_cast<const Scene&>(scene), name));
}

const BodyDef* findBody(const Scene& scene, const std::string& name) {
    const auto def = std::find_if(scene.bodies.begin(), scene.bodies.end(),
                                  [&](const BodyDef& d) { return d.name == name; });
    return def == scene.bodies.end() ? nullptr : &*def;
}

SceneResult parseScene(const std::string& text, const std::string& fileName) {
    std::variant<json, SceneError> parsed = parseJson(text, fileName, "scene files");
    if (auto* error = std::get_if<SceneError>(&parsed)) return std::move(*error);
    try {
        return readScene(std::get<json>(parsed));
    } catch (const Failure& f) {
        return SceneError{fileName, f.path, f.rule};
    }
}

SceneResult loadSceneFile(const std::string& path) {
    std::variant<std::string, SceneError> text = readFileText(path, "scene files");
    if (auto* error = std::get_if<SceneError>(&text)) return std::move(*error);
    return parseScene(std::get<std::string>(text), path);
}
Validation validateScene(const Scene& scene) {
    if (const Validation bad = validateSettings(scene.settings)) return FieldError{"world." + bad->field, bad->rule};
    for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
        if (const Validation bad = validateBodyDef(scene.bodies[i])) {
            return FieldError{"bodies[" + std::to_string(i) + "]." + bad->field, bad->rule};
        }
    }
    return std::nullopt;
}

World buildWorld(const Scene& scene) {
    if (const Validation bad = validateScene(scene)) throw std::invalid_argument("buildWorld: " + bad->message());
    World world(scene.settings);
    for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
        FieldError error;
        if (!world.createBody(scene.bodies[i], &error)) {
            throw std::invalid_argument("buildWorld: bodies[" + std::to_string(i) + "]." + error.message());
        }
    }
    return world;
}

Scene captureScene(const World& world, const std::string& name) {
    Scene scene;
    scene.name = name;
    scene.settings = world.settings();
    const std::vector<BodyId> ids = world.bodyIds();
    scene.bodies.reserve(ids.size());
    for (BodyId id : ids) {
        BodyDef def = world.bodyDef(id);
        if (def.isStatic) def.mass = BodyDef{}.mass;  // not saved for static bodies
        scene.bodies.push_back(std::move(def));
    }
    // A file needs unique, non-empty names: the first holder of a name keeps it,
    // the others (and unnamed bodies) get "body<N>" (N = position in the file).
    std::set<std::string> used;
    std::vector<bool> keep(scene.bodies.size(), false);
    for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
        const std::string& n = scene.bodies[i].name;
        keep[i] = !n.empty() && used.insert(n).second;
    }
    for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
        if (keep[i]) continue;
        const std::string base = "body" + std::to_string(i);
        std::string candidate = base;
        for (int k = 2; used.count(candidate) != 0; ++k) candidate = base + "_" + std::to_string(k);
        used.insert(candidate);
        scene.bodies[i].name = candidate;
    }
    return scene;
}

std::string toJson(const Scene& scene) {
    std::string out = "{\n  \"version\": " + std::to_string(kFormatVersion) + ",\n";
    out += "  \"name\": " + ordered_json(scene.name).dump() + ",\n";
    if (!scene.note.empty()) out += "  \"note\": " + ordered_json(scene.note).dump() + ",\n";
    out += "  \"world\": {\n";
    const ordered_json world = settingsJson(scene.settings);
    bool first = true;
    for (auto it = world.begin(); it != world.end(); ++it) {
        out += first ? "" : ",\n";
        first = false;
        out += "    " + ordered_json(it.key()).dump() + ": ";
        writeInline(it.value(), out);
    }
    out += "\n  },\n";
    if (scene.camera) {
        out += "  \"camera\": ";
        writeInline(cameraJson(*scene.camera), out);
        out += ",\n";
    }
    if (scene.show) {
        ordered_json names = ordered_json::array();
        for (ShownView view : *scene.show) names.push_back(std::string(shownViewName(view)));
        out += "  \"show\": ";
        writeInline(names, out);
        out += ",\n";
    }
    out += "  \"bodies\": [";
    for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
        out += i == 0 ? "\n    " : ",\n    ";
        writeInline(bodyJson(scene.bodies[i], BodyReading::File), out);
    }
    out += scene.bodies.empty() ? "]\n}\n" : "\n  ]\n}\n";
    return out;
}

std::string saveSceneFile(const Scene& scene, const std::string& path) { return saveTextFile(toJson(scene), path); }

}  // namespace impulse::scene
