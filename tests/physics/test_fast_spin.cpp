// Fast spin (docs/physics.md, "Fast spin"): a body turning faster than
// kMaxTurnPerPass a pass takes extra passes, and so does what it may reach in
// the step, but not the rest of the world.
#include "physics/constants.h"
#include "physics/world.h"

#include "physics_test_util.h"

#include <cmath>
#include <string>

namespace impulse {
namespace {

using test::axisAngle;
using test::sameBits;

// Boxes dropped in a heap around (x, 0, 0): 27 of them, 3 by 3 by 3, turned a
// little, so that they fall, tumble and come to rest on each other.
void addHeap(World& world, const std::string& prefix, float x) {
    for (int i = 0; i < 27; ++i) {
        BodyDef box;
        box.name = prefix + std::to_string(i);
        box.shape = Shape::box(vec3(0.2f, 0.15f, 0.25f));
        box.position = vec3(x + 0.6f * float(i % 3 - 1), 0.3f + 0.5f * float(i / 9), 0.6f * float((i / 3) % 3 - 1));
        box.orientation = axisAngle(vec3(1.0f, float(i % 4), 0.5f), 0.3f * float(i));
        box.restitution = 0.2f;
        world.createBody(box);
    }
}

// A 5 cm pebble (a box) turning at 390 rad/s.
BodyDef spinningPebble(const vec3& position) {
    BodyDef pebble;
    pebble.name = "pebble";
    pebble.shape = Shape::box(vec3(0.025f));
    pebble.mass = 0.1f;
    pebble.position = position;
    pebble.angularVelocity = 390.0f * glm::normalize(vec3(1.0f, 0.3f, 0.2f));
    return pebble;
}

// The named body's state has the same bits in both worlds.
::testing::AssertionResult sameBody(const World& a, const World& b, const std::string& name) {
    const Body& x = a.body(a.findBody(name));
    const Body& y = b.body(b.findBody(name));
    if (sameBits(x.position, y.position) && sameBits(x.orientation, y.orientation) &&
        sameBits(x.linearVelocity, y.linearVelocity) && sameBits(x.angularVelocity, y.angularVelocity)) {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << name << " differs";
}

// The case: a pebble spinning in the air beside a heap. Only the pebble
// takes 14 passes a step (390 rad/s * 1/60 s / 0.5 rad is 13 but for the last
// bit of float rounding); the heap takes one, and
// moves to the same bits as a heap with no pebble, the pebble as one with no heap.
TEST(FastSpin, AFreeSpinnerTakesItsExtraPassesAlone) {
    World both;
    both.createBody(test::groundDef(20.0f));
    addHeap(both, "heap", 0.0f);
    both.createBody(spinningPebble(vec3(8.0f, 3.0f, 0.0f)));
    World heapOnly;
    heapOnly.createBody(test::groundDef(20.0f));
    addHeap(heapOnly, "heap", 0.0f);
    World pebbleOnly;
    pebbleOnly.createBody(test::groundDef(20.0f));
    pebbleOnly.createBody(spinningPebble(vec3(8.0f, 3.0f, 0.0f)));

    both.step();
    EXPECT_EQ(both.stats().mostPasses, 14);
    EXPECT_EQ(both.stats().bodiesInExtraPasses, 1);
    heapOnly.step();
    EXPECT_EQ(heapOnly.stats().bodiesInExtraPasses, 0);
    pebbleOnly.step();
    // 90 steps: the heap lands and settles, the pebble falls 3 m and lands spinning.
    for (int i = 1; i < 90; ++i) {
        both.step();
        heapOnly.step();
        pebbleOnly.step();
    }
    for (int i = 0; i < 27; ++i) EXPECT_TRUE(sameBody(both, heapOnly, "heap" + std::to_string(i)));
    EXPECT_TRUE(sameBody(both, pebbleOnly, "pebble"));
}

// A box spinning inside a tower of five: the tower takes the extra passes, a
// heap 6 m away does not, and moves to the same bits as without the spin.
TEST(FastSpin, ASpinnerInATowerCostsOnlyTheTowersPasses) {
    World world;
    world.createBody(test::groundDef(20.0f));
    for (int i = 0; i < 5; ++i) {
        BodyDef box;
        box.name = "tower" + std::to_string(i);
        box.shape = Shape::box(vec3(0.3f, 0.2f, 0.3f));
        box.position = vec3(-3.0f, 0.2f + 0.4f * float(i), 0.0f);
        world.createBody(box);
    }
    addHeap(world, "heap", 3.0f);
    for (int i = 0; i < 60; ++i) world.step();
    ASSERT_EQ(world.stats().bodiesInExtraPasses, 0);
    World spun = world;
    const BodyId middle = spun.findBody("tower2");
    BodyDef def = spun.bodyDef(middle);
    def.angularVelocity = vec3(0.0f, 200.0f, 0.0f);  // 3.3 rad a step: 7 passes
    ASSERT_FALSE(spun.updateBody(middle, def).has_value());
    spun.step();
    world.step();
    EXPECT_EQ(spun.stats().mostPasses, 7);
    EXPECT_EQ(spun.stats().bodiesInExtraPasses, 5);
    for (int i = 1; i < 10; ++i) {
        spun.step();
        world.step();
    }
    for (int i = 0; i < 27; ++i) EXPECT_TRUE(sameBody(spun, world, "heap" + std::to_string(i)));
    EXPECT_FALSE(sameBody(spun, world, "tower0"));  // the spin reached the tower's foot
}

// Pass groups give the same bits whatever the number of threads.
TEST(FastSpin, PassGroupsGiveTheSameBitsOnAnyThreadCount) {
    const auto run = [](int threads) {
        World world;
        world.createBody(test::groundDef(20.0f));
        addHeap(world, "heap", 0.0f);
        BodyDef inside = spinningPebble(vec3(0.1f, 1.6f, 0.1f));
        inside.name = "inside";
        world.createBody(inside);
        world.createBody(spinningPebble(vec3(-6.0f, 2.0f, 0.0f)));
        EXPECT_FALSE(world.setThreadCount(threads).has_value());
        for (int i = 0; i < 20; ++i) world.step();
        return world;
    };
    const World one = run(1);
    for (int threads : {2, 3}) EXPECT_TRUE(test::sameState(one, run(threads))) << threads << " threads";
}

// The spin limit acts only beyond kMaxSurfaceSpeed at the bounding radius,
// and says so. A torque-free plate spun about its intermediate axis tumbles,
// and its |w| rises as it turns over (L and E stay): started at 95 % of the
// limit, it is clamped on the way and the world counts it.
TEST(SpinLimit, AClampIsCountedAndTheSpinHeldToTheLimit) {
    WorldSettings settings;
    settings.gravity = vec3(0.0f);
    World world(settings);
    BodyDef plate;
    plate.name = "plate";
    plate.shape = Shape::box(vec3(0.5f, 0.3f, 0.05f));
    const float limit = maxAngularSpeed(plate.shape);
    plate.angularVelocity = 0.95f * limit * glm::normalize(vec3(0.02f, 1.0f, 0.02f));
    const BodyId id = world.createBody(plate);
    ASSERT_TRUE(world.isValid(id));
    int clampedSteps = 0;
    for (int i = 0; i < 120; ++i) {
        world.step();
        const Body& body = world.body(id);
        EXPECT_LE(glm::length(body.angularVelocity), limit * 1.0001f);
        EXPECT_EQ(world.stats().spinClampedBodies, body.spinClamped ? 1 : 0);
        clampedSteps += body.spinClamped;
    }
    EXPECT_GT(clampedSteps, 0);
    EXPECT_EQ(world.spinClampCount(), uint64_t(clampedSteps));
    // Below the limit nothing is clamped: the same plate at 60 %.
    World slow(settings);
    plate.angularVelocity *= 0.6f / 0.95f;
    slow.createBody(plate);
    for (int i = 0; i < 120; ++i) slow.step();
    EXPECT_EQ(slow.spinClampCount(), 0u);
}

// The same for a body of isotropic inertia, which the lane step moves: a ball
// of 0.5 m (at most 700 rad/s) thrown at the ground at 700 m/s down and
// forward rolls off at 5/7 of 700 m/s, 1,000 rad/s: held to 700 and counted.
// The limit holds in the moves of the sub-steps; the impact at the end of the
// landing step may leave the spin above it, and the next step's moves hold it.
TEST(SpinLimit, AThrownBallIsHeldToItsLimitAndCounted) {
    World world;
    world.createBody(test::groundDef(50.0f));
    BodyDef ball;
    ball.name = "ball";
    ball.shape = Shape::sphere(0.5f);
    ball.position = vec3(-20.0f, 0.6f, 0.0f);
    ball.linearVelocity = vec3(700.0f, -700.0f, 0.0f);
    ball.friction = 1.0f;
    const BodyId id = world.createBody(ball);
    world.step();
    const Body& body = world.body(id);
    EXPECT_TRUE(body.spinClamped);
    EXPECT_EQ(world.stats().spinClampedBodies, 1);
    EXPECT_EQ(world.spinClampCount(), 1u);
    world.step();
    EXPECT_EQ(world.stats().spinClampedBodies, 1);
    EXPECT_EQ(world.spinClampCount(), 2u);
    EXPECT_NEAR(glm::length(body.angularVelocity), maxAngularSpeed(ball.shape), 1e-3f * maxAngularSpeed(ball.shape));
}

}  // namespace
}  // namespace impulse
