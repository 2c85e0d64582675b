#include "app/picking.h"

namespace impulse::app {

Pose blendPoses(const Pose& before, const Pose& after, float alpha) {
    quat q0 = before.orientation;
    if (glm::dot(q0, after.orientation) < 0.0f) q0 = -q0;
    return Pose{glm::mix(before.position, after.position, alpha),
                glm::normalize(q0 * (1.0f - alpha) + after.orientation * alpha)};
}

std::optional<ShownHit> pickShown(const World& world, const std::vector<ShownBody>& shown, const render::Ray& ray,
                                  float maxDistance) {
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
    return best;
}

}  // namespace impulse::app
