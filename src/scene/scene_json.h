// The scene format's JSON pieces, for formats that embed a scene or its bodies
// and settings (the recording files of src/app/recording.h): the same parser
// limits, readers, checks and writers, so a body or a world reads and writes
// one way everywhere. Readers throw Failure with the JSON path relative to
// what they were given; the caller prefixes where that sits in its file.
#pragma once

#include "scene/scene.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace impulse::scene::json_io {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

/// A rule broken at a JSON path; readers throw it, the file's reader turns it into a SceneError.
struct Failure {
    std::string path;
    std::string rule;
};
[[noreturn]] void fail(std::string path, std::string rule);
/// "a.b" (or "b" at the top), and "a[3]".
std::string join(const std::string& path, const std::string& key);
std::string index(const std::string& path, std::size_t i);

/// JSON text as a document, with the scene parser's limits (size, nesting, value count,
/// duplicate keys); `kind` names the files in the size message ("scene files").
std::variant<json, SceneError> parseJson(const std::string& text, const std::string& fileName, const char* kind);
/// A whole file, refused beyond kMaxFileBytes.
std::variant<std::string, SceneError> readFileText(const std::string& path, const char* kind);
/// Writes beside `path` and renames over it (never a truncated file); an error message or "".
std::string saveTextFile(const std::string& text, const std::string& path);

[[noreturn]] void wrongType(const std::string& path, const std::string& expected, const json& got);
/// A file format beside the scene's: the object `root` has a "format" key that says
/// `format` and a "version" that is `version`, the only one read so far.
void requireFormat(const json& root, const std::string& format, int version);

/// JSON text read by `read` (which throws Failure) into its value, or the error naming
/// the file, the JSON path and the rule.
template <class Read>
auto readDocument(const std::string& text, const std::string& fileName, const char* kind, Read read)
    -> std::variant<decltype(read(std::declval<const json&>())), SceneError> {
    std::variant<json, SceneError> parsed = parseJson(text, fileName, kind);
    if (auto* error = std::get_if<SceneError>(&parsed)) return std::move(*error);
    try {
        return read(std::get<json>(parsed));
    } catch (const Failure& f) {
        return SceneError{fileName, f.path, f.rule};
    }
}
/// Every key of `object` must be in `allowed`; a typo names the closest key.
void checkKeys(const json& object, const std::string& path, const std::vector<const char*>& allowed);
const json& requireObject(const json& j, const std::string& path);
const json& requireKey(const json& object, const std::string& key, const std::string& path);
float readFloat(const json& j, const std::string& path);
bool readBool(const json& j, const std::string& path);
std::string readString(const json& j, const std::string& path);
vec3 readVec3(const json& j, const std::string& path);

/// How a body definition is read and written. A scene file's body is a body to build:
/// a static one has no "mass" and the orientation is normalised. A recording's body is
/// a definition as an edit handed it over, bit for bit: a static body's mass is kept
/// (World keeps it, and making the body dynamic again compares it) and the orientation
/// is not renormalised (World does that itself, the same way live and in a replay).
enum class BodyReading { File, Exact };

/// The keys of a scene's "world" object in format `version` (not yet validated).
WorldSettings readSettings(const json& j, const std::string& path, int version);
/// One element of "bodies" (not yet validated); `bodyIndex` names an unnamed body.
BodyDef readBody(const json& j, const std::string& path, std::size_t bodyIndex, BodyReading reading);
/// A scene's `camera` object (all four entries, angles in degrees), validated.
SceneCamera readCamera(const json& j, const std::string& path);
/// A whole scene document, validated.
Scene readScene(const json& root);

/// The float as the shortest decimal that reads back to it.
ordered_json number(float f);
ordered_json array(const vec3& v);
ordered_json bodyJson(const BodyDef& def, BodyReading reading);
ordered_json settingsJson(const WorldSettings& settings);
ordered_json cameraJson(const SceneCamera& camera);
/// One line, with a space after every ',' and ':'.
void writeInline(const ordered_json& j, std::string& out);

}  // namespace impulse::scene::json_io
