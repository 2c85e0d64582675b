// The view's trails (BodyTrails, recorded by the experiment): the points are the
// bodies' positions after each step, bit for bit, and stay so after a rewind, a
// re-run from an earlier step, a reset, a deletion and a promoted ghost; the
// length bound.
#include "app/experiment.h"
#include "validation/scenario.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

using namespace impulse;
using namespace impulse::app;
using impulse::test::boxDef;
using impulse::test::groundDef;
using impulse::test::sphereDef;

namespace {

// A ball dropped with spin onto the ground (it bounces and rolls) and a box thrown across.
scene::Scene ballAndBox() {
    scene::Scene scene;
    scene.name = "trails";
    scene.bodies.push_back(groundDef(0.6f, 0.5f));
    BodyDef ball = sphereDef(0.2f, 1.0f, vec3(0.0f, 1.5f, 0.0f));
    ball.name = "ball";
    ball.restitution = 0.8f;
    ball.linearVelocity = vec3(1.0f, 0.0f, 0.0f);
    ball.angularVelocity = vec3(0.0f, 0.0f, -8.0f);
    scene.bodies.push_back(ball);
    BodyDef box = boxDef(vec3(0.2f, 0.1f, 0.3f), 2.0f, vec3(-2.0f, 0.5f, 1.0f));
    box.name = "box";
    box.linearVelocity = vec3(3.0f, 2.0f, 0.0f);
    box.angularVelocity = vec3(1.0f, 4.0f, 0.5f);
    scene.bodies.push_back(box);
    return scene;
}

// The positions the trails must hold: each dynamic body's centre and marked point
// after each step, by step.
using Recorded = std::map<uint64_t, std::map<std::pair<uint32_t, uint32_t>, TrailPoint>>;

void note(const World& world, Recorded& recorded) {
    for (BodyId id : world.bodyIds()) {
        const Body& b = world.body(id);
        if (b.isStatic) continue;
        recorded[world.stepCount()][{id.index, id.generation}] = {
            b.position, b.position + b.rotation * markedPointOffset(b.shape)};
    }
}

void run(Experiment& experiment, int steps, Recorded& recorded) {
    for (int i = 0; i < steps; ++i) {
        experiment.step();
        note(experiment.world(), recorded);
    }
}

// Every point of every trail is the recorded one of its step, to the bit, and every
// recorded step in [from, to] of each body alive then is in its trail.
void expectTrailsAre(const BodyTrails& trails, const Recorded& recorded, uint64_t from, uint64_t to) {
    ASSERT_TRUE(trails.holds(to));
    size_t checked = 0;
    for (const BodyTrail& trail : trails.trails()) {
        for (size_t k = 0; k < trail.points.size(); ++k) {
            const uint64_t step = trail.firstStep + k;
            const auto& bodies = recorded.at(step);
            const auto it = bodies.find({trail.body.index, trail.body.generation});
            ASSERT_NE(it, bodies.end()) << "step " << step << ": a point of a body not there";
            EXPECT_EQ(trail.points[k].centre, it->second.centre) << "step " << step;
            EXPECT_EQ(trail.points[k].mark, it->second.mark) << "step " << step;
        }
    }
    for (uint64_t step = from; step <= to; ++step) {
        for (const auto& [key, point] : recorded.at(step)) {
            const BodyTrail* trail = trails.trailOf(BodyId{key.first, key.second});
            ASSERT_NE(trail, nullptr) << "step " << step;
            ASSERT_LE(trail->firstStep, step);
            ASSERT_GE(trail->lastStep(), step);
            ++checked;
        }
    }
    EXPECT_GT(checked, 0u);
}

struct TrailsFixture : ::testing::Test {
    Experiment experiment;
    BodyId ball, box;
    Recorded recorded;

