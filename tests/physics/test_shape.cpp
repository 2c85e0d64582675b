// Mass properties and bounding volumes of shapes (physics/shape.h).
#include "physics/shape.h"

#include "physics_test_util.h"

#include <algorithm>
#include <random>

namespace impulse {
namespace {

using test::axisAngle;

TEST(ShapeInertia, SphereIsTwoFifthsMR2) {
    const mat3 inertia = shapeInertia(Shape::sphere(0.5f), 2.0f);
    // 2/5 * 2 * 0.25 = 0.2; float rounding only (1e-6).
    for (int c = 0; c < 3; ++c) {
        for (int r = 0; r < 3; ++r) EXPECT_NEAR(inertia[c][r], c == r ? 0.2f : 0.0f, 1e-6f) << c << "," << r;
    }
}

TEST(ShapeInertia, BoxIsMOverThreeSumOfOtherHalfExtentsSquared) {
    // Half-extents a=1, b=0.5, c=0.25, m=3: Ixx = (0.25+0.0625), Iyy = (1+0.0625), Izz = (1+0.25).
    const mat3 inertia = shapeInertia(Shape::box(vec3(1.0f, 0.5f, 0.25f)), 3.0f);
    EXPECT_NEAR(inertia[0][0], 0.3125f, 1e-6f);  // rounding only
    EXPECT_NEAR(inertia[1][1], 1.0625f, 1e-6f);
    EXPECT_NEAR(inertia[2][2], 1.25f, 1e-6f);
    EXPECT_EQ(inertia[0][1], 0.0f);
    EXPECT_EQ(inertia[0][2], 0.0f);
    EXPECT_EQ(inertia[1][2], 0.0f);
    // The textbook form with full side lengths: m/12 (w^2 + d^2) for a 2 x 1 x 0.5 box.
    EXPECT_NEAR(inertia[2][2], 3.0f / 12.0f * (4.0f + 1.0f), 1e-6f);
}

TEST(ShapeInertia, CubeIsIsotropicAndScalesWithMass) {
    const mat3 one = shapeInertia(Shape::box(vec3(0.5f)), 1.0f);
    const mat3 six = shapeInertia(Shape::box(vec3(0.5f)), 6.0f);
    EXPECT_NEAR(one[0][0], 1.0f / 6.0f, 1e-7f);  // m s^2 / 6 with side 1
    EXPECT_NEAR(six[1][1], 1.0f, 1e-6f);
    EXPECT_EQ(one[0][0], one[1][1]);
    EXPECT_EQ(one[1][1], one[2][2]);
}

// Bounds of the 8 corners, computed the slow way.
Aabb bruteForceBoxAabb(const vec3& h, const vec3& position, const mat3& rotation, float margin) {
    Aabb box{vec3(INFINITY), vec3(-INFINITY)};
    for (int i = 0; i < 8; ++i) {
        const vec3 local((i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z);
        const vec3 corner = position + rotation * local;
        box.lower = glm::min(box.lower, corner);
        box.upper = glm::max(box.upper, corner);
    }
    box.lower -= vec3(margin);
    box.upper += vec3(margin);
    return box;
}

TEST(ShapeAabb, RotatedBoxMatchesCornerBounds) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    std::uniform_real_distribution<float> size(0.05f, 3.0f);
    for (int trial = 0; trial < 200; ++trial) {
        const vec3 h(size(rng), size(rng), size(rng));
        const vec3 position(10.0f * unit(rng), 10.0f * unit(rng), 10.0f * unit(rng));
        const vec3 axis(unit(rng), unit(rng), unit(rng) + 1.5f);
        const mat3 rotation = glm::mat3_cast(axisAngle(axis, 3.0f * unit(rng)));
        const float margin = trial % 2 ? 0.01f : 0.0f;
        const Aabb got = shapeAabb(Shape::box(h), position, rotation, margin);
        const Aabb want = bruteForceBoxAabb(h, position, rotation, margin);
        // The formula and the corners agree to float rounding of ~10 m coordinates (1e-5 m).
        EXPECT_TRUE(test::near(got.lower, want.lower, 1e-5f)) << "trial " << trial;
        EXPECT_TRUE(test::near(got.upper, want.upper, 1e-5f)) << "trial " << trial;
    }
}

TEST(ShapeAabb, BoxRotated45DegreesAboutY) {
    // A unit cube turned 45 deg about y spans +-sqrt(2)/2 in x and z, +-0.5 in y.
    const mat3 rotation = glm::mat3_cast(axisAngle(vec3(0, 1, 0), test::degrees(45.0f)));
    const Aabb box = shapeAabb(Shape::box(vec3(0.5f)), vec3(1.0f, 2.0f, 3.0f), rotation, 0.0f);
    const float s = 0.5f * std::sqrt(2.0f);
    EXPECT_TRUE(test::near(box.lower, vec3(1.0f - s, 1.5f, 3.0f - s), 1e-6f));  // rounding only
    EXPECT_TRUE(test::near(box.upper, vec3(1.0f + s, 2.5f, 3.0f + s), 1e-6f));
}

TEST(ShapeAabb, SphereIgnoresRotationAndAddsMargin) {
    const mat3 rotation = glm::mat3_cast(axisAngle(vec3(1, 2, 3), 1.0f));
    const Aabb box = shapeAabb(Shape::sphere(0.75f), vec3(1.0f, -2.0f, 0.5f), rotation, 0.25f);
    EXPECT_TRUE(test::near(box.lower, vec3(0.0f, -3.0f, -0.5f), 1e-6f));  // exact in binary, tol for safety
    EXPECT_TRUE(test::near(box.upper, vec3(2.0f, -1.0f, 1.5f), 1e-6f));
}

TEST(ShapeAabb, OverlapIsInclusiveAndPerAxis) {
    const Aabb a{vec3(0.0f), vec3(1.0f)};
    EXPECT_TRUE(a.overlaps(Aabb{vec3(1.0f, 0.0f, 0.0f), vec3(2.0f, 1.0f, 1.0f)}));  // touching counts
    EXPECT_FALSE(a.overlaps(Aabb{vec3(1.01f, 0.0f, 0.0f), vec3(2.0f, 1.0f, 1.0f)}));
    EXPECT_FALSE(a.overlaps(Aabb{vec3(0.0f, 0.0f, 1.5f), vec3(1.0f, 1.0f, 2.0f)}));  // z apart only
}

TEST(BoundingRadius, SphereAndBox) {
    EXPECT_FLOAT_EQ(boundingRadius(Shape::sphere(0.3f)), 0.3f);
    // |(1, 2, 2)| = 3 exactly.
    EXPECT_NEAR(boundingRadius(Shape::box(vec3(1.0f, 2.0f, 2.0f))), 3.0f, 1e-6f);
    // Every corner of a rotated box stays within the radius (rounding 1e-5).
    const vec3 h(0.3f, 0.7f, 1.1f);
    const float r = boundingRadius(Shape::box(h));
    const Aabb box = shapeAabb(Shape::box(h), vec3(0.0f), glm::mat3_cast(axisAngle(vec3(1, 1, 0), 0.7f)), 0.0f);
    EXPECT_LE(glm::length(box.upper), std::sqrt(3.0f) * r + 1e-5f);
    EXPECT_LE(std::max({box.upper.x, box.upper.y, box.upper.z}), r + 1e-5f);
}

}  // namespace
}  // namespace impulse
