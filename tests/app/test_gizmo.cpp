// The gizmo's math without a window: what is drawn is what is picked, a drag along an
// arrow moves by what the cursor moved along the axis, a drag around a ring turns by
// the angle it swept (right-handed about the world axis), snapping, and the Body
// panel's orientation angles.
#include "app/gizmo.h"
#include "ui/edit.h"

#include <gtest/gtest.h>

#include <cstring>

#include <glm/gtc/quaternion.hpp>

using namespace impulse;
using namespace impulse::app;

namespace {

constexpr float kW = 800.0f, kH = 600.0f;

// A camera on +z looking at the origin down -z: world x is right on screen, y up.
render::OrbitCamera frontCamera() {
    render::OrbitCamera camera;
    camera.target = vec3(0.0f);
    camera.yaw = 0.0f;
    camera.pitch = 0.0f;
    camera.distance = 10.0f;
    return camera;
}

render::Ray rayAt(const render::OrbitCamera& camera, const glm::vec2& pixel) {
    return camera.rayThroughPixel(pixel.x, pixel.y, kW, kH);
}

// The angle of the turn from b to a (rad); atan2 stays exact near 0, where acos does not.
float angleBetween(const quat& a, const quat& b) {
    const quat d = a * glm::conjugate(b);
    return 2.0f * std::atan2(glm::length(vec3(d.x, d.y, d.z)), std::fabs(d.w));
}

}  // namespace

TEST(Gizmo, ArrowsPointAlongTheAxesOnScreenWithTheirLengthInPixels) {
    const render::OrbitCamera camera = frontCamera();
    const GizmoShape shape = gizmoShape(camera, kW, kH, vec3(0.0f), 1.0f);
    ASSERT_TRUE(shape.visible);
    EXPECT_NEAR(shape.centre.x, 0.5f * kW, 1.0f);
    EXPECT_NEAR(shape.centre.y, 0.5f * kH, 1.0f);
    EXPECT_NEAR(shape.arrowTips[0].x - shape.centre.x, kGizmoArrowPixels, 1.0f);  // x: right
    EXPECT_NEAR(shape.arrowTips[1].y - shape.centre.y, -kGizmoArrowPixels, 1.0f); // y: up (pixels grow down)
    EXPECT_NEAR(glm::length(shape.arrowTips[2] - shape.centre), 0.0f, 1.0f);      // z: end on
    // The z ring faces the camera: a circle of the ring's radius on screen.
    for (const glm::vec2& p : shape.rings[2]) EXPECT_NEAR(glm::length(p - shape.centre), kGizmoRingPixels, 1.0f);
    // Twice the text scale, twice the size; a body twice as far keeps it.
    const GizmoShape big = gizmoShape(camera, kW, kH, vec3(0.0f), 2.0f);
    EXPECT_NEAR(big.arrowTips[0].x - big.centre.x, 2.0f * kGizmoArrowPixels, 1.0f);
    render::OrbitCamera far = camera;
    far.distance = 20.0f;
    const GizmoShape distant = gizmoShape(far, kW, kH, vec3(0.0f), 1.0f);
    EXPECT_NEAR(distant.arrowTips[0].x - distant.centre.x, kGizmoArrowPixels, 1.0f);
    // Behind the camera: nothing drawn, nothing picked.
    const GizmoShape behind = gizmoShape(camera, kW, kH, vec3(0.0f, 0.0f, 20.0f), 1.0f);
    EXPECT_FALSE(behind.visible);
    EXPECT_EQ(pickGizmo(behind, shape.centre, 1.0f), GizmoHandle::none);
}

TEST(Gizmo, PicksTheHandleWhoseDrawnLineIsUnderTheCursor) {
    render::OrbitCamera camera = frontCamera();
    camera.yaw = 0.5f;  // every axis seen at an angle
    camera.pitch = 0.4f;
    const GizmoShape shape = gizmoShape(camera, kW, kH, vec3(1.0f, 0.5f, -0.5f), 1.0f);
    ASSERT_TRUE(shape.visible);
    const GizmoHandle moves[] = {GizmoHandle::moveX, GizmoHandle::moveY, GizmoHandle::moveZ};
    const GizmoHandle turns[] = {GizmoHandle::rotateX, GizmoHandle::rotateY, GizmoHandle::rotateZ};
    for (int axis = 0; axis < 3; ++axis) {
        // Near the tip of each arrow (beyond every ring), a few pixels off its line.
        const glm::vec2 along = shape.arrowTips[axis] - shape.centre;
        const glm::vec2 across = glm::normalize(glm::vec2(-along.y, along.x));
        const glm::vec2 nearTip = shape.centre + 0.95f * along + 4.0f * across;
        EXPECT_EQ(pickGizmo(shape, nearTip, 1.0f), moves[axis]) << "arrow " << axis;
        // Past the tip, outside every ring: nothing.
        EXPECT_EQ(pickGizmo(shape, shape.centre + 1.0f * along + 12.0f * glm::normalize(along), 1.0f),
                  GizmoHandle::none);
        EXPECT_EQ(gizmoAxis(moves[axis]), axis);
        EXPECT_EQ(gizmoAxis(turns[axis]), axis);
    }
    // A ring point that no arrow or other ring passes near picks that ring.
    for (int axis = 0; axis < 3; ++axis) {
        int picked = 0;
        for (const glm::vec2& p : shape.rings[axis]) picked += pickGizmo(shape, p, 1.0f) == turns[axis];
        EXPECT_GT(picked, kGizmoRingSegments / 2) << "ring " << axis;
    }
    EXPECT_EQ(pickGizmo(shape, shape.centre + glm::vec2(300.0f, 0.0f), 1.0f), GizmoHandle::none);
}