    void SetUp() override {
        ASSERT_FALSE(experiment.apply(LoadScene{ballAndBox(), ""}));
        experiment.observations().trails.setRecording(true);
        ball = experiment.world().findBody("ball");
        box = experiment.world().findBody("box");
    }
    const BodyTrails& trails() const { return experiment.observations().trails; }
    std::vector<ShownTrailPoint> shown(BodyId body, uint64_t step, double seconds, bool marks = false) const {
        std::vector<ShownTrailPoint> out;
        if (const BodyTrail* trail = trails().trailOf(body))
            trails().shownPoints(*trail, step, seconds, marks, out);
        return out;
    }
};

TEST_F(TrailsFixture, ThePointsAreTheStepsPositionsBitForBit) {
    run(experiment, 90, recorded);
    ASSERT_NO_FATAL_FAILURE(expectTrailsAre(trails(), recorded, 1, 90));
    EXPECT_EQ(trails().trailOf(ball)->firstStep, 1u);
    EXPECT_EQ(trails().trailOf(ball)->lastStep(), 90u);
    // Drawn at the end: every point, oldest first, the newest the body's centre now.
    const std::vector<ShownTrailPoint> centres = shown(ball, 90, BodyTrails::kMaxSeconds);
    ASSERT_EQ(centres.size(), 90u);
    EXPECT_EQ(centres.back().position, experiment.world().body(ball).position);
    EXPECT_EQ(centres.back().age, 0.0f);
    EXPECT_EQ(centres.front().position, recorded.at(1).at({ball.index, ball.generation}).centre);
    EXPECT_NEAR(centres.front().age, 89.0 * experiment.world().settings().timestep, 1e-5);
    const std::vector<ShownTrailPoint> marks = shown(box, 90, BodyTrails::kMaxSeconds, true);
    ASSERT_EQ(marks.size(), 90u);
    EXPECT_EQ(marks[40].position, recorded.at(41).at({box.index, box.generation}).mark);
    // The marked point is a corner of the box: off the centre by its half-extents' length.
    EXPECT_NEAR(glm::length(marks[40].position - recorded.at(41).at({box.index, box.generation}).centre),
                glm::length(vec3(0.2f, 0.1f, 0.3f)), 1e-5);
}

TEST_F(TrailsFixture, ARewindShowsOnlyThePointsUpToTheStepShownAndAReRunReplacesTheLaterOnes) {
    run(experiment, 90, recorded);
    experiment.seek(40);
    // The later points are kept (scrubbing forward shows them again) but not drawn.
    const std::vector<ShownTrailPoint> atForty = shown(ball, 40, BodyTrails::kMaxSeconds);
    ASSERT_EQ(atForty.size(), 40u);
    EXPECT_EQ(atForty.back().position, experiment.world().body(ball).position);
    // Playing the recorded run again adds nothing and changes nothing.
    for (int i = 0; i < 10; ++i) experiment.step();
    ASSERT_NO_FATAL_FAILURE(expectTrailsAre(trails(), recorded, 1, 90));
    // An edit at step 50 continues the run from there: the points after it are the new run's.
    BodyDef kicked = experiment.world().bodyDef(ball);
    kicked.linearVelocity += vec3(0.0f, 4.0f, -2.0f);
    ASSERT_FALSE(experiment.apply(SetBody{ball, kicked}));
    const TrailPoint oldSixty = recorded.at(60).at({ball.index, ball.generation});
    for (uint64_t step = 51; step <= 90; ++step) recorded.erase(step);
    run(experiment, 40, recorded);
    ASSERT_NO_FATAL_FAILURE(expectTrailsAre(trails(), recorded, 1, 90));
    EXPECT_NE(trails().trailOf(ball)->points[59].centre, oldSixty.centre) << "the kick must change the path";
}

TEST_F(TrailsFixture, AResetForgetsThePointsAndTheNewRunRecordsItsOwn) {
    run(experiment, 60, recorded);
    ASSERT_FALSE(experiment.apply(ResetScene{}));
    EXPECT_FALSE(trails().holds(0));
    EXPECT_EQ(trails().trailOf(experiment.world().findBody("ball")), nullptr);
    recorded.clear();
    run(experiment, 20, recorded);
    ASSERT_NO_FATAL_FAILURE(expectTrailsAre(trails(), recorded, 1, 20));
    EXPECT_EQ(trails().firstStep(), 1u);
    EXPECT_EQ(trails().lastStep(), 20u);
}

TEST_F(TrailsFixture, TheTrailsKeepTheLongestTrailsSecondsAndNoMore) {
    const int steps = int(12.0 / experiment.world().settings().timestep);
    std::vector<double> times{0.0};
    for (int i = 0; i < steps; ++i) {
        experiment.step();
        times.push_back(experiment.simulatedTime());
    }
    const double now = times.back();
    // Kept: exactly the steps at most kMaxSeconds old.
    uint64_t oldest = 0;
    while (times[oldest] < now - BodyTrails::kMaxSeconds) ++oldest;
    EXPECT_GT(oldest, 1u);
    EXPECT_EQ(trails().firstStep(), oldest);
    EXPECT_EQ(trails().lastStep(), uint64_t(steps));
    EXPECT_EQ(trails().trailOf(ball)->firstStep, oldest);
    EXPECT_EQ(trails().trailOf(ball)->points.size(), steps - oldest + 1);
    // A 2 s trail: the points at most 2 s old, ages ascending to 0.
    const std::vector<ShownTrailPoint> two = shown(ball, uint64_t(steps), 2.0);
    uint64_t from = uint64_t(steps);
    while (now - times[from - 1] <= 2.0) --from;
    ASSERT_EQ(two.size(), uint64_t(steps) - from + 1);
    EXPECT_LE(two.front().age, 2.0f);
    EXPECT_EQ(two.back().age, 0.0f);
}

TEST_F(TrailsFixture, ADeletedBodysTrailEndsAtItsDeletionAndABodyInItsSlotStartsItsOwn) {
    run(experiment, 30, recorded);
    ASSERT_FALSE(experiment.apply(DeleteBody{ball}));
    run(experiment, 10, recorded);
    const BodyTrail* gone = trails().trailOf(ball);
    ASSERT_NE(gone, nullptr);
    EXPECT_EQ(gone->lastStep(), 30u);
    EXPECT_EQ(shown(ball, 40, BodyTrails::kMaxSeconds).size(), 30u) << "its path stays, fading with age";
    // A spawned body may take the slot: its trail starts where it appeared, never from the ball's path.
    BodyDef spawned = sphereDef(0.2f, 1.0f, vec3(3.0f, 2.0f, 0.0f));
    spawned.name = "spawned";
    ASSERT_FALSE(experiment.apply(SpawnBody{spawned, false}));
    const BodyId newcomer = experiment.world().findBody("spawned");
    run(experiment, 10, recorded);
    ASSERT_NE(trails().trailOf(newcomer), nullptr);
    EXPECT_EQ(trails().trailOf(newcomer)->firstStep, 41u);
    // Undoing the deletion... and the spawn: the ball comes back under a new handle, with a new trail.
    ASSERT_FALSE(experiment.undo());
    ASSERT_FALSE(experiment.undo());
    const BodyId back = experiment.world().findBody("ball");
    ASSERT_NE(back, ball);
    run(experiment, 5, recorded);
    ASSERT_NE(trails().trailOf(back), nullptr);
    EXPECT_EQ(trails().trailOf(back)->firstStep, 51u);
    ASSERT_NO_FATAL_FAILURE(expectTrailsAre(trails(), recorded, 51, 55));
}

TEST_F(TrailsFixture, ABodyMadeStaticAndDynamicAgainStartsANewTrail) {
    run(experiment, 20, recorded);
    BodyDef held = experiment.world().bodyDef(box);
    held.isStatic = true;
    ASSERT_FALSE(experiment.apply(SetBody{box, held}));
    run(experiment, 10, recorded);
    EXPECT_EQ(trails().trailOf(box)->lastStep(), 20u);
    held = experiment.world().bodyDef(box);
    held.isStatic = false;
    ASSERT_FALSE(experiment.apply(SetBody{box, held}));
    run(experiment, 10, recorded);
    EXPECT_EQ(trails().trailOf(box)->firstStep, 31u) << "no line across the steps it was not recorded";
    ASSERT_NO_FATAL_FAILURE(expectTrailsAre(trails(), recorded, 31, 40));
}

TEST_F(TrailsFixture, OffRecordsNothingAndOnAtAPastStepRecordsTheRunAsItIsPlayed) {
    experiment.observations().trails.setRecording(false);
    run(experiment, 60, recorded);
    EXPECT_FALSE(trails().holds(60));
    EXPECT_TRUE(trails().trails().empty());
    experiment.seek(20);
    experiment.observations().trails.setRecording(true);
    for (int i = 0; i < 10; ++i) experiment.step();
    ASSERT_NO_FATAL_FAILURE(expectTrailsAre(trails(), recorded, 21, 30));
    EXPECT_EQ(trails().firstStep(), 21u);
    // A jump past the points kept starts them anew there: no line across the steps skipped.
    experiment.seek(50);
    experiment.step();
    EXPECT_EQ(trails().firstStep(), 51u);
    EXPECT_EQ(trails().trailOf(ball)->firstStep, 51u);
    ASSERT_NO_FATAL_FAILURE(expectTrailsAre(trails(), recorded, 51, 51));
}

TEST_F(TrailsFixture, APromotedGhostsStepsReplaceTheBranchsPoints) {
    run(experiment, 60, recorded);
    const Recorded first = recorded;
    experiment.seek(30);
    BodyDef kicked = experiment.world().bodyDef(box);
    kicked.linearVelocity = vec3(-3.0f, 5.0f, 0.0f);
    ASSERT_FALSE(experiment.apply(SetBody{box, kicked}));
    for (uint64_t step = 31; step <= 60; ++step) recorded.erase(step);
    run(experiment, 30, recorded);
    ASSERT_NO_FATAL_FAILURE(expectTrailsAre(trails(), recorded, 1, 60));
    // The first run comes back with its own points, and keeps them as it plays again.
    experiment.promoteGhost();
    ASSERT_EQ(experiment.shownStep(), 60u);
    ASSERT_NO_FATAL_FAILURE(expectTrailsAre(trails(), first, 1, 60));
    experiment.seek(30);
    for (int i = 0; i < 30; ++i) experiment.step();
    ASSERT_NO_FATAL_FAILURE(expectTrailsAre(trails(), first, 1, 60));
}

// The longest step between two points of a drawn line: a body moved by an edit must not
// draw one across the jump.
float longestSegment(const std::vector<ShownTrailPoint>& points) {
    float longest = 0.0f;
    for (size_t i = 1; i < points.size(); ++i) {
        if (!points[i].startsLine) longest = std::max(longest, glm::distance(points[i - 1].position, points[i].position));
    }
    return longest;
}

TEST_F(TrailsFixture, ABodyMovedByAnEditGoesOnFromItsNewPlaceWithoutALineAcross) {
    run(experiment, 30, recorded);
    const float stepTravel = 0.2f;  // m: the fastest body moves under 10 m/s, 1/60 s a step
    // Paused at step 30: the ball moved 1.5 m along z, the box turned a quarter about y.
    BodyDef moved = experiment.world().bodyDef(ball);
    moved.position += vec3(0.0f, 0.0f, 1.5f);
    ASSERT_FALSE(experiment.apply(SetBody{ball, moved}));
    BodyDef turned = experiment.world().bodyDef(box);
    turned.orientation = glm::angleAxis(glm::half_pi<float>(), vec3(0.0f, 1.0f, 0.0f)) * turned.orientation;
    ASSERT_FALSE(experiment.apply(SetBody{box, turned}));
    // Shown at once: the path ends at the ball where it is now, the old stretch apart from it.
    std::vector<ShownTrailPoint> now = shown(ball, 30, BodyTrails::kMaxSeconds);
    ASSERT_EQ(now.size(), 31u);
    EXPECT_TRUE(now.back().startsLine);
    EXPECT_EQ(now.back().position, experiment.world().body(ball).position);
    EXPECT_EQ(now[29].position, recorded.at(30).at({ball.index, ball.generation}).centre) << "the step's own point stays";
    run(experiment, 30, recorded);
    for (BodyId body : {ball, box}) {
        for (bool marks : {false, true}) {
            const std::vector<ShownTrailPoint> points = shown(body, 60, BodyTrails::kMaxSeconds, marks);
            // The box's centre did not move, its corner did.
            const long moves = body == ball || marks ? 1 : 0;
            ASSERT_EQ(points.size(), 60u + moves);
            EXPECT_EQ(std::count_if(points.begin(), points.end(), [](const ShownTrailPoint& p) { return p.startsLine; }),
                      moves);
            EXPECT_LT(longestSegment(points), stepTravel);
        }
    }
    ASSERT_NO_FATAL_FAILURE(expectTrailsAre(trails(), recorded, 1, 60));
    // An edit undone before the next step is no move; a rewind to the edit's step ends the
    // path at the body, where the edit put it.
    moved = experiment.world().bodyDef(ball);
    moved.position.x -= 2.0f;
    ASSERT_FALSE(experiment.apply(SetBody{ball, moved}));
    ASSERT_FALSE(experiment.undo());
    run(experiment, 1, recorded);
    EXPECT_EQ(trails().trailOf(ball)->moves.size(), 1u);
    experiment.seek(30);
    now = shown(ball, 30, BodyTrails::kMaxSeconds);
    EXPECT_EQ(now.back().position, experiment.world().body(ball).position);
    EXPECT_TRUE(now.back().startsLine);
}

TEST_F(TrailsFixture, PromotingTheOlderOfTwoRunsShowsItsOwnPoints) {
    run(experiment, 60, recorded);
    const Recorded first = recorded;
    // A second run from step 40, then a third from step 20 (of the second): the first and
    // the third part at step 20, not at 40 where the second left the first.
    for (uint64_t branch : {40u, 20u}) {
        experiment.seek(branch);
        BodyDef kicked = experiment.world().bodyDef(box);
        kicked.linearVelocity += vec3(-1.0f, 3.0f, 0.5f);
        ASSERT_FALSE(experiment.apply(SetBody{box, kicked}));
        for (uint64_t step = branch + 1; step <= 60; ++step) recorded.erase(step);
        run(experiment, int(60 - branch), recorded);
    }
    ASSERT_EQ(experiment.previousRuns().size(), 2u);
    EXPECT_EQ(experiment.previousRuns()[0].leftAt, 20u);
    EXPECT_EQ(experiment.previousRuns()[1].leftAt, 20u);
    experiment.setGhost(0);
    experiment.promoteGhost();
    ASSERT_NO_FATAL_FAILURE(expectTrailsAre(trails(), first, 1, 60));
    EXPECT_EQ(experiment.previousRuns()[0].leftAt, 20u) << "the third run, now in the first's place";
    EXPECT_EQ(experiment.previousRuns()[1].leftAt, 40u) << "the second left the first at step 40";
    experiment.seek(20);
    for (int i = 0; i < 40; ++i) experiment.step();
    ASSERT_NO_FATAL_FAILURE(expectTrailsAre(trails(), first, 1, 60));
}

}  // namespace
