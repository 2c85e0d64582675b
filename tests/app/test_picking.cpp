// Picking what the view draws: a frame falls between steps, so moving bodies are drawn
// behind where the world holds them; a click must hit the drawn body and grab the same
// point of it as the world holds it.
#include "app/picking.h"

#include <gtest/gtest.h>

#include <glm/gtc/quaternion.hpp>

#include <cmath>

using namespace impulse;
using namespace impulse::app;

namespace {

constexpr float kPickDistance = 100.0f;

// Straight down from 3 m (near: a float ray from far off meets a 5 cm ball within 3e-5 m only).
render::Ray downAt(float x, float z) { return render::Ray{vec3(x, 3.0f, z), vec3(0.0f, -1.0f, 0.0f)}; }

void expectNear(const vec3& a, const vec3& b, float tolerance) {
    EXPECT_NEAR(a.x, b.x, tolerance);
    EXPECT_NEAR(a.y, b.y, tolerance);
    EXPECT_NEAR(a.z, b.z, tolerance);
}

// A static ground box whose top is y = 0 (drawn where the world has it), and a 5 cm ball.
BodyDef groundDef() {
    BodyDef ground;
    ground.isStatic = true;
    ground.shape = Shape::box(vec3(20.0f, 0.5f, 20.0f));
    ground.position = vec3(0.0f, -0.5f, 0.0f);
    return ground;
}
BodyDef ballDef(const vec3& position) {
    BodyDef ball;
    ball.shape = Shape::sphere(0.05f);
    ball.position = position;
    return ball;
}

}  // namespace

// A ball at 10 m/s is drawn up to one 60 Hz step (17 cm) behind the world's position: a
// click on the drawn ball picks it (the world's pose would miss it and hit the ground),
// and the grab's anchor is the same point of the ball where the world holds it.
TEST(Picking, AClickOnABodyDrawnBehindTheWorldPicksItAndGrabsTheSamePointOfIt) {
    World world;
    const BodyDef ground = groundDef(), ball = ballDef(vec3(0.17f, 0.05f, 0.0f));
    const BodyId groundId = world.createBody(ground);
    const BodyId ballId = world.createBody(ball);
    const std::vector<ShownBody> shown{{groundId, Pose{ground.position, ground.orientation}},
                                       {ballId, Pose{vec3(0.0f, 0.05f, 0.0f), ball.orientation}}};

    ASSERT_EQ(world.rayCast(downAt(0.0f, 0.0f).origin, downAt(0.0f, 0.0f).direction, kPickDistance)->body, groundId);
    const std::optional<ShownHit> hit = pickShown(world, shown, downAt(0.0f, 0.0f), kPickDistance);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->body, ballId);
    expectNear(hit->shownPoint, vec3(0.0f, 0.1f, 0.0f), 1e-5f);  // the drawn ball's top
    expectNear(hit->worldPoint, vec3(0.17f, 0.1f, 0.0f), 1e-5f);  // the ball's top where the world has it
    expectNear(hit->normal, vec3(0.0f, 1.0f, 0.0f), 1e-3f);  // the point's float error over r = 5 cm
    // Where the world holds the ball, nothing is drawn: the click there hits the ground.
    EXPECT_EQ(pickShown(world, shown, downAt(0.17f, 0.0f), kPickDistance)->body, groundId);
}

// A box drawn a quarter turn (about y) short of the world's orientation: the grabbed
// point keeps its place on the box (its body-frame coordinates), not in the world.
TEST(Picking, TheGrabbedPointIsTheSamePointOfATurnedBody) {
    World world;
    BodyDef box;
    box.shape = Shape::box(vec3(0.5f, 0.25f, 0.1f));
    box.position = vec3(1.0f, 2.0f, 0.0f);
    box.orientation = glm::angleAxis(glm::radians(90.0f), vec3(0.0f, 1.0f, 0.0f));
    const BodyId id = world.createBody(box);
    const Pose drawn{vec3(1.0f, 2.0f, 0.0f), quat(1.0f, 0.0f, 0.0f, 0.0f)};
    const std::optional<ShownHit> hit = pickShown(world, {{id, drawn}}, downAt(1.4f, 0.05f), kPickDistance);
    ASSERT_TRUE(hit);
    expectNear(hit->shownPoint, vec3(1.4f, 2.25f, 0.05f), 1e-5f);
    const Body& b = world.body(id);
    const vec3 drawnLocal = inverseRotate(drawn.orientation, hit->shownPoint - drawn.position);
    const vec3 worldLocal = inverseRotate(b.orientation, hit->worldPoint - b.position);
    expectNear(worldLocal, drawnLocal, 1e-5f);
    expectNear(worldLocal, vec3(0.4f, 0.25f, 0.05f), 1e-5f);
}

