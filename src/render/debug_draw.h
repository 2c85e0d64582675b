// Debug geometry collected on the CPU each frame (lines and round points) and
// handed to the renderer. Knows nothing about physics: the app fills it.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include <vector>

namespace impulse::render {

struct DebugVertex {
    glm::vec3 position;
    glm::vec4 color;
};

struct DebugPoint {
    glm::vec3 position;
    glm::vec4 color;
    float size;  ///< pixels
};

class DebugDraw {
public:
    void clear() {
        lines.clear();
        points.clear();
    }
    void line(const glm::vec3& a, const glm::vec3& b, const glm::vec4& color);
    /// A shaft from `from` to `to` with a small head.
    void arrow(const glm::vec3& from, const glm::vec3& to, const glm::vec4& color);
    void point(const glm::vec3& p, const glm::vec4& color, float sizePixels = 8.0f);
    void aabb(const glm::vec3& lower, const glm::vec3& upper, const glm::vec4& color);
    /// Three axes (columns of `axes`) scaled by `lengths`, in red/green/blue unless `color` alpha > 0.
    void axes(const glm::vec3& origin, const glm::mat3& axes, const glm::vec3& lengths);
    /// The 12 edges of a box with the given centre, rotation and half extents.
    void orientedBox(const glm::vec3& centre, const glm::mat3& rotation, const glm::vec3& halfExtents,
                     const glm::vec4& color);
    /// A circle of `radius` around `centre` in the plane spanned by unit vectors u and v.
    void circle(const glm::vec3& centre, const glm::vec3& u, const glm::vec3& v, float radius, const glm::vec4& color,
                int segments = 32);
    /// A small three-line cross.
    void cross(const glm::vec3& p, float size, const glm::vec4& color);

    std::vector<DebugVertex> lines;  ///< pairs of vertices
    std::vector<DebugPoint> points;
};

}  // namespace impulse::render
