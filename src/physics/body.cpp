// Validation rules of the body model and the eigen-decomposition of inertia tensors.
#include "physics/body.h"

#include "physics/constants.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

namespace impulse {
namespace {

std::string formatNumber(double x) {
    std::ostringstream out;
    out << x;
    return out.str();
}

Validation fail(const std::string& field, const std::string& rule) { return FieldError{field, rule}; }

Validation checkFinite(const std::string& field, const vec3& v) {
    if (!isFinite(v)) return fail(field, "must hold finite numbers");
    return std::nullopt;
}

// lower <= x <= upper, with a message that states the allowed range and unit.
Validation checkRange(const std::string& field, float x, float lower, float upper, const char* unit) {
    if (!isFinite(x)) return fail(field, "must be a finite number");
    if (x < lower || x > upper) {
        return fail(field, "must be in [" + formatNumber(lower) + ", " + formatNumber(upper) + "]" + unit +
                               " (got " + formatNumber(x) + ")");
    }
    return std::nullopt;
}

Validation checkPositiveSize(const std::string& field, float x) {
    if (!isFinite(x)) return fail(field, "must be a finite number");
    if (x <= 0.0f) return fail(field, "must be > 0 (got " + formatNumber(x) + ")");
    return checkRange(field, x, kMinBodySize, kMaxBodySize, " m");
}

Validation checkMagnitude(const std::string& field, const vec3& v, float limit, const char* unit) {
    if (auto error = checkFinite(field, v)) return error;
    // Squared, as the step guard compares (World::firstNonFiniteBody): what it keeps passes.
    if (glm::dot(v, v) > limit * limit) {
        return fail(field, "magnitude must be <= " + formatNumber(limit) + unit + " (got " +
                               formatNumber(glm::length(v)) + ")");
    }
    return std::nullopt;
}

Validation checkInertiaAgainstShape(const mat3& inertia, const Shape& shape, float mass) {
    // The shape's own tensor is diagonal in the body frame: scaled by it, the
    // tensor's smallest principal moment is its least share in any direction.
    const mat3 own = shapeInertia(shape, mass);
    mat3 share;
    for (int c = 0; c < 3; ++c) {
        for (int r = 0; r < 3; ++r) share[c][r] = inertia[c][r] / std::sqrt(own[c][c] * own[r][r]);
    }
    vec3 moments;
    mat3 axes;
    principalAxes(share, moments, axes);
    if (moments[0] < kMinOwnInertiaShare) {
        // Named after the tensor, which the rule is about, also when a mass or
        // size edit broke it: the message says so, as the tensor does not follow.
        return fail("inertia", "must be at least " + formatNumber(kMinOwnInertiaShare) +
                                   " of the shape's own tensor at the body's mass (" + formatNumber(mass) +
                                   " kg) in every direction (got " + formatNumber(moments[0]) +
                                   " of it); a tensor set by hand does not follow mass or size edits");
    }
    return std::nullopt;
}

}  // namespace

void principalAxes(const mat3& symmetric, vec3& moments, mat3& axes) {
    // Cyclic Jacobi in double precision: a handful of sweeps diagonalise a 3x3
    // tensor to machine precision, and the rotations stay orthonormal.
    double a[3][3];
    double v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) a[r][c] = symmetric[c][r];
    for (int sweep = 0; sweep < 32; ++sweep) {
        const double offDiagonal = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
        if (offDiagonal < 1e-30) break;
        for (int p = 0; p < 2; ++p) {
            for (int q = p + 1; q < 3; ++q) {
                if (a[p][q] == 0.0) continue;
                // Rotation angle that zeroes a[p][q] (Golub & Van Loan, symmetric Schur).
                const double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                const double t = (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1.0));
                const double c = 1.0 / std::sqrt(t * t + 1.0);
                const double s = t * c;
                for (int k = 0; k < 3; ++k) {
                    const double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < 3; ++k) {
                    const double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
                for (int k = 0; k < 3; ++k) {
                    const double vkp = v[k][p], vkq = v[k][q];
                    v[k][p] = c * vkp - s * vkq;
                    v[k][q] = s * vkp + c * vkq;
                }
            }
        }
    }
    int order[3] = {0, 1, 2};
    std::sort(order, order + 3, [&](int i, int j) { return a[i][i] < a[j][j]; });
    for (int i = 0; i < 3; ++i) {
        const int k = order[i];
        moments[i] = static_cast<float>(a[k][k]);
        axes[i] = vec3(static_cast<float>(v[0][k]), static_cast<float>(v[1][k]), static_cast<float>(v[2][k]));
    }
    // A proper rotation, so the axes can orient a drawn frame.
    if (glm::determinant(axes) < 0.0f) axes[2] = -axes[2];
}