TEST(Gizmo, NearestPointOnAnAxisFollowsTheRayAndIsUndefinedAlongIt) {
    const render::Ray ray{vec3(2.0f, 5.0f, 3.0f), vec3(0.0f, 0.0f, -1.0f)};
    // The x axis through the origin: the ray passes over x = 2.
    EXPECT_NEAR(*nearestOnAxis(ray, vec3(0.0f), vec3(1.0f, 0.0f, 0.0f)), 2.0f, 1e-5f);
    EXPECT_NEAR(*nearestOnAxis(ray, vec3(0.5f, 0.0f, 0.0f), vec3(1.0f, 0.0f, 0.0f)), 1.5f, 1e-5f);
    EXPECT_FALSE(nearestOnAxis(ray, vec3(0.0f), vec3(0.0f, 0.0f, 1.0f)).has_value());
    EXPECT_FLOAT_EQ(snapTo(0.34f, 0.1f), 0.3f);
    EXPECT_FLOAT_EQ(snapTo(-0.36f, 0.1f), -0.4f);
}

TEST(Gizmo, DraggingAnArrowMovesTheBodyAsFarAsTheCursorMovedAlongTheAxis) {
    const render::OrbitCamera camera = frontCamera();
    const Pose start{vec3(0.0f, 0.0f, 0.0f), glm::angleAxis(0.3f, glm::normalize(vec3(1.0f, 2.0f, 0.5f)))};
    const GizmoShape shape = gizmoShape(camera, kW, kH, start.position, 1.0f);
    const glm::vec2 press = glm::mix(shape.centre, shape.arrowTips[0], 0.5f);
    GizmoDrag drag(GizmoHandle::moveX, start, shape, rayAt(camera, press), press, camera.forward());
    // The cursor 100 px right and 40 px down: only the part along x counts.
    const glm::vec2 to = press + glm::vec2(100.0f, 40.0f);
    const Pose moved = drag.update(rayAt(camera, to), to, false);
    const float metresPerPixel = 2.0f * camera.distance * std::tan(0.5f * camera.fovY) / kH;
    EXPECT_NEAR(moved.position.x, 100.0f * metresPerPixel, 0.01f);
    EXPECT_EQ(moved.position.y, 0.0f);
    EXPECT_EQ(moved.position.z, 0.0f);
    EXPECT_EQ(moved.orientation, start.orientation);
    // Ctrl: the coordinate on the 0.1 m grid.
    const Pose snapped = drag.update(rayAt(camera, to), to, true);
    EXPECT_FLOAT_EQ(snapped.position.x, snapTo(moved.position.x, kSnapMetres));
    EXPECT_NE(snapped.position.x, moved.position.x);
    // Back where it was pressed: back at the start.
    EXPECT_NEAR(drag.update(rayAt(camera, press), press, false).position.x, 0.0f, 1e-5f);
}

