#include "render/debug_draw.h"

#include <cmath>

namespace impulse::render {

void DebugDraw::line(const glm::vec3& a, const glm::vec3& b, const glm::vec4& color) {
    lines.push_back({a, color});
    lines.push_back({b, color});
}

void DebugDraw::arrow(const glm::vec3& from, const glm::vec3& to, const glm::vec4& color) {
    line(from, to, color);
    const glm::vec3 d = to - from;
    const float length = glm::length(d);
    if (length < 1e-5f) return;
    const glm::vec3 dir = d / length;
    // Any vector not parallel to dir gives the head's plane.
    const glm::vec3 helper = std::fabs(dir.y) < 0.9f ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0);
    const glm::vec3 side = glm::normalize(glm::cross(dir, helper));
    const glm::vec3 side2 = glm::cross(dir, side);
    const float head = std::fmin(0.25f * length, 0.15f);
    const glm::vec3 base = to - dir * head;
    line(to, base + side * (0.5f * head), color);
    line(to, base - side * (0.5f * head), color);
    line(to, base + side2 * (0.5f * head), color);
    line(to, base - side2 * (0.5f * head), color);
}

void DebugDraw::point(const glm::vec3& p, const glm::vec4& color, float sizePixels) {
    points.push_back({p, color, sizePixels});
}

void DebugDraw::aabb(const glm::vec3& lo, const glm::vec3& hi, const glm::vec4& c) {
    const glm::vec3 v[8] = {{lo.x, lo.y, lo.z}, {hi.x, lo.y, lo.z}, {hi.x, hi.y, lo.z}, {lo.x, hi.y, lo.z},
                            {lo.x, lo.y, hi.z}, {hi.x, lo.y, hi.z}, {hi.x, hi.y, hi.z}, {lo.x, hi.y, hi.z}};
    for (int i = 0; i < 4; ++i) {
        line(v[i], v[(i + 1) % 4], c);          // bottom face (z = lo)
        line(v[i + 4], v[(i + 1) % 4 + 4], c);  // top face (z = hi)
        line(v[i], v[i + 4], c);                // edges joining them
    }
}

void DebugDraw::axes(const glm::vec3& origin, const glm::mat3& a, const glm::vec3& lengths) {
    line(origin, origin + a[0] * lengths.x, {1.0f, 0.25f, 0.25f, 1.0f});
    line(origin, origin + a[1] * lengths.y, {0.3f, 1.0f, 0.3f, 1.0f});
    line(origin, origin + a[2] * lengths.z, {0.35f, 0.5f, 1.0f, 1.0f});
}

void DebugDraw::orientedBox(const glm::vec3& c, const glm::mat3& r, const glm::vec3& h, const glm::vec4& color) {
    glm::vec3 v[8];
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 s((i & 1) ? 1.0f : -1.0f, (i & 2) ? 1.0f : -1.0f, (i & 4) ? 1.0f : -1.0f);
        v[i] = c + r * (s * h);
    }
    // Corners differing in exactly one bit share an edge.
    for (int i = 0; i < 8; ++i) {
        for (int bit = 1; bit < 8; bit <<= 1) {
            if (!(i & bit)) line(v[i], v[i | bit], color);
        }
    }
}

void DebugDraw::circle(const glm::vec3& centre, const glm::vec3& u, const glm::vec3& v, float radius,
                       const glm::vec4& color, int segments) {
    const float step = 6.28318530718f / static_cast<float>(segments);
    glm::vec3 previous = centre + u * radius;
    for (int i = 1; i <= segments; ++i) {
        const float a = step * static_cast<float>(i);
        const glm::vec3 next = centre + (u * std::cos(a) + v * std::sin(a)) * radius;
        line(previous, next, color);
        previous = next;
    }
}

void DebugDraw::cross(const glm::vec3& p, float s, const glm::vec4& c) {
    line(p - glm::vec3(s, 0, 0), p + glm::vec3(s, 0, 0), c);
    line(p - glm::vec3(0, s, 0), p + glm::vec3(0, s, 0), c);
    line(p - glm::vec3(0, 0, s), p + glm::vec3(0, 0, s), c);
}

}  // namespace impulse::render
