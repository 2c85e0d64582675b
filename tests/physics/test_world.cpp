// Over 800 lines: one file per public API (world.h), each section one query or guard.
// The World API (physics/world.h): handles, queries, ray casts, the mouse drag,
// reported contacts, energy and momentum, step guards, determinism and sleeping.
#include "physics/constants.h"
#include "physics/world.h"

#include "physics_test_util.h"

#include <cstring>
#include <limits>
#include <numeric>

namespace impulse {
namespace {

using test::axisAngle;
using test::boxDef;
using test::sphereDef;

WorldSettings zeroGravity() {
    WorldSettings settings;
    settings.gravity = vec3(0.0f);
    return settings;
}

// ---------------------------------------------------------------- bounds

// The bounds are a query of the world: a dynamic body whose centre leaves the box is
// listed (a static one never is), and the steps are the same bits whatever the bounds.
TEST(WorldBounds, ListsTheDynamicBodiesOutsideAndLeavesTheStepAsItIs) {
    WorldSettings boxed;
    boxed.bounds.min = vec3(-5.0f, -2.0f, -5.0f);
    boxed.bounds.max = vec3(5.0f, 10.0f, 5.0f);
    World tight;
    ASSERT_FALSE(tight.setSettings(boxed));
    World wide;  // the default bounds, which nothing here leaves
    for (World* world : {&tight, &wide}) {
        BodyDef ground = boxDef("ground", vec3(0.0f, -0.5f, 0.0f), vec3(1.0f, 0.5f, 1.0f));
        ground.isStatic = true;
        world->createBody(ground);
        BodyDef farStatic = boxDef("far wall", vec3(50.0f, 0.0f, 0.0f), vec3(1.0f));
        farStatic.isStatic = true;
        world->createBody(farStatic);
        world->createBody(sphereDef("resting", vec3(0.0f, 0.5f, 0.0f), 0.5f));
        world->createBody(sphereDef("falling", vec3(3.0f, 0.5f, 0.0f), 0.5f));
    }
    const BodyId falling = tight.findBody("falling");
    EXPECT_TRUE(tight.bodiesOutsideBounds().empty());
    uint64_t leftAt = 0;
    for (int i = 0; i < 120; ++i) {
        tight.step();
        wide.step();
        ASSERT_TRUE(test::sameState(tight, wide)) << "step " << tight.stepCount();
        const std::vector<BodyId> outside = tight.bodiesOutsideBounds();
        if (outside.empty()) continue;
        ASSERT_EQ(outside.size(), 1u);
        EXPECT_TRUE(outside[0] == falling);
        EXPECT_LT(tight.body(falling).position.y, -2.0f);
        if (leftAt == 0) leftAt = tight.stepCount();
    }
    // 2.5 m of free fall takes sqrt(2 * 2.5 / 9.81) = 0.71 s: step 43.
    EXPECT_NEAR(double(leftAt), 43.0, 1.0);
    EXPECT_TRUE(wide.bodiesOutsideBounds().empty());
}

TEST(WorldBounds, BadBoundsAreRefusedNamingTheFieldAndTheRule) {
    World world;
    WorldSettings bad;
    bad.bounds.min.x = 3.0f;
    bad.bounds.max.x = 3.0f;
    Validation refused = world.setSettings(bad);
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->message(), "bounds: min must be less than max on every axis (x: min 3 >= max 3)");
    bad = WorldSettings{};
    bad.bounds.max.z = std::numeric_limits<float>::infinity();
    refused = world.setSettings(bad);
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->message(), "bounds.max: must hold finite numbers in [-1e6, 1e6] m");
    EXPECT_TRUE(world.settings().bounds == WorldBounds{}) << "a refused setting changes nothing";
}

// ---------------------------------------------------------------- handles

TEST(WorldHandles, StaleHandleAfterRemoveAndGenerationOnReuse) {
    World world;
    const BodyId a = world.createBody(sphereDef("a", vec3(0.0f), 0.5f));
    const BodyId b = world.createBody(sphereDef("b", vec3(2.0f, 0.0f, 0.0f), 0.5f));
    const BodyId c = world.createBody(sphereDef("c", vec3(4.0f, 0.0f, 0.0f), 0.5f));
    EXPECT_EQ(a.index, 0u);
    EXPECT_EQ(b.index, 1u);
    EXPECT_EQ(c.index, 2u);
    EXPECT_EQ(b.generation, 1u);
    EXPECT_EQ(world.bodyCount(), 3);

    ASSERT_TRUE(world.removeBody(b));
    EXPECT_FALSE(world.isValid(b));
    EXPECT_FALSE(world.removeBody(b)) << "removing twice must fail";
    EXPECT_EQ(world.bodyCount(), 2);
    EXPECT_FALSE(world.findBody("b"));

    const BodyId d = world.createBody(sphereDef("d", vec3(6.0f, 0.0f, 0.0f), 0.5f));
    EXPECT_EQ(d.index, 1u) << "the free slot is reused";
    EXPECT_EQ(d.generation, 2u) << "reuse bumps the generation";
    EXPECT_NE(d, b);
    EXPECT_FALSE(world.isValid(b)) << "the old handle stays stale after reuse";
    EXPECT_TRUE(world.isValid(d));
    EXPECT_EQ(world.body(d).name, "d");

    EXPECT_FALSE(world.isValid(BodyId{}));
    EXPECT_FALSE(BodyId{});
    EXPECT_FALSE(world.isValid(BodyId{99, 1}));
    EXPECT_FALSE(world.isValid(BodyId{0, 7}));
}

TEST(WorldHandles, BodyIdsInIndexOrderAndFindBody) {
    World world;
    std::vector<BodyId> ids;
    for (int i = 0; i < 5; ++i) {
        ids.push_back(world.createBody(sphereDef("s" + std::to_string(i), vec3(2.0f * i, 0.0f, 0.0f), 0.5f)));
    }
    world.removeBody(ids[1]);
    world.removeBody(ids[3]);
    const BodyId again = world.createBody(sphereDef("again", vec3(20.0f, 0.0f, 0.0f), 0.5f));  // takes slot 3
    const std::vector<BodyId> want = {ids[0], ids[2], again, ids[4]};
    EXPECT_EQ(world.bodyIds(), want);
    EXPECT_EQ(again.index, 3u);
    EXPECT_EQ(world.findBody("s2"), ids[2]);
    EXPECT_EQ(world.findBody("again"), again);
    EXPECT_FALSE(world.findBody("s3"));
    EXPECT_FALSE(world.findBody("nobody"));
}

