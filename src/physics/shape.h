// Shapes (sphere, box), their mass properties and bounding boxes.
#pragma once

#include "physics/math.h"

#include <cstdint>
#include <optional>

namespace impulse {

enum class ShapeType : uint8_t { Sphere, Box };

/// A convex shape centred on the body's centre of mass. A sphere uses `radius`,
/// a box uses `halfExtents` (m); the other field is kept so that a panel can
/// switch type without losing the last size the user entered.
struct Shape {
    ShapeType type = ShapeType::Box;
    float radius = 0.5f;
    vec3 halfExtents{0.5f};

    static Shape sphere(float r) {
        Shape s;
        s.type = ShapeType::Sphere;
        s.radius = r;
        return s;
    }
    static Shape box(const vec3& h) {
        Shape s;
        s.type = ShapeType::Box;
        s.halfExtents = h;
        return s;
    }
};

/// Axis-aligned bounding box in world space.
struct Aabb {
    vec3 lower{0.0f};
    vec3 upper{0.0f};
    bool overlaps(const Aabb& o) const {
        return lower.x <= o.upper.x && o.lower.x <= upper.x && lower.y <= o.upper.y && o.lower.y <= upper.y &&
               lower.z <= o.upper.z && o.lower.z <= upper.z;
    }
};

/// Body-frame inertia tensor of a solid shape of the given mass (kg m^2):
/// sphere 2/5 m r^2; box m/3 (b^2 + c^2) with half-extents a, b, c.
mat3 shapeInertia(const Shape& shape, float mass);

/// World AABB of the shape at the given pose, grown by `margin` on every side.
Aabb shapeAabb(const Shape& shape, const vec3& position, const mat3& rotation, float margin);

/// Radius of the smallest sphere around the centre that holds the shape (m).
float boundingRadius(const Shape& shape);

/// Where a ray from outside first enters a shape, `distance` along the unit direction.
struct ShapeRayHit {
    float distance = 0.0f;
    vec3 normal{0.0f};  ///< world frame, outward
};
/// The ray `origin + t unitDirection` (t > 0) against the shape placed at `position`
/// turned by `orientation`; none when it misses or starts inside.
std::optional<ShapeRayHit> rayCastShape(const Shape& shape, const vec3& position, const quat& orientation,
                                        const vec3& origin, const vec3& unitDirection);
/// Whether turning the shape brings other parts of it to its contacts (a box's
/// corners); a sphere's contacts do not depend on its turn.
inline bool turnsCorners(const Shape& shape) { return shape.type == ShapeType::Box; }
/// Fastest spin the shape may have (rad/s): kMaxSurfaceSpeed at its bounding radius.
float maxAngularSpeed(const Shape& shape);

}  // namespace impulse
