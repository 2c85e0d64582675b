// Box-box manifolds (physics/manifold.h): SAT face and edge contacts, clipping,
// reduction to four points, reference face choice, argument order and feature ids.
#include "physics/manifold.h"

#include "physics_test_util.h"

#include <algorithm>
#include <random>
#include <vector>

namespace impulse {
namespace {

using test::axisAngle;
using test::pose;

constexpr float kMargin = 0.02f;
const float kHalfSqrt2 = 0.5f * std::sqrt(2.0f);

// True if some manifold point is within tol of `expected` (element-wise).
::testing::AssertionResult hasPoint(const Manifold& m, const vec3& expected, float tol) {
    for (int i = 0; i < m.pointCount; ++i) {
        if (test::near(m.points[i].point, expected, tol)) return ::testing::AssertionSuccess();
    }
    auto failure = ::testing::AssertionFailure();
    failure << "no point near (" << expected.x << ", " << expected.y << ", " << expected.z << "); points:";
    for (int i = 0; i < m.pointCount; ++i) {
        failure << " (" << m.points[i].point.x << ", " << m.points[i].point.y << ", " << m.points[i].point.z << ")";
    }
    return failure;
}

std::vector<uint32_t> sortedIds(const Manifold& m) {
    std::vector<uint32_t> ids;
    for (int i = 0; i < m.pointCount; ++i) ids.push_back(m.points[i].id);
    std::sort(ids.begin(), ids.end());
    return ids;
}

void expectDistinctIds(const Manifold& m) {
    const std::vector<uint32_t> ids = sortedIds(m);
    EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end()) << "duplicate feature ids";
}

TEST(BoxBox, SeparatedBeyondMarginHasNoPoints) {
    const Shape a = Shape::box(vec3(0.5f)), b = Shape::box(vec3(0.5f));
    EXPECT_EQ(collideBoxes(pose(a, vec3(0.0f)), pose(b, vec3(0.0f, 1.05f, 0.0f)), kMargin).pointCount, 0);
    // Separated along an edge axis only (all face axes overlap): two cubes whose edges cross 0.05 apart.
    const quat qa = axisAngle(vec3(0, 0, 1), test::degrees(45.0f));
    const quat qb = axisAngle(vec3(1, 0, 0), test::degrees(45.0f));
    EXPECT_EQ(collideBoxes(pose(a, vec3(0.0f), qa), pose(b, vec3(0.0f, 4.0f * kHalfSqrt2 * 0.5f + 0.05f, 0.0f), qb),
                           kMargin)
                  .pointCount,
              0);
}

TEST(BoxBox, SpeculativeFlatContactHasPositiveSeparation) {
    const Shape ground = Shape::box(vec3(2.0f, 0.5f, 2.0f)), box = Shape::box(vec3(0.5f));
    const Manifold m = collideBoxes(pose(ground, vec3(0.0f)), pose(box, vec3(0.0f, 1.01f, 0.0f)), kMargin);
    ASSERT_EQ(m.pointCount, 4);
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(m.points[i].separation, 0.01f, 1e-6f);  // rounding at ~1 m
}

TEST(BoxBox, RestingFlatOnLargerBox) {
    const Shape ground = Shape::box(vec3(2.0f, 0.5f, 2.0f)), box = Shape::box(vec3(0.5f));
    // 0.01 m penetration; box centred off-axis at (0.3, -0.2) in xz.
    const Manifold m = collideBoxes(pose(ground, vec3(0.0f)), pose(box, vec3(0.3f, 0.99f, -0.2f)), kMargin);
    ASSERT_EQ(m.pointCount, 4);
    EXPECT_TRUE(test::near(m.normal, vec3(0.0f, 1.0f, 0.0f), 1e-6f));
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(m.points[i].separation, -0.01f, 1e-6f);
    // Points at the box's bottom corners, midway between the surfaces (y = 0.495); rounding 1e-6.
    for (float x : {-0.2f, 0.8f}) {
        for (float z : {-0.7f, 0.3f}) EXPECT_TRUE(hasPoint(m, vec3(x, 0.495f, z), 1e-6f));
    }
    expectDistinctIds(m);
}

TEST(BoxBox, SmallBoxAsAOnBigBoxGivesDownwardNormal) {
    // Same contact with the arguments the other way: the small box's face is the reference.
    const Shape ground = Shape::box(vec3(2.0f, 0.5f, 2.0f)), box = Shape::box(vec3(0.5f));
    const Manifold m = collideBoxes(pose(box, vec3(0.3f, 0.99f, -0.2f)), pose(ground, vec3(0.0f)), kMargin);
    ASSERT_EQ(m.pointCount, 4);
    EXPECT_TRUE(test::near(m.normal, vec3(0.0f, -1.0f, 0.0f), 1e-6f));
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(m.points[i].separation, -0.01f, 1e-6f);
    for (float x : {-0.2f, 0.8f}) {
        for (float z : {-0.7f, 0.3f}) EXPECT_TRUE(hasPoint(m, vec3(x, 0.495f, z), 1e-6f));
    }
}

TEST(BoxBox, BigBoxOnSmallBoxClipsToTheSmallFace) {
    // A wide plank resting on a small post: the contact is the post's top face.
    const Shape post = Shape::box(vec3(0.25f)), plank = Shape::box(vec3(2.0f, 0.1f, 1.0f));
    const Manifold m = collideBoxes(pose(post, vec3(0.0f)), pose(plank, vec3(0.5f, 0.34f, 0.2f)), kMargin);
    ASSERT_EQ(m.pointCount, 4);
    EXPECT_TRUE(test::near(m.normal, vec3(0.0f, 1.0f, 0.0f), 1e-6f));
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(m.points[i].separation, -0.01f, 1e-6f);
    for (float x : {-0.25f, 0.25f}) {
        for (float z : {-0.25f, 0.25f}) EXPECT_TRUE(hasPoint(m, vec3(x, 0.245f, z), 1e-6f));
    }
}

TEST(BoxBox, OverhangingBoxHasPointsAtTheOverlapCorners) {
    const Shape ground = Shape::box(vec3(2.0f, 0.5f, 2.0f)), box = Shape::box(vec3(0.5f));
    // The box hangs 0.3 m over the +x edge: the overlap spans x in [1.3, 2.0].
    const Manifold m = collideBoxes(pose(ground, vec3(0.0f)), pose(box, vec3(1.8f, 0.99f, 0.0f)), kMargin);
    ASSERT_EQ(m.pointCount, 4);
    EXPECT_TRUE(test::near(m.normal, vec3(0.0f, 1.0f, 0.0f), 1e-6f));
    for (float x : {1.3f, 2.0f}) {
        for (float z : {-0.5f, 0.5f}) EXPECT_TRUE(hasPoint(m, vec3(x, 0.495f, z), 1e-5f));  // clip rounding
    }
}

TEST(BoxBox, BoxRotated45AboutYOnLargerBox) {
    const Shape ground = Shape::box(vec3(2.0f, 0.5f, 2.0f)), box = Shape::box(vec3(0.5f));
    const quat q = axisAngle(vec3(0, 1, 0), test::degrees(45.0f));
    const Manifold m = collideBoxes(pose(ground, vec3(0.0f)), pose(box, vec3(0.0f, 0.99f, 0.0f), q), kMargin);
    ASSERT_EQ(m.pointCount, 4);
    EXPECT_TRUE(test::near(m.normal, vec3(0.0f, 1.0f, 0.0f), 1e-6f));
    // The rotated bottom face has its corners on the x and z axes at sqrt(2)/2 (rounding 1e-5).
    EXPECT_TRUE(hasPoint(m, vec3(kHalfSqrt2, 0.495f, 0.0f), 1e-5f));
    EXPECT_TRUE(hasPoint(m, vec3(-kHalfSqrt2, 0.495f, 0.0f), 1e-5f));
    EXPECT_TRUE(hasPoint(m, vec3(0.0f, 0.495f, kHalfSqrt2), 1e-5f));
    EXPECT_TRUE(hasPoint(m, vec3(0.0f, 0.495f, -kHalfSqrt2), 1e-5f));
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(m.points[i].separation, -0.01f, 1e-5f);
}

// Independent Sutherland-Hodgman clip of a 3D polygon against |x| <= 0.5, |z| <= 0.5.
std::vector<vec3> clipToUnitSquareXZ(std::vector<vec3> polygon) {
    for (int axis : {0, 2}) {
        for (float sign : {1.0f, -1.0f}) {
            std::vector<vec3> out;
            for (size_t i = 0; i < polygon.size(); ++i) {
                const vec3 p = polygon[i], q = polygon[(i + 1) % polygon.size()];
                const float dp = sign * p[axis] - 0.5f, dq = sign * q[axis] - 0.5f;
                if (dp <= 0.0f) out.push_back(p);
                if ((dp <= 0.0f) != (dq <= 0.0f)) out.push_back(p + (dp / (dp - dq)) * (q - p));
            }
            polygon = out;
        }
    }
    return polygon;
}

float quadArea(const vec3 p[4]) {
    // Area of the convex hull of 4 coplanar points (xz): the largest of the three orderings.
    const int orders[3][4] = {{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 1, 3, 2}};
    float best = 0.0f;
    for (const auto& o : orders) {
        float twice = 0.0f;
        for (int i = 0; i < 4; ++i) {
            const vec3& a = p[o[i]];
            const vec3& b = p[o[(i + 1) % 4]];
            twice += a.x * b.z - b.x * a.z;
        }
        best = std::max(best, 0.5f * std::fabs(twice));
    }
    return best;
}

TEST(BoxBox, EightClippedPointsReduceToFourKeepingTheDeepest) {
    // Two unit cubes, the top one turned 45 deg about y (the overlap is an octagon)
    // and tilted 0.02 rad so that one side sits deeper than the other.
    const Shape shape = Shape::box(vec3(0.5f));
    const quat q = axisAngle(vec3(0, 1, 0), test::degrees(45.0f)) * axisAngle(vec3(1, 0, 0), 0.02f);
    const vec3 position(0.0f, 0.99f, 0.0f);
    const Manifold m = collideBoxes(pose(shape, vec3(0.0f)), pose(shape, position, q), kMargin);
    ASSERT_EQ(m.pointCount, 4);
    ASSERT_TRUE(test::near(m.normal, vec3(0.0f, 1.0f, 0.0f), 1e-6f)) << "expected the lower box's top face as reference";

    // Candidates: the top box's bottom face clipped to the lower box's top face.
    const mat3 r = glm::mat3_cast(q);
    const vec3 centre = position - 0.5f * r[1];
    const vec3 u = 0.5f * r[2], v = 0.5f * r[0];
    const std::vector<vec3> clipped = clipToUnitSquareXZ({centre + u + v, centre - u + v, centre - u - v, centre + u - v});
    ASSERT_EQ(clipped.size(), 8u);
    float deepest = INFINITY;
    for (const vec3& p : clipped) deepest = std::min(deepest, p.y - 0.5f);

    float mDeepest = INFINITY;
    for (int i = 0; i < 4; ++i) {
        const ManifoldPoint& point = m.points[i];
        mDeepest = std::min(mDeepest, point.separation);
        // Every kept point is one of the 8 candidates (midway point; clip rounding 1e-5).
        bool found = false;
        for (const vec3& p : clipped) {
            const float s = p.y - 0.5f;
            if (test::near(point.point, p - 0.5f * s * vec3(0, 1, 0), 1e-5f) && std::fabs(point.separation - s) < 1e-5f) {
                found = true;
            }
        }
        EXPECT_TRUE(found) << "point " << i << " is not a clipped vertex";
        // Within the overlap of both faces.
        EXPECT_LE(std::fabs(point.point.x), 0.5f + 1e-5f);
        EXPECT_LE(std::fabs(point.point.z), 0.5f + 1e-5f);
    }
    EXPECT_NEAR(mDeepest, deepest, 1e-6f);  // the deepest candidate is kept (rounding only)
    // The four keep most of the octagon (area 0.828): at least 0.5 m^2.
    vec3 kept[4];
    for (int i = 0; i < 4; ++i) kept[i] = m.points[i].point;
    EXPECT_GE(quadArea(kept), 0.5f);
    expectDistinctIds(m);
}

TEST(BoxBox, TiltedBoxCornerUsesTheGroundFaceAsReference) {
    // A box balanced on one corner: the ground's face gives the least penetration,
    // so the normal is exactly the ground normal and there is one point.
    const Shape ground = Shape::box(vec3(5.0f, 0.5f, 5.0f)), box = Shape::box(vec3(0.4f, 0.3f, 0.2f));
    const quat q = axisAngle(vec3(1.0f, 0.2f, 1.0f), 0.7f);
    const mat3 r = glm::mat3_cast(q);
    vec3 lowest(INFINITY), secondLowest(INFINITY);
    for (int i = 0; i < 8; ++i) {
        const vec3 local((i & 1) ? 0.4f : -0.4f, (i & 2) ? 0.3f : -0.3f, (i & 4) ? 0.2f : -0.2f);
        const vec3 corner = r * local;
        if (corner.y < lowest.y) {
            secondLowest = lowest;
            lowest = corner;
        } else if (corner.y < secondLowest.y) {
            secondLowest = corner;
        }
    }
    const vec3 position(0.2f, 0.5f - 0.01f - lowest.y, 0.1f);  // lowest corner 0.01 m deep
    ASSERT_GT(position.y + secondLowest.y - 0.5f, kMargin) << "only one corner should be in range";
    const Manifold m = collideBoxes(pose(box, position, q), pose(ground, vec3(0.0f)), kMargin);
    ASSERT_EQ(m.pointCount, 1);
    EXPECT_TRUE(test::near(m.normal, vec3(0.0f, -1.0f, 0.0f), 1e-6f));
    EXPECT_NEAR(m.points[0].separation, -0.01f, 1e-5f);  // rounding of the rotated corner
    EXPECT_TRUE(test::near(m.points[0].point, position + lowest + vec3(0.0f, 0.005f, 0.0f), 1e-5f));
}

TEST(BoxBox, EdgeEdgeCrossingGivesOnePointAlongTheEdgeCross) {
    // A: cube rolled 45 deg about z, top edge along z at y = sqrt(2)/2.
    // B: cube rolled 45 deg about x, bottom edge along x; 0.01 m interpenetration.
    const Shape shape = Shape::box(vec3(0.5f));
    const quat qa = axisAngle(vec3(0, 0, 1), test::degrees(45.0f));
    const quat qb = axisAngle(vec3(1, 0, 0), test::degrees(45.0f));
    const vec3 pb(0.1f, 2.0f * kHalfSqrt2 - 0.01f, 0.2f);
    const Manifold m = collideBoxes(pose(shape, vec3(0.0f), qa), pose(shape, pb, qb), kMargin);
    ASSERT_EQ(m.pointCount, 1);
    // Edge directions z (A) and x (B): normal = z x x = +y, pointing from A to B (rounding 1e-5).
    const vec3 expectedNormal = glm::normalize(glm::cross(vec3(0, 0, 1), vec3(1, 0, 0)));
    EXPECT_TRUE(test::near(m.normal, expectedNormal, 1e-5f));
    EXPECT_NEAR(m.points[0].separation, -0.01f, 1e-5f);
    // The edges cross above x = 0 (A's edge) and z = 0.2 (B's edge), midway in depth.
    EXPECT_TRUE(test::near(m.points[0].point, vec3(0.0f, kHalfSqrt2 - 0.005f, 0.2f), 1e-5f));

    const Manifold flippedOrder = collide(pose(shape, pb, qb), pose(shape, vec3(0.0f), qa), kMargin);
    ASSERT_EQ(flippedOrder.pointCount, 1);
    EXPECT_TRUE(test::near(flippedOrder.normal, -m.normal, 1e-6f));
    EXPECT_NEAR(flippedOrder.points[0].separation, m.points[0].separation, 1e-6f);
    EXPECT_TRUE(test::near(flippedOrder.points[0].point, m.points[0].point, 1e-6f));
}

TEST(BoxBox, FlippedArgumentOrderNegatesTheNormal) {
    const Shape ground = Shape::box(vec3(2.0f, 0.5f, 2.0f)), box = Shape::box(vec3(0.5f, 0.3f, 0.4f));
    const ShapePose a = pose(ground, vec3(0.0f));
    const ShapePose b = pose(box, vec3(0.4f, 0.795f, 0.1f), axisAngle(vec3(0, 1, 0), 0.3f));
    const Manifold ab = collide(a, b, kMargin), ba = collide(b, a, kMargin);
    ASSERT_EQ(ab.pointCount, 4);
    ASSERT_EQ(ba.pointCount, 4);
    EXPECT_TRUE(test::near(ab.normal, -ba.normal, 1e-6f));
    for (int i = 0; i < 4; ++i) {
        EXPECT_NEAR(ab.points[i].separation, -0.005f, 1e-5f);
        EXPECT_NEAR(ba.points[i].separation, -0.005f, 1e-5f);
        EXPECT_TRUE(hasPoint(ba, ab.points[i].point, 1e-5f));  // same physical points
    }
}

TEST(BoxBox, FeatureIdsStableUnderTinyMotion) {
    const Shape ground = Shape::box(vec3(2.0f, 0.5f, 2.0f)), box = Shape::box(vec3(0.5f));
    const Shape cube = Shape::box(vec3(0.5f));
    struct Case {
        const char* name;
        const Shape* lower;
        quat q;
    };
    const Case cases[] = {
        {"flat", &ground, quat(1, 0, 0, 0)},
        {"yawed on large box", &ground, axisAngle(vec3(0, 1, 0), test::degrees(45.0f))},
        {"octagon reduced", &cube, axisAngle(vec3(0, 1, 0), test::degrees(45.0f)) * axisAngle(vec3(1, 0, 0), 0.02f)},
    };
    for (const Case& c : cases) {
        const vec3 position(0.1f, 0.99f, -0.05f);
        const Manifold before = collideBoxes(pose(*c.lower, vec3(0.0f)), pose(box, position, c.q), kMargin);
        const Manifold after = collideBoxes(pose(*c.lower, vec3(0.0f)),
                                            pose(box, position + vec3(1e-4f, -1e-4f, 1e-4f), c.q), kMargin);
        ASSERT_EQ(before.pointCount, 4) << c.name;
        ASSERT_EQ(after.pointCount, 4) << c.name;
        EXPECT_EQ(sortedIds(before), sortedIds(after)) << c.name;
        // Each id still names (nearly) the same point: moved by ~1e-4, allow 1e-3.
        for (int i = 0; i < 4; ++i) {
            for (int k = 0; k < 4; ++k) {
                if (before.points[i].id == after.points[k].id) {
                    EXPECT_TRUE(test::near(before.points[i].point, after.points[k].point, 1e-3f)) << c.name;
                }
            }
        }
        expectDistinctIds(before);
    }
}

TEST(BoxBox, ReferenceFaceDoesNotFlipUnderTinyTilts) {
    // Two equal cubes, the top one shifted in x and rocking by +-1 mrad about z: B's
    // face axis then beats A's by up to 0.3 mm, less than the hysteresis, so A's top
    // face stays the reference: the normal is exactly +y and the ids do not change.
    const Shape cube = Shape::box(vec3(0.5f));
    std::vector<uint32_t> firstIds;
    for (float tilt : {1e-3f, -1e-3f, 2e-4f, -2e-4f, 0.0f}) {
        const Manifold m = collideBoxes(pose(cube, vec3(0.0f)),
                                        pose(cube, vec3(0.3f, 0.99f, 0.0f), axisAngle(vec3(0, 0, 1), tilt)), kMargin);
        ASSERT_EQ(m.pointCount, 4) << tilt;
        EXPECT_TRUE(test::near(m.normal, vec3(0.0f, 1.0f, 0.0f), 1e-7f)) << "tilt " << tilt;  // exactly A's axis
        if (firstIds.empty()) firstIds = sortedIds(m);
        EXPECT_EQ(sortedIds(m), firstIds) << "tilt " << tilt;
    }
}

TEST(BoxBox, EdgeContactIdIsStableAndDiffersFromFaceIds) {
    const Shape shape = Shape::box(vec3(0.5f));
    const quat qa = axisAngle(vec3(0, 0, 1), test::degrees(45.0f));
    const quat qb = axisAngle(vec3(1, 0, 0), test::degrees(45.0f));
    const vec3 pb(0.1f, 2.0f * kHalfSqrt2 - 0.01f, 0.2f);
    const Manifold m1 = collideBoxes(pose(shape, vec3(0.0f), qa), pose(shape, pb, qb), kMargin);
    const Manifold m2 =
        collideBoxes(pose(shape, vec3(0.0f), qa), pose(shape, pb + vec3(1e-4f, -1e-4f, 1e-4f), qb), kMargin);
    ASSERT_EQ(m1.pointCount, 1);
    ASSERT_EQ(m2.pointCount, 1);
    EXPECT_EQ(m1.points[0].id, m2.points[0].id);
}

}  // namespace
}  // namespace impulse