TEST(WorldHandles, RemovingABodyForgetsItsContactsAndClearResets) {
    World world = test::makeScene();
    for (int i = 0; i < 60; ++i) world.step();
    ASSERT_GT(world.stats().contactPoints, 0);
    const BodyId ball = world.findBody("ball");
    world.removeBody(ball);
    for (const ContactPointInfo& contact : world.contacts()) {
        EXPECT_NE(contact.bodyA, ball);
        EXPECT_NE(contact.bodyB, ball);
    }
    world.clear();
    EXPECT_EQ(world.bodyCount(), 0);
    EXPECT_TRUE(world.contacts().empty());
    EXPECT_TRUE(world.bodyIds().empty());
}

// ---------------------------------------------------------------- ray cast

TEST(WorldRayCast, HitsSphereWithDistancePointAndNormal) {
    World world;
    const BodyId s = world.createBody(sphereDef("s", vec3(5.0f, 0.0f, 0.0f), 1.0f));
    // Ray along +x offset by 0.6 in y: enters the sphere at x = 5 - sqrt(1 - 0.36) = 4.2.
    const auto hit = world.rayCast(vec3(0.0f, 0.6f, 0.0f), vec3(2.0f, 0.0f, 0.0f), 100.0f);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->body, s);
    EXPECT_NEAR(hit->distance, 4.2f, 1e-5f);  // float rounding at ~5 m
    EXPECT_TRUE(test::near(hit->point, vec3(4.2f, 0.6f, 0.0f), 1e-5f));
    EXPECT_TRUE(test::near(hit->normal, vec3(-0.8f, 0.6f, 0.0f), 1e-5f));
}

TEST(WorldRayCast, HitsRotatedBoxFace) {
    World world;
    BodyDef def = boxDef("box", vec3(5.0f, 0.0f, 0.0f), vec3(0.5f));
    def.orientation = axisAngle(vec3(0, 1, 0), test::degrees(45.0f));
    def.isStatic = true;
    const BodyId box = world.createBody(def);
    // Ray along +x at z = 0.2 hits the face with outward normal (-1, 0, 1)/sqrt(2),
    // whose plane is at distance 0.5 from the centre: x = 5 + (0.2 s - 0.5) / s, s = sqrt(2)/2.
    const float s = 0.5f * std::sqrt(2.0f);
    const float x = 5.0f + (0.2f * s - 0.5f) / s;
    const auto hit = world.rayCast(vec3(0.0f, 0.0f, 0.2f), vec3(1.0f, 0.0f, 0.0f), 100.0f);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->body, box);
    EXPECT_NEAR(hit->distance, x, 1e-5f);  // rounding at ~5 m
    EXPECT_TRUE(test::near(hit->point, vec3(x, 0.0f, 0.2f), 1e-5f));
    EXPECT_TRUE(test::near(hit->normal, vec3(-s, 0.0f, s), 1e-5f));
}

TEST(WorldRayCast, HitsBoxTurnedOnItsSide) {
    World world;
    BodyDef def = boxDef("box", vec3(0.0f, 0.0f, 0.0f), vec3(2.0f, 0.5f, 2.0f));
    def.orientation = axisAngle(vec3(0, 0, 1), test::degrees(90.0f));  // now 1 wide (x), 4 tall (y)
    const BodyId box = world.createBody(def);
    // Straight down from y = 10 at x = 0.3: top face at y = 2.
    const auto hit = world.rayCast(vec3(0.3f, 10.0f, 0.1f), vec3(0.0f, -1.0f, 0.0f), 100.0f);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->body, box);
    EXPECT_NEAR(hit->distance, 8.0f, 1e-5f);
    EXPECT_TRUE(test::near(hit->normal, vec3(0.0f, 1.0f, 0.0f), 1e-5f));
    // At x = 0.6 the ray passes beside the box (half-width 0.5 after the turn).
    EXPECT_FALSE(world.rayCast(vec3(0.6f, 10.0f, 0.1f), vec3(0.0f, -1.0f, 0.0f), 100.0f));
}

TEST(WorldRayCast, NearestBodyWinsMissAndMaxDistance) {
    World world;
    world.createBody(sphereDef("far", vec3(10.0f, 0.0f, 0.0f), 1.0f));
    const BodyId nearBody = world.createBody(boxDef("near", vec3(5.0f, 0.0f, 0.0f), vec3(0.5f)));
    world.createBody(sphereDef("behind", vec3(-5.0f, 0.0f, 0.0f), 1.0f));
    const auto hit = world.rayCast(vec3(0.0f), vec3(1.0f, 0.0f, 0.0f), 100.0f);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->body, nearBody) << "the nearer of the two in front wins regardless of creation order";
    EXPECT_NEAR(hit->distance, 4.5f, 1e-5f);
    EXPECT_TRUE(test::near(hit->normal, vec3(-1.0f, 0.0f, 0.0f), 1e-6f));
    // Miss: ray along +y passes nothing.
    EXPECT_FALSE(world.rayCast(vec3(0.0f), vec3(0.0f, 1.0f, 0.0f), 100.0f));
    // Too short to reach the box at 4.5.
    EXPECT_FALSE(world.rayCast(vec3(0.0f), vec3(1.0f, 0.0f, 0.0f), 4.0f));
    // Zero or non-finite direction: no hit rather than NaN.
    EXPECT_FALSE(world.rayCast(vec3(0.0f), vec3(0.0f), 100.0f));
    EXPECT_FALSE(world.rayCast(vec3(0.0f), vec3(std::numeric_limits<float>::quiet_NaN(), 0.0f, 0.0f), 100.0f));
}

TEST(WorldRayCast, RayStartingInsideABodyIgnoresIt) {
    World world;
    world.createBody(sphereDef("around", vec3(0.0f), 2.0f));
    world.createBody(boxDef("box around", vec3(0.5f, 0.0f, 0.0f), vec3(1.5f)));
    const BodyId target = world.createBody(sphereDef("target", vec3(6.0f, 0.0f, 0.0f), 1.0f));
    const auto hit = world.rayCast(vec3(0.0f), vec3(1.0f, 0.0f, 0.0f), 100.0f);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->body, target);
    EXPECT_NEAR(hit->distance, 5.0f, 1e-5f);
}

