// The move-and-rotate gizmo on the selected body: three arrows along the world's x, y
// and z (drag one to move the body along it) and three rings about them (drag one to
// turn the body about that world axis), a fixed size on screen. Its shape is computed
// in the view's pixels from the camera, and the same points are drawn and picked, so
// what the user sees is what the mouse grabs. Pure math (no SDL, ImGui or GL): tested
// alone. The drags of the gizmo and the paused free move give a pose; the app shows it
// while the button is held and commits it as one SetBody on release.
#pragma once

#include "physics/body.h"
#include "physics/math.h"
#include "render/camera.h"

#include <array>
#include <optional>
#include <vector>

namespace impulse::app {

enum class GizmoHandle { none, moveX, moveY, moveZ, rotateX, rotateY, rotateZ };

/// The world axis a handle moves along or turns about (0, 1, 2 for x, y, z), -1 for none.
int gizmoAxis(GizmoHandle handle);
bool isMoveHandle(GizmoHandle handle);

/// Sizes on screen at text scale 1 (view pixels), and the snapping steps.
inline constexpr float kGizmoArrowPixels = 90.0f;   ///< arrow length
inline constexpr float kGizmoRingPixels = 62.0f;    ///< ring radius
inline constexpr float kGizmoPickPixels = 7.0f;     ///< how near the cursor must be to a drawn line
inline constexpr int kGizmoRingSegments = 64;
inline constexpr float kSnapMetres = 0.1f;          ///< Ctrl held: positions on a 0.1 m grid
inline constexpr float kSnapDegrees = 15.0f;        ///< Ctrl held: turns in 15 degree steps

/// The gizmo as drawn: points in view pixels (origin at the view's top left).
struct GizmoShape {
    bool visible = false;  ///< false when the centre is behind the camera
    glm::vec2 centre{0.0f};
    std::array<glm::vec2, 3> arrowTips{};
    /// Closed polylines (the last point joins the first), one per world axis.
    std::array<std::vector<glm::vec2>, 3> rings;
};

/// The gizmo around `centre` (world, m) as `camera` shows it in a `width` x `height`
/// view, `scale` times the sizes above (the text scale).
GizmoShape gizmoShape(const render::OrbitCamera& camera, float width, float height, const vec3& centre, float scale);

/// The handle whose drawn line is nearest to `cursor` (view pixels), if within
/// kGizmoPickPixels * scale of it; arrows win a tie.
GizmoHandle pickGizmo(const GizmoShape& shape, const glm::vec2& cursor, float scale);

/// Where along the line `origin + t axis` (unit axis) the ray comes nearest: t, or none
/// when the ray runs (nearly) along the line and the point is undefined.
std::optional<float> nearestOnAxis(const render::Ray& ray, const vec3& origin, const vec3& axis);

/// `value` to the nearest multiple of `step`.
float snapTo(float value, float step);

struct Pose {
    vec3 position{0.0f};
    quat orientation{1.0f, 0.0f, 0.0f, 0.0f};
};

/// A body shown at a pose the world does not hold yet (a move or turn until its release).
struct PosePreview {
    BodyId body;
    Pose pose;
};

/// One drag of a gizmo handle, from the press to the release. The camera stays as it
/// was at the press while the button is held (only the left button drags).
class GizmoDrag {
public:
    /// The press on `handle` with the cursor at `cursor` (view pixels) on `ray`.
    GizmoDrag(GizmoHandle handle, const Pose& start, const GizmoShape& shape, const render::Ray& ray,
              const glm::vec2& cursor, const vec3& cameraForward);

    /// The pose for the cursor now: the start moved along the axis by as much as the
    /// cursor moved along it (Ctrl: the coordinate on the kSnapMetres grid), or turned
    /// about the axis by the angle the cursor swept around the centre on screen, right-
    /// handed about the world axis, whole turns counted (Ctrl: in kSnapDegrees steps).
    Pose update(const render::Ray& ray, const glm::vec2& cursor, bool snap);

    GizmoHandle handle() const { return handle_; }
    /// The angle (rad) of the last update()'s turn, snapped if it was; 0 for a move.
    float angle() const { return angle_; }
    const Pose& start() const { return start_; }

private:
    GizmoHandle handle_;
    Pose start_;
    vec3 axis_{0.0f};
    float startAlong_ = 0.0f;  // nearestOnAxis at the press
    float lastAlong_ = 0.0f;   // the last defined one (the ray may run along the axis)
    glm::vec2 centre_{0.0f};   // the body's centre on screen
    glm::vec2 lastCursor_{0.0f};
    float turned_ = 0.0f;      // rad swept so far, about axis_
    float angle_ = 0.0f;       // turned_ as last applied (snapped or not)
    float handedness_ = 1.0f;  // -1 when the axis points away from the viewer
};

/// A paused body dragged with the mouse: the point grabbed follows the cursor on the
/// plane through it facing the camera; the body keeps its orientation. With `snap`
/// every coordinate of the position goes to the kSnapMetres grid.
Pose freeMovePose(const Pose& start, const vec3& grabbed, const vec3& cursorOnPlane, bool snap);

}  // namespace impulse::app
