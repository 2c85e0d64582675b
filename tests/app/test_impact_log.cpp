// The impact log against closed-form mechanics, from realistic starts: spheres
// thrown at each other and a ball thrown onto the floor, never placed in
// contact. At dt 1/60 the gap closes inside a step (the impact stage after the
// sub-steps); at 1 ms some close within the 5 mm the impact stage before the
// sub-steps takes: the log must give the closed form on both paths.
#include "app/experiment.h"
#include "physics/constants.h"
#include "validation/scenario.h"

#include <gtest/gtest.h>

#include <cmath>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

using namespace impulse;
using namespace impulse::app;
using impulse::test::addGround;
using impulse::test::groundDef;
using impulse::test::kTimings;
using impulse::test::Timing;
using impulse::test::planArrival;
using impulse::test::sphereDef;

namespace {


/// Steps the world for `seconds`, recording the log after each step as Experiment::step does.
std::vector<ImpactEntry> logRun(World& world, double seconds) {
    ImpactLog log;
    double time = 0.0;
    const int steps = int(std::lround(seconds / world.settings().timestep));
    for (int i = 0; i < steps; ++i) {
        world.step();
        time += world.settings().timestep;
        log.record(world, time);
    }
    return {log.entries().begin(), log.entries().end()};
}

// ---- a head-on sphere pair (zero gravity): measured e is the combined e

struct PairCase {
    const char* name;
    float gap;  ///< m between the surfaces at the start
};
void PrintTo(const PairCase& c, std::ostream* os) { *os << c.name; }
const PairCase kPairs[] = {{"fromAfar", 0.3f}, {"from2mm", 0.002f}};

class HeadOnPair : public ::testing::TestWithParam<std::tuple<PairCase, Timing>> {};

// Masses 1 and 3 kg, e 0.9 and 0.5 averaged to 0.7, closing at 3 m/s. Closed
// form: leaving at e 3 = 2.1 m/s, j_n = mu (1 + e) 3 with the reduced mass
// mu = 3/4 kg, kinetic energy lost 1/2 mu 3^2 (1 - e^2) = 1.72125 J; no slip,
// no friction.
TEST_P(HeadOnPair, MeasuredRestitutionIsTheCombinedOne) {
    const auto& [c, timing] = GetParam();
    WorldSettings settings = test::zeroGravity();
    settings.timestep = timing.dt;
    settings.restitutionCombine = RestitutionCombine::Average;
    World world(settings);
    constexpr float r = 0.1f;
    BodyDef left = sphereDef(r, 1.0f, vec3(0.0f));
    left.name = "left";
    left.restitution = 0.9f;
    left.linearVelocity = vec3(2.0f, 0.0f, 0.0f);
    BodyDef right = sphereDef(r, 3.0f, vec3(2.0f * r + c.gap, 0.0f, 0.0f));
    right.name = "right";
    right.restitution = 0.5f;
    right.linearVelocity = vec3(-1.0f, 0.0f, 0.0f);
    world.createBody(left);
    world.createBody(right);

    const std::vector<ImpactEntry> log = logRun(world, 0.5);
    ASSERT_EQ(log.size(), 1u) << "one impact, logged once";
    const ImpactEntry& e = log[0];
    EXPECT_EQ(e.nameA, "left");
    EXPECT_EQ(e.nameB, "right");
    EXPECT_NEAR(e.restitution, 0.7f, 1e-6);
    EXPECT_NEAR(e.approachSpeed, 3.0, 1e-4);
    EXPECT_NEAR(e.leavingSpeed, 2.1, 1e-4);
    EXPECT_NEAR(e.measuredRestitution, 0.7, 1e-4);
    EXPECT_NEAR(e.normalImpulse, 0.75 * 1.7 * 3.0, 1e-4);
    EXPECT_NEAR(e.slipBefore, 0.0, 1e-5);
    EXPECT_NEAR(e.slipAfter, 0.0, 1e-5);
    EXPECT_NEAR(e.frictionImpulse, 0.0, 1e-6);
    EXPECT_NEAR(e.energyLost, 0.5 * 0.75 * 9.0 * (1.0 - 0.49), 1e-3);
    // The step that ended with it: the surfaces close at 3 m/s.
    const double closes = c.gap / 3.0;
    EXPECT_GE(e.time, closes - 1e-6);
    EXPECT_LE(e.time, closes + 2.0 * timing.dt + 1e-6);
}

INSTANTIATE_TEST_SUITE_P(Cases, HeadOnPair, ::testing::Combine(::testing::ValuesIn(kPairs), ::testing::ValuesIn(kTimings)),
                         [](const ::testing::TestParamInfo<std::tuple<PairCase, Timing>>& p) {
                             return std::string(std::get<0>(p.param).name) + "_" + std::get<1>(p.param).name;
                         });

// A step of several passes writes the contact reports again in each: an impact in
// an earlier pass (here the second of four) is still logged, once.
TEST(ImpactLog, AnImpactInAnEarlierPassOfTheStepIsLogged) {
    WorldSettings settings = test::zeroGravity();
    settings.passes = 4;
    World world(settings);
    BodyDef left = sphereDef(0.1f, 1.0f, vec3(0.0f));
    left.restitution = 0.6f;
    left.linearVelocity = vec3(3.0f, 0.0f, 0.0f);
    world.createBody(left);
    // Closing at 3 m/s from 6.5 cm: the surfaces meet 0.36 of the way through step 2.
    BodyDef right = sphereDef(0.1f, 1.0f, vec3(0.265f, 0.0f, 0.0f));
    right.restitution = 0.6f;
    world.createBody(right);
    const std::vector<ImpactEntry> log = logRun(world, 0.2);
    ASSERT_EQ(log.size(), 1u);
    EXPECT_EQ(log[0].step, 2u);
    EXPECT_NEAR(log[0].approachSpeed, 3.0, 1e-4);
    EXPECT_NEAR(log[0].measuredRestitution, 0.6, 1e-4);
}

// Slower than the 1 m/s threshold: an impact that does not bounce (e 0 applied,
// not the pair's 0.5: the pair leaves together), logged with the e it applied.
// Slower than the impact speed (kStickSpeed in zero gravity): no impact.
TEST(ImpactLog, SlowerThanTheThresholdIsAnImpactWithoutBounce) {
    for (const float speed : {0.4f, 0.005f}) {
        World world(test::zeroGravity());
        BodyDef left = sphereDef(0.1f, 1.0f, vec3(0.0f));
        left.linearVelocity = vec3(speed, 0.0f, 0.0f);
        world.createBody(left);
        world.createBody(sphereDef(0.1f, 1.0f, vec3(0.21f, 0.0f, 0.0f)));
        const std::vector<ImpactEntry> log = logRun(world, 4.0);
        if (speed < kStickSpeed) {
            EXPECT_TRUE(log.empty()) << speed << " m/s";
            continue;
        }
        ASSERT_EQ(log.size(), 1u) << speed << " m/s";
        EXPECT_NEAR(log[0].approachSpeed, speed, 1e-4);
        EXPECT_NEAR(log[0].measuredRestitution, 0.0, 1e-4);
        EXPECT_EQ(log[0].restitution, 0.0f);
    }
}

// ---- a ball thrown onto the floor: slip before and after, |j_t| / j_n

enum class Regime { Slides, Rolls };

struct ThrowCase {
    const char* name;
    float vx;    ///< m/s along +x
    float spin;  ///< rad/s about +z (backspin for vx > 0 is positive)
    float vn;    ///< arrival speed, m/s
    float mu;    ///< mu = mu_s
    Regime regime;
};
void PrintTo(const ThrowCase& c, std::ostream* os) { *os << c.name; }

// As tests/validation/test_impacts.cpp (a solid sphere, I = 2/5 m r^2, on a
// static floor, per unit mass): the contact point slips at s = vx + w_z r; a
// tangential impulse j changes s by 7/2 j. Sticks if 2/7 |s| <= mu_s j_n,
// j_n = (1 + e) vn, and then ends with no slip; else slides with
// |j_t| = mu j_n and s' = s - sign(s) 7/2 mu j_n.
const ThrowCase kThrows[] = {
    {"slides", 5.0f, 0.0f, 8.0f, 0.1f, Regime::Slides},
    {"rolls", 3.0f, 0.0f, 8.0f, 0.5f, Regime::Rolls},
    {"backspin_rolls", 3.0f, 30.0f, 4.4294f, 0.5f, Regime::Rolls},
    {"backspin_slides", 3.0f, 100.0f, 4.4294f, 0.1f, Regime::Slides},
};

class ThrownBall : public ::testing::TestWithParam<std::tuple<ThrowCase, Timing>> {};

TEST_P(ThrownBall, SlipAndFrictionRatioFollowTheImpulseModel) {
    const auto& [c, timing] = GetParam();
    constexpr float r = 0.1f, e = 0.5f;
    WorldSettings settings;
    settings.timestep = timing.dt;
    World world(settings);
    addGround(world, c.mu, e);
    const double g = -double(settings.gravity.y);
    const test::ArrivalPlan plan = planArrival(c.vn, timing.dt, g);
    BodyDef ball = sphereDef(r, 1.0f, vec3(0.0f, r + float(plan.height), 0.0f));
    ball.name = "ball";
    ball.linearVelocity = vec3(c.vx, -float(plan.downSpeed), 0.0f);
    ball.angularVelocity = vec3(0.0f, 0.0f, c.spin);
    ball.friction = c.mu;
    ball.restitution = e;
    world.createBody(ball);

    const std::vector<ImpactEntry> log = logRun(world, plan.time + 2.0 * timing.dt);
    ASSERT_EQ(log.size(), 1u);
    const ImpactEntry& entry = log[0];
    EXPECT_EQ(entry.nameA, "ground");
    EXPECT_EQ(entry.nameB, "ball");
    // The arrival speed to the simulation's own tolerance (test_impacts.cpp: 0.2 g dt + 0.2 %);
    // the rest from the impact's measured arrival, to rounding.
    EXPECT_NEAR(entry.approachSpeed, c.vn, 0.2 * g * timing.dt + 0.002 * c.vn);
    const double vn = entry.approachSpeed;
    EXPECT_NEAR(entry.measuredRestitution, e, 1e-4);
    EXPECT_NEAR(entry.restitution, e, 1e-6);
    // j_n = m (1 + e) vn, and the weight the sub-steps held between the ball's
    // arrival and the impact stage (two of the ten sub-steps here): m g dt / 5.
    EXPECT_NEAR(entry.normalImpulse, (1.0 + e) * vn, 0.25 * g * timing.dt + 1e-4 * vn);
    // Friction is bounded by that impact's own j_n.
    const double jn = entry.normalImpulse;

    const double slip = double(c.vx) + double(c.spin) * r;
    EXPECT_NEAR(entry.slipBefore, std::fabs(slip), 2e-3) << "the slip at arrival, before the sub-steps' friction";
    double vxAfter = 0.0, spinAfter = 0.0;
    if (c.regime == Regime::Slides) {
        EXPECT_FALSE(entry.stuck);
        EXPECT_NEAR(entry.frictionRatio(), c.mu, 1e-4);
        // The sub-steps apply their share of the friction at the midpoint's lever
        // arm (docs/physics.md): a few mm/s more spin at dt 1/60.
        EXPECT_NEAR(entry.slipAfter, std::fabs(slip) - 3.5 * c.mu * jn, 2e-3 + 2e-3 * std::fabs(slip));
        const double j = -std::copysign(double(c.mu) * jn, slip);
        vxAfter = c.vx + j;
        spinAfter = c.spin + 2.5 * j / r;
    } else {
        EXPECT_TRUE(entry.stuck);
        EXPECT_NEAR(entry.slipAfter, 0.0, 2e-3);
        EXPECT_NEAR(entry.frictionRatio(), 2.0 / 7.0 * std::fabs(slip) / jn, 1e-3);
        EXPECT_LE(entry.frictionRatio(), c.mu);
        vxAfter = (5.0 * c.vx - 2.0 * c.spin * r) / 7.0;
        spinAfter = -vxAfter / r;
    }
    // Kinetic energy lost: the closed-form states before and after the impact (I = 2/5 m r^2),
    // with the friction impulse of the measured j_n.
    const double inertia = 0.4 * r * r;
    const double before = 0.5 * (c.vx * c.vx + vn * vn) + 0.5 * inertia * c.spin * c.spin;
    const double after = 0.5 * (vxAfter * vxAfter + e * e * vn * vn) + 0.5 * inertia * spinAfter * spinAfter;
    EXPECT_NEAR(entry.energyLost, before - after, 2e-3 * (before - after) + 1e-3);
}

INSTANTIATE_TEST_SUITE_P(Cases, ThrownBall, ::testing::Combine(::testing::ValuesIn(kThrows), ::testing::ValuesIn(kTimings)),
                         [](const ::testing::TestParamInfo<std::tuple<ThrowCase, Timing>>& p) {
                             return std::string(std::get<0>(p.param).name) + "_" + std::get<1>(p.param).name;
                         });

// ---- the log in the experiment: fed by step(), forgets after a step, cleared by a new world

scene::Scene dropScene() {
    scene::Scene scene;
    scene.name = "drop";
    BodyDef ball = sphereDef(0.1f, 1.0f, vec3(0.0f, 1.1f, 0.0f));
    ball.name = "ball";
    ball.restitution = 0.8f;
    scene.bodies = {groundDef(0.5f, 0.5f), ball};
    return scene;
}

TEST(ExperimentImpactLog, StepFeedsItAndABranchForgetsTheLaterEntries) {
    Experiment experiment;
    ASSERT_FALSE(experiment.apply(LoadScene{dropScene(), ""}));
    for (int i = 0; i < 240; ++i) experiment.step();  // 4 s: bounces at 0.45 s, then ever lower
    const std::deque<ImpactEntry>& entries = experiment.observations().impacts.entries();
    ASSERT_GE(entries.size(), 3u);
    EXPECT_EQ(entries[0].nameB, "ball");
    EXPECT_NEAR(entries[0].approachSpeed, std::sqrt(2.0 * 9.81 * 1.0), 0.2 * 9.81 / 60.0 + 0.01);
    EXPECT_NEAR(entries[0].measuredRestitution, 0.8, 1e-4);
    for (size_t k = 1; k < entries.size(); ++k) EXPECT_GT(entries[k].step, entries[k - 1].step);

    // An edit at the first bounce's step branches the run there: the later entries go,
    // and the new run's bounces (under weaker gravity) are logged after it.
    const uint64_t firstStep = entries[0].step;
    experiment.seek(firstStep);
    WorldSettings weaker = experiment.world().settings();
    weaker.gravity.y = -4.0f;
    ASSERT_FALSE(experiment.apply(SetWorldSettings{weaker}));
    ASSERT_EQ(entries.size(), 1u);
    EXPECT_EQ(entries[0].step, firstStep);
    for (int i = 0; i < 120; ++i) experiment.step();
    ASSERT_GE(entries.size(), 2u);
    EXPECT_GT(entries[1].step, firstStep);

    ASSERT_FALSE(experiment.apply(ResetScene{}));
    EXPECT_TRUE(experiment.observations().impacts.entries().empty()) << "a new world starts a new log";
}

}  // namespace