// ---------------------------------------------------------------- drag

TEST(WorldDrag, StaticBodyCannotBeDragged) {
    World world;
    BodyDef ground = boxDef("ground", vec3(0.0f), vec3(5.0f, 0.5f, 5.0f));
    ground.isStatic = true;
    const BodyId id = world.createBody(ground);
    const Validation error = world.beginDrag(id, vec3(0.0f, 0.5f, 0.0f));
    ASSERT_TRUE(error);
    EXPECT_EQ(error->field, "body");
    EXPECT_FALSE(world.drag().active);
    // Invalid drag settings and stale bodies are refused too.
    const BodyId box = world.createBody(boxDef("box", vec3(0.0f, 2.0f, 0.0f), vec3(0.5f)));
    DragSettings bad;
    bad.frequency = -1.0f;
    EXPECT_TRUE(world.beginDrag(box, vec3(0.0f, 2.0f, 0.0f), bad));
    EXPECT_FALSE(world.drag().active);
    world.removeBody(box);
    EXPECT_TRUE(world.beginDrag(box, vec3(0.0f, 2.0f, 0.0f)));
    EXPECT_FALSE(world.drag().active);
}

// A centre grab in zero gravity is a damped spring-mass system: the distance
// to the target follows d(t) = d0 e^(-zeta w t) (cos(wd t) + zeta w / wd sin(wd t))
// with w = 2 pi f, wd = w sqrt(1 - zeta^2), as long as the force stays under
// the cap (raised here: the 2 m pull needs 3.9 kN). Checked every step to 3 cm
// of the 2 m pull: the soft constraint is an implicit spring, which at 10
// sub-steps per 1/60 s lags the exact curve by up to 1.3 % of the pull.
TEST(WorldDrag, PullsTowardTargetLikeADampedSpring) {
    World world(zeroGravity());
    const float mass = 2.0f;
    const BodyId box = world.createBody(boxDef("box", vec3(0.0f), vec3(0.5f), mass));
    DragSettings tuning;
    tuning.maxForceInWeights = 1000.0f;
    ASSERT_FALSE(world.beginDrag(box, vec3(0.0f), tuning));
    EXPECT_TRUE(world.drag().active);
    world.setDragTarget(vec3(2.0f, 0.0f, 0.0f));
    const float cap = tuning.maxForceInWeights * mass * 9.81f;  // zero g: Earth's weight
    const double omega = 2.0 * 3.14159265358979 * tuning.frequency, zeta = tuning.dampingRatio;
    const double omegaD = omega * std::sqrt(1.0 - zeta * zeta);
    for (int i = 1; i <= 30; ++i) {
        world.step();
        const float force = glm::length(world.drag().force);
        EXPECT_GT(force, 0.0f) << "step " << i;
        EXPECT_LE(force, cap * (1.0f + 1e-5f)) << "step " << i;  // rounding of the clamp
        const double t = i / 60.0;
        const double expected =
            2.0 * std::exp(-zeta * omega * t) * (std::cos(omegaD * t) + zeta * omega / omegaD * std::sin(omegaD * t));
        const float offset = world.body(box).position.x - 2.0f;
        EXPECT_NEAR(-offset, expected, 0.03) << "step " << i;
    }
    // A centre grab causes no spin (< 1e-4 rad/s).
    EXPECT_LT(glm::length(world.body(box).angularVelocity), 1e-4f);
}

TEST(WorldDrag, FarTargetSaturatesAtTheCap) {
    World world(zeroGravity());
    const float mass = 3.0f;
    const BodyId ball = world.createBody(sphereDef("ball", vec3(0.0f), 0.5f, mass));
    DragSettings settings;
    settings.maxForceInWeights = 2.0f;
    ASSERT_FALSE(world.beginDrag(ball, vec3(0.0f), settings));
    world.setDragTarget(vec3(1000.0f, 0.0f, 0.0f));
    world.step();
    const float cap = 2.0f * mass * 9.81f;
    // The spring wants far more than the cap: the force equals the cap (0.01%),
    // along +x, and the body gains exactly F/m dt of speed (0.1%).
    EXPECT_NEAR(glm::length(world.drag().force), cap, 1e-4f * cap);
    EXPECT_GT(world.drag().force.x, 0.0f);
    const float dt = world.settings().timestep;
    EXPECT_NEAR(world.body(ball).linearVelocity.x, cap / mass * dt, 1e-3f * cap / mass * dt);
}

TEST(WorldDrag, EndDragKeepsVelocity) {
    World world(zeroGravity());
    const BodyId ball = world.createBody(sphereDef("ball", vec3(0.0f), 0.5f));
    ASSERT_FALSE(world.beginDrag(ball, vec3(0.0f, 0.2f, 0.0f)));  // off-centre grab
    world.setDragTarget(vec3(0.0f, 0.2f, 3.0f));
    for (int i = 0; i < 5; ++i) world.step();
    const vec3 v = world.body(ball).linearVelocity;
    const vec3 w = world.body(ball).angularVelocity;
    ASSERT_GT(glm::length(v), 0.1f);
    world.endDrag();
    EXPECT_FALSE(world.drag().active);
    EXPECT_TRUE(test::sameBits(world.body(ball).linearVelocity, v));
    world.step();
    // Zero gravity and no contacts: the thrown body keeps its velocity exactly,
    // and a sphere's spin is unchanged by the gyroscopic term (rounding 1e-6).
    EXPECT_TRUE(test::sameBits(world.body(ball).linearVelocity, v));
    EXPECT_TRUE(test::near(world.body(ball).angularVelocity, w, 1e-6f));
    EXPECT_TRUE(test::near(world.drag().force, vec3(0.0f), 0.0f));
}

TEST(WorldDrag, RemovingOrFreezingTheBodyEndsTheDrag) {
    World world;
    const BodyId a = world.createBody(boxDef("a", vec3(0.0f, 2.0f, 0.0f), vec3(0.5f)));
    ASSERT_FALSE(world.beginDrag(a, vec3(0.0f, 2.0f, 0.0f)));
    BodyDef frozen = world.bodyDef(a);
    frozen.isStatic = true;
    ASSERT_FALSE(world.updateBody(a, frozen));
    EXPECT_FALSE(world.drag().active);
    const BodyId b = world.createBody(boxDef("b", vec3(3.0f, 2.0f, 0.0f), vec3(0.5f)));
    ASSERT_FALSE(world.beginDrag(b, vec3(3.0f, 2.0f, 0.0f)));
    world.removeBody(b);
    EXPECT_FALSE(world.drag().active);
    world.step();  // must not touch the freed slot
    EXPECT_EQ(world.firstNonFiniteBody(), BodyId{});
}

