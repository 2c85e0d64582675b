// Bodies: their definition (what a scene file or a panel specifies), their
// handle, and the validation rules every definition must pass.
#pragma once

#include "physics/math.h"
#include "physics/prefetch.h"
#include "physics/shape.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace impulse {

/// Value handle of a body: index into the world's body array plus a generation
/// that changes when the slot is reused. The default value is the null handle.
struct BodyId {
    uint32_t index = 0;
    uint32_t generation = 0;  ///< 0 means null; live bodies have generation >= 1
    explicit operator bool() const { return generation != 0; }
    friend bool operator==(BodyId a, BodyId b) { return a.index == b.index && a.generation == b.generation; }
    friend bool operator!=(BodyId a, BodyId b) { return !(a == b); }
};

/// Everything needed to create a body, and everything a user may edit on a
/// live one. The defaults here are the documented defaults of the scene format.
struct BodyDef {
    std::string name;
    Shape shape = Shape::box(vec3(0.5f));
    bool isStatic = false;
    float mass = 1.0f;                       ///< kg; ignored for static bodies
    vec3 position{0.0f};                     ///< centre of mass, m
    quat orientation{1.0f, 0.0f, 0.0f, 0.0f};
    vec3 linearVelocity{0.0f};               ///< m/s
    vec3 angularVelocity{0.0f};              ///< rad/s, world frame
    float restitution = 0.5f;                ///< e in [0, 1]
    float friction = 0.5f;                   ///< dynamic (sliding) mu >= 0
    std::optional<float> staticFriction;     ///< mu_s >= mu; equals friction when absent
    std::optional<mat3> inertia;             ///< body-frame tensor, kg m^2; from shape and mass when absent
};

/// A rejected value: which field (named as in the scene file, e.g. "mass",
/// "shape.half_extents", "inertia") and which rule it broke.
struct FieldError {
    std::string field;
    std::string rule;
    std::string message() const { return field + ": " + rule; }
};
using Validation = std::optional<FieldError>;

/// Checks a definition against every rule of the body model (finite values,
/// mass and sizes in range, e in [0, 1], mu >= 0, mu_s >= mu, physical inertia).
/// The scene loader and the panels both go through this one function.
Validation validateBodyDef(const BodyDef& def);

/// Symmetric, positive definite, principal moments obeying the triangle
/// inequality (I1 + I2 >= I3 for every ordering).
Validation validateInertia(const mat3& inertia);

/// Principal moments (ascending) and the matching unit axes (columns of `axes`,
/// a proper rotation) of a symmetric tensor, by Jacobi rotations.
void principalAxes(const mat3& symmetric, vec3& moments, mat3& axes);

/// Turns a body with angular velocity w by dt, keeping its world angular
/// momentum L = R I R^T w exactly and its energy to second order: the body
/// turns by the angular velocity at the half-step orientation (implicit
/// midpoint, two fixed-point passes) and w is recomputed from L at the new
/// orientation. This is the gyroscopic term w x (I w) treated implicitly;
/// unlike one backward-Euler Newton step it does not bleed energy, so a spin
/// about the intermediate axis keeps tumbling with constant |L| and E.
void rotateRigidBody(quat& orientation, vec3& angularVelocity, const mat3& inertiaBody, float dt);

/// A body as the world stores it. Read it through World::body(); change it only
/// through World::updateBody(), which validates.
struct alignas(64) Body {
    // What a step reads of every body comes first, in three cache lines (the
    // pair pass reads the first two): in a large scene the bodies do not fit
    // in the caches, and the pair and contact passes reach them out of order.
    Shape shape;
    bool isStatic = false;
    bool asleep = false;                  ///< in a resting island: not stepped, velocities zero
    bool alive = false;                   ///< false for a free slot
    /// The last step clamped its spin to maxAngularSpeed(shape) (counted in StepStats::spinClampedBodies).
    bool spinClamped = false;
    vec3 position{0.0f};
    quat orientation{1.0f, 0.0f, 0.0f, 0.0f};
    vec3 linearVelocity{0.0f};
    vec3 angularVelocity{0.0f};
    mat3 rotation{1.0f};                  ///< cached from orientation
    float restitution = 0.5f;
    float friction = 0.5f;
    float staticFriction = 0.5f;
    float inverseMass = 1.0f;             ///< 0 for static bodies
    mat3 inverseInertiaWorld{0.0f};       ///< R I_body^-1 R^T, cached
    float mass = 1.0f;

    mat3 inertiaBody{1.0f};               ///< body frame, kg m^2
    mat3 inverseInertiaBody{1.0f};        ///< zero for static bodies
    bool inertiaOverridden = false;       ///< entered by the user, not derived from the shape
    bool staticFrictionSet = false;       ///< false: static friction follows friction
    float restTime = 0.0f;                ///< s the body has moved slower than the sleep speed
    uint32_t island = 0;                  ///< while asleep: the island it fell asleep with
    uint32_t generation = 0;              ///< of the handle to this slot; counts up on reuse
    std::string name;

    bool isAlive() const { return alive; }
    bool isDynamic() const { return !isStatic; }
    /// Dynamic and awake: the bodies a step moves.
    bool isSimulated() const { return !isStatic && !asleep; }
    /// The same moment about every axis: w x (I w) is zero and the spin's
    /// energy does not depend on the orientation.
    bool hasIsotropicInertia() const { return inertiaBody == mat3(inertiaBody[0][0]); }
    /// Refreshes rotation and the world inverse inertia after orientation changed.
    void updateWorldInertia() {
        rotation = glm::mat3_cast(orientation);
        inverseInertiaWorld = worldInverseInertia(rotation, inverseInertiaBody);
    }
    /// Velocity of the material point at world position p.
    /// 1/2 m v^2 + 1/2 w . I w, J (in double; 0 for a static body).
    double kineticEnergy() const;
    /// I_world w about the centre of mass, world frame, kg m^2/s (in double; 0 for a static body).
    glm::dvec3 spinAngularMomentum() const;
    vec3 velocityAt(const vec3& p) const { return linearVelocity + glm::cross(angularVelocity, p - position); }
};

/// Asks for the fields a step reads of every body (see Body).
inline void prefetchBody(const Body& body) { prefetchBytes(&body, offsetof(Body, inertiaBody)); }

}  // namespace impulse
