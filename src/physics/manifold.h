// Narrowphase: contact manifolds for sphere-sphere, sphere-box and box-box.
#pragma once

#include "physics/math.h"
#include "physics/shape.h"

#include <cstdint>

namespace impulse {

/// Pose and shape of one body, as the narrowphase sees it.
struct ShapePose {
    const Shape* shape = nullptr;
    vec3 position{0.0f};
    mat3 rotation{1.0f};
};

struct ManifoldPoint {
    vec3 point{0.0f};         ///< world, midway between the two surfaces
    float separation = 0.0f;  ///< signed distance along the normal; < 0 when overlapping
    uint32_t id = 0;          ///< feature id, stable while the same features touch
};

inline constexpr int kMaxManifoldPoints = 4;

struct Manifold {
    vec3 normal{0.0f, 1.0f, 0.0f};  ///< unit, from A to B
    int pointCount = 0;
    ManifoldPoint points[kMaxManifoldPoints];
};

/// Contact points between A and B with separation <= margin (speculative
/// points have 0 < separation <= margin). pointCount is 0 when farther apart.
Manifold collide(const ShapePose& a, const ShapePose& b, float margin);

Manifold collideSpheres(const ShapePose& a, const ShapePose& b, float margin);
Manifold collideSphereBox(const ShapePose& sphere, const ShapePose& box, float margin);
Manifold collideBoxes(const ShapePose& a, const ShapePose& b, float margin);

}  // namespace impulse