// ---------------------------------------------------------------- contacts

TEST(WorldContacts, RestingBoxCarriesItsWeight) {
    World world;
    BodyDef ground = boxDef("ground", vec3(0.0f, -0.5f, 0.0f), vec3(5.0f, 0.5f, 5.0f));
    ground.isStatic = true;
    const BodyId groundId = world.createBody(ground);
    const float mass = 2.0f;
    const BodyId box = world.createBody(boxDef("box", vec3(0.3f, 0.5f, -0.2f), vec3(0.5f), mass));
    for (int i = 0; i < 120; ++i) world.step();

    const std::vector<ContactPointInfo> contacts = world.contacts();
    ASSERT_EQ(contacts.size(), 4u);
    EXPECT_EQ(world.stats().contactPoints, 4);
    EXPECT_EQ(world.stats().manifolds, 1);
    const float dt = world.settings().timestep;
    float total = 0.0f;
    for (const ContactPointInfo& c : contacts) {
        EXPECT_EQ(c.bodyA, groundId);
        EXPECT_EQ(c.bodyB, box);
        EXPECT_TRUE(test::near(c.normal, vec3(0.0f, 1.0f, 0.0f), 1e-5f));
        EXPECT_GE(c.normalImpulse, 0.0f);
        total += c.normalImpulse;
        // Resting: slightly penetrating, within the slop (5 mm) and a bit (1 mm).
        EXPECT_LE(c.separation, 0.001f);
        EXPECT_GE(c.separation, -0.006f);
        // Every term of k_n, recomputed from the bodies (relative 1e-5).
        EXPECT_FLOAT_EQ(c.inverseMassA, 0.0f);
        EXPECT_FLOAT_EQ(c.inverseMassB, 1.0f / mass);
        EXPECT_FLOAT_EQ(c.angularTermA, 0.0f);
        const float k = c.inverseMassA + c.inverseMassB + c.angularTermA + c.angularTermB;
        EXPECT_NEAR(c.normalMass, 1.0f / k, 1e-5f / k);
        const Body& b = world.body(box);
        const vec3 rB = c.point - b.position;
        EXPECT_TRUE(test::near(c.rB, rB, 1e-3f));  // rB is taken before this step's motion (< 1 mm)
        const float angular = glm::dot(c.normal, glm::cross(b.inverseInertiaWorld * glm::cross(c.rB, c.normal), c.rB));
        EXPECT_NEAR(c.angularTermB, angular, 1e-3f * angular);  // orientation moved by < 1e-4 rad this step
        // For a unit cube of 2 kg at a corner: I^-1 = 3 (1/kg m^2), |r x n|^2 = 0.5 -> 1.5.
        EXPECT_NEAR(c.angularTermB, 1.5f, 0.015f);  // 1%: the settled box may tilt slightly
        // Friction holds a resting box.
        EXPECT_LE(glm::length(c.frictionImpulse), c.frictionBound + 1e-7f);
    }
    // The four normal impulses carry the weight: sum j_n = m g dt (1%).
    const float weightImpulse = mass * 9.81f * dt;
    EXPECT_NEAR(total, weightImpulse, 0.01f * weightImpulse);
    // And the box is at rest on the ground (velocity < 1 mm/s... after 2 s).
    EXPECT_LT(glm::length(world.body(box).linearVelocity), 1e-3f);
    EXPECT_NEAR(world.body(box).position.y, 0.5f, 0.006f);  // within the slop
}

// The queries that copy out one point, or list one body's, agree with contacts():
// the same points at the same indices, awake (the rolling ball) and asleep (the boxes).
TEST(WorldContacts, OnePointOrOneBodysIndicesAreThoseOfTheWholeList) {
    WorldSettings sleepy;
    sleepy.sleeping = true;
    World world(sleepy);
    BodyDef ground = boxDef("ground", vec3(0.0f, -0.5f, 0.0f), vec3(10.0f, 0.5f, 10.0f));
    ground.isStatic = true;
    world.createBody(ground);
    std::vector<BodyId> bodies;
    for (int i = 0; i < 3; ++i) {
        bodies.push_back(world.createBody(boxDef("box", vec3(0.0f, 0.5f + 1.0f * float(i), 0.0f), vec3(0.5f))));
    }
    bodies.push_back(world.createBody(boxDef("apart", vec3(5.0f, 0.5f, 0.0f), vec3(0.5f))));
    BodyDef ball = sphereDef("ball", vec3(-3.0f, 0.4f, 0.0f), 0.4f);
    ball.linearVelocity = vec3(0.0f, 0.0f, 0.5f);  // rolls on: its contact stays awake
    ball.angularVelocity = vec3(1.25f, 0.0f, 0.0f);
    bodies.push_back(world.createBody(ball));
    for (int i = 0; i < 240; ++i) world.step();
    ASSERT_GT(world.stats().sleepingContactPoints, 0);
    ASSERT_GT(world.stats().contactPoints, 0);

    const std::vector<ContactPointInfo> all = world.contacts();
    ASSERT_EQ(world.contactPointCount(), all.size());
    for (size_t i = 0; i < all.size(); ++i) {
        const ContactPointInfo one = world.contactPoint(i);
        EXPECT_TRUE(one.bodyA == all[i].bodyA && one.bodyB == all[i].bodyB && one.featureId == all[i].featureId &&
                    test::sameBits(one.point, all[i].point) && test::sameBits(one.normalMass, all[i].normalMass) &&
                    test::sameBits(one.normalImpulse, all[i].normalImpulse))
            << "point " << i;
    }
    for (BodyId body : bodies) {
        std::vector<size_t> expected;
        for (size_t i = 0; i < all.size(); ++i) {
            if (all[i].bodyA == body || all[i].bodyB == body) expected.push_back(i);
        }
        EXPECT_FALSE(expected.empty());
        EXPECT_EQ(world.contactIndicesOf(body), expected) << world.body(body).name;
    }
    EXPECT_TRUE(world.contactIndicesOf(BodyId{}).empty());
}

