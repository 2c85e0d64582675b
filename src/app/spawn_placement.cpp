#include "app/spawn_placement.h"

#include "physics/shape.h"

namespace impulse::app {

namespace {

constexpr float kClearance = 0.01f;  // m left between the new body's box and what it was lifted over

float boundingSize(const Shape& shape) {
    if (shape.type == ShapeType::Sphere) return shape.radius;
    return glm::max(shape.halfExtents.x, glm::max(shape.halfExtents.y, shape.halfExtents.z));
}

}  // namespace

vec3 liftedClear(const World& world, const Shape& shape, vec3 position) {
    const std::vector<BodyId> ids = world.bodyIds();
    // Each lift puts the body above one more box, so the count bounds the passes.
    for (size_t pass = 0; pass <= ids.size(); ++pass) {
        bool lifted = false;
        for (const BodyId id : ids) {
            const Body& b = world.body(id);
            const Aabb other = shapeAabb(b.shape, b.position, b.rotation, 0.0f);
            const Aabb mine = shapeAabb(shape, position, mat3(1.0f), kClearance);
            const float rise = other.upper.y - mine.lower.y;
            if (!mine.overlaps(other) || rise <= 0.0f) continue;
            position.y += rise;
            lifted = true;
        }
        if (!lifted) break;
    }
    return position;
}

vec3 spawnPositionAt(const World& world, const Shape& shape, const vec3& point, const vec3& normal) {
    const float size = boundingSize(shape);
    return liftedClear(world, shape, point + normal * (size * 1.75f) + vec3(0.0f, size * 0.5f, 0.0f));
}

}  // namespace impulse::app
