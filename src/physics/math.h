// Small named operations on GLM types used throughout the physics library.
#pragma once

#ifndef GLM_FORCE_XYZW_ONLY
#define GLM_FORCE_XYZW_ONLY
#endif
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include <cmath>

namespace impulse {

using glm::mat3;
using glm::quat;
using glm::vec3;

// Cross-product matrix: skew(a) * b == cross(a, b).
inline mat3 skew(const vec3& a) {
    // GLM matrices are column-major: mat3(col0, col1, col2).
    return mat3(vec3(0.0f, a.z, -a.y), vec3(-a.z, 0.0f, a.x), vec3(a.y, -a.x, 0.0f));
}

inline vec3 rotate(const quat& q, const vec3& v) { return q * v; }
inline vec3 inverseRotate(const quat& q, const vec3& v) { return glm::conjugate(q) * v; }

// I_world^-1 = R I_body^-1 R^T; for an isotropic tensor (s times the identity)
// exactly that tensor, which the product would give only up to rounding.
inline mat3 worldInverseInertia(const mat3& rotation, const mat3& inverseInertiaBody) {
    if (inverseInertiaBody == mat3(inverseInertiaBody[0][0])) return inverseInertiaBody;
    return rotation * inverseInertiaBody * glm::transpose(rotation);
}

// q' = q + dt/2 (0, w) q, renormalised. w is the world-frame angular velocity.
inline quat integrateOrientation(const quat& q, const vec3& w, float dt) {
    const quat spin(0.0f, w.x, w.y, w.z);
    quat next = q + (0.5f * dt) * (spin * q);
    return glm::normalize(next);
}

struct SinCos {
    double sin = 0.0, cos = 1.0;
};

// sin x and cos x from additions and multiplications only, so that every
// IEEE-754 target gives the same bits (libm's differ between glibc and
// emscripten's libc, and a step turns bodies with them). x = k pi/2 + r with
// pi/2 in three parts (exact for |x| < 2^20 pi/2), then Taylor series on
// |r| <= pi/4 (their first dropped terms are below 5e-17).
inline SinCos sinCos(double x) {
    constexpr double kTwoOverPi = 0.63661977236758134308;
    constexpr double kHalfPi1 = 1.57079632673412561417e+00;
    constexpr double kHalfPi2 = 6.07710050630396597660e-11;
    constexpr double kHalfPi3 = 2.02226624879595063154e-21;
    const double k = std::floor(x * kTwoOverPi + 0.5);
    const double r = ((x - k * kHalfPi1) - k * kHalfPi2) - k * kHalfPi3;
    const double r2 = r * r;
    const double sinR =
        r + r * r2 *
                (-1.0 / 6.0 +
                 r2 * (1.0 / 120.0 +
                       r2 * (-1.0 / 5040.0 +
                             r2 * (1.0 / 362880.0 +
                                   r2 * (-1.0 / 39916800.0 + r2 * (1.0 / 6227020800.0 + r2 * (-1.0 / 1307674368000.0)))))));
    const double cosR =
        1.0 + r2 * (-0.5 +
                    r2 * (1.0 / 24.0 +
                          r2 * (-1.0 / 720.0 +
                                r2 * (1.0 / 40320.0 +
                                      r2 * (-1.0 / 3628800.0 +
                                            r2 * (1.0 / 479001600.0 +
                                                  r2 * (-1.0 / 87178291200.0 + r2 * (1.0 / 20922789888000.0))))))));
    switch (static_cast<long long>(std::fmod(k, 4.0) + 4.0) % 4) {
        case 0: return {sinR, cosR};
        case 1: return {cosR, -sinR};
        case 2: return {-sinR, -cosR};
        default: return {-cosR, sinR};
    }
}

// The orientation after turning at constant angular velocity w for time dt:
// the exact exponential map, so large spins stay accurate.
inline quat rotateBy(const quat& q, const vec3& w, float dt) {
    const float angle = glm::length(w) * dt;
    if (angle < 1e-9f) return q;
    const vec3 axis = w * (dt / angle);
    const SinCos half = sinCos(0.5 * double(angle));
    return glm::normalize(quat(float(half.cos), float(half.sin) * axis) * q);
}

inline bool isFinite(float x) { return std::isfinite(x); }
inline bool isFinite(const vec3& v) { return isFinite(v.x) && isFinite(v.y) && isFinite(v.z); }
inline bool isFinite(const quat& q) { return isFinite(q.w) && isFinite(q.x) && isFinite(q.y) && isFinite(q.z); }
inline bool isFinite(const mat3& m) { return isFinite(m[0]) && isFinite(m[1]) && isFinite(m[2]); }

// Two unit vectors orthogonal to unit n and to each other (right-handed t1, t2, n).
inline void tangentBasis(const vec3& n, vec3& t1, vec3& t2) {
    // Pick the axis least aligned with n for a well-conditioned cross product.
    if (std::fabs(n.x) >= 0.57735f) {
        t1 = glm::normalize(vec3(n.y, -n.x, 0.0f));
    } else {
        t1 = glm::normalize(vec3(0.0f, n.z, -n.y));
    }
    t2 = glm::cross(n, t1);
}

}  // namespace impulse