TEST(WorldContacts, SphereOnBoxReportsOnePointWithWarmStart) {
    World world;
    BodyDef ground = boxDef("ground", vec3(0.0f, -0.5f, 0.0f), vec3(5.0f, 0.5f, 5.0f));
    ground.isStatic = true;
    world.createBody(ground);
    world.createBody(sphereDef("ball", vec3(1.0f, 0.3f, 1.0f), 0.3f, 1.5f));
    for (int i = 0; i < 60; ++i) world.step();
    const auto contacts = world.contacts();
    ASSERT_EQ(contacts.size(), 1u);
    const ContactPointInfo& c = contacts[0];
    EXPECT_TRUE(c.warmStarted);
    // A sphere's contact is under its centre: r x n = 0, so no angular term (1e-6).
    EXPECT_NEAR(c.angularTermB, 0.0f, 1e-6f);
    EXPECT_NEAR(c.normalMass, 1.5f, 1.5e-5f);
    const float weightImpulse = 1.5f * 9.81f * world.settings().timestep;
    EXPECT_NEAR(c.normalImpulse, weightImpulse, 0.01f * weightImpulse);  // 1%
}

// The position passes measure an overlap as the sub-steps do: a sphere's
// contact stays under its centre however it spins. A frictionless sphere sunk
// 30 cm into the ground, spinning 20 rad/s about a horizontal axis (0.33 rad a
// step), rises exactly as the same sphere at rest: r x n = 0, so the spin
// meets no contact impulse. Measured from a surface point that turned with the
// sphere, as the passes once did, the spinning sphere rose 12.2 cm instead of
// 13.8. Both rise by more than the push-out alone can give (3 m/s for a step),
// so the position passes ran. Tolerance 1e-6 m: the two runs differ only in
// the orientation the sphere integrates.
TEST(WorldContacts, PositionPassesMeasureASpinningSphereUnderItsCentre) {
    const auto riseAfterOneStep = [](const vec3& spin) {
        World world(zeroGravity());
        BodyDef ground = boxDef("ground", vec3(0.0f, -0.5f, 0.0f), vec3(5.0f, 0.5f, 5.0f));
        ground.isStatic = true;
        ground.friction = 0.0f;
        world.createBody(ground);
        BodyDef ball = sphereDef("ball", vec3(0.0f, 0.5f - 0.3f, 0.0f), 0.5f);
        ball.friction = 0.0f;
        ball.angularVelocity = spin;
        const BodyId id = world.createBody(ball);
        world.step(world.settings().timestep);
        return world.body(id).position.y - (0.5f - 0.3f);
    };
    const float atRest = riseAfterOneStep(vec3(0.0f));
    const float spinning = riseAfterOneStep(vec3(0.0f, 0.0f, 20.0f));
    EXPECT_GT(atRest, kMaxPushoutSpeed / 60.0f + 0.01f) << "the position passes did not run";
    EXPECT_NEAR(spinning, atRest, 1e-6f);
}

// ---------------------------------------------------------------- energy and momentum

TEST(WorldEnergy, SphereHandComputed) {
    World world;
    BodyDef def = sphereDef("s", vec3(1.0f, 2.0f, 3.0f), 0.5f, 2.0f);
    def.linearVelocity = vec3(1.0f, 0.0f, 0.0f);
    def.angularVelocity = vec3(0.0f, 0.0f, 2.0f);
    world.createBody(def);
    BodyDef ground = boxDef("ground", vec3(0.0f, -10.0f, 0.0f), vec3(1.0f));
    ground.isStatic = true;
    ground.linearVelocity = vec3(5.0f, 0.0f, 0.0f);  // ignored for static bodies
    world.createBody(ground);
    // I = 2/5 * 2 * 0.25 = 0.2. KE = 1/2 2 1 + 1/2 0.2 4 = 1.4 J. PE = m g y = 2 9.81 2 = 39.24 J.
    EXPECT_NEAR(world.kineticEnergy(), 1.4, 1e-6);  // float inputs: 1e-6 relative
    EXPECT_NEAR(world.potentialEnergy(), 39.24, 1e-5);
    const glm::dvec3 p = world.linearMomentum();
    EXPECT_NEAR(p.x, 2.0, 1e-7);
    EXPECT_NEAR(p.y, 0.0, 1e-12);
    EXPECT_NEAR(p.z, 0.0, 1e-12);
    // L = x x m v + I w = (1,2,3) x (2,0,0) + (0,0,0.4) = (0, 6, -4) + (0, 0, 0.4).
    const glm::dvec3 l = world.angularMomentum();
    EXPECT_NEAR(l.x, 0.0, 1e-6);
    EXPECT_NEAR(l.y, 6.0, 1e-6);
    EXPECT_NEAR(l.z, -3.6, 1e-6);
}

TEST(WorldEnergy, RotatedBoxUsesTheBodyFrameTensor) {
    World world;
    // Box 1 x 0.5 x 0.2 half-extents, m = 3: Ixx = 0.29, Iyy = 1.04, Izz = 1.25.
    BodyDef def = boxDef("b", vec3(0.0f), vec3(1.0f, 0.5f, 0.2f), 3.0f);
    def.orientation = axisAngle(vec3(0, 0, 1), test::degrees(30.0f));
    def.angularVelocity = vec3(1.0f, 0.0f, 0.0f);  // world frame
    world.createBody(def);
    // Body-frame w = R^T (1,0,0) = (cos 30, -sin 30, 0).
    const double c = std::cos(M_PI / 6.0), s = std::sin(M_PI / 6.0);
    const double ixx = 1.0 * (0.25 + 0.04), iyy = 1.0 * (1.0 + 0.04);
    const double expected = 0.5 * (ixx * c * c + iyy * s * s);
    EXPECT_NEAR(world.kineticEnergy(), expected, 1e-6 * expected);  // float tensor: 1e-6 relative
    // L = R I R^T w: body frame (ixx c, -iyy s, 0), rotated back by 30 deg about z.
    const glm::dvec3 lBody(ixx * c, -iyy * s, 0.0);
    const glm::dvec3 lWorld(c * lBody.x - s * lBody.y, s * lBody.x + c * lBody.y, 0.0);
    const glm::dvec3 l = world.angularMomentum();
    EXPECT_NEAR(l.x, lWorld.x, 1e-6);
    EXPECT_NEAR(l.y, lWorld.y, 1e-6);
    EXPECT_NEAR(l.z, 0.0, 1e-6);
    // Not aligned with w: a full-tensor effect a scalar inertia would miss.
    EXPECT_GT(std::fabs(l.y), 0.1);
}

