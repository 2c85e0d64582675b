// The momenta diagram's numbers (app/momenta_diagram.h) on a head-on pair of
// spheres released moving at each other (never placed touching), with a third
// body drifting past: the arrows tip to tail, the totals before and after the
// impact equal, and "before" equal to the bodies' momenta recorded one step
// before the impact; the plane and the scale that fit the arrows to a box.
#include "app/momenta_diagram.h"
#include "app/expect_vec.h"
#include "validation/scenario.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>

using namespace impulse;
using namespace impulse::app;
using impulse::test::expectNearVec;
using impulse::test::kTimings;
using impulse::test::sphereDef;
using impulse::test::Timing;

namespace {

void expectTipToTail(const MomentaChain& chain, const char* which) {
    ASSERT_FALSE(chain.arrows.empty()) << which;
    expectNearVec(chain.arrows.front().tail, glm::dvec3(0.0), 0.0, std::string(which) + ": first tail at the origin");
    for (size_t i = 1; i < chain.arrows.size(); ++i) {
        // Exactly: each tail is the previous tip, not a sum taken again.
        expectNearVec(chain.arrows[i].tail, chain.arrows[i - 1].tip, 0.0, std::string(which) + ": tail " + std::to_string(i));
    }
    expectNearVec(chain.total, chain.arrows.back().tip, 0.0, std::string(which) + ": total at the last tip");
}

struct Pair {
    World world;
    BodyId left, right, drifter;
};

// Masses 1 and 3 kg closing at 3 m/s (+2 and -1 m/s along x), restitution `e`,
// 0.3 m apart; a 2 kg "drifter" 1 m off the line, moving at 0.5 m/s along z
// (so that the total and L about the centre are not along one axis). Zero gravity.
Pair headOnPair(float e, float dt) {
    WorldSettings settings = test::zeroGravity();
    settings.timestep = dt;
    Pair pair{World(settings), {}, {}, {}};
    BodyDef left = sphereDef(0.1f, 1.0f, vec3(0.0f));
    left.name = "left";
    left.restitution = e;
    left.linearVelocity = vec3(2.0f, 0.0f, 0.0f);
    BodyDef right = sphereDef(0.1f, 3.0f, vec3(0.5f, 0.0f, 0.0f));
    right.name = "right";
    right.restitution = e;
    right.linearVelocity = vec3(-1.0f, 0.0f, 0.0f);
    BodyDef drifter = sphereDef(0.1f, 2.0f, vec3(0.25f, 0.0f, -1.0f));
    drifter.name = "drifter";
    drifter.linearVelocity = vec3(0.0f, 0.0f, 0.5f);
    pair.left = pair.world.createBody(left);
    pair.right = pair.world.createBody(right);
    pair.drifter = pair.world.createBody(drifter);
    return pair;
}

class MomentaAroundAnImpact : public ::testing::TestWithParam<std::tuple<float, Timing>> {};

TEST_P(MomentaAroundAnImpact, BeforeAndAfterAddUpToTheSameTotal) {
    const auto& [e, timing] = GetParam();
    Pair pair = headOnPair(e, timing.dt);
    World& world = pair.world;

    // Step until the log has the impact, keeping each body's m v and the system's L
    // of the step before.
    ImpactBookkeepingLog log;
    std::vector<glm::dvec3> momentaBefore;
    SystemMotion systemBefore;
    for (int i = 0; i < int(std::lround(0.5 / timing.dt)) && log.entries().empty(); ++i) {
        momentaBefore.clear();
        for (BodyId id : world.bodyIds()) momentaBefore.push_back(bodyMotion(world.body(id), glm::dvec3(0.0)).momentum);
        systemBefore = systemMotion(world);
        log.beforeStep(world);
        world.step();
        log.record(world, 0.0);
    }
    ASSERT_EQ(log.entries().size(), 1u) << "the pair met";
    const ImpactBookkeeping& impact = log.entries().front();
    ASSERT_EQ(impact.bodiesAfter.size(), 3u);
    const double j = 0.75 * (1.0 + e) * 3.0;  // the impulse, mu (1 + e) v_rel

    const MomentaDiagram p = momentaDiagram(world, &impact, {}, MomentaQuantity::Linear);
    ASSERT_EQ(p.before.arrows.size(), 3u);
    ASSERT_EQ(p.after.arrows.size(), 3u);
    EXPECT_EQ(p.bodiesLeftOut, 0u);
    expectTipToTail(p.before, "p before");
    expectTipToTail(p.after, "p after");
    // The pair first (A and B of the impact), then the drifter.
    EXPECT_EQ(p.after.arrows[2].name, "drifter");

    // Totals: -1 + 0 along x, 1 kg m/s along z, equal before and after to 1e-6 relative.
    const double total = std::sqrt(1.0 + 1.0);
    expectNearVec(p.before.total, p.after.total, 1e-6 * total, "total p before against after");
    expectNearVec(p.after.total, {-1.0, 0.0, 1.0}, 1e-6 * total, "total p against the start's");

    // After: the world's m v now; before: the m v recorded one step before (the log's
    // record of it, from the same floats: to 1e-6 of the impulse, which it beats).
    const std::vector<BodyId> ids = world.bodyIds();
    for (const MomentumArrow& a : p.after.arrows) {
        const size_t k = size_t(std::find(ids.begin(), ids.end(), a.body) - ids.begin());
        ASSERT_LT(k, ids.size());
        expectNearVec(a.value(), bodyMotion(world.body(a.body), glm::dvec3(0.0)).momentum, 1e-9, a.name + " after");
    }
    for (const MomentumArrow& a : p.before.arrows) {
        const size_t k = size_t(std::find(ids.begin(), ids.end(), a.body) - ids.begin());
        expectNearVec(a.value(), momentaBefore[k], 1e-6 * j, a.name + " before, against the step before");
    }

    // Angular momentum about the three bodies' centre: tip to tail, the same total
    // before and after, and the system's of the step before (kept: no torque acts).
    const MomentaDiagram l = momentaDiagram(world, &impact, {}, MomentaQuantity::Angular);
    expectTipToTail(l.before, "L before");
    expectTipToTail(l.after, "L after");
    const double angularScale = std::max(glm::length(systemBefore.angularMomentum), 1.0);
    expectNearVec(l.before.total, l.after.total, 1e-6 * angularScale, "total L before against after");
    expectNearVec(l.before.total, systemBefore.angularMomentum, 1e-6 * angularScale, "total L against the step before");
    EXPECT_GT(glm::length(l.after.total), 0.1) << "the drifter's orbit about the centre gives the system an L";
}

INSTANTIATE_TEST_SUITE_P(Cases, MomentaAroundAnImpact,
                         ::testing::Combine(::testing::Values(1.0f, 0.5f), ::testing::ValuesIn(kTimings)),
                         [](const ::testing::TestParamInfo<std::tuple<float, Timing>>& p) {
                             return std::string(std::get<0>(p.param) == 1.0f ? "elastic" : "halfElastic") + "_" +
                                    std::get<1>(p.param).name;
                         });

// One body of the pair only: its arrow changes by its dp, and the diagram says that
// the total changes. Without an impact: both chains are the world's now.
TEST(MomentaDiagram, ASelectionOrNoImpact) {
    Pair pair = headOnPair(1.0f, 1.0f / 60.0f);
    const MomentaDiagram now = momentaDiagram(pair.world, nullptr, {}, MomentaQuantity::Linear);
    EXPECT_EQ(now.impact, nullptr);
    expectNearVec(now.before.total, now.after.total, 0.0, "no impact: before is now");
    expectNearVec(now.after.total, {-1.0, 0.0, 1.0}, 1e-12, "total p now");

    // A log told of each step before it, and one not: that one has no "before".
    ImpactBookkeepingLog log, unprepared;
    for (int i = 0; i < 60 && log.entries().empty(); ++i) {
        log.beforeStep(pair.world);
        pair.world.step();
        log.record(pair.world, 0.0);
        unprepared.record(pair.world, 0.0);
    }
    ASSERT_EQ(log.entries().size(), 1u);
    ASSERT_EQ(unprepared.entries().size(), 1u);
    EXPECT_TRUE(momentaDiagram(pair.world, &unprepared.entries().front(), {}, MomentaQuantity::Linear).before.arrows.empty());
    EXPECT_EQ(momentaDiagram(pair.world, &unprepared.entries().front(), {}, MomentaQuantity::Linear).after.arrows.size(), 3u);

    const ImpactBookkeeping& impact = log.entries().front();
    const MomentaDiagram right = momentaDiagram(pair.world, &impact, {pair.right}, MomentaQuantity::Linear);
    ASSERT_EQ(right.after.arrows.size(), 1u);
    ASSERT_EQ(right.before.arrows.size(), 1u);
    const glm::dvec3 rightsChange =
        impact.first.bodyB == pair.right ? impact.momentumChangeB() : impact.momentumChangeA();
    expectNearVec(right.after.total - right.before.total, rightsChange, 1e-6 * glm::length(rightsChange), "right's dp");
    expectNearVec(right.before.total, {-3.0, 0.0, 0.0}, 1e-5, "right's m v before");
}

// A cradle: a striker at 2 m/s meets a row of three touching balls (e = 1, equal
// masses). The impact passes down the row within one step, through the balls'
// contacts, which are not the impact's pair: "before" is the record of the step
// before (the striker alone moving), not the impact's impulse taken back out of
// the pair (which would show the first ball moving backward).
TEST(MomentaDiagram, ACradlesChainWithinOneStepIsTakenBackWhole) {
    WorldSettings settings = test::zeroGravity();
    World world(settings);
    BodyDef striker = sphereDef(0.1f, 1.0f, vec3(-0.5f, 0.0f, 0.0f));
    striker.name = "striker";
    striker.restitution = 1.0f;
    striker.linearVelocity = vec3(2.0f, 0.0f, 0.0f);
    world.createBody(striker);
    for (int i = 0; i < 3; ++i) {
        BodyDef ball = sphereDef(0.1f, 1.0f, vec3(0.2f * float(i), 0.0f, 0.0f));
        ball.name = "ball" + std::to_string(i + 1);
        ball.restitution = 1.0f;
        world.createBody(ball);
    }
    ImpactBookkeepingLog log;
    std::vector<glm::dvec3> momentaBefore;
    for (int i = 0; i < 60 && log.entries().empty(); ++i) {
        momentaBefore.clear();
        for (BodyId id : world.bodyIds()) momentaBefore.push_back(bodyMotion(world.body(id), glm::dvec3(0.0)).momentum);
        log.beforeStep(world);
        world.step();
        log.record(world, 0.0);
    }
    ASSERT_EQ(log.entries().size(), 1u);
    const ImpactBookkeeping& impact = log.entries().front();
    const MomentaDiagram p = momentaDiagram(world, &impact, {}, MomentaQuantity::Linear);
    ASSERT_EQ(p.before.arrows.size(), 4u);
    expectNearVec(p.before.total, p.after.total, 1e-6 * 2.0, "total p");
    const std::vector<BodyId> ids = world.bodyIds();
    for (const MomentumArrow& a : p.before.arrows) {
        const size_t k = size_t(std::find(ids.begin(), ids.end(), a.body) - ids.begin());
        expectNearVec(a.value(), momentaBefore[k], 1e-6 * 2.0, a.name + " before, against the step before");
    }
    // Within the step the row's far ball took most of the striker's momentum (1.75 of
    // 2 kg m/s at this step size), the total kept.
    EXPECT_GT(p.after.arrows.back().value().x, 1.5) << "the far ball after";
    expectNearVec(p.after.total, {2.0, 0.0, 0.0}, 1e-6 * 2.0, "total p after");
}

// The plane: the one the arrows lie in; the scale: every tip inside the box.
TEST(MomentaDiagram, PlaneAndScaleFitTheArrows) {
    Pair pair = headOnPair(1.0f, 1.0f / 60.0f);
    const MomentaDiagram diagram = momentaDiagram(pair.world, nullptr, {}, MomentaQuantity::Linear);
    EXPECT_EQ(readablePlane(diagram), MomentaPlane::XZ) << "p along x and z";
    const PlaneAxes axes = planeAxes(MomentaPlane::XZ);
    EXPECT_EQ(projectOnPlane({1.0, 2.0, 3.0}, axes), glm::dvec2(1.0, -3.0)) << "seen from above: z down";

    const double width = 200.0, height = 120.0, margin = 10.0;
    const DiagramScale scale = fitDiagram(diagram, axes, width, height, margin);
    double lowX = width, highX = 0.0, lowY = height, highY = 0.0;
    for (const MomentumArrow& a : diagram.after.arrows) {
        const glm::dvec2 tip = projectOnPlane(a.tip, axes);
        const double x = scale.origin.x + tip.x * scale.pixelsPerUnit, y = scale.origin.y - tip.y * scale.pixelsPerUnit;
        lowX = std::min(lowX, x);
        highX = std::max(highX, x);
        lowY = std::min(lowY, y);
        highY = std::max(highY, y);
    }
    for (double v : {lowX, highX, scale.origin.x}) {
        EXPECT_GE(v, margin - 1e-9);
        EXPECT_LE(v, width - margin + 1e-9);
    }
    for (double v : {lowY, highY, scale.origin.y}) {
        EXPECT_GE(v, margin - 1e-9);
        EXPECT_LE(v, height - margin + 1e-9);
    }
    // The tips (2, 0, 0), (-1, 0, 0), (-1, 0, 1) and the origin span 3 units of x over
    // 180 px and 1 of z over 100 px: the width decides, 60 px a unit.
    EXPECT_NEAR(scale.pixelsPerUnit, 60.0, 1e-9);
    // A bar of 1, 2 or 5 x 10^k at most 40 % of the width: 72 px = 1.2 units -> 1.
    EXPECT_DOUBLE_EQ(scale.barValue, 1.0);
    EXPECT_NEAR(scale.barPixels, 60.0, 1e-9);

    // The cradle's swing: p along x and y reads from the front.
    MomentaDiagram swing;
    swing.after.arrows.push_back(MomentumArrow{BodyId{}, "ball", glm::dvec3(0.0), glm::dvec3(1.0, -0.5, 0.0)});
    EXPECT_EQ(readablePlane(swing), MomentaPlane::XY);
    swing.after.arrows.back().tip = glm::dvec3(0.0, -0.5, 1.0);
    EXPECT_EQ(readablePlane(swing), MomentaPlane::ZY);
}

// A head-on pair's arrows lie on one line (the tab then puts each on a row of its own);
// with the drifter's p across the line they span the plane.
TEST(MomentaDiagram, AHeadOnPairsArrowsLieOnOneLine) {
    Pair pair = headOnPair(1.0f, 1.0f / 60.0f);
    const PlaneAxes axes = planeAxes(MomentaPlane::XZ);
    const MomentaDiagram pairOnly = momentaDiagram(pair.world, nullptr, {pair.left, pair.right}, MomentaQuantity::Linear);
    const DiagramScale scale = fitDiagram(pairOnly, axes, 200.0, 120.0, 10.0);
    const glm::dvec2 line = commonLine(pairOnly, axes, scale, 2.0);
    EXPECT_EQ(line.x, -1.0) << "along the longest arrow, the 3 kg ball's -3 kg m/s";
    EXPECT_EQ(line.y, 0.0);
    const MomentaDiagram all = momentaDiagram(pair.world, nullptr, {}, MomentaQuantity::Linear);
    EXPECT_EQ(commonLine(all, axes, fitDiagram(all, axes, 200.0, 120.0, 10.0), 2.0), glm::dvec2(0.0));
    // The tip 2 units out is 2 / 3 of the longest arrow's sideways offset off its line:
    // 1 px of offset (gravity's m g dt in a side view) is on it, 5 px are not.
    for (const double offset : {1.0, 5.0}) {
        MomentaDiagram nearly = pairOnly;
        nearly.after.arrows.back().tip.z += offset / scale.pixelsPerUnit;
        const glm::dvec2 tilted = commonLine(nearly, axes, scale, 2.0);
        if (offset == 1.0) {
            EXPECT_NEAR(tilted.x, -1.0, 1e-3);
        } else {
            EXPECT_EQ(tilted, glm::dvec2(0.0));
        }
    }
}

}  // namespace
