// Sphere-box manifolds (physics/manifold.h): face, edge and corner regions,
// centre inside the box, rotated boxes and argument order.
#include "physics/manifold.h"

#include "physics_test_util.h"

namespace impulse {
namespace {

using test::axisAngle;
using test::pose;

constexpr float kMargin = 0.02f;

TEST(SphereBox, FarApartHasNoPoints) {
    const Shape sphere = Shape::sphere(0.25f), box = Shape::box(vec3(0.5f));
    // Surface gap 0.05 > margin (face region) and 0.1 (corner region).
    EXPECT_EQ(collideSphereBox(pose(sphere, vec3(0.0f, 0.8f, 0.0f)), pose(box, vec3(0.0f)), kMargin).pointCount, 0);
    const float c = 0.5f + (0.25f + 0.1f) / std::sqrt(3.0f);
    EXPECT_EQ(collideSphereBox(pose(sphere, vec3(c)), pose(box, vec3(0.0f)), kMargin).pointCount, 0);
}

TEST(SphereBox, EachFaceOfARotatedBox) {
    const Shape sphere = Shape::sphere(0.25f), box = Shape::box(vec3(0.5f, 1.0f, 1.5f));
    const quat q = axisAngle(vec3(1.0f, 2.0f, 3.0f), 0.7f);
    const mat3 r = glm::mat3_cast(q);
    const vec3 centre(1.0f, -2.0f, 0.5f);
    for (int axis = 0; axis < 3; ++axis) {
        for (float side : {-1.0f, 1.0f}) {
            // Sphere over the face centre, offset within the face, 0.05 m penetration.
            vec3 local(0.0f);
            local[(axis + 1) % 3] = 0.1f;
            local[axis] = side * (box.halfExtents[axis] + 0.25f - 0.05f);
            const vec3 spherePos = centre + r * local;
            const Manifold m = collideSphereBox(pose(sphere, spherePos), pose(box, centre, q), kMargin);
            ASSERT_EQ(m.pointCount, 1) << axis << side;
            const vec3 outward = side * r[axis];
            // Normal from the sphere into the box: the inward face normal (rounding 1e-5).
            EXPECT_TRUE(test::near(m.normal, -outward, 1e-5f)) << axis << side;
            EXPECT_NEAR(m.points[0].separation, -0.05f, 1e-5f) << axis << side;
            // Midway between the face (at h) and the sphere's deepest point (at h - 0.05).
            vec3 expectedLocal = local;
            expectedLocal[axis] = side * (box.halfExtents[axis] - 0.025f);
            EXPECT_TRUE(test::near(m.points[0].point, centre + r * expectedLocal, 1e-5f)) << axis << side;
        }
    }
}

TEST(SphereBox, SpeculativeAboveFace) {
    const Shape sphere = Shape::sphere(0.5f), box = Shape::box(vec3(1.0f, 0.5f, 1.0f));
    const Manifold m = collideSphereBox(pose(sphere, vec3(0.2f, 1.01f, -0.3f)), pose(box, vec3(0.0f)), kMargin);
    ASSERT_EQ(m.pointCount, 1);
    EXPECT_NEAR(m.points[0].separation, 0.01f, 1e-6f);  // rounding of ~1 m values
    EXPECT_TRUE(test::near(m.normal, vec3(0.0f, -1.0f, 0.0f), 1e-6f));
    EXPECT_TRUE(test::near(m.points[0].point, vec3(0.2f, 0.505f, -0.3f), 1e-6f));
}

TEST(SphereBox, EdgeRegion) {
    const Shape sphere = Shape::sphere(0.3f), box = Shape::box(vec3(0.5f));
    // Centre diagonally beyond the edge x = y = 0.5 at distance 0.2*sqrt(2) = 0.283 < r.
    const Manifold m = collideSphereBox(pose(sphere, vec3(0.7f, 0.7f, 0.1f)), pose(box, vec3(0.0f)), kMargin);
    ASSERT_EQ(m.pointCount, 1);
    const vec3 n = -glm::normalize(vec3(1.0f, 1.0f, 0.0f));
    EXPECT_TRUE(test::near(m.normal, n, 1e-6f));
    const float distance = 0.2f * std::sqrt(2.0f);
    EXPECT_NEAR(m.points[0].separation, distance - 0.3f, 1e-6f);
    // Midway between the edge point (0.5, 0.5, 0.1) and the sphere's deepest point.
    const vec3 deepest = vec3(0.7f, 0.7f, 0.1f) + 0.3f * n;
    EXPECT_TRUE(test::near(m.points[0].point, 0.5f * (vec3(0.5f, 0.5f, 0.1f) + deepest), 1e-6f));
}

TEST(SphereBox, CornerRegionOfARotatedBox) {
    const Shape sphere = Shape::sphere(0.3f), box = Shape::box(vec3(0.5f, 0.4f, 0.3f));
    const quat q = axisAngle(vec3(0.0f, 1.0f, 0.0f), test::degrees(30.0f));
    const mat3 r = glm::mat3_cast(q);
    const vec3 centre(2.0f, 0.0f, 0.0f);
    const vec3 cornerLocal(-0.5f, 0.4f, 0.3f);
    const vec3 outLocal = glm::normalize(vec3(-1.0f, 1.0f, 1.0f));
    const vec3 spherePos = centre + r * (cornerLocal + 0.25f * outLocal);  // 0.05 m overlap
    const Manifold m = collideSphereBox(pose(sphere, spherePos), pose(box, centre, q), kMargin);
    ASSERT_EQ(m.pointCount, 1);
    EXPECT_TRUE(test::near(m.normal, -(r * outLocal), 1e-5f));  // rounding of a rotated frame
    EXPECT_NEAR(m.points[0].separation, -0.05f, 1e-5f);
    EXPECT_TRUE(test::near(m.points[0].point, centre + r * (cornerLocal - 0.025f * outLocal), 1e-5f));
}

TEST(SphereBox, CentreInsideBoxPushesOutThroughNearestFace) {
    const Shape sphere = Shape::sphere(0.2f), box = Shape::box(vec3(1.0f, 0.5f, 1.0f));
    // Nearest face is +x (0.1 away); y face 0.3 away, z face 0.8 away.
    const Manifold m = collideSphereBox(pose(sphere, vec3(0.9f, 0.2f, 0.2f)), pose(box, vec3(0.0f)), kMargin);
    ASSERT_EQ(m.pointCount, 1);
    EXPECT_TRUE(test::near(m.normal, vec3(-1.0f, 0.0f, 0.0f), 1e-6f));
    // The whole sphere must move 0.1 + 0.2 to clear the face.
    EXPECT_NEAR(m.points[0].separation, -0.3f, 1e-6f);
    // Between the face point (1, .2, .2) and the sphere's deepest point (0.7, .2, .2).
    EXPECT_TRUE(test::near(m.points[0].point, vec3(0.85f, 0.2f, 0.2f), 1e-6f));
}

TEST(SphereBox, CollideWithBoxFirstNegatesNormal) {
    const Shape sphere = Shape::sphere(0.3f), box = Shape::box(vec3(0.5f));
    const ShapePose ps = pose(sphere, vec3(0.2f, 0.75f, 0.0f));
    const ShapePose pb = pose(box, vec3(0.0f), axisAngle(vec3(0, 0, 1), 0.1f));
    const Manifold sphereFirst = collide(ps, pb, kMargin);
    const Manifold boxFirst = collide(pb, ps, kMargin);
    ASSERT_EQ(sphereFirst.pointCount, 1);
    ASSERT_EQ(boxFirst.pointCount, 1);
    EXPECT_TRUE(test::near(boxFirst.normal, -sphereFirst.normal, 1e-6f));
    EXPECT_EQ(boxFirst.points[0].separation, sphereFirst.points[0].separation);
    EXPECT_TRUE(test::near(boxFirst.points[0].point, sphereFirst.points[0].point, 1e-6f));
    // Box first: the normal points from the box up toward the sphere.
    EXPECT_GT(boxFirst.normal.y, 0.9f);
}

// Aimed at arrival (aimSphereAtBoxArrival): a ball 3 cm from the vertical edge
// x = -0.5, z = 0.5 of a unit cube, moving along +x with its centre 5 cm outside
// the face z = 0.5, touches the edge when (x + 0.5)^2 + 0.05^2 = r^2 (r 0.1):
// n = -(-0.866, 0, 0.5) from the sphere toward the box; the gap along it closes
// at that moment (|v.n| t). Either argument order gives the same contact.
TEST(SphereBox, AimedAtTheNormalOfTheMomentItTouches) {
    const Shape sphere = Shape::sphere(0.1f), box = Shape::box(vec3(0.5f));
    const float touchX = -0.5f - std::sqrt(0.01f - 0.0025f);
    const ShapePose ps = pose(sphere, vec3(touchX - 0.03f, 0.0f, 0.55f));
    const ShapePose pb = pose(box, vec3(0.0f));
    const vec3 velocity(2.0f, 0.0f, 0.0f);
    const Manifold m = collide(ps, pb, 0.05f, -velocity, 1.0f / 60.0f);  // box relative to sphere
    ASSERT_EQ(m.pointCount, 1);
    const vec3 n = -glm::normalize(vec3(touchX + 0.5f, 0.0f, 0.05f));
    EXPECT_TRUE(test::near(m.normal, n, 1e-4f));
    EXPECT_NEAR(m.points[0].separation, 0.03f * n.x, 1e-5f);  // 3 cm along x is 0.03 n.x along n
    const Manifold flippedOrder = collide(pb, ps, 0.05f, velocity, 1.0f / 60.0f);
    ASSERT_EQ(flippedOrder.pointCount, 1);
    EXPECT_TRUE(test::near(flippedOrder.normal, -m.normal, 1e-6f));
    EXPECT_EQ(flippedOrder.points[0].separation, m.points[0].separation);
}

// Left as detected: moving away, rolling along a face (closing too slowly to
// touch within a pass's travel), or meeting later than a pass's travel.
TEST(SphereBox, NotAimedWhenItWillNotTouchWithinThePass) {
    const Shape sphere = Shape::sphere(0.1f), box = Shape::box(vec3(0.5f));
    const ShapePose pb = pose(box, vec3(0.0f));
    const ShapePose above = pose(sphere, vec3(0.2f, 0.6002f, 0.0f));
    const Manifold detected = collideSphereBox(above, pb, 0.05f);
    ASSERT_EQ(detected.pointCount, 1);
    const auto aimed = [&](const vec3& sphereVelocity, float dt) {
        Manifold m = detected;
        aimSphereAtBoxArrival(m, above, pb, sphereVelocity, dt);
        return m;
    };
    for (const Manifold& m : {aimed(vec3(3.0f, 0.1f, 0.0f), 1.0f / 60.0f), aimed(vec3(3.0f, -0.001f, 0.0f), 1.0f / 60.0f),
                              aimed(vec3(0.0f, -0.001f, 0.0f), 1.0f / 60.0f)}) {
        EXPECT_EQ(m.normal, detected.normal);
        EXPECT_EQ(m.points[0].separation, detected.points[0].separation);
    }
    // Closing 0.2 mm at 1 m/s: aimed, and straight down the face normal it changes nothing but rounding.
    const Manifold falling = aimed(vec3(0.0f, -1.0f, 0.0f), 1.0f / 60.0f);
    EXPECT_TRUE(test::near(falling.normal, detected.normal, 1e-6f));
    EXPECT_NEAR(falling.points[0].separation, detected.points[0].separation, 1e-6f);
}

}  // namespace
}  // namespace impulse