TEST(WorldEnergy, FreeFallConservesEnergyApproximately) {
    World world;
    world.createBody(sphereDef("s", vec3(0.0f, 10.0f, 0.0f), 0.5f, 2.0f));
    const double before = world.kineticEnergy() + world.potentialEnergy();
    for (int i = 0; i < 60; ++i) world.step();
    const double after = world.kineticEnergy() + world.potentialEnergy();
    // Semi-implicit Euler over sub-steps h = dt / 10 (the default velocity
    // iterations) loses m g^2 h t / 2 = 2 * 96.2 * (1/600) / 2 = 0.16 J over 1 s (to 1%).
    const double loss = 2.0 * 9.81 * 9.81 * (1.0 / 600.0) * 1.0 / 2.0;
    EXPECT_NEAR(before - after, loss, 0.01 * loss);
}

// ---------------------------------------------------------------- step guards and determinism

TEST(WorldStep, InvalidDtLeavesTheWorldUnchanged) {
    World world = test::makeScene();
    for (int i = 0; i < 10; ++i) world.step();
    const World copy = world;
    for (float dt : {0.0f, -0.01f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                     0.1001f, 1.0f}) {
        world.step(dt);
        EXPECT_TRUE(test::sameState(world, copy)) << "dt = " << dt;
        EXPECT_EQ(world.stepCount(), copy.stepCount());
    }
    // And the next valid steps continue identically (no hidden cache was touched).
    World reference = copy;
    for (int i = 0; i < 20; ++i) {
        world.step();
        reference.step();
    }
    EXPECT_TRUE(test::sameState(world, reference));
    // The largest allowed dt does step.
    const World beforeMax = world;
    world.step(0.1f);
    EXPECT_EQ(world.stepCount(), beforeMax.stepCount() + 1);
}

TEST(WorldStep, SubstepsSplitTheStep) {
    WorldSettings settings;
    settings.passes = 4;
    World world(settings);
    const BodyId s = world.createBody(sphereDef("s", vec3(0.0f, 100.0f, 0.0f), 0.5f));
    world.step(0.1f);
    // Four passes of 10 sub-steps (h = 0.0025 s) from rest: v = g t exactly
    // (rounding 1e-5), y = y0 - g h^2 (1 + 2 + ... + 40).
    EXPECT_NEAR(world.body(s).linearVelocity.y, -0.981f, 1e-5f);
    EXPECT_NEAR(world.body(s).position.y, 100.0f - 9.81f * 0.0025f * 0.0025f * 820.0f, 1e-4f);
    EXPECT_EQ(world.stepCount(), 1u);
}

std::vector<float> stateBits(const World& world) {
    std::vector<float> state;
    for (BodyId id : world.bodyIds()) {
        const Body& b = world.body(id);
        const float* parts[] = {&b.position.x, &b.orientation.x, &b.linearVelocity.x, &b.angularVelocity.x};
        const int sizes[] = {3, 4, 3, 3};
        for (int p = 0; p < 4; ++p) state.insert(state.end(), parts[p], parts[p] + sizes[p]);
    }
    return state;
}

TEST(WorldStep, DeterministicBitIdentical) {
    // A livelier scene: a small pile on the ground, so that the solver, the
    // broadphase order and warm starting all matter.
    auto build = [] {
        World world = test::makeScene();
        for (int i = 0; i < 6; ++i) {
            BodyDef def = boxDef("pile" + std::to_string(i), vec3(0.1f * i, 2.5f + 1.1f * i, 0.05f * i), vec3(0.4f, 0.3f, 0.5f));
            def.orientation = axisAngle(vec3(1.0f, i, 0.5f), 0.3f * i);
            world.createBody(def);
        }
        return world;
    };
    World a = build(), b = build();
    World c;  // a copy taken mid-way must continue identically too
    for (int i = 0; i < 300; ++i) {
        a.step();
        b.step();
        if (i == 150) c = a;
        if (i > 150) c.step();
    }
    const std::vector<float> sa = stateBits(a), sb = stateBits(b), sc = stateBits(c);
    ASSERT_EQ(sa.size(), sb.size());
    EXPECT_EQ(std::memcmp(sa.data(), sb.data(), sa.size() * sizeof(float)), 0);
    ASSERT_EQ(sa.size(), sc.size());
    EXPECT_EQ(std::memcmp(sa.data(), sc.data(), sa.size() * sizeof(float)), 0);
    EXPECT_EQ(a.firstNonFiniteBody(), BodyId{});
    // The scene did something: bodies are in contact.
    EXPECT_GT(a.stats().contactPoints, 4);
}
}  // namespace
}  // namespace impulse

