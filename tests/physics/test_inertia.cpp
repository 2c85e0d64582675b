// Principal axes of inertia tensors and the physical-tensor rule (physics/body.h).
#include "physics/body.h"
#include "physics/shape.h"

#include "physics_test_util.h"

#include <cmath>
#include <limits>

namespace impulse {
namespace {

using test::axisAngle;

mat3 diagonal(float a, float b, float c) {
    mat3 m(0.0f);
    m[0][0] = a;
    m[1][1] = b;
    m[2][2] = c;
    return m;
}

float maxAbsDifference(const mat3& a, const mat3& b) {
    float worst = 0.0f;
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) worst = std::max(worst, std::fabs(a[c][r] - b[c][r]));
    return worst;
}

// Checks moments ascending, axes orthonormal with det +1, and V diag(m) V^T == tensor.
void expectValidDecomposition(const mat3& tensor, const vec3& moments, const mat3& axes, float tolerance) {
    EXPECT_LE(moments[0], moments[1]);
    EXPECT_LE(moments[1], moments[2]);
    const mat3 gram = glm::transpose(axes) * axes;
    EXPECT_LE(maxAbsDifference(gram, mat3(1.0f)), 1e-5f) << "axes not orthonormal";  // float rounding
    EXPECT_NEAR(glm::determinant(axes), 1.0f, 1e-5f);                                 // proper rotation
    const mat3 rebuilt = axes * diagonal(moments[0], moments[1], moments[2]) * glm::transpose(axes);
    EXPECT_LE(maxAbsDifference(rebuilt, tensor), tolerance) << "V D V^T does not reproduce the tensor";
    // Each axis is an eigenvector: T v = m v.
    for (int i = 0; i < 3; ++i) {
        EXPECT_TRUE(test::near(tensor * axes[i], moments[i] * axes[i], tolerance)) << "axis " << i;
    }
}

TEST(PrincipalAxes, DiagonalTensorSortsMomentsAscending) {
    const mat3 tensor = diagonal(3.0f, 1.0f, 2.0f);
    vec3 moments;
    mat3 axes;
    principalAxes(tensor, moments, axes);
    // A diagonal tensor needs no rotation: exact up to rounding (1e-6).
    EXPECT_NEAR(moments[0], 1.0f, 1e-6f);
    EXPECT_NEAR(moments[1], 2.0f, 1e-6f);
    EXPECT_NEAR(moments[2], 3.0f, 1e-6f);
    // The smallest moment belongs to the y axis, the largest to x (up to sign).
    EXPECT_NEAR(std::fabs(axes[0].y), 1.0f, 1e-6f);
    EXPECT_NEAR(std::fabs(axes[1].z), 1.0f, 1e-6f);
    EXPECT_NEAR(std::fabs(axes[2].x), 1.0f, 1e-6f);
    expectValidDecomposition(tensor, moments, axes, 1e-6f);
}

TEST(PrincipalAxes, RotatedTensorRecoversKnownAxes) {
    const mat3 r = glm::mat3_cast(axisAngle(vec3(1.0f, 2.0f, -0.5f), 0.9f));
    const mat3 tensor = r * diagonal(0.5f, 1.25f, 1.5f) * glm::transpose(r);
    vec3 moments;
    mat3 axes;
    principalAxes(tensor, moments, axes);
    // Float input of magnitude ~1: moments good to ~1e-6, use 1e-5.
    EXPECT_NEAR(moments[0], 0.5f, 1e-5f);
    EXPECT_NEAR(moments[1], 1.25f, 1e-5f);
    EXPECT_NEAR(moments[2], 1.5f, 1e-5f);
    // Distinct moments: each axis equals the matching column of R up to sign (1e-4: the
    // 0.25 gap between moments amplifies rounding by ~1/0.25).
    for (int i = 0; i < 3; ++i) {
        EXPECT_NEAR(std::fabs(glm::dot(axes[i], r[i])), 1.0f, 1e-4f) << "axis " << i;
    }
    expectValidDecomposition(tensor, moments, axes, 1e-5f);
}

TEST(PrincipalAxes, DegenerateTensorWithTwoEqualMoments) {
    // A square rod: two equal moments, any axis in that plane is principal.
    const mat3 r = glm::mat3_cast(axisAngle(vec3(0.3f, -1.0f, 0.7f), 2.1f));
    const mat3 tensor = r * diagonal(2.0f, 2.0f, 0.4f) * glm::transpose(r);
    vec3 moments;
    mat3 axes;
    principalAxes(tensor, moments, axes);
    EXPECT_NEAR(moments[0], 0.4f, 1e-5f);  // rounding of a ~2 magnitude tensor
    EXPECT_NEAR(moments[1], 2.0f, 1e-5f);
    EXPECT_NEAR(moments[2], 2.0f, 1e-5f);
    // The distinct axis is R's z column (up to sign); the other two span its complement.
    EXPECT_NEAR(std::fabs(glm::dot(axes[0], r[2])), 1.0f, 1e-5f);
    EXPECT_NEAR(glm::dot(axes[1], r[2]), 0.0f, 1e-5f);
    EXPECT_NEAR(glm::dot(axes[2], r[2]), 0.0f, 1e-5f);
    expectValidDecomposition(tensor, moments, axes, 1e-5f);
}

TEST(PrincipalAxes, SphericalTensorAndNegativeDeterminantInput) {
    // Three equal moments: identity-like axes, still a proper rotation.
    vec3 moments;
    mat3 axes;
    principalAxes(diagonal(0.7f, 0.7f, 0.7f), moments, axes);
    EXPECT_TRUE(test::near(moments, vec3(0.7f), 1e-6f));
    expectValidDecomposition(diagonal(0.7f, 0.7f, 0.7f), moments, axes, 1e-6f);
    // Ordering that, sorted, would form a reflection (swap of two axes): det must still be +1.
    const mat3 swapped = diagonal(2.0f, 1.0f, 3.0f);
    principalAxes(swapped, moments, axes);
    expectValidDecomposition(swapped, moments, axes, 1e-6f);
}

// ---------------------------------------------------------------- validateInertia

TEST(ValidateInertia, AcceptsShapeTensorsAndRotatedOnes) {
    EXPECT_FALSE(validateInertia(shapeInertia(Shape::box(vec3(1.0f, 0.5f, 0.2f)), 3.0f)));
    EXPECT_FALSE(validateInertia(shapeInertia(Shape::sphere(0.1f), 0.01f)));
    const mat3 r = glm::mat3_cast(axisAngle(vec3(1, 1, 1), 0.8f));
    EXPECT_FALSE(validateInertia(r * shapeInertia(Shape::box(vec3(2.0f, 0.1f, 0.5f)), 7.0f) * glm::transpose(r)));
}

TEST(ValidateInertia, AcceptsThinPlateOnTheTriangleBound) {
    // A plate in the xy plane: Izz = Ixx + Iyy exactly (perpendicular axis theorem).
    const float ixx = 1.0f / 3.0f * 0.25f, iyy = 1.0f / 3.0f * 1.0f;
    EXPECT_FALSE(validateInertia(diagonal(ixx, iyy, ixx + iyy)));
    // The same plate rotated: the sum is only equal up to rounding, still accepted.
    const mat3 r = glm::mat3_cast(axisAngle(vec3(0.2f, 1.0f, -0.4f), 1.3f));
    const auto rotated = validateInertia(r * diagonal(ixx, iyy, ixx + iyy) * glm::transpose(r));
    EXPECT_FALSE(rotated) << rotated->message();
}

void expectRejected(const mat3& tensor, const std::string& ruleWord) {
    const Validation error = validateInertia(tensor);
    ASSERT_TRUE(error) << "expected rejection for: " << ruleWord;
    EXPECT_EQ(error->field, "inertia");
    EXPECT_NE(error->rule.find(ruleWord), std::string::npos) << "rule was: " << error->rule;
}

TEST(ValidateInertia, RejectsNonSymmetric) {
    mat3 tensor = diagonal(1.0f, 1.0f, 1.0f);
    tensor[1][0] = 0.1f;  // column 1, row 0 only
    expectRejected(tensor, "symmetric");
}

TEST(ValidateInertia, RejectsNonPositiveDefinite) {
    expectRejected(diagonal(1.0f, 1.0f, -1.0f), "positive definite");
    expectRejected(mat3(0.0f), "positive definite");
    expectRejected(diagonal(1.0f, 1.0f, 0.0f), "positive definite");
    // Positive diagonal, but eigenvalues -1, 1, 3.
    mat3 indefinite = diagonal(1.0f, 1.0f, 1.0f);
    indefinite[0][1] = indefinite[1][0] = 2.0f;
    expectRejected(indefinite, "positive definite");
}

TEST(ValidateInertia, RejectsTriangleViolation) {
    // 1 + 1 < 2.5: no mass distribution has these moments.
    expectRejected(diagonal(1.0f, 1.0f, 2.5f), "triangle");
    // The same violation hidden by a rotation.
    const mat3 r = glm::mat3_cast(axisAngle(vec3(1, -2, 1), 0.6f));
    expectRejected(r * diagonal(2.5f, 1.0f, 1.0f) * glm::transpose(r), "triangle");
    // Just beyond the bound (0.1% over), beyond rounding.
    expectRejected(diagonal(1.0f, 1.0f, 2.002f), "triangle");
}

TEST(ValidateInertia, RejectsNonFinite) {
    mat3 tensor = diagonal(1.0f, 1.0f, 1.0f);
    tensor[2][1] = tensor[1][2] = std::numeric_limits<float>::quiet_NaN();
    expectRejected(tensor, "finite");
    expectRejected(diagonal(1.0f, std::numeric_limits<float>::infinity(), 1.0f), "finite");
}

}  // namespace
}  // namespace impulse
