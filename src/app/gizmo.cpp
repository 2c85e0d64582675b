#include "app/gizmo.h"

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace impulse::app {

namespace {

vec3 worldAxis(int axis) {
    vec3 a(0.0f);
    a[axis] = 1.0f;
    return a;
}

float distanceToSegment(const glm::vec2& p, const glm::vec2& a, const glm::vec2& b) {
    const glm::vec2 ab = b - a;
    const float lengthSquared = glm::dot(ab, ab);
    const float t = lengthSquared > 0.0f ? std::clamp(glm::dot(p - a, ab) / lengthSquared, 0.0f, 1.0f) : 0.0f;
    return glm::length(p - (a + t * ab));
}

// Signed angle from u to v in pixel coordinates (y down): positive is clockwise on screen.
float screenAngle(const glm::vec2& u, const glm::vec2& v) {
    return std::atan2(u.x * v.y - u.y * v.x, glm::dot(u, v));
}

// Below this distance from the centre (pixels) the cursor's angle around it is noise.
constexpr float kMinTurnRadiusPixels = 3.0f;

}  // namespace

int gizmoAxis(GizmoHandle handle) {
    switch (handle) {
        case GizmoHandle::moveX:
        case GizmoHandle::rotateX:
            return 0;
        case GizmoHandle::moveY:
        case GizmoHandle::rotateY:
            return 1;
        case GizmoHandle::moveZ:
        case GizmoHandle::rotateZ:
            return 2;
        case GizmoHandle::none:
            break;
    }
    return -1;
}

bool isMoveHandle(GizmoHandle handle) {
    return handle == GizmoHandle::moveX || handle == GizmoHandle::moveY || handle == GizmoHandle::moveZ;
}

GizmoShape gizmoShape(const render::OrbitCamera& camera, float width, float height, const vec3& centre, float scale) {
    GizmoShape shape;
    const glm::vec4 c = camera.project(centre, width, height);
    if (c.w <= camera.nearPlane()) return shape;
    // Metres per pixel at the centre's depth (w is that depth): the gizmo keeps its size
    // on screen however far the body is.
    const float metresPerPixel = 2.0f * c.w * std::tan(0.5f * camera.fovY) / std::max(height, 1.0f);
    const float arrow = kGizmoArrowPixels * scale * metresPerPixel;
    const float ring = kGizmoRingPixels * scale * metresPerPixel;
    shape.visible = true;
    shape.centre = glm::vec2(c);
    for (int axis = 0; axis < 3; ++axis) {
        // Points a ring's radius from the centre are never behind the camera when the
        // centre is further than that in front of it; nearer, the gizmo is not drawn.
        const glm::vec4 tip = camera.project(centre + arrow * worldAxis(axis), width, height);
        if (tip.w <= 0.0f) return GizmoShape{};
        shape.arrowTips[axis] = glm::vec2(tip);
        const vec3 u = worldAxis((axis + 1) % 3), v = worldAxis((axis + 2) % 3);
        std::vector<glm::vec2>& points = shape.rings[axis];
        points.reserve(kGizmoRingSegments);
        for (int i = 0; i < kGizmoRingSegments; ++i) {
            const float angle = 2.0f * glm::pi<float>() * static_cast<float>(i) / kGizmoRingSegments;
            const glm::vec4 p = camera.project(centre + ring * (std::cos(angle) * u + std::sin(angle) * v), width, height);
            if (p.w <= 0.0f) return GizmoShape{};
            points.emplace_back(p);
        }
    }
    return shape;
}

GizmoHandle pickGizmo(const GizmoShape& shape, const glm::vec2& cursor, float scale) {
    if (!shape.visible) return GizmoHandle::none;
    static constexpr GizmoHandle kMoves[] = {GizmoHandle::moveX, GizmoHandle::moveY, GizmoHandle::moveZ};
    static constexpr GizmoHandle kTurns[] = {GizmoHandle::rotateX, GizmoHandle::rotateY, GizmoHandle::rotateZ};
    GizmoHandle best = GizmoHandle::none;
    float bestDistance = kGizmoPickPixels * scale;
    for (int axis = 0; axis < 3; ++axis) {
        const float d = distanceToSegment(cursor, shape.centre, shape.arrowTips[axis]);
        if (d <= bestDistance) {
            bestDistance = d;
            best = kMoves[axis];
        }
    }
    for (int axis = 0; axis < 3; ++axis) {
        const std::vector<glm::vec2>& ring = shape.rings[axis];
        for (size_t i = 0; i < ring.size(); ++i) {
            const float d = distanceToSegment(cursor, ring[i], ring[(i + 1) % ring.size()]);
            if (d < bestDistance) {  // strictly nearer: an arrow wins a tie
                bestDistance = d;
                best = kTurns[axis];
            }
        }
    }
    return best;
}

std::optional<float> nearestOnAxis(const render::Ray& ray, const vec3& origin, const vec3& axis) {
    // Minimise |origin + t axis - (ray.origin + s d)| over t and s (both directions unit).
    const vec3 w = origin - ray.origin;
    const float b = glm::dot(axis, ray.direction);
    const float denominator = 1.0f - b * b;
    // Within about 2.5 degrees of the line the nearest point runs off to infinity.
    constexpr float kParallel = 2e-3f;
    if (denominator < kParallel) return std::nullopt;
    return (b * glm::dot(ray.direction, w) - glm::dot(axis, w)) / denominator;
}

float snapTo(float value, float step) { return std::round(value / step) * step; }

GizmoDrag::GizmoDrag(GizmoHandle handle, const Pose& start, const GizmoShape& shape, const render::Ray& ray,
                     const glm::vec2& cursor, const vec3& cameraForward)
    : handle_(handle), start_(start), axis_(worldAxis(std::max(gizmoAxis(handle), 0))), centre_(shape.centre),
      lastCursor_(cursor) {
    startAlong_ = lastAlong_ = nearestOnAxis(ray, start.position, axis_).value_or(0.0f);
    // A right-handed turn about an axis pointing at the viewer is counter-clockwise on screen.
    handedness_ = glm::dot(axis_, cameraForward) < 0.0f ? -1.0f : 1.0f;
}

Pose GizmoDrag::update(const render::Ray& ray, const glm::vec2& cursor, bool snap) {
    Pose pose = start_;
    const int axis = gizmoAxis(handle_);
    if (axis < 0) return pose;
    if (isMoveHandle(handle_)) {
        if (const std::optional<float> along = nearestOnAxis(ray, start_.position, axis_)) lastAlong_ = *along;
        pose.position[axis] += lastAlong_ - startAlong_;
        if (snap) pose.position[axis] = snapTo(pose.position[axis], kSnapMetres);
        return pose;
    }
    const glm::vec2 from = lastCursor_ - centre_, to = cursor - centre_;
    if (glm::length(from) >= kMinTurnRadiusPixels && glm::length(to) >= kMinTurnRadiusPixels) {
        turned_ += handedness_ * screenAngle(from, to);
        lastCursor_ = cursor;
    } else if (glm::length(from) < kMinTurnRadiusPixels) {
        lastCursor_ = cursor;
    }
    angle_ = snap ? snapTo(turned_, glm::radians(kSnapDegrees)) : turned_;
    // No turn keeps the start's bits (normalising again could change the last one).
    if (angle_ != 0.0f) pose.orientation = glm::normalize(glm::angleAxis(angle_, axis_) * start_.orientation);
    return pose;
}

Pose freeMovePose(const Pose& start, const vec3& grabbed, const vec3& cursorOnPlane, bool snap) {
    Pose pose = start;
    pose.position += cursorOnPlane - grabbed;
    if (snap) {
        for (int i = 0; i < 3; ++i) pose.position[i] = snapTo(pose.position[i], kSnapMetres);
    }
    return pose;
}

}  // namespace impulse::app
