// Classroom quantities (app/classroom.h) against hand-computed mechanics: a
// system's centre of mass, momentum and angular momentum, and the change of
// momentum and energy bookkeeping of a head-on pair of spheres released moving
// at each other (never placed touching). Both impact stages are run (seen by
// switching each off in solver.cpp): from 0.3 m at dt 1/60 the gap closes
// inside a step (the stage after the sub-steps); from 2 mm, and from 0.3 m at
// 1 ms, the points touch before a step (the stage before them).
#include "app/classroom.h"
#include "app/expect_vec.h"
#include "validation/scenario.h"

#include <gtest/gtest.h>

#include <cmath>
#include <ostream>
#include <string>
#include <tuple>

using namespace impulse;
using namespace impulse::app;
using impulse::test::expectNearVec;
using impulse::test::kTimings;
using impulse::test::sphereDef;
using impulse::test::Timing;

namespace {

// Two 2 kg bodies at y = +-1 m moving at +-1 m/s along x, and a 2 kg sphere of
// radius 0.5 m at (3, 0, 0), at rest, spinning at 10 rad/s about z
// (I = 2/5 m r^2 = 0.2 kg m^2). Centre of mass (1, 0, 0), p = 0; about it the
// pair's orbit gives (0, 1, 0) x (2, 0, 0) + (0, -1, 0) x (-2, 0, 0) = (0, 0, -4)
// and the spin I w = (0, 0, 2): L = (0, 0, -2). KE = 1 + 1 + 1/2 0.2 100 = 12 J.
TEST(ClassroomQuantities, SystemTotalsAreTheHandComputedOnes) {
    World world(test::zeroGravity());
    BodyDef upper = sphereDef(0.1f, 2.0f, vec3(0.0f, 1.0f, 0.0f));
    upper.linearVelocity = vec3(1.0f, 0.0f, 0.0f);
    BodyDef lower = sphereDef(0.1f, 2.0f, vec3(0.0f, -1.0f, 0.0f));
    lower.linearVelocity = vec3(-1.0f, 0.0f, 0.0f);
    BodyDef spinner = sphereDef(0.5f, 2.0f, vec3(3.0f, 0.0f, 0.0f));
    spinner.angularVelocity = vec3(0.0f, 0.0f, 10.0f);
    const BodyId upperId = world.createBody(upper);
    world.createBody(lower);
    const BodyId spinnerId = world.createBody(spinner);
    world.createBody(test::groundDef(0.5f, 0.5f));  // static: no part of the system

    const SystemMotion all = systemMotion(world);
    EXPECT_EQ(all.bodies, 3u);
    EXPECT_DOUBLE_EQ(all.mass, 6.0);
    expectNearVec(all.centre, {1.0, 0.0, 0.0}, 1e-12, "centre");
    expectNearVec(all.velocity, {0.0, 0.0, 0.0}, 1e-12, "velocity");
    expectNearVec(all.momentum, {0.0, 0.0, 0.0}, 1e-12, "momentum");
    expectNearVec(all.angularMomentum, {0.0, 0.0, -2.0}, 1e-6, "angular momentum");
    EXPECT_NEAR(all.kineticEnergy, 12.0, 1e-6);

    const BodyMotion spin = bodyMotion(world.body(spinnerId), all.centre);
    expectNearVec(spin.spin, {0.0, 0.0, 2.0}, 1e-6, "spin");
    expectNearVec(spin.angularMomentum, {0.0, 0.0, 2.0}, 1e-6, "spinner about the centre (at rest)");
    const BodyMotion orbit = bodyMotion(world.body(upperId), all.centre);
    expectNearVec(orbit.momentum, {2.0, 0.0, 0.0}, 1e-12, "m v");
    expectNearVec(orbit.angularMomentum, {0.0, 0.0, -2.0}, 1e-6, "(x - c) x m v");

    // A selection: the upper body and the spinner, centre (1.5, 0.5, 0), p = (2, 0, 0),
    // v = (0.5, 0, 0); L = (-1.5, 0.5, 0) x (2, 0, 0) + (1.5, -0.5, 0) x 0 + (0, 0, 2) = (0, 0, 1).
    const SystemMotion pair = systemMotion(world, {upperId, spinnerId});
    EXPECT_EQ(pair.bodies, 2u);
    expectNearVec(pair.centre, {1.5, 0.5, 0.0}, 1e-12, "selection's centre");
    expectNearVec(pair.velocity, {0.5, 0.0, 0.0}, 1e-12, "selection's velocity");
    expectNearVec(pair.angularMomentum, {0.0, 0.0, 1.0}, 1e-6, "selection's L");
}

// ---- a head-on pair: change of momentum and energy bookkeeping

struct PairCase {
    const char* name;
    float restitution;
    float gap;  ///< m between the surfaces at the start
};
void PrintTo(const PairCase& c, std::ostream* os) { *os << c.name; }
const PairCase kPairs[] = {{"elastic_fromAfar", 1.0f, 0.3f},
                           {"elastic_from2mm", 1.0f, 0.002f},
                           {"halfElastic_fromAfar", 0.5f, 0.3f},
                           {"halfElastic_from2mm", 0.5f, 0.002f}};

class HeadOnImpact : public ::testing::TestWithParam<std::tuple<PairCase, Timing>> {};

// Masses 1 and 3 kg closing at 3 m/s (+2 and -1 m/s), both of restitution e.
// Closed form: reduced mass mu = 3/4 kg, impulse J = mu (1 + e) 3 along +x on
// the right sphere, -J on the left; KE before 1/2 4 + 1/2 3 1 = 3.5 J, lost
// (1 - e^2) 1/2 mu 3^2 = 3.375 (1 - e^2) J; total p = -1 kg m/s throughout.
TEST_P(HeadOnImpact, ChangeOfMomentumAndEnergyFollowTheClosedForm) {
    const auto& [c, timing] = GetParam();
    WorldSettings settings = test::zeroGravity();
    settings.timestep = timing.dt;
    World world(settings);
    constexpr float r = 0.1f;
    BodyDef left = sphereDef(r, 1.0f, vec3(0.0f));
    left.name = "left";
    left.restitution = c.restitution;
    left.linearVelocity = vec3(2.0f, 0.0f, 0.0f);
    BodyDef right = sphereDef(r, 3.0f, vec3(2.0f * r + c.gap, 0.0f, 0.0f));
    right.name = "right";
    right.restitution = c.restitution;
    right.linearVelocity = vec3(-1.0f, 0.0f, 0.0f);
    const BodyId leftId = world.createBody(left);
    const BodyId rightId = world.createBody(right);

    const SystemMotion start = systemMotion(world);
    EXPECT_NEAR(start.momentum.x, -1.0, 1e-12);
    EXPECT_NEAR(start.kineticEnergy, 3.5, 1e-12);

    ImpactBookkeepingLog log;
    vec3 leftBefore(0.0f), rightBefore(0.0f);
    double time = 0.0;
    const int steps = int(std::lround(0.5 / timing.dt));
    for (int i = 0; i < steps && log.entries().empty(); ++i) {
        leftBefore = world.body(leftId).linearVelocity;
        rightBefore = world.body(rightId).linearVelocity;
        world.step();
        time += timing.dt;
        log.record(world, time);
    }
    ASSERT_EQ(log.entries().size(), 1u) << "the pair met";
    const ImpactBookkeeping& impact = log.entries().front();
    EXPECT_EQ(impact.first.nameA, "left");
    EXPECT_EQ(impact.first.nameB, "right");
    EXPECT_NEAR(impact.first.approachSpeed, 3.0, 1e-4);
    EXPECT_EQ(impact.points, 1);

    // The arrows: equal and opposite, and each body's measured m dv, to 1e-6 relative.
    const double mu = 0.75, closing = 3.0, e = c.restitution;
    const double j = mu * (1.0 + e) * closing;
    const glm::dvec3 measuredA = 1.0 * glm::dvec3(world.body(leftId).linearVelocity - leftBefore);
    const glm::dvec3 measuredB = 3.0 * glm::dvec3(world.body(rightId).linearVelocity - rightBefore);
    const double relative = 1e-6 * j;
    expectNearVec(impact.momentumChangeA() + impact.momentumChangeB(), glm::dvec3(0.0), relative, "dp_A + dp_B");
    expectNearVec(impact.momentumChangeA(), measuredA, relative, "dp_A against m_A dv_A");
    expectNearVec(impact.momentumChangeB(), measuredB, relative, "dp_B against m_B dv_B");
    expectNearVec(measuredA + measuredB, glm::dvec3(0.0), relative, "measured dp_A + dp_B");
    // The impulse against the closed form, to the solver's restitution (1e-4, as the impact log's test).
    expectNearVec(impact.momentumChangeB(), {j, 0.0, 0.0}, 1e-4 * j, "dp_B against mu (1 + e) v_rel");

    // Totals conserved across the impact.
    const SystemMotion after = systemMotion(world);
    EXPECT_NEAR(after.momentum.x, -1.0, 1e-6);
    expectNearVec(after.angularMomentum, glm::dvec3(0.0), 1e-6, "L about the centre (head-on: none)");

    // Energy: before from the impulse taken back out, after as the world has it; the
    // loss to the closed form within 1e-4 of the energy before (the solver's e to 1e-4
    // moves the loss by about 2 e 1e-4 1/2 mu v^2).
    const double lost = (1.0 - e * e) * 0.5 * mu * closing * closing;
    EXPECT_NEAR(impact.energyBefore, 3.5, 1e-5);
    EXPECT_NEAR(impact.energyAfter, after.kineticEnergy, 1e-9);
    EXPECT_NEAR(impact.energyLost(), lost, 1e-4 * 3.5);
    // The model's prediction is the textbook loss (m_n is the reduced mass), to float rounding.
    EXPECT_NEAR(impact.predictedLoss, lost, 1e-5 * 3.5);
    EXPECT_NEAR(impact.predictedFraction(), lost / 3.5, 1e-5);
    EXPECT_NEAR(impact.lostFraction(), lost / 3.5, 1e-4);
}

INSTANTIATE_TEST_SUITE_P(Cases, HeadOnImpact,
                         ::testing::Combine(::testing::ValuesIn(kPairs), ::testing::ValuesIn(kTimings)),
                         [](const ::testing::TestParamInfo<std::tuple<PairCase, Timing>>& p) {
                             return std::string(std::get<0>(p.param).name) + "_" + std::get<1>(p.param).name;
                         });

// A glancing hit (the left sphere's line passes 0.1 m above the right's centre), at
// dt 1 ms and the default 1/60 s (the contact then predicted up to 5 cm early). Without
// friction the impulse acts along the line of centres when they touch, n at the first
// t with |d + v t| = 0.2 m: each ball's velocity is the textbook one,
// v' = v -+ (1 + e) m_red (v_rel.n) n / m, to 1e-5 relative, and the loss is exactly the
// model's (1 - e^2) 1/2 m_red u^2. The impulse is applied at the end of the step, with the
// balls moved on from their touch by at most the relative travel of the rest of that step
// (|v_rel| dt): the system's L about its centre of mass changes by at most |J| |v_rel| dt
// (measured 1.8 % of L at 1 ms). Friction takes more than the model's loss, and turns the balls.
TEST(ClassroomQuantities, AGlancingImpactActsAlongTheLineOfCentresAtTouch) {
    for (const float dt : {0.001f, 1.0f / 60.0f}) {
        for (const float mu : {0.0f, 0.8f}) {
            SCOPED_TRACE(std::string(mu == 0.0f ? "frictionless" : "mu 0.8") + ", dt " + std::to_string(dt));
            WorldSettings settings = test::zeroGravity();
            settings.timestep = dt;
            World world(settings);
            BodyDef left = sphereDef(0.1f, 1.0f, vec3(0.0f, 0.1f, 0.0f));
            left.linearVelocity = vec3(3.0f, 0.0f, 0.0f);
            left.friction = mu;
            BodyDef right = sphereDef(0.1f, 2.0f, vec3(0.5f, 0.0f, 0.0f));
            right.friction = mu;
            const BodyId a = world.createBody(left), b = world.createBody(right);
            const SystemMotion before = systemMotion(world);
            // (0, 0.1 - 1/30, 0) x (3, 0, 0): -0.2 kg m^2/s about the centre of mass.
            ASSERT_NEAR(before.angularMomentum.z, -0.2, 1e-6);

            ImpactBookkeepingLog log;
            for (int i = 0; i < 500 && log.entries().empty(); ++i) {
                world.step();
                log.record(world, 0.0);
            }
            ASSERT_EQ(log.entries().size(), 1u);
            const ImpactBookkeeping& impact = log.entries().front();
            EXPECT_LT(impact.impulseOnB.y, -0.5) << "glancing: the right ball is pushed down";
            const SystemMotion after = systemMotion(world);
            expectNearVec(after.momentum, before.momentum, 1e-5, "p");
            EXPECT_NEAR(impact.energyBefore, before.kineticEnergy, 1e-5 * before.kineticEnergy);
            const double bound = glm::length(impact.impulseOnB) * 3.0 * dt;
            EXPECT_LE(std::fabs(after.angularMomentum.z - before.angularMomentum.z), bound) << "L about the centre of mass";
            if (mu == 0.0f) {
                // |d + v t| = R with d = (0.5, -0.1, 0), v = (-3, 0, 0), R = 0.2.
                const glm::dvec3 d(0.5, -0.1, 0.0), v(-3.0, 0.0, 0.0);
                const double c = glm::dot(d, v), vv = glm::dot(v, v);
                const double t = (-c - std::sqrt(c * c - vv * (glm::dot(d, d) - 0.04))) / vv;
                const glm::dvec3 n = glm::normalize(d + v * t);
                const double reduced = 1.0 * 2.0 / 3.0, e = 0.5;
                const double j = -(1.0 + e) * reduced * glm::dot(v, n);
                expectNearVec(glm::dvec3(world.body(a).linearVelocity), glm::dvec3(3.0, 0.0, 0.0) - j * n, 1e-5 * 3.0,
                              "the left ball");
                expectNearVec(glm::dvec3(world.body(b).linearVelocity), j / 2.0 * n, 1e-5 * 3.0, "the right ball");
                EXPECT_NEAR(impact.energyLost(), impact.predictedLoss, 1e-5 * before.kineticEnergy);
            } else {
                EXPECT_GT(impact.energyLost(), impact.predictedLoss + 0.1) << "friction took the slip's energy too";
            }
        }
    }
}

// The log keeps one entry per step with impacts, finds the one at or before a
// step, and forgets the later ones when the run is taken back.
TEST(ImpactBookkeepingLog, FindsTheLatestAtOrBeforeAStepAndForgetsLaterOnes) {
    World world(test::zeroGravity());
    // Three balls on a line, 0.3 m gaps, the first thrown: two impacts in two steps.
    BodyDef first = sphereDef(0.1f, 1.0f, vec3(0.0f));
    first.restitution = 1.0f;
    first.linearVelocity = vec3(6.0f, 0.0f, 0.0f);
    world.createBody(first);
    for (int i = 1; i < 3; ++i) {
        BodyDef ball = sphereDef(0.1f, 1.0f, vec3(0.5f * float(i), 0.0f, 0.0f));
        ball.restitution = 1.0f;
        world.createBody(ball);
    }
    ImpactBookkeepingLog log;
    for (int i = 0; i < 30; ++i) {
        world.step();
        log.record(world, 0.0);
    }
    ASSERT_EQ(log.entries().size(), 2u);
    const uint64_t firstStep = log.entries()[0].first.step, secondStep = log.entries()[1].first.step;
    ASSERT_LT(firstStep, secondStep);
    EXPECT_EQ(log.latestAtOrBefore(firstStep - 1), nullptr);
    EXPECT_EQ(log.latestAtOrBefore(firstStep), &log.entries()[0]);
    EXPECT_EQ(log.latestAtOrBefore(secondStep - 1), &log.entries()[0]);
    EXPECT_EQ(log.latestAtOrBefore(secondStep + 5), &log.entries()[1]);
    log.forgetAfter(secondStep - 1);
    ASSERT_EQ(log.entries().size(), 1u);
    EXPECT_EQ(log.entries()[0].first.step, firstStep);
}

}  // namespace
