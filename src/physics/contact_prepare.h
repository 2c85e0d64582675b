// Preparation, once a pass: solver slots for the awake bodies, one constraint
// per manifold (lever arms, anchors, friction axes), the impacts of touching
// points, and the heavy-on-light supports.
#pragma once

#include "physics/solver_data.h"

#include <vector>

namespace impulse {

/// Copies the velocities of the awake dynamic bodies among `passBodies`
/// (ascending; null: all of them) into solver slots and builds one constraint per
/// manifold (tangents, anchors), lists the impacts before the sub-steps
/// (touching points approaching faster than the restitution threshold) in
/// data.impactSeeds, and marks the points that may arrive faster than the
/// impact speed (impactSpeed()) during a pass of length dt, and those of a box
/// on a static or kinematic body that may land (ContactSolverData::landingSpeed).
void prepareContacts(std::vector<ContactManifold>& manifolds, const std::vector<Body>& bodies,
                     const std::vector<uint32_t>* passBodies, float restitutionThreshold, const vec3& gravity, float dt, ContactSolverData& data);

}  // namespace impulse
