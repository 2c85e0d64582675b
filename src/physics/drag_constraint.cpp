#include "physics/drag_constraint.h"

#include "physics/solver_data.h"

#include <glm/gtc/constants.hpp>

namespace impulse {

void prepareDrag(DragSolver& solver, const vec3& position, const quat& orientation, const Body& body,
                 const vec3& localAnchor, const vec3& target, float frequency, float dampingRatio, float maxForce,
                 float dt) {
    // Spring k = m w^2 and damper c = 2 m zeta w; the implicit (soft constraint)
    // form gamma = 1/(h (c + h k)), beta = h k gamma stays stable for any h.
    const float omega = 2.0f * glm::pi<float>() * frequency;
    const float stiffness = body.mass * omega * omega;
    const float damping = 2.0f * body.mass * dampingRatio * omega;
    const float softness = dt * (damping + dt * stiffness);
    solver.gamma = softness > 0.0f ? 1.0f / softness : 0.0f;
    const float beta = dt * stiffness * solver.gamma;
    solver.r = rotate(orientation, localAnchor);
    const vec3 anchor = position + solver.r;
    solver.bias = beta * (anchor - target);
    // K = 1/m I - [r]x I^-1 [r]x maps an impulse at the point to the point's velocity change.
    const mat3 skewR = skew(solver.r);
    const mat3 rotation = glm::mat3_cast(orientation);
    solver.inverseInertia = worldInverseInertia(rotation, body.inverseInertiaBody);
    mat3 k = body.inverseMass * mat3(1.0f) - skewR * solver.inverseInertia * skewR;
    k += solver.gamma * mat3(1.0f);
    solver.effectiveMass = glm::inverse(k);
    solver.maxImpulse = maxForce * dt;
    solver.impulse = vec3(0.0f);
}

void solveDrag(DragSolver& solver, SolverBody& body) {
    const vec3 pointVelocity = body.linearVelocity + glm::cross(body.angularVelocity, solver.r);
    const vec3 lambda = -(solver.effectiveMass * (pointVelocity + solver.bias + solver.gamma * solver.impulse));
    const vec3 previous = solver.impulse;
    solver.impulse += lambda;
    const float length = glm::length(solver.impulse);
    if (length > solver.maxImpulse) solver.impulse *= solver.maxImpulse / length;
    const vec3 applied = solver.impulse - previous;
    body.linearVelocity += body.inverseMass * applied;
    body.angularVelocity += solver.inverseInertia * glm::cross(solver.r, applied);
}

}  // namespace impulse
