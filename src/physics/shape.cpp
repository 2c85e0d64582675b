#include "physics/shape.h"

#include <algorithm>
#include <cmath>

#include "physics/constants.h"

namespace impulse {

mat3 shapeInertia(const Shape& shape, float mass) {
    if (shape.type == ShapeType::Sphere) {
        const float i = 0.4f * mass * shape.radius * shape.radius;
        return mat3(i);
    }
    // Solid box with full side lengths 2a, 2b, 2c: I_xx = m/12 ((2b)^2 + (2c)^2) = m/3 (b^2 + c^2).
    const vec3 h2 = shape.halfExtents * shape.halfExtents;
    const float k = mass / 3.0f;
    mat3 inertia(0.0f);
    inertia[0][0] = k * (h2.y + h2.z);
    inertia[1][1] = k * (h2.x + h2.z);
    inertia[2][2] = k * (h2.x + h2.y);
    return inertia;
}

Aabb shapeAabb(const Shape& shape, const vec3& position, const mat3& rotation, float margin) {
    vec3 extent;
    if (shape.type == ShapeType::Sphere) {
        extent = vec3(shape.radius);
    } else {
        // Half-extent of a rotated box along world axis i: sum_j |R_ij| h_j.
        const mat3 absRotation(glm::abs(rotation[0]), glm::abs(rotation[1]), glm::abs(rotation[2]));
        extent = absRotation * shape.halfExtents;
    }
    extent += vec3(margin);
    return Aabb{position - extent, position + extent};
}

float boundingRadius(const Shape& shape) {
    return shape.type == ShapeType::Sphere ? shape.radius : glm::length(shape.halfExtents);
}

std::optional<ShapeRayHit> rayCastShape(const Shape& shape, const vec3& position, const quat& orientation,
                                        const vec3& origin, const vec3& unitDirection) {
    // Work in the body frame, where the box is axis-aligned.
    const vec3 o = inverseRotate(orientation, origin - position);
    const vec3 d = inverseRotate(orientation, unitDirection);
    vec3 localNormal(0.0f);
    if (shape.type == ShapeType::Sphere) {
        const float r = shape.radius;
        const float b = glm::dot(o, d);
        const float c = glm::dot(o, o) - r * r;
        const float discriminant = b * b - c;
        if (!(c > 0.0f && discriminant >= 0.0f && b < 0.0f)) return std::nullopt;
        const float distance = -b - std::sqrt(discriminant);
        return ShapeRayHit{distance, rotate(orientation, (o + distance * d) / r)};
    }
    // Slab test: the ray enters the box at the last of the three slab entries.
    const vec3& h = shape.halfExtents;
    float enter = -INFINITY, exit = INFINITY;
    int enterAxis = -1;
    for (int k = 0; k < 3; ++k) {
        if (std::fabs(d[k]) < 1e-12f) {
            if (std::fabs(o[k]) > h[k]) return std::nullopt;
            continue;
        }
        float t0 = (-h[k] - o[k]) / d[k];
        float t1 = (h[k] - o[k]) / d[k];
        if (t0 > t1) std::swap(t0, t1);
        if (t0 > enter) {
            enter = t0;
            enterAxis = k;
        }
        exit = std::min(exit, t1);
    }
    if (enterAxis < 0 || enter > exit || !(enter > 0.0f)) return std::nullopt;
    localNormal[enterAxis] = d[enterAxis] > 0.0f ? -1.0f : 1.0f;
    return ShapeRayHit{enter, rotate(orientation, localNormal)};
}

float maxAngularSpeed(const Shape& shape) { return kMaxSurfaceSpeed / boundingRadius(shape); }

}  // namespace impulse
