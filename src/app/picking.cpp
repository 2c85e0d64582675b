#include "app/picking.h"

namespace impulse::app {

Pose blendPoses(const Pose& before, const Pose& after, float alpha) {
    quat q0 = before.orientation;
    if (glm::dot(q0, after.orientation) < 0.0f) q0 = -q0;
    return Pose{glm::mix(before.position, after.position, alpha),
                glm::normalize(q0 * (1.0f - alpha) + after.orientation * alpha)};
}

namespace {

// The dynamic body whose drawn bounding sphere the ray passes nearest, within
// `slope` x depth of its surface, if any.
std::optional<ShownHit> nearMiss(const World& world, const std::vector<ShownBody>& shown, const render::Ray& ray,
                                 float maxDistance, float slope) {
    std::optional<ShownHit> best;
    float bestGap = 1.0f;  // of the allowed slack
    for (const ShownBody& s : shown) {
        if (!world.isValid(s.body) || world.body(s.body).isStatic) continue;
        const Body& body = world.body(s.body);
        const vec3 toCentre = s.pose.position - ray.origin;
        const float depth = glm::dot(toCentre, ray.direction);
        if (depth <= 0.0f || depth > maxDistance) continue;
        const float gap = (glm::length(toCentre - depth * ray.direction) - boundingRadius(body.shape)) / (slope * depth);
        if (gap > bestGap) continue;
        bestGap = gap;
        best = ShownHit{s.body, s.pose.position, -ray.direction, body.position};
    }
    return best;
}

}  // namespace

std::optional<ShownHit> pickShown(const World& world, const std::vector<ShownBody>& shown, const render::Ray& ray,
                                  float maxDistance, float nearMissSlope) {
    std::optional<ShownHit> best;
    float bestDistance = maxDistance;
    for (const ShownBody& s : shown) {
        if (!world.isValid(s.body)) continue;
        const Body& body = world.body(s.body);
        const std::optional<ShapeRayHit> hit =
            rayCastShape(body.shape, s.pose.position, s.pose.orientation, ray.origin, ray.direction);
        if (!hit || hit->distance > bestDistance) continue;
        bestDistance = hit->distance;
        const vec3 shownPoint = ray.origin + hit->distance * ray.direction;
        const vec3 local = inverseRotate(s.pose.orientation, shownPoint - s.pose.position);
        best = ShownHit{s.body, shownPoint, hit->normal, body.position + rotate(body.orientation, local)};
    }
    if (nearMissSlope > 0.0f && (!best || world.body(best->body).isStatic)) {
        if (std::optional<ShownHit> moving = nearMiss(world, shown, ray, bestDistance, nearMissSlope)) return moving;
    }
    return best;
}

}  // namespace impulse::app
