// Sphere-sphere manifolds (physics/manifold.h).
#include "physics/manifold.h"

#include "physics_test_util.h"

namespace impulse {
namespace {

using test::pose;

TEST(SphereSphere, SeparatedBeyondMarginHasNoPoints) {
    const Shape a = Shape::sphere(0.5f), b = Shape::sphere(0.25f);
    // Gap 0.25 m > margin 0.02 m.
    const Manifold m = collideSpheres(pose(a, vec3(0.0f)), pose(b, vec3(1.0f, 0.0f, 0.0f)), 0.02f);
    EXPECT_EQ(m.pointCount, 0);
}

TEST(SphereSphere, SpeculativeWithinMarginHasPositiveSeparation) {
    const Shape a = Shape::sphere(0.5f), b = Shape::sphere(0.25f);
    // Gap 0.01 m along (0, 0.6, 0.8), margin 0.02.
    const vec3 dir(0.0f, 0.6f, 0.8f);
    const Manifold m = collideSpheres(pose(a, vec3(1.0f)), pose(b, vec3(1.0f) + 0.76f * dir), 0.02f);
    ASSERT_EQ(m.pointCount, 1);
    EXPECT_NEAR(m.points[0].separation, 0.01f, 1e-6f);  // float rounding of ~1 m values
    EXPECT_TRUE(test::near(m.normal, dir, 1e-6f));
    // Midway between the surfaces: centre A + (0.5 + 0.005) n.
    EXPECT_TRUE(test::near(m.points[0].point, vec3(1.0f) + 0.505f * dir, 1e-6f));
}

TEST(SphereSphere, OverlappingNormalFromAToBAndMidpoint) {
    const Shape a = Shape::sphere(1.0f), b = Shape::sphere(0.5f);
    // Centres 1.2 apart along -x: overlap 0.3.
    const Manifold m = collideSpheres(pose(a, vec3(2.0f, 0.0f, 0.0f)), pose(b, vec3(0.8f, 0.0f, 0.0f)), 0.02f);
    ASSERT_EQ(m.pointCount, 1);
    EXPECT_TRUE(test::near(m.normal, vec3(-1.0f, 0.0f, 0.0f), 1e-6f));
    EXPECT_NEAR(m.points[0].separation, -0.3f, 1e-6f);
    // Surface of A at x = 1.0, surface of B at x = 1.3: midpoint 1.15.
    EXPECT_TRUE(test::near(m.points[0].point, vec3(1.15f, 0.0f, 0.0f), 1e-6f));
    EXPECT_NEAR(glm::length(m.normal), 1.0f, 1e-6f);
}

TEST(SphereSphere, FlippedOrderNegatesNormal) {
    const Shape a = Shape::sphere(0.4f), b = Shape::sphere(0.3f);
    const ShapePose pa = pose(a, vec3(0.1f, 0.2f, 0.3f)), pb = pose(b, vec3(0.5f, 0.6f, 0.1f));
    const Manifold ab = collide(pa, pb, 0.02f), ba = collide(pb, pa, 0.02f);
    ASSERT_EQ(ab.pointCount, 1);
    ASSERT_EQ(ba.pointCount, 1);
    EXPECT_TRUE(test::near(ab.normal, -ba.normal, 1e-6f));
    EXPECT_NEAR(ab.points[0].separation, ba.points[0].separation, 1e-6f);
    EXPECT_TRUE(test::near(ab.points[0].point, ba.points[0].point, 1e-6f));
}

TEST(SphereSphere, CoincidentCentresStillGiveAUnitNormal) {
    const Shape a = Shape::sphere(0.5f);
    const Manifold m = collideSpheres(pose(a, vec3(1.0f)), pose(a, vec3(1.0f)), 0.02f);
    ASSERT_EQ(m.pointCount, 1);
    EXPECT_NEAR(glm::length(m.normal), 1.0f, 1e-6f);
    EXPECT_NEAR(m.points[0].separation, -1.0f, 1e-6f);  // full overlap: -(r + r)
    EXPECT_TRUE(isFinite(m.points[0].point));
}

}  // namespace
}  // namespace impulse
