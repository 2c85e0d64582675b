// Where a spawned body starts: off the surface the mouse points at and clear
// of every body it would overlap. No GL or SDL, so the tests can check it.
#pragma once

#include "physics/world.h"

namespace impulse::app {

/// Lifts a body of `shape` (unrotated) at `position` until its bounding box is clear of
/// every body's, so a spawn never starts inside the ground, a kerb or another body.
vec3 liftedClear(const World& world, const Shape& shape, vec3 position);

/// Where a body of `shape` spawned at a surface point (the mouse ray's hit) starts:
/// off the surface along its normal and a little up, then liftedClear().
vec3 spawnPositionAt(const World& world, const Shape& shape, const vec3& point, const vec3& normal);

}  // namespace impulse::app
