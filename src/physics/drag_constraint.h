// The mouse drag: a soft point constraint (spring-damper expressed as a
// constraint with frequency and damping ratio, as in Box2D's mouse joint)
// between a point on a body and the cursor's target, solved with the contacts.
#pragma once

#include "physics/body.h"
#include "physics/settings.h"

namespace impulse {

struct SolverBody;

struct DragState {
    bool active = false;
    BodyId body;
    vec3 localAnchor{0.0f};  ///< grabbed point in the body frame
    vec3 anchor{0.0f};       ///< grabbed point in world space now
    vec3 target{0.0f};       ///< where the cursor wants it
    vec3 force{0.0f};        ///< force applied in the last step, N
    DragSettings settings;
};

struct DragSolver {
    vec3 r{0.0f};              ///< centre of mass -> grabbed point, world
    mat3 effectiveMass{0.0f};  ///< (K + gamma I)^-1
    vec3 bias{0.0f};           ///< beta * C: position error fed back as velocity
    float gamma = 0.0f;        ///< softness
    float maxImpulse = 0.0f;   ///< force cap * dt
    vec3 impulse{0.0f};        ///< accumulated this sub-step (prepareDrag resets it), N s
    mat3 inverseInertia{0.0f}; ///< of the dragged body, world frame
};

/// Prepares the drag of `body` at its pose (position, orientation) within the step.
void prepareDrag(DragSolver& solver, const vec3& position, const quat& orientation, const Body& body,
                 const vec3& localAnchor, const vec3& target, float frequency, float dampingRatio, float maxForce,
                 float dt);
/// Applies the drag impulse to the dragged body's solver slot.
void solveDrag(DragSolver& solver, SolverBody& body);

}  // namespace impulse
