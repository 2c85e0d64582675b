// Where the sun's shadow map goes: an orthographic box fitted to the part of the
// view that matters, clipped to where the shadow casters are. Pure math (no GL), so
// tests can check its texel size without a context.
#pragma once

#include "render/camera.h"

#include <glm/glm.hpp>

namespace impulse::render {

/// The map covers the view from the near plane out to this many times the camera's
/// distance to its target: the target and as much again behind it.
constexpr float kShadowReach = 2.0f;

struct ShadowFit {
    glm::mat4 lightViewProj{1.0f};
    float texel = 0.0f;       ///< m, a side of one shadow-map texel
    float depthRange = 1.0f;  ///< m, from the light box's near to its far plane
};

/// Fits a `mapSize`-texel map lit along -`towardSun` (unit) to the slice of the view
/// frustum within kShadowReach x distance of the eye, as the sun sees it, clipped to
/// the casters' bounds (world box `castersLower`..`castersUpper`). Stabilised: the
/// light's frame is a fixed rotation, the slice is taken as its bounding sphere (the
/// same size whichever way the camera turns), the region is widened to whole metres
/// and its centre snapped to whole texels, so the texel grid stays put in the world
/// while the camera turns or moves by less than a texel: shadow edges do not shimmer.
ShadowFit fitShadowMap(const OrbitCamera& camera, float aspect, const glm::vec3& towardSun,
                       const glm::vec3& castersLower, const glm::vec3& castersUpper, int mapSize);

}  // namespace impulse::render
