// Scene files (JSON, versions 1 and 2) <-> World. The format is specified in the
// README ("Scene files"). Every rejection names the
// file, the JSON path (e.g. "bodies[3].mass") and the rule that was broken.
#pragma once

#include "physics/world.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace impulse::scene {

/// The version written. Version 2 renamed the world's step counts ("substeps" ->
/// "passes", "velocity_iterations" -> "sub_steps"); version 1 files still load.
inline constexpr int kFormatVersion = 2;
inline constexpr int kOldestFormatVersion = 1;

/// Larger files are refused before parsing (a scene of the largest allowed body
/// count is a few tens of MiB).
inline constexpr std::size_t kMaxFileBytes = 64u * 1024u * 1024u;
/// Most bodies a scene may hold.
inline constexpr std::size_t kMaxBodies = 100000;
/// Deepest nesting of JSON arrays/objects accepted; the format itself needs 4.
inline constexpr int kMaxNestingDepth = 32;
/// Most JSON values (numbers, strings, arrays, objects...) a file may hold. A body
/// with every key uses 43, so the largest allowed scene needs 4.3 million; the cap
/// bounds the memory of the parsed document for any file under kMaxFileBytes
/// (64 MiB of "{}," would otherwise become a 2 GiB document).
inline constexpr std::size_t kMaxJsonValues = 50 * kMaxBodies;
/// Most keys one JSON object may hold (the format's largest object, a body, has 12).
inline constexpr std::size_t kMaxObjectKeys = 64;

/// Where a scene's view starts (the optional top-level `camera` key): an orbit camera
/// around `target`. Angles are in degrees, as written in the file.
struct SceneCamera {
    vec3 target{0.0f};
    float distance = 15.0f;    ///< m from the target to the eye, > 0
    float yawDegrees = 0.0f;   ///< around +y; 0 looks toward -z, 90 toward -x
    float pitchDegrees = 0.0f; ///< positive looks down onto the target; within +-kMaxCameraPitchDegrees
    bool operator==(const SceneCamera& o) const {
        return target == o.target && distance == o.distance && yawDegrees == o.yawDegrees &&
               pitchDegrees == o.pitchDegrees;
    }
};

/// The camera may look at most this steeply down or up (the orbit camera's pole clamp).
inline constexpr float kMaxCameraPitchDegrees = 88.0f;
/// Farthest camera distance a file may ask for (m; the orbit camera's zoom limit).
inline constexpr float kMaxCameraDistance = 2000.0f;

/// The classroom views a scene may open with (the optional top-level `show` key;
/// impulse-lab's --show takes the same names): vectors and markers the app draws
/// in the 3D view. Named here, with the format, so that a file naming an unknown
/// view is refused as it is read.
/// MomentaDiagram is the Contact inspector's Momenta tab in front (the momenta diagram).
enum class ShownView {
    Velocity,
    Momentum,
    AngularVelocity,
    AngularMomentum,
    ImpactMomentum,
    SystemCentre,
    MomentaDiagram,
    Trails,
    MarkedPoints
};

struct ShownViewName {
    ShownView view;
    std::string_view name;
};
inline constexpr ShownViewName kShownViewNames[] = {
    {ShownView::Velocity, "velocity"},
    {ShownView::Momentum, "momentum"},
    {ShownView::AngularVelocity, "angular-velocity"},
    {ShownView::AngularMomentum, "angular-momentum"},
    {ShownView::ImpactMomentum, "impact-momentum"},
    {ShownView::SystemCentre, "centre-of-mass"},
    {ShownView::MomentaDiagram, "momenta"},
    {ShownView::Trails, "trails"},
    {ShownView::MarkedPoints, "marked-points"},
};
/// The view called `name`, or none.
std::optional<ShownView> shownViewNamed(std::string_view name);
std::string_view shownViewName(ShownView view);
/// Every view's name, comma-separated, for messages and help texts.
std::string shownViewList();

/// Longest `note` a scene may carry, in bytes of UTF-8 (a few paragraphs).
inline constexpr std::size_t kMaxNoteBytes = 4000;

/// A parsed, validated scene: settings plus body definitions in file order.
struct Scene {
    std::string name;
    /// What the scene shows and what to look for (the optional `note` key), for the
    /// Scene panel; "" for none.
    std::string note;
    WorldSettings settings;
    std::vector<BodyDef> bodies;
    std::optional<SceneCamera> camera;  ///< none: the app frames the bodies
    /// The classroom views the app turns on, and the others off, when it opens the
    /// scene (the optional `show` key); none: the app leaves its views as they are.
    std::optional<std::vector<ShownView>> show;
};

/// The scene's body definition named `name`; nullptr if it has none.
BodyDef* findBody(Scene& scene, const std::string& name);
const BodyDef* findBody(const Scene& scene, const std::string& name);

struct SceneError {
    std::string file;  ///< as given by the caller ("<memory>" for text)
    std::string path;  ///< JSON path, e.g. "bodies[3].mass"; empty for file-level errors
    std::string rule;  ///< what is wrong, e.g. "must be > 0"
    /// "file: path: rule"
    std::string message() const;
};

using SceneResult = std::variant<Scene, SceneError>;

/// Parses and validates JSON text. `fileName` is used only in messages.
SceneResult parseScene(const std::string& text, const std::string& fileName = "<memory>");
/// Reads and parses a file (errors also for unreadable files).
SceneResult loadSceneFile(const std::string& path);

/// Checks a scene built in code (a file's scene is checked as it is read): its settings
/// and every body, the field named as in the file ("world.timestep", "bodies[2].mass").
Validation validateScene(const Scene& scene);

/// A fresh world holding the scene (all definitions are already valid).
World buildWorld(const Scene& scene);
/// The world's current settings and bodies (state included) as a scene.
Scene captureScene(const World& world, const std::string& name);

/// JSON text of a scene; parseScene(toJson(s)) gives back an equal scene.
std::string toJson(const Scene& scene);
/// Writes to a temporary file beside `path` and renames it over `path`, so an
/// interrupted save never leaves a truncated file. Returns an error message or "".
std::string saveSceneFile(const Scene& scene, const std::string& path);

}  // namespace impulse::scene