namespace impulse {
namespace {

// The step guard: a body driven past 1e6 m (here by maximal gravity from the
// edge of the allowed space, after ~41 s) is rolled back to its state before
// that step with zero velocity; the record names the body and the step.
TEST(StepGuard, RollsBackABlownUpStateAndNamesTheBody) {
    WorldSettings settings;
    settings.gravity = vec3(0.0f, -1000.0f, 0.0f);
    World world(settings);
    BodyDef runaway;
    runaway.name = "runaway";
    runaway.position = vec3(0.0f, -99000.0f, 0.0f);
    runaway.linearVelocity = vec3(0.0f, -1000.0f, 0.0f);
    const BodyId id = world.createBody(runaway);
    BodyDef bystander;
    bystander.name = "bystander";
    bystander.position = vec3(10.0f, 0.0f, 0.0f);
    const BodyId other = world.createBody(bystander);

    uint64_t failedStep = 0;
    vec3 before(0.0f), bystanderBefore(0.0f);
    for (int i = 0; i < 4000 && world.recoveryCount() == 0; ++i) {
        before = world.body(id).position;
        bystanderBefore = world.body(other).position;
        failedStep = world.stepCount();
        world.step();
    }
    ASSERT_EQ(world.recoveryCount(), 1u);
    ASSERT_TRUE(world.lastRecovery().has_value());
    EXPECT_EQ(world.lastRecovery()->body, id);
    EXPECT_EQ(world.lastRecovery()->bodyName, "runaway");
    EXPECT_EQ(world.lastRecovery()->step, failedStep);
    // Rolled back exactly, the culprit at rest, and nothing non-finite anywhere.
    EXPECT_EQ(world.body(id).position, before);
    EXPECT_EQ(world.body(id).linearVelocity, vec3(0.0f));
    EXPECT_EQ(world.body(other).position, bystanderBefore);
    EXPECT_FALSE(world.firstNonFiniteBody());
    // The next step starts over from rest and is not flagged again.
    world.step();
    EXPECT_FALSE(world.lastRecovery().has_value());
}

// ---------------------------------------------------------------- sleeping

WorldSettings sleepingOn(WorldSettings settings = {}) {
    settings.sleeping = true;
    return settings;
}

// Steps until `body` sleeps; returns the steps taken, or -1 after `limit`.
int stepsUntilAsleep(World& world, BodyId body, int limit) {
    for (int i = 1; i <= limit; ++i) {
        world.step();
        if (world.body(body).asleep) return i;
    }
    return -1;
}

BodyId addGround(World& world) {
    BodyDef ground = boxDef("ground", vec3(0.0f, -0.5f, 0.0f), vec3(5.0f, 0.5f, 5.0f));
    ground.isStatic = true;
    return world.createBody(ground);
}

TEST(WorldSleep, ValidatesItsSettingsByField) {
    WorldSettings settings;
    settings.sleepSpeed = -0.1f;
    ASSERT_TRUE(validateSettings(settings).has_value());
    EXPECT_EQ(validateSettings(settings)->field, "sleep_speed");
    settings = WorldSettings{};
    settings.sleepTime = 0.0f;
    ASSERT_TRUE(validateSettings(settings).has_value());
    EXPECT_EQ(validateSettings(settings)->field, "sleep_time");
    settings.sleepTime = std::numeric_limits<float>::quiet_NaN();
    EXPECT_EQ(validateSettings(settings)->field, "sleep_time");
    World world(sleepingOn());
    EXPECT_TRUE(world.setSettings(settings).has_value());
    EXPECT_TRUE(world.settings().sleeping);  // refused: unchanged
}

TEST(WorldSleep, OffByDefault) {
    World world;
    addGround(world);
    const BodyId box = world.createBody(boxDef("box", vec3(0.0f, 0.5f, 0.0f), vec3(0.5f)));
    EXPECT_EQ(stepsUntilAsleep(world, box, 300), -1);
    EXPECT_EQ(world.stats().sleepingBodies, 0);
}

TEST(WorldSleep, RestingBoxSleepsAfterSleepTimeStillCarryingItsWeight) {
    World world(sleepingOn());
    addGround(world);
    const float mass = 2.0f;
    const BodyId box = world.createBody(boxDef("box", vec3(0.0f, 0.5f, 0.0f), vec3(0.5f), mass));
    // Placed at rest: it rests from the first step, so it sleeps once 0.5 s (30 steps) have
    // passed, give or take the step or two the contact takes to settle.
    const int steps = stepsUntilAsleep(world, box, 300);
    EXPECT_GE(steps, 30);
    EXPECT_LE(steps, 35);
    const Body before = world.body(box);
    EXPECT_EQ(before.linearVelocity, vec3(0.0f));
    EXPECT_EQ(before.angularVelocity, vec3(0.0f));
    for (int i = 0; i < 600; ++i) world.step();
    // Not stepped at all: not a bit moves under gravity, and nothing is solved.
    EXPECT_TRUE(test::sameBits(world.body(box).position, before.position));
    EXPECT_TRUE(test::sameBits(world.body(box).orientation, before.orientation));
    EXPECT_EQ(world.stats().sleepingBodies, 1);
    EXPECT_EQ(world.stats().manifolds, 0);
    EXPECT_EQ(world.stats().sleepingContactPoints, 4);
    // Its contacts are kept and still show the weight they carried: sum j_n = m g dt (1%).
    float total = 0.0f;
    for (const ContactPointInfo& c : world.contacts()) total += c.normalImpulse;
    EXPECT_EQ(world.contacts().size(), 4u);
    const float weightImpulse = mass * 9.81f * world.settings().timestep;
    EXPECT_NEAR(total, weightImpulse, 0.01f * weightImpulse);
}

TEST(WorldSleep, AMovingBodyKeepsItsIslandAwake) {
    // A box sliding on the ground at 1 m/s against friction 0.5 stops after v^2 / (2 mu g)
    // = 0.10 m, in v / (mu g) = 0.20 s; only then can the 0.5 s of rest start.
    World world(sleepingOn());
    addGround(world);
    BodyDef def = boxDef("box", vec3(0.0f, 0.5f, 0.0f), vec3(0.5f));
    def.linearVelocity = vec3(1.0f, 0.0f, 0.0f);
    const BodyId box = world.createBody(def);
    const int steps = stepsUntilAsleep(world, box, 300);
    const float stopSteps = 0.20f * 60.0f;
    EXPECT_GE(steps, int(stopSteps) + 30 - 3);
    EXPECT_LE(steps, int(stopSteps) + 30 + 6);
    EXPECT_NEAR(world.body(box).position.x, 0.102f, 0.01f);
}

TEST(WorldSleep, ATouchWakesTheIslandBeforeTheSolve) {
    // Zero gravity, e = 1, equal spheres head on: the moving one stops and the struck one
    // leaves with its speed (Newton's cradle). Were the sleeper solved as static for that
    // step, the moving sphere would bounce back at -4 m/s instead.
    World world(sleepingOn(zeroGravity()));
    BodyDef still = sphereDef("still", vec3(0.0f), 0.5f);
    still.restitution = 1.0f;
    const BodyId a = world.createBody(still);
    ASSERT_EQ(stepsUntilAsleep(world, a, 60), 30);  // at rest from the start: 0.5 s
    BodyDef moving = sphereDef("moving", vec3(-3.0f, 0.0f, 0.0f), 0.5f);
    moving.restitution = 1.0f;
    moving.linearVelocity = vec3(4.0f, 0.0f, 0.0f);
    const BodyId b = world.createBody(moving);
    for (int i = 0; i < 60; ++i) world.step();
    EXPECT_FALSE(world.body(a).asleep);
    EXPECT_TRUE(test::near(world.body(a).linearVelocity, vec3(4.0f, 0.0f, 0.0f), 0.02f));
    EXPECT_TRUE(test::near(world.body(b).linearVelocity, vec3(0.0f), 0.02f));
}

TEST(WorldSleep, RemovingTheGroundDropsWhatSleptOnIt) {
    World world(sleepingOn());
    const BodyId ground = addGround(world);
    const BodyId box = world.createBody(boxDef("box", vec3(0.0f, 0.5f, 0.0f), vec3(0.5f)));
    ASSERT_GT(stepsUntilAsleep(world, box, 300), 0);
    const float y0 = world.body(box).position.y;
    ASSERT_TRUE(world.removeBody(ground));
    EXPECT_FALSE(world.body(box).asleep);
    EXPECT_TRUE(world.contacts().empty());
    // Free fall: y0 - g t^2 / 2 after 0.5 s (1%: the sub-steps' semi-implicit Euler).
    for (int i = 0; i < 30; ++i) world.step();
    const float drop = 0.5f * 9.81f * 0.25f;
    EXPECT_NEAR(y0 - world.body(box).position.y, drop, 0.01f * drop);
}

TEST(WorldSleep, EditsDragAndSettingsWakeTheWholeIsland) {
    World world(sleepingOn());
    addGround(world);
    const BodyId bottom = world.createBody(boxDef("bottom", vec3(0.0f, 0.5f, 0.0f), vec3(0.5f)));
    const BodyId top = world.createBody(boxDef("top", vec3(0.0f, 1.5f, 0.0f), vec3(0.5f)));
    const BodyId apart = world.createBody(boxDef("apart", vec3(3.0f, 0.5f, 0.0f), vec3(0.5f)));
    const auto allAsleep = [&] {
        for (int i = 0; i < 300; ++i) {
            world.step();
            if (world.stats().sleepingBodies == 3) break;
        }
        return world.body(bottom).asleep && world.body(top).asleep && world.body(apart).asleep;
    };
    ASSERT_TRUE(allAsleep());
    EXPECT_NE(world.body(top).island, world.body(apart).island);
    EXPECT_EQ(world.body(top).island, world.body(bottom).island);

    // An edit of the top box wakes the stack (one island), not the box apart.
    ASSERT_FALSE(world.updateBody(top, world.bodyDef(top)).has_value());
    EXPECT_FALSE(world.body(top).asleep);
    EXPECT_FALSE(world.body(bottom).asleep);
    EXPECT_TRUE(world.body(apart).asleep);

    ASSERT_TRUE(allAsleep());
    ASSERT_FALSE(world.beginDrag(bottom, world.body(bottom).position).has_value());
    EXPECT_FALSE(world.body(top).asleep);
    EXPECT_TRUE(world.body(apart).asleep);
    // Held by the drag, the stack stays awake however still it is.
    for (int i = 0; i < 120; ++i) world.step();
    EXPECT_FALSE(world.body(bottom).asleep);
    EXPECT_FALSE(world.body(top).asleep);
    world.endDrag();

    ASSERT_TRUE(allAsleep());
    WorldSettings settings = world.settings();
    settings.gravity = vec3(0.0f, 9.81f, 0.0f);
    ASSERT_FALSE(world.setSettings(settings).has_value());
    EXPECT_EQ(world.stats().sleepingBodies, 3);  // the counts are the last step's
    for (BodyId id : {bottom, top, apart}) EXPECT_FALSE(world.body(id).asleep);
    world.step();
    EXPECT_GT(world.body(apart).linearVelocity.y, 0.0f);
}

TEST(WorldSleep, AStaticBodyPutIntoASleepingIslandWakesIt) {
    // The broadphase pairs no static body with a sleeping one, so a static body created
    // or moved into a sleeper must wake it, or the two would overlap for good.
    World world(sleepingOn());
    addGround(world);
    const BodyId box = world.createBody(boxDef("box", vec3(0.0f, 0.5f, 0.0f), vec3(0.5f)));
    ASSERT_GT(stepsUntilAsleep(world, box, 300), 0);
    BodyDef wall = boxDef("wall", vec3(4.0f, 0.5f, 0.0f), vec3(0.5f));
    wall.isStatic = true;
    const BodyId wallId = world.createBody(wall);
    EXPECT_FALSE(world.body(box).asleep);
    ASSERT_GT(stepsUntilAsleep(world, box, 300), 0);
    wall.position = vec3(0.8f, 0.5f, 0.0f);  // 0.2 m into the box
    ASSERT_FALSE(world.updateBody(wallId, wall).has_value());
    EXPECT_FALSE(world.body(box).asleep);
    for (int i = 0; i < 60; ++i) world.step();
    EXPECT_LT(world.body(box).position.x, -0.19f);  // pushed out of the wall
}

TEST(WorldSleep, APileSleepsWakesAndStaysDeterministic) {
    // 27 boxes dropped in a 3x3x3 lattice, then a sphere thrown into the settled pile.
    const auto run = [] {
        World world(sleepingOn());
        addGround(world);
        for (int i = 0; i < 27; ++i) {
            const vec3 p(1.1f * float(i % 3) - 1.1f, 0.6f + 1.2f * float(i / 9), 1.1f * float(i / 3 % 3) - 1.1f);
            BodyDef def = boxDef("b" + std::to_string(i), p, vec3(0.5f));
            def.orientation = axisAngle(vec3(0.3f, 1.0f, 0.2f), 0.1f * float(i));
            world.createBody(def);
        }
        for (int i = 0; i < 600; ++i) world.step();
        const int asleepBefore = world.stats().sleepingBodies;
        BodyDef ball = sphereDef("ball", vec3(-6.0f, 1.0f, 0.0f), 0.4f, 5.0f);
        ball.linearVelocity = vec3(12.0f, 1.0f, 0.0f);
        world.createBody(ball);
        int fewestAsleep = asleepBefore;
        for (int i = 0; i < 60; ++i) {
            world.step();
            fewestAsleep = std::min(fewestAsleep, world.stats().sleepingBodies);
        }
        return std::make_tuple(std::move(world), asleepBefore, fewestAsleep);
    };
    auto [first, asleepBefore, fewestAsleep] = run();
    EXPECT_EQ(asleepBefore, 27);    // the whole pile slept within 10 s
    EXPECT_LT(fewestAsleep, 27);    // the ball woke some of it
    for (BodyId id : first.bodyIds()) ASSERT_TRUE(isFinite(first.body(id).position));
    auto [second, unused1, unused2] = run();
    EXPECT_TRUE(test::sameState(first, second));
}

}  // namespace
}  // namespace impulse