// The frame was drawn before the body was deleted (or the world replaced): skipped.
TEST(Picking, ABodyGoneSinceTheFrameIsNotPicked) {
    World world;
    BodyDef ball;
    ball.shape = Shape::sphere(0.5f);
    const BodyId id = world.createBody(ball);
    const std::vector<ShownBody> shown{{id, Pose{vec3(0.0f), ball.orientation}}};
    ASSERT_TRUE(pickShown(world, shown, downAt(0.0f, 0.0f), kPickDistance));
    ASSERT_TRUE(world.removeBody(id));
    EXPECT_FALSE(pickShown(world, shown, downAt(0.0f, 0.0f), kPickDistance));
}

TEST(Picking, BlendedPosesRunFromTheStepBeforeToTheStepAfterOnTheShortArc) {
    const Pose before{vec3(0.0f), glm::angleAxis(0.0f, vec3(0.0f, 0.0f, 1.0f))};
    // The same turn of 90 degrees written with either sign of the quaternion.
    const quat turned = glm::angleAxis(glm::radians(90.0f), vec3(0.0f, 0.0f, 1.0f));
    for (const quat& q : {turned, -turned}) {
        const Pose after{vec3(2.0f, 0.0f, 0.0f), q};
        expectNear(blendPoses(before, after, 0.0f).position, before.position, 0.0f);
        expectNear(blendPoses(before, after, 1.0f).position, after.position, 0.0f);
        const Pose half = blendPoses(before, after, 0.5f);
        expectNear(half.position, vec3(1.0f, 0.0f, 0.0f), 1e-6f);
        // Half way on the short arc: 45 degrees about z, not the long way round (-135).
        const float c = std::sqrt(0.5f);
        expectNear(rotate(half.orientation, vec3(1.0f, 0.0f, 0.0f)), vec3(c, c, 0.0f), 1e-5f);
    }
}

// A click just beside a small moving ball (within the slack: 1 cm per metre of depth here,
// 3 cm at 3 m) picks the ball, grabbed at its centre, not the ground behind it; without the
// slack, or beside a static box, or further off, the ground is picked.
TEST(Picking, AClickJustBesideAMovingBodyPicksItNotTheGroundBehind) {
    World world;
    const BodyDef ground = groundDef(), ball = ballDef(vec3(0.0f, 0.05f, 0.0f));
    const BodyId groundId = world.createBody(ground);
    const BodyId ballId = world.createBody(ball);
    BodyDef kerb = ground;
    kerb.shape = Shape::box(vec3(0.05f));
    kerb.position = vec3(2.0f, 0.05f, 0.0f);
    const BodyId kerbId = world.createBody(kerb);
    const std::vector<ShownBody> shown{{groundId, Pose{ground.position, ground.orientation}},
                                       {ballId, Pose{ball.position, ball.orientation}},
                                       {kerbId, Pose{kerb.position, kerb.orientation}}};
    constexpr float kSlope = 0.01f;
    const std::optional<ShownHit> beside = pickShown(world, shown, downAt(0.07f, 0.0f), kPickDistance, kSlope);
    ASSERT_TRUE(beside);
    EXPECT_EQ(beside->body, ballId);
    expectNear(beside->worldPoint, ball.position, 1e-6f);
    EXPECT_EQ(pickShown(world, shown, downAt(0.07f, 0.0f), kPickDistance)->body, groundId) << "no slack";
    EXPECT_EQ(pickShown(world, shown, downAt(0.12f, 0.0f), kPickDistance, kSlope)->body, groundId) << "too far off";
    EXPECT_EQ(pickShown(world, shown, downAt(2.07f, 0.0f), kPickDistance, kSlope)->body, groundId) << "static";
    EXPECT_EQ(pickShown(world, shown, downAt(0.0f, 0.0f), kPickDistance, kSlope)->body, ballId) << "a direct hit";
}