void rotateRigidBody(quat& orientation, vec3& angularVelocity, const mat3& inertiaBody, float dt) {
    // In double precision, with the inverse taken here: L -> w -> L round trips
    // through a float tensor and its separately rounded float inverse drift by
    // ~1e-7 per sub-step, and in float the many small turns round with a bias
    // that grows as the sub-steps shrink; in double the error shrinks as dt^2.
    using glm::dquat;
    using glm::dvec3;
    const glm::dmat3 inertia(inertiaBody);
    const glm::dmat3 inverseInertia = glm::inverse(inertia);
    const dquat start(orientation);
    const double h = dt;
    auto turn = [](const dquat& q, const dvec3& w, double time) {
        const double angle = glm::length(w) * time;
        if (angle < 1e-15) return q;
        const dvec3 axis = w * (time / angle);
        const SinCos half = sinCos(0.5 * angle);
        return glm::normalize(dquat(half.cos, half.sin * axis) * q);
    };
    const dvec3 momentum = start * (inertia * (glm::conjugate(start) * dvec3(angularVelocity)));
    auto velocityAt = [&](const dquat& q) { return q * (inverseInertia * (glm::conjugate(q) * momentum)); };
    dvec3 midpointVelocity(angularVelocity);
    for (int pass = 0; pass < 2; ++pass) midpointVelocity = velocityAt(turn(start, midpointVelocity, 0.5 * h));
    const dquat end = turn(start, midpointVelocity, h);
    orientation = quat(end);
    angularVelocity = vec3(velocityAt(end));
}

Validation validateInertia(const mat3& inertia) {
    const std::string field = "inertia";
    if (!isFinite(inertia)) return fail(field, "must hold finite numbers");
    float scale = 0.0f;
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) scale = std::max(scale, std::fabs(inertia[c][r]));
    if (scale == 0.0f) return fail(field, "must be positive definite (got the zero matrix)");
    // Entries typed by a person are symmetric to the digit; allow only rounding.
    const float symmetryTolerance = 1e-6f * scale;
    for (int c = 0; c < 3; ++c) {
        for (int r = c + 1; r < 3; ++r) {
            if (std::fabs(inertia[c][r] - inertia[r][c]) > symmetryTolerance) {
                return fail(field, "must be symmetric (entry [" + std::to_string(r) + "][" + std::to_string(c) +
                                       "] = " + formatNumber(inertia[c][r]) + " but [" + std::to_string(c) + "][" +
                                       std::to_string(r) + "] = " + formatNumber(inertia[r][c]) + ")");
            }
        }
    }
    vec3 moments;
    mat3 axes;
    principalAxes(inertia, moments, axes);
    if (moments[0] <= 1e-7f * scale) {
        return fail(field, "must be positive definite (smallest principal moment " + formatNumber(moments[0]) + ")");
    }
    if (moments[0] < kMinMoment || moments[2] > kMaxMoment) {
        return fail(field, "principal moments must be in [" + formatNumber(kMinMoment) + ", " +
                               formatNumber(kMaxMoment) + "] kg m^2 (got " + formatNumber(moments[0]) + " to " +
                               formatNumber(moments[2]) + ")");
    }
    // Principal moments of a real mass distribution obey I1 + I2 >= I3; a thin
    // plate sits exactly on the bound, so allow rounding there.
    if (moments[0] + moments[1] < moments[2] * (1.0f - 1e-5f)) {
        return fail(field, "principal moments must satisfy the triangle inequality I1 + I2 >= I3 (got " +
                               formatNumber(moments[0]) + " + " + formatNumber(moments[1]) + " < " +
                               formatNumber(moments[2]) + ")");
    }
    return std::nullopt;
}