TEST(Gizmo, DraggingARingTurnsTheBodyRightHandedAboutTheWorldAxisByTheSweptAngle) {
    const render::OrbitCamera camera = frontCamera();
    const Pose start{vec3(0.0f), glm::angleAxis(0.4f, vec3(0.0f, 1.0f, 0.0f))};
    const GizmoShape shape = gizmoShape(camera, kW, kH, start.position, 1.0f);
    // The z ring faces the viewer (z points at the camera): from its right-hand point up
    // to its top is +90 degrees about +z (counter-clockwise as seen).
    const glm::vec2 right = shape.centre + glm::vec2(kGizmoRingPixels, 0.0f);
    const glm::vec2 top = shape.centre + glm::vec2(0.0f, -kGizmoRingPixels);
    const glm::vec2 left = shape.centre + glm::vec2(-kGizmoRingPixels, 0.0f);
    const glm::vec2 bottom = shape.centre + glm::vec2(0.0f, kGizmoRingPixels);
    GizmoDrag drag(GizmoHandle::rotateZ, start, shape, rayAt(camera, right), right, camera.forward());
    // Not moved yet: the start to the bit (a click must not become an edit).
    const Pose still = drag.update(rayAt(camera, right), right, false);
    EXPECT_TRUE(std::memcmp(&still.orientation, &start.orientation, sizeof(quat)) == 0);
    const Pose quarter = drag.update(rayAt(camera, top), top, false);
    const quat expected = glm::angleAxis(glm::half_pi<float>(), vec3(0.0f, 0.0f, 1.0f)) * start.orientation;
    EXPECT_LT(angleBetween(quarter.orientation, expected), 1e-3f);
    EXPECT_NEAR(drag.angle(), glm::half_pi<float>(), 1e-3f);
    EXPECT_EQ(quarter.position, start.position);
    // On round the ring and past the start: the turns add up beyond 180 degrees.
    drag.update(rayAt(camera, left), left, false);
    drag.update(rayAt(camera, bottom), bottom, false);
    drag.update(rayAt(camera, right), right, false);
    drag.update(rayAt(camera, top), top, false);
    EXPECT_NEAR(drag.angle(), 2.0f * glm::pi<float>() + glm::half_pi<float>(), 1e-3f);
    // Ctrl: 15 degree steps. 100 degrees (from the first quarter on) snaps to 105.
    GizmoDrag snapped(GizmoHandle::rotateZ, start, shape, rayAt(camera, right), right, camera.forward());
    const float a = glm::radians(100.0f);
    const glm::vec2 at = shape.centre + kGizmoRingPixels * glm::vec2(std::cos(a), -std::sin(a));
    snapped.update(rayAt(camera, top), top, true);
    const Pose stepped = snapped.update(rayAt(camera, at), at, true);
    EXPECT_NEAR(glm::degrees(snapped.angle()), 105.0f, 1e-3f);
    const quat expectedStep = glm::angleAxis(glm::radians(105.0f), vec3(0.0f, 0.0f, 1.0f)) * start.orientation;
    EXPECT_LT(angleBetween(stepped.orientation, expectedStep), 1e-3f);
    // The same sweep seen from behind (z pointing away) is a turn the other way.
    render::OrbitCamera back = camera;
    back.yaw = glm::pi<float>();
    const GizmoShape behind = gizmoShape(back, kW, kH, start.position, 1.0f);
    GizmoDrag reversed(GizmoHandle::rotateZ, start, behind, rayAt(back, right), right, back.forward());
    reversed.update(rayAt(back, top), top, false);
    EXPECT_NEAR(reversed.angle(), -glm::half_pi<float>(), 1e-3f);
}

TEST(Gizmo, APausedDragMovesTheBodyWithTheGrabbedPoint) {
    const Pose start{vec3(1.0f, 2.0f, 3.0f), glm::angleAxis(0.7f, vec3(1.0f, 0.0f, 0.0f))};
    const Pose moved = freeMovePose(start, vec3(1.2f, 2.5f, 3.0f), vec3(2.23f, 2.46f, 3.0f), false);
    EXPECT_NEAR(moved.position.x, 2.03f, 1e-5f);
    EXPECT_NEAR(moved.position.y, 1.96f, 1e-5f);
    EXPECT_EQ(moved.orientation, start.orientation);
    const Pose snapped = freeMovePose(start, vec3(1.2f, 2.5f, 3.0f), vec3(2.23f, 2.46f, 3.0f), true);
    EXPECT_FLOAT_EQ(snapped.position.x, 2.0f);
    EXPECT_FLOAT_EQ(snapped.position.y, 2.0f);
    EXPECT_FLOAT_EQ(snapped.position.z, 3.0f);
}

TEST(OrientationAngles, AreTurnsAboutTheWorldAxesXThenYThenZAndRoundTrip) {
    // 90 degrees about x then 90 about y: the body's y axis ends on world z... checked
    // against the matrices themselves.
    const quat q = ui::orientationFromWorldAxisAngles(vec3(90.0f, 90.0f, 0.0f));
    const vec3 bodyY = q * vec3(0.0f, 1.0f, 0.0f);  // x turns y to z; y then turns z to x
    EXPECT_NEAR(bodyY.x, 1.0f, 1e-5f);
    const quat r = ui::orientationFromWorldAxisAngles(vec3(10.0f, 20.0f, 30.0f));
    const quat byHand = glm::angleAxis(glm::radians(30.0f), vec3(0, 0, 1)) *
                        glm::angleAxis(glm::radians(20.0f), vec3(0, 1, 0)) *
                        glm::angleAxis(glm::radians(10.0f), vec3(1, 0, 0));
    EXPECT_LT(angleBetween(r, byHand), 1e-5f);
    for (const vec3 angles : {vec3(10.0f, 20.0f, 30.0f), vec3(-170.0f, 80.0f, 120.0f), vec3(0.0f, -45.0f, -179.0f)}) {
        const vec3 back = ui::worldAxisAnglesDegrees(ui::orientationFromWorldAxisAngles(angles));
        EXPECT_NEAR(back.x, angles.x, 1e-2f);
        EXPECT_NEAR(back.y, angles.y, 1e-2f);
        EXPECT_NEAR(back.z, angles.z, 1e-2f);
    }
    // At y = 90 only x - z is defined: z is reported 0 and the orientation is the same.
    const quat locked = ui::orientationFromWorldAxisAngles(vec3(30.0f, 90.0f, 20.0f));
    const vec3 lockedAngles = ui::worldAxisAnglesDegrees(locked);
    EXPECT_EQ(lockedAngles.z, 0.0f);
    EXPECT_LT(angleBetween(ui::orientationFromWorldAxisAngles(lockedAngles), locked), 2e-3f);
}
