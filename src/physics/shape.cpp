#include "physics/shape.h"

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

}  // namespace impulse