Validation validateBodyDef(const BodyDef& def) {
    if (def.shape.type == ShapeType::Sphere) {
        if (auto error = checkPositiveSize("shape.radius", def.shape.radius)) return error;
    } else {
        static const char* const axisNames[3] = {"shape.half_extents[0]", "shape.half_extents[1]",
                                                 "shape.half_extents[2]"};
        for (int i = 0; i < 3; ++i) {
            if (auto error = checkPositiveSize(axisNames[i], def.shape.halfExtents[i])) return error;
        }
    }
    if (!def.isStatic) {
        if (!isFinite(def.mass)) return fail("mass", "must be a finite number");
        if (def.mass <= 0.0f) return fail("mass", "must be > 0 (got " + formatNumber(def.mass) + ")");
        if (auto error = checkRange("mass", def.mass, kMinMass, kMaxMass, " kg")) return error;
    }
    if (auto error = checkMagnitude("position", def.position, kBlownUpPosition, " m")) return error;
    if (!isFinite(def.orientation)) return fail("orientation", "must hold finite numbers");
    // The length itself must be representable: [1e20, 0, 0, 0] is finite but its length overflows.
    const float orientationLength = glm::length(def.orientation);
    if (!isFinite(orientationLength) || orientationLength > kMaxQuaternionLength) {
        return fail("orientation", "quaternion components must be at most 1e6 in magnitude");
    }
    if (orientationLength < 1e-6f) return fail("orientation", "must be a non-zero quaternion [w, x, y, z]");
    if (auto error = checkMagnitude("linear_velocity", def.linearVelocity, kBlownUpSpeed, " m/s")) return error;
    if (auto error = checkFinite("angular_velocity", def.angularVelocity)) return error;
    const float spin = glm::length(def.angularVelocity);
    if (spin > maxAngularSpeed(def.shape)) {
        return fail("angular_velocity", "magnitude times the shape's bounding radius (its surface speed) must be <= " +
                                            formatNumber(kMaxSurfaceSpeed) + " m/s: <= " +
                                            formatNumber(maxAngularSpeed(def.shape)) + " rad/s for this shape (got " +
                                            formatNumber(spin) + ")");
    }
    if (auto error = checkRange("restitution", def.restitution, 0.0f, 1.0f, "")) return error;
    if (!isFinite(def.friction)) return fail("friction", "must be a finite number");
    if (def.friction < 0.0f) return fail("friction", "must be >= 0 (got " + formatNumber(def.friction) + ")");
    if (def.staticFriction) {
        const float staticFriction = *def.staticFriction;
        if (!isFinite(staticFriction)) return fail("static_friction", "must be a finite number");
        if (staticFriction < def.friction) {
            return fail("static_friction", "must be >= friction (got " + formatNumber(staticFriction) + " < " +
                                               formatNumber(def.friction) + ")");
        }
    }
    if (def.inertia) {
        if (auto error = validateInertia(*def.inertia)) return error;
        if (!def.isStatic) {
            if (auto error = checkInertiaAgainstShape(*def.inertia, def.shape, def.mass)) return error;
        }
    }
    return std::nullopt;
}

double Body::kineticEnergy() const {
    if (isStatic) return 0.0;
    const glm::dvec3 v(linearVelocity);
    const glm::dvec3 w(inverseRotate(orientation, angularVelocity));
    return 0.5 * mass * glm::dot(v, v) + 0.5 * glm::dot(w, glm::dmat3(inertiaBody) * w);
}

glm::dvec3 Body::spinAngularMomentum() const {
    if (isStatic) return glm::dvec3(0.0);
    const glm::dmat3 r(rotation);
    return r * (glm::dmat3(inertiaBody) * (glm::transpose(r) * glm::dvec3(angularVelocity)));
}

}  // namespace impulse
