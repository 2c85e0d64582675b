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
/// B moving at `relativeVelocity` from A over a pass of `dt`: a sphere pair's
/// manifold is aimed at their arrival (aimSpheresAtArrival); none (zero) aims nothing.
Manifold collide(const ShapePose& a, const ShapePose& b, float margin, const vec3& relativeVelocity = vec3(0.0f),
                 float dt = 0.0f);

/// Two spheres a gap apart meet along their line of centres at arrival, not along
/// today's: a glancing approach predicted up to a pass's travel early, struck along the
/// line of now, leaves at the wrong angle (a half-ball billiard cut left at 23 degrees
/// instead of 30 at 1/60 s). When B, moving at `relativeVelocity` from A, will touch A
/// after a way no longer than its travel in `dt` plus today's gap, the manifold of
/// collideSpheres is turned to the line of centres at that moment: its point on it, its
/// separation the gap along it, which that approach closes at the same moment (so a
/// meeting after `dt` is no contact this pass). Otherwise (touching, moving apart,
/// passing by, further off) it is left as it is. Their relative motion has no gravity in it.
void aimSpheresAtArrival(Manifold& manifold, const ShapePose& a, const ShapePose& b, const vec3& relativeVelocity,
                         float dt);

/// A sphere a gap from a box meets it at the feature and normal of the moment it
/// touches, as a sphere pair does (aimSpheresAtArrival): detected up to a pass's
/// travel early, a ball glancing past a box's edge was struck along the line to the
/// edge of then (leaving at 135 degrees instead of 120 at 1/60 s), and one coming
/// onto a face near its edge took the edge's normal. The sphere moving at
/// `sphereVelocity` from the box (the box's spin aside) is advanced along its path to
/// the first touch; if that comes within its travel in `dt` plus today's gap, the
/// manifold takes that moment's normal and the gap along it. Otherwise it is left.
void aimSphereAtBoxArrival(Manifold& manifold, const ShapePose& sphere, const ShapePose& box,
                           const vec3& sphereVelocity, float dt);

/// A box-box manifold kept in the bodies' own frames with the relative pose it
/// was computed at (as Jolt's body-pair cache does). Resting boxes barely move
/// relative to each other, and their contact points are material points of
/// both boxes, so while the relative pose stays within kManifoldReuseDistance
/// and kManifoldReuseCosHalfAngle the cached points, carried by the bodies, replace a
/// fresh narrowphase run.
struct ManifoldCache {
    bool valid = false;
    uint8_t pointCount = 0;                             ///< beside `valid`: the margin fits in their word's padding
    float margin = 0.0f;                                ///< the speculative reach it was computed with
    vec3 relativePosition{0.0f};                        ///< B's centre in A's frame
    quat relativeOrientation{1.0f, 0.0f, 0.0f, 0.0f};   ///< conj(q_A) q_B
    vec3 localNormal{0.0f};                             ///< in A's frame
    vec3 localSurfaceA[kMaxManifoldPoints];             ///< on A's surface, A's frame
    vec3 localSurfaceB[kMaxManifoldPoints];             ///< on B's surface, B's frame
    uint32_t ids[kMaxManifoldPoints] = {};
};

/// A pose with both forms of its rotation.
struct BodyPose {
    vec3 position{0.0f};
    quat orientation{1.0f, 0.0f, 0.0f, 0.0f};
    const mat3* rotation = nullptr;  ///< of orientation
};

/// `manifold` computed with speculative reach `margin` at poses A and B.
ManifoldCache cacheManifold(const Manifold& manifold, const BodyPose& a, const BodyPose& b, float margin);
/// The cached manifold at today's poses, if A and B moved little enough
/// relative to each other since it was computed and `margin` (today's reach)
/// exceeds its reach by no more than they may have moved; false otherwise.
bool reuseManifold(const ManifoldCache& cache, const BodyPose& a, const BodyPose& b, float margin, Manifold& out);

Manifold collideSpheres(const ShapePose& a, const ShapePose& b, float margin);
Manifold collideSphereBox(const ShapePose& sphere, const ShapePose& box, float margin);
Manifold collideBoxes(const ShapePose& a, const ShapePose& b, float margin);

}  // namespace impulse
