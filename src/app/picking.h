// Picking what the view shows. The view draws each moving body part of the way from
// its pose before the last step to its pose after it (the frame falls between steps),
// so a click tests those drawn poses, not the world's: at 10 m/s a body is drawn up to
// 17 cm (one 60 Hz step) behind where the world holds it.
#pragma once

#include "app/gizmo.h"
#include "physics/world.h"
#include "render/camera.h"

#include <optional>
#include <vector>

namespace impulse::app {

/// A body as the last frame drew it.
struct ShownBody {
    BodyId body;
    Pose pose;
};

/// The pose `alpha` of the way from `before` to `after`: the positions mixed, the
/// orientations blended on the short arc (nlerp).
Pose blendPoses(const Pose& before, const Pose& after, float alpha);

struct ShownHit {
    BodyId body;
    vec3 shownPoint{0.0f};  ///< where the ray meets the body as drawn
    vec3 normal{0.0f};      ///< there, outward
    /// The same point of the body where the world holds the body now (a grab's anchor).
    vec3 worldPoint{0.0f};
};

/// The nearest drawn body the ray enters within `maxDistance` metres; bodies no longer
/// in the world (deleted, or the world replaced since the frame) are skipped. When the ray
/// enters no dynamic body but passes within `nearMissSlope` x depth of one's drawn bounding
/// sphere (a few pixels on screen: the slope is metres per metre of depth), that body is
/// picked instead, grabbed at its centre: a small moving body is hard to hit exactly,
/// and a click beside it would select the ground behind.
std::optional<ShownHit> pickShown(const World& world, const std::vector<ShownBody>& shown, const render::Ray& ray,
                                  float maxDistance, float nearMissSlope = 0.0f);

}  // namespace impulse::app
