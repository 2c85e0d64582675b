#include "render/shadow_fit.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace impulse::render {

ShadowFit fitShadowMap(const OrbitCamera& camera, float aspect, const glm::vec3& towardSun,
                       const glm::vec3& castersLower, const glm::vec3& castersUpper, int mapSize) {
    // The light's frame is a pure rotation (origin fixed), so the texel grid below is
    // fixed in the world.
    const glm::vec3 lightUp = std::fabs(towardSun.y) > 0.95f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
    const glm::mat4 lightView = glm::lookAt(glm::vec3(0.0f), -towardSun, lightUp);

    // The smallest sphere around the frustum slice [n, f]: its centre on the view axis
    // at c, equally far from the near and far corners (k: the corners' distance from
    // the axis per metre of depth), or at the far plane's centre when that is nearer.
    const float n = camera.nearPlane(), f = std::max(kShadowReach * camera.distance, 2.0f * n);
    const float tanY = std::tan(0.5f * camera.fovY), tanX = tanY * std::max(aspect, 1e-3f);
    const float k2 = tanX * tanX + tanY * tanY;
    const float c = std::min(0.5f * (1.0f + k2) * (f + n), f);
    const float radius = std::sqrt((f - c) * (f - c) + f * f * k2);
    const glm::vec3 sliceCentre(lightView * glm::vec4(camera.eye() + camera.forward() * c, 1.0f));

    // No casters (an empty box): the slice alone, and the map holds nothing.
    const bool noCasters = glm::any(glm::greaterThan(castersLower, castersUpper));
    glm::vec3 lo = noCasters ? sliceCentre - radius : glm::vec3(1e30f);
    glm::vec3 hi = noCasters ? sliceCentre + radius : glm::vec3(-1e30f);
    for (int i = 0; i < 8 && !noCasters; ++i) {
        const glm::vec3 corner((i & 1) ? castersUpper.x : castersLower.x, (i & 2) ? castersUpper.y : castersLower.y,
                               (i & 4) ? castersUpper.z : castersLower.z);
        const glm::vec3 q(lightView * glm::vec4(corner, 1.0f));
        lo = glm::min(lo, q);
        hi = glm::max(hi, q);
    }
    // Across the light: the slice's square clipped to the casters (no caster, no
    // shadow), their bounds widened to whole metres so that bodies jittering in place
    // leave them be. Casters wholly outside the slice: the slice alone.
    glm::vec2 across0 = glm::max(glm::floor(glm::vec2(lo)), glm::vec2(sliceCentre) - radius);
    glm::vec2 across1 = glm::min(glm::ceil(glm::vec2(hi)), glm::vec2(sliceCentre) + radius);
    if (across0.x >= across1.x || across0.y >= across1.y) {
        across0 = glm::vec2(sliceCentre) - radius;
        across1 = glm::vec2(sliceCentre) + radius;
    }
    // A half side rounded up to whole metres (a texel's worth more, as the centre moves
    // by up to half a texel below) and the centre snapped to whole texels: the texel
    // grid stays put in the world while the camera turns or moves (see the header).
    const glm::vec2 extent = across1 - across0;
    const float halfSide = std::ceil(std::max(0.5f * std::max(extent.x, extent.y) + 0.05f, 1.0f));
    const float texel = 2.0f * halfSide / static_cast<float>(std::max(mapSize, 1));
    const glm::vec2 mid = glm::round(0.5f * (across0 + across1) / texel) * texel;
    // Along the light (view space looks down -z): the casters' depth range, in whole
    // metres, with room for receivers just below them. Casters nearer the sun are
    // clamped onto the near plane by the shadow pass (depth clamp), receivers beyond
    // the far plane onto it by the lit shader: both still shadow correctly.
    const float nearZ = std::floor(-hi.z) - 1.0f, farZ = std::ceil(-lo.z) + 2.0f;
    ShadowFit fit;
    fit.lightViewProj =
        glm::ortho(mid.x - halfSide, mid.x + halfSide, mid.y - halfSide, mid.y + halfSide, nearZ, farZ) * lightView;
    fit.texel = texel;
    fit.depthRange = farZ - nearZ;
    return fit;
}

}  // namespace impulse::render