namespace impulse {
namespace {

// Distance from p to the solid box (0 inside).
float distanceToBox(const ShapePose& box, const vec3& p) {
    const vec3 local = glm::transpose(box.rotation) * (p - box.position);
    const vec3 outside = glm::max(glm::abs(local) - box.shape->halfExtents, vec3(0.0f));
    return glm::length(outside);
}

TEST(BoxBox, RandomPosesSatisfyManifoldInvariants) {
    // Random pairs, half of them with exactly aligned or 90-degree-turned frames and
    // grid positions (coplanar faces, coincident edges): unit normal, at most 4
    // points, separation <= margin, each point's two surface points on their boxes,
    // flipped order negates the normal, and a box whose centre is inside the other
    // always gets a contact.
    std::mt19937 rng(2024);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    std::uniform_real_distribution<float> size(0.1f, 1.0f);
    std::uniform_int_distribution<int> quarter(0, 3);
    int contacts = 0, edgeLike = 0;
    for (int trial = 0; trial < 4000; ++trial) {
        const bool aligned = trial % 2 == 0;
        const Shape a = Shape::box(aligned ? vec3(0.5f) : vec3(size(rng), size(rng), size(rng)));
        const Shape b = Shape::box(aligned ? vec3(0.25f * (1 + quarter(rng)), 0.5f, 0.25f) : vec3(size(rng), size(rng), size(rng)));
        quat qa, qb;
        vec3 pb;
        if (aligned) {
            qa = axisAngle(vec3(0, 1, 0), 0.5f * glm::pi<float>() * quarter(rng));
            qb = axisAngle(vec3(1, 0, 0), 0.5f * glm::pi<float>() * quarter(rng)) *
                 axisAngle(vec3(0, 0, 1), 0.5f * glm::pi<float>() * quarter(rng));
            pb = 0.25f * vec3(float(quarter(rng)) - 1.5f, float(quarter(rng)) + 1.0f, float(quarter(rng)) - 1.5f);
        } else {
            qa = axisAngle(vec3(unit(rng), unit(rng), unit(rng) + 2.0f), 3.0f * unit(rng));
            qb = axisAngle(vec3(unit(rng) + 2.0f, unit(rng), unit(rng)), 3.0f * unit(rng));
            pb = 1.5f * vec3(unit(rng), unit(rng), unit(rng));
        }
        const ShapePose pa = pose(a, vec3(0.0f), qa), pbPose = pose(b, pb, qb);
        const Manifold m = collideBoxes(pa, pbPose, kMargin);
        ASSERT_GE(m.pointCount, 0);
        ASSERT_LE(m.pointCount, kMaxManifoldPoints);
        const bool centreInside = distanceToBox(pa, pb) == 0.0f || distanceToBox(pbPose, vec3(0.0f)) == 0.0f;
        if (centreInside) {
            EXPECT_GT(m.pointCount, 0) << "trial " << trial << ": overlapping boxes without contact";
        }
        if (m.pointCount == 0) continue;
        ++contacts;
        if (m.pointCount == 1) ++edgeLike;
        EXPECT_NEAR(glm::length(m.normal), 1.0f, 1e-5f) << "trial " << trial;
        for (int i = 0; i < m.pointCount; ++i) {
            const ManifoldPoint& p = m.points[i];
            ASSERT_TRUE(isFinite(p.point)) << "trial " << trial;
            EXPECT_LE(p.separation, kMargin + 1e-6f) << "trial " << trial;
            // Surface points recovered as the solver does; on (or in) their box within 2 mm
            // (edge points are clamped closest points, face points exact up to rounding).
            const vec3 onA = p.point - 0.5f * p.separation * m.normal;
            const vec3 onB = p.point + 0.5f * p.separation * m.normal;
            EXPECT_LE(distanceToBox(pa, onA), 2e-3f) << "trial " << trial << " point " << i;
            EXPECT_LE(distanceToBox(pbPose, onB), 2e-3f) << "trial " << trial << " point " << i;
        }
        const Manifold flippedOrder = collideBoxes(pbPose, pa, kMargin);
        ASSERT_GT(flippedOrder.pointCount, 0) << "trial " << trial;
        // Same contact seen from B: the normal flips. Aligned frames can tie two face
        // axes exactly (either is right), so there compare the deepest separation instead.
        auto deepest = [](const Manifold& x) {
            float d = INFINITY;
            for (int i = 0; i < x.pointCount; ++i) d = std::min(d, x.points[i].separation);
            return d;
        };
        if (aligned) {
            EXPECT_NEAR(deepest(flippedOrder), deepest(m), 1e-5f) << "trial " << trial;  // rounding
        } else if (flippedOrder.pointCount == m.pointCount) {
            EXPECT_LT(glm::length(flippedOrder.normal + m.normal), 1e-3f) << "trial " << trial;  // rounding
        }
    }
    EXPECT_GT(contacts, 1000);  // the generator produced plenty of contacts
    EXPECT_GT(edgeLike, 10);
}

// ---- manifold reuse (ManifoldCache)

struct BoxPair {
    Shape shape = Shape::box(vec3(0.5f, 0.3f, 0.4f));
    vec3 positionA{0.1f, 0.2f, -0.3f}, positionB;
    quat orientationA = axisAngle(vec3(0.2f, 1.0f, 0.1f), 0.4f), orientationB;
    mat3 rotationA, rotationB;
    // B tilted a little and resting on A's top face, 3 mm into it.
    BoxPair() {
        orientationB = orientationA * axisAngle(vec3(1.0f, 0.0f, 0.3f), 0.05f);
        positionB = positionA + rotate(orientationA, vec3(0.05f, 0.597f, 0.02f));
        update();
    }
    void update() {
        rotationA = test::rotationOf(orientationA);
        rotationB = test::rotationOf(orientationB);
    }
    BodyPose poseA() const { return {positionA, orientationA, &rotationA}; }
    BodyPose poseB() const { return {positionB, orientationB, &rotationB}; }
    Manifold collideNow() const {
        return collideBoxes(ShapePose{&shape, positionA, rotationA}, ShapePose{&shape, positionB, rotationB}, kMargin);
    }
};

// Moving both boxes together as one rigid body (4 m and 100 deg) changes no
// relative pose: the cached points, carried along, match a fresh narrowphase
// run to float rounding (1e-5 m, ids identical).
TEST(ManifoldCache, ReusedPointsFollowBothBodiesRigidly) {
    BoxPair pair;
    const Manifold original = pair.collideNow();
    ASSERT_GE(original.pointCount, 3);
    const ManifoldCache cache = cacheManifold(original, pair.poseA(), pair.poseB(), kMargin);
    const quat turn = axisAngle(vec3(0.3f, -1.0f, 0.5f), test::degrees(100.0f));
    const vec3 shift(4.0f, -1.0f, 2.0f);
    pair.positionA = shift + rotate(turn, pair.positionA);
    pair.positionB = shift + rotate(turn, pair.positionB);
    pair.orientationA = turn * pair.orientationA;
    pair.orientationB = turn * pair.orientationB;
    pair.update();
    Manifold reused;
    ASSERT_TRUE(reuseManifold(cache, pair.poseA(), pair.poseB(), kMargin, reused));
    const Manifold fresh = pair.collideNow();
    ASSERT_EQ(reused.pointCount, fresh.pointCount);
    EXPECT_TRUE(test::near(reused.normal, fresh.normal, 1e-5f));
    EXPECT_EQ(sortedIds(reused), sortedIds(fresh));
    for (int i = 0; i < fresh.pointCount; ++i) {
        EXPECT_TRUE(hasPoint(reused, fresh.points[i].point, 1e-5f));
        EXPECT_NEAR(reused.points[i].separation, original.points[i].separation, 1e-5f);
    }
}

// A small relative move keeps the cache, with separations following the move
// along the normal exactly (0.5 mm up: every separation + 0.5 mm, 1e-6 m).
TEST(ManifoldCache, SmallRelativeMoveShiftsSeparations) {
    BoxPair pair;
    const Manifold original = pair.collideNow();
    const ManifoldCache cache = cacheManifold(original, pair.poseA(), pair.poseB(), kMargin);
    pair.positionB += 0.0005f * original.normal;
    Manifold reused;
    ASSERT_TRUE(reuseManifold(cache, pair.poseA(), pair.poseB(), kMargin, reused));
    for (int i = 0; i < reused.pointCount; ++i) {
        EXPECT_NEAR(reused.points[i].separation, original.points[i].separation + 0.0005f, 1e-6f);
    }
}

// Beyond 1 mm of relative motion or 0.5 deg of relative turn the narrowphase runs again.
TEST(ManifoldCache, RefusedBeyondTheThresholds) {
    const BoxPair rest;
    const ManifoldCache cache = cacheManifold(rest.collideNow(), rest.poseA(), rest.poseB(), kMargin);
    Manifold out;
    BoxPair moved = rest;
    moved.positionB += vec3(0.0008f, 0.0f, 0.0f);
    EXPECT_TRUE(reuseManifold(cache, moved.poseA(), moved.poseB(), kMargin, out));
    moved.positionB += vec3(0.0004f, 0.0f, 0.0f);
    EXPECT_FALSE(reuseManifold(cache, moved.poseA(), moved.poseB(), kMargin, out));
    BoxPair turned = rest;
    turned.orientationB = axisAngle(vec3(0.0f, 1.0f, 0.0f), test::degrees(0.4f)) * rest.orientationB;
    turned.update();
    EXPECT_TRUE(reuseManifold(cache, turned.poseA(), turned.poseB(), kMargin, out));
    turned.orientationB = axisAngle(vec3(0.0f, 1.0f, 0.0f), test::degrees(0.6f)) * rest.orientationB;
    turned.update();
    EXPECT_FALSE(reuseManifold(cache, turned.poseA(), turned.poseB(), kMargin, out));
    EXPECT_FALSE(reuseManifold(ManifoldCache{}, rest.poseA(), rest.poseB(), kMargin, out));
}

// A cache computed with a shorter reach lacks what a longer one finds (a
// spinning plate's cache from a pass one sub-step long, reused for a whole
// step, let a corner 5 cm into the ground): refused beyond its reach + 1 mm.
TEST(ManifoldCache, RefusedForALongerReach) {
    const BoxPair rest;
    const ManifoldCache cache = cacheManifold(rest.collideNow(), rest.poseA(), rest.poseB(), kMargin);
    Manifold out;
    EXPECT_TRUE(reuseManifold(cache, rest.poseA(), rest.poseB(), 0.5f * kMargin, out));
    EXPECT_TRUE(reuseManifold(cache, rest.poseA(), rest.poseB(), kMargin + 0.0009f, out));
    EXPECT_FALSE(reuseManifold(cache, rest.poseA(), rest.poseB(), kMargin + 0.0011f, out));
}

}  // namespace
}  // namespace impulse
