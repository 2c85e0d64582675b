// Issue 21: the run is its starting state plus its logged inputs; the history
// keeps keyframes within a memory budget and shows any recorded step exactly as
// it was; an input at an earlier step continues the run from there.
#include "app/experiment.h"
#include "physics/physics_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace impulse;
using namespace impulse::app;

namespace {

const std::string kScene = std::string(IMPULSE_SOURCE_DIR) + "/assets/scenes/default.json";

BodyId firstDynamic(const World& world) {
    for (BodyId id : world.bodyIds()) {
        if (world.body(id).isDynamic()) return id;
    }
    return BodyId{};
}

/// The inputs of the test run at the step the experiment is at: a drag whose
/// target moves every step, an edit during it, a release, a spawn undone and
/// redone, a world setting, and two edits at one step.
void applyInputs(Experiment& experiment) {
    const World& world = experiment.world();
    const BodyId body = firstDynamic(world);
    switch (world.stepCount()) {
        case 10: ASSERT_FALSE(experiment.apply(BeginDrag{body, world.body(body).position})); break;
        case 40: {
            BodyDef def = world.bodyDef(body);
            def.mass *= 3.0f;
            ASSERT_FALSE(experiment.apply(SetBody{body, def}));
            break;
        }
        case 60: ASSERT_FALSE(experiment.apply(EndDrag{})); break;
        case 80: {
            BodyDef ball;
            ball.name = "dropped ball";
            ball.shape = Shape::sphere(0.25f);
            ball.position = vec3(0.3f, 3.0f, 0.2f);
            ASSERT_FALSE(experiment.apply(SpawnBody{ball}));
            break;
        }
        case 100: ASSERT_FALSE(experiment.undo()); break;
        case 110: ASSERT_FALSE(experiment.redo()); break;
        case 130: {
            WorldSettings settings = world.settings();
            settings.gravity = vec3(1.0f, -9.81f, 0.0f);
            ASSERT_FALSE(experiment.apply(SetWorldSettings{settings}));
            break;
        }
        case 150: {
            BodyDef def = world.bodyDef(body);
            def.restitution = 0.9f;
            ASSERT_FALSE(experiment.apply(SetBody{body, def}));
            def.friction = 0.1f;
            ASSERT_FALSE(experiment.apply(SetBody{body, def}));
            break;
        }
        default: break;
    }
    const uint64_t step = world.stepCount();
    if (step > 10 && step < 60) experiment.setDragTarget(vec3(0.02f * float(step - 10), 2.0f, 0.0f));
}

/// Runs to `end` from where the experiment is, keeping the world at every step
/// (after that step's inputs) in `worlds`, indexed by step.
void runTo(Experiment& experiment, uint64_t end, std::vector<World>* worlds = nullptr) {
    while (true) {
        applyInputs(experiment);
        if (worlds) {
            worlds->resize(experiment.world().stepCount() + 1);
            worlds->back() = experiment.world();
        }
        if (experiment.world().stepCount() >= end) return;
        experiment.step();
    }
}

/// Opens the scene and runs it to `end` with the test's inputs (see runTo).
void record(Experiment& experiment, uint64_t end, std::vector<World>* worlds = nullptr) {
    ASSERT_EQ(experiment.open(kScene), "");
    runTo(experiment, end, worlds);
}

void expectShows(const Experiment& experiment, const World& expected) {
    EXPECT_TRUE(test::sameState(experiment.world(), expected));
    EXPECT_TRUE(test::sameLastStep(experiment.world(), expected));
}

TEST(ExperimentRun, SeekShowsEveryRecordedStepBitForBit) {
    Experiment experiment;
    std::vector<World> worlds;
    record(experiment, 200, &worlds);
    EXPECT_EQ(experiment.runEnd(), 200u);
    // The drag's targets are inputs, as changes: one per step while the cursor moves.
    const auto isTarget = [](const LoggedInput& in) { return std::holds_alternative<DragTargetInput>(in.input); };
    EXPECT_EQ(std::count_if(experiment.runInputs().begin(), experiment.runInputs().end(), isTarget), 49);
    // Backwards, then scattered, then with a budget that thins the keyframes.
    for (uint64_t step = 200; step-- > 0;) {
        experiment.seek(step);
        ASSERT_EQ(experiment.shownStep(), step);
        expectShows(experiment, worlds[step]);
    }
    for (uint64_t step = 0; step <= 200; step += 37) {
        experiment.seek((step * 7919) % 201);
        expectShows(experiment, worlds[(step * 7919) % 201]);
    }
    const uint64_t spacing = experiment.runHistory().spacing();
    experiment.setHistoryBudget(experiment.runHistory().bytes() / 3);
    EXPECT_GT(experiment.runHistory().spacing(), spacing);
    for (uint64_t step = 0; step <= 200; step += 3) {
        experiment.seek(step);
        expectShows(experiment, worlds[step]);
    }
    experiment.seek(1000);
    EXPECT_EQ(experiment.shownStep(), 200u) << "a seek stays within the run";
}

TEST(ExperimentRun, PlayingOnFromAnEarlierStepRepeatsTheRunThenGoesOn) {
    Experiment experiment;
    std::vector<World> worlds;
    record(experiment, 160, &worlds);
    experiment.seek(25);
    while (experiment.shownStep() < 160) {
        experiment.step();
        expectShows(experiment, worlds[experiment.shownStep()]);
    }
    EXPECT_EQ(experiment.runEnd(), 160u);
    experiment.step();
    EXPECT_EQ(experiment.runEnd(), 161u) << "at the run's end, the run goes on";
}

TEST(ExperimentRun, HistoryStaysWithinItsBudget) {
    Experiment experiment;
    ASSERT_EQ(experiment.open(kScene), "");
    // Room for about 20 keyframes: far fewer than 600 steps' worth at the first spacing.
    const size_t budget = 20 * experiment.runHistory().bytes();
    experiment.setHistoryBudget(budget);
    std::vector<World> worlds;
    for (uint64_t step = 0; step < 600; ++step) {
        experiment.step();
        worlds.push_back(experiment.world());
        ASSERT_LE(experiment.historyBytes(), budget) << "at step " << step;
    }
    Experiment unbounded;
    ASSERT_EQ(unbounded.open(kScene), "");
    for (uint64_t step = 0; step < 600; ++step) unbounded.step();
    EXPECT_GT(experiment.runHistory().spacing(), unbounded.runHistory().spacing()) << "the budget thinned them";
    EXPECT_GE(experiment.runHistory().keyframes().size(), 8u);
    experiment.seek(599);
    expectShows(experiment, worlds[598]);
}

/// What the history holds, summed here from what its runs keep: each keyframe entry,
/// each distinct snapshot (and full snapshot one is kept against), each distinct set
/// of body properties, and every run's input log.
size_t sumOfWhatIsKept(const Experiment& experiment) {
    std::vector<const Run*> runs{&experiment.run()};
    for (const Run& run : experiment.previousRuns()) runs.push_back(&run);
    std::set<const WorldSnapshot*> snapshots;
    std::map<const void*, size_t> layouts;
    size_t total = 0;
    for (const Run* run : runs) {
        for (const RunHistory::Keyframe& keyframe : run->keyframes.keyframes()) {
            total += sizeof(keyframe);
            snapshots.insert(keyframe.world.get());
            if (keyframe.world->base()) snapshots.insert(keyframe.world->base().get());
        }
        for (const LoggedInput& input : run->inputs) {
            total += sizeof(input);
            if (input.book) total += sizeof(*input.book) + input.book->history.size() * sizeof(input.book->history[0]);
        }
    }
    for (const WorldSnapshot* snapshot : snapshots) {
        total += snapshot->bytes();
        layouts[snapshot->layoutId()] = snapshot->layoutBytes();
    }
    for (const auto& [layout, bytes] : layouts) total += bytes;
    return total;
}

// The budget pays for everything the history keeps: filled with a run, two previous
// runs and their inputs, it holds, and its count is the sum of what is kept.
TEST(ExperimentRun, TheBudgetCountsEverythingTheHistoryKeeps) {
    Experiment experiment;
    record(experiment, 200);
    for (uint64_t branch : {170u, 150u}) {
        experiment.seek(branch);
        BodyDef def = experiment.world().bodyDef(firstDynamic(experiment.world()));
        def.restitution = 0.5f;
        ASSERT_FALSE(experiment.apply(SetBody{firstDynamic(experiment.world()), def}));
        for (int i = 0; i < 60; ++i) experiment.step();
    }
    ASSERT_EQ(experiment.previousRuns().size(), 2u);
    EXPECT_EQ(experiment.historyBytes(), sumOfWhatIsKept(experiment));
    EXPECT_GT(experiment.historyBytes(), RunHistory::bytesOf({&experiment.runHistory()}) + 200 * sizeof(LoggedInput))
        << "the previous runs' own keyframes and the input logs count";

    const size_t budget = experiment.historyBytes() / 2;
    experiment.setHistoryBudget(budget);
    for (const app::Run& run : experiment.previousRuns()) {
        // A quarter each, or only the keyframes that must stay: the first, the last and the pinned.
        const auto& kept = run.keyframes.keyframes();
        const auto droppable = std::count_if(kept.begin() + 1, kept.end() - 1, [](const auto& k) { return !k.pinned; });
        EXPECT_TRUE(run.keyframes.bytes() <= budget / 4 || droppable == 0) << droppable << " could go";
    }
    std::vector<World> worlds;
    for (int i = 0; i < 300; ++i) {
        experiment.step();
        worlds.push_back(experiment.world());
        ASSERT_LE(experiment.historyBytes(), budget) << "at step " << experiment.shownStep();
        // The counts kept up as keyframes come (RunHistory::keep, Experiment::step)
        // are the sums, step by step.
        ASSERT_EQ(experiment.historyBytes(), sumOfWhatIsKept(experiment)) << "at step " << experiment.shownStep();
        ASSERT_EQ(experiment.runHistory().bytes(), RunHistory::bytesOf({&experiment.runHistory()}));
    }
    // Thinned, the run still shows its steps as they were.
    for (size_t i = 0; i < worlds.size(); i += 7) {
        experiment.seek(worlds[i].stepCount());
        expectShows(experiment, worlds[i]);
    }
}

// A run thinned while it runs drops keyframes its ghost still holds: the budget
// then counts them as the ghost's, not as freed.
TEST(ExperimentRun, ThinningWhileRunningCountsWhatTheGhostStillHolds) {
    // A short run branched near its end: the ghost fits its quarter of the budget
    // whole, and the new run outgrows the rest while it runs.
    constexpr uint64_t kBranch = 50;
    Experiment experiment;
    record(experiment, 60);
    experiment.seek(kBranch);
    BodyDef def = experiment.world().bodyDef(firstDynamic(experiment.world()));
    def.restitution = 0.5f;
    ASSERT_FALSE(experiment.apply(SetBody{firstDynamic(experiment.world()), def}));
    experiment.setHistoryBudget(4 * experiment.historyBytes());
    const size_t ghostKeyframes = experiment.previousRuns().back().keyframes.keyframes().size();
    const uint64_t spacingBefore = experiment.runHistory().spacing();
    for (int i = 0; i < 600; ++i) {
        experiment.step();
        ASSERT_EQ(experiment.historyBytes(), sumOfWhatIsKept(experiment)) << "at step " << experiment.shownStep();
    }
    EXPECT_GT(experiment.runHistory().spacing(), spacingBefore) << "the run was thinned while it ran";
    const RunHistory& ghost = experiment.previousRuns().back().keyframes;
    EXPECT_EQ(ghost.keyframes().size(), ghostKeyframes) << "the ghost kept all its keyframes";
    const auto droppedByTheRun = std::count_if(ghost.keyframes().begin(), ghost.keyframes().end(), [&](const auto& k) {
        const auto* kept = experiment.runHistory().atOrBefore(k.world->stepCount());
        return k.world->stepCount() < kBranch && (!kept || kept->world != k.world);
    });
    EXPECT_GT(droppedByTheRun, 0) << "the run dropped keyframes from before the branch that the ghost holds";
}

// Recording's cost follows the keyframes' bytes: a larger world is kept less
// often, however large the budget.
TEST(ExperimentRun, LargerWorldsAreKeptLessOften) {
    World world;
    for (int i = 0; i < 3000; ++i) {
        BodyDef ball;
        ball.shape = Shape::sphere(0.1f);
        ball.position = vec3(float(i % 60), 100.0f, float(i / 60));  // apart, falling: no contacts
        ASSERT_TRUE(world.createBody(ball));
    }
    RunHistory history;
    history.keep(world, 0.0, true);
    for (int i = 0; i < 32; ++i) {
        world.step();
        history.stepped(world, 0.0);
    }
    const size_t keyframeBytes = history.keyframes().back().world->stateBytes();
    EXPECT_GT(keyframeBytes, RunHistory::kFirstSpacing * RunHistory::kMaxStateBytesPerStep);
    EXPECT_LE(keyframeBytes / history.spacing(), RunHistory::kMaxStateBytesPerStep);
    EXPECT_GT(keyframeBytes / (history.spacing() / 2), RunHistory::kMaxStateBytesPerStep) << "no wider than needed";
}

// A keep says whether the budget dropped keyframes: the experiment then counts every
// run's bytes again, and otherwise only adds what this history grew by.
TEST(ExperimentRun, AKeepSaysWhetherItThinned) {
    World world;
    BodyDef ball;
    ball.shape = Shape::sphere(0.1f);
    ball.position = vec3(0.0f, 100.0f, 0.0f);
    ASSERT_TRUE(world.createBody(ball));
    RunHistory history;
    EXPECT_EQ(history.keep(world, 0.0, true), RunHistory::Kept::added);
    std::vector<RunHistory::Kept> kept;
    for (uint64_t i = 0; i < 4 * RunHistory::kFirstSpacing; ++i) {
        world.step();
        kept.push_back(history.stepped(world, 0.0));
    }
    for (size_t i = 0; i < kept.size(); ++i) {
        EXPECT_EQ(kept[i], (i + 1) % RunHistory::kFirstSpacing == 0 ? RunHistory::Kept::added : RunHistory::Kept::none)
            << "after step " << i + 1;
    }
    // Room for the keyframes held now and no more: the next one thins them.
    history.setBudget(history.bytes());
    const size_t before = history.keyframes().size();
    RunHistory::Kept next = RunHistory::Kept::none;
    while (next == RunHistory::Kept::none) {
        world.step();
        next = history.stepped(world, 0.0);
    }
    EXPECT_EQ(next, RunHistory::Kept::addedAndThinned);
    EXPECT_LE(history.keyframes().size(), before);
}

TEST(ExperimentRun, AnInputAtAnEarlierStepContinuesFromThereAsANewRun) {
    Experiment experiment;
    record(experiment, 180);
    // The same run, with a different edit at step 50, done live.
    Experiment live;
    record(live, 50);
    const BodyId body = firstDynamic(live.world());
    BodyDef def = live.world().bodyDef(body);
    def.friction = 0.05f;
    ASSERT_FALSE(live.apply(SetBody{body, def}));

    experiment.seek(50);
    BodyDef edited = experiment.world().bodyDef(body);
    edited.friction = 0.05f;
    ASSERT_FALSE(experiment.apply(SetBody{body, edited}));
    EXPECT_EQ(experiment.runEnd(), 50u) << "the rest of the old run went";
    for (const LoggedInput& in : experiment.runInputs()) EXPECT_LE(in.step, 50u);
    // The edit history is the one the run had at step 50: the edit at 40 and this one.
    ASSERT_EQ(experiment.history().size(), live.history().size());
    for (int i = 0; i < 80; ++i) {
        experiment.step();
        live.step();
    }
    EXPECT_TRUE(test::sameState(experiment.world(), live.world()));
    // An undo at an earlier step is an input like an edit: it takes back what was in force then.
    experiment.seek(45);
    ASSERT_FALSE(experiment.undo());
    EXPECT_EQ(experiment.runEnd(), 45u);
    EXPECT_EQ(experiment.world().body(body).mass, live.world().body(body).mass / 3.0f);
}

TEST(ExperimentRun, ARefusedInputAtAnEarlierStepChangesNothing) {
    Experiment experiment;
    record(experiment, 120);
    const size_t inputs = experiment.runInputs().size();
    const size_t edits = experiment.history().size();
    experiment.seek(30);
    BodyDef bad = experiment.world().bodyDef(firstDynamic(experiment.world()));
    bad.mass = -1.0f;
    EXPECT_TRUE(experiment.apply(SetBody{firstDynamic(experiment.world()), bad}));
    EXPECT_EQ(experiment.runEnd(), 120u);
    EXPECT_EQ(experiment.runInputs().size(), inputs);
    EXPECT_EQ(experiment.history().size(), edits);
}

TEST(ExperimentRun, ALoadStartsANewRun) {
    Experiment experiment;
    record(experiment, 70);
    ASSERT_FALSE(experiment.runInputs().empty());
    ASSERT_FALSE(experiment.apply(ResetScene{}));
    EXPECT_TRUE(experiment.runInputs().empty());
    EXPECT_EQ(experiment.runStart(), 0u);
    EXPECT_EQ(experiment.runEnd(), 0u);
    ASSERT_FALSE(experiment.undo());
    EXPECT_EQ(experiment.runStart(), 70u) << "undoing the reset runs on from the world it replaced";
}

// A branch keeps the run it replaced whole, as the ghost: stepped with the new run
// it shows the old run's world at every step, and the divergence says how far apart
// the two are, per body and at worst, step by step.
TEST(ExperimentRun, BranchingKeepsTheOldRunWholeAsTheGhost) {
    Experiment experiment;
    std::vector<World> worlds;
    record(experiment, 150, &worlds);
    const size_t oldInputs = experiment.runInputs().size();
    EXPECT_EQ(experiment.ghostWorld(), nullptr);

    experiment.seek(70);
    const BodyId body = firstDynamic(experiment.world());
    BodyDef def = experiment.world().bodyDef(body);
    def.linearVelocity += vec3(0.0f, 3.0f, 0.0f);
    ASSERT_FALSE(experiment.apply(SetBody{body, def}));
    ASSERT_EQ(experiment.previousRuns().size(), 1u);
    ASSERT_EQ(experiment.ghost(), std::optional<size_t>(0));
    EXPECT_EQ(experiment.previousRuns()[0].end, 150u);
    EXPECT_EQ(experiment.previousRuns()[0].leftAt, 70u);
    EXPECT_EQ(experiment.previousRuns()[0].inputs.size(), oldInputs);
    ASSERT_NE(experiment.ghostWorld(), nullptr);
    EXPECT_TRUE(test::sameState(*experiment.ghostWorld(), worlds[70]));
    EXPECT_EQ(experiment.worstDivergence().farthest.distance, 0.0f) << "only a velocity changed yet";

    while (experiment.shownStep() < 150) {
        experiment.step();
        ASSERT_TRUE(test::sameState(*experiment.ghostWorld(), worlds[experiment.shownStep()]));
    }
    const Divergence worst = experiment.worstDivergence();
    EXPECT_EQ(worst.farthest.body, body) << "the thrown body went farthest";
    const vec3 gap = experiment.world().body(body).position - worlds[150].body(body).position;
    EXPECT_EQ(worst.farthest.distance, glm::length(gap));
    // The ball the old run spawned at step 80 is not in the new run: no divergence for it.
    EXPECT_EQ(experiment.divergence().size(), size_t(worlds[150].bodyCount() - 1));
    ASSERT_EQ(experiment.divergenceSeries().size(), 81u);  // steps 70 to 150
    EXPECT_EQ(experiment.divergenceSeries().front().step, 70u);
    EXPECT_EQ(experiment.divergenceSeries().back().step, 150u);
    EXPECT_EQ(experiment.divergenceSeries().front().farthest.distance, 0.0f);
    EXPECT_GT(experiment.divergenceSeries()[10].farthest.distance, 0.0f);

    // A seek moves the ghost too; hidden, there is none; promoted, the old run is the
    // current one again, whole, and the branch is the ghost.
    experiment.seek(100);
    EXPECT_TRUE(test::sameState(*experiment.ghostWorld(), worlds[100]));
    experiment.setGhost(std::nullopt);
    EXPECT_EQ(experiment.ghostWorld(), nullptr);
    EXPECT_TRUE(experiment.divergence().empty());
    experiment.setGhost(0);
    experiment.promoteGhost();
    EXPECT_EQ(experiment.runEnd(), 150u);
    EXPECT_EQ(experiment.runInputs().size(), oldInputs);
    EXPECT_TRUE(test::sameState(experiment.world(), worlds[100]));
    experiment.seek(150);
    expectShows(experiment, worlds[150]);
    EXPECT_EQ(experiment.previousRuns()[0].end, 150u) << "the branch, now the ghost";
    EXPECT_EQ(experiment.previousRuns()[0].leftAt, 70u) << "they still part at step 70";
    EXPECT_GT(experiment.worstDivergence().farthest.distance, 0.0f);
}

TEST(ExperimentRun, TheDivergenceOfATurnedBodyIsTheTurnsAngle) {
    Experiment experiment;
    record(experiment, 40);
    experiment.seek(30);
    const BodyId body = firstDynamic(experiment.world());
    BodyDef def = experiment.world().bodyDef(body);
    def.orientation = def.orientation * glm::angleAxis(0.5f, vec3(0.0f, 0.0f, 1.0f));
    ASSERT_FALSE(experiment.apply(SetBody{body, def}));
    const Divergence worst = experiment.worstDivergence();
    EXPECT_EQ(worst.mostTurned.body, body);
    EXPECT_NEAR(worst.mostTurned.angle, 0.5f, 1e-3f);
    EXPECT_EQ(worst.farthest.distance, 0.0f);
}

TEST(ExperimentRun, TheLastRunsAreKept) {
    Experiment experiment;
    record(experiment, 40);
    for (uint64_t branch : {30u, 20u, 10u}) {
        experiment.seek(branch);
        ASSERT_FALSE(experiment.apply(SpawnBody{BodyDef{}}));
        for (int i = 0; i < 20; ++i) experiment.step();
    }
    ASSERT_EQ(experiment.previousRuns().size(), Experiment::kPreviousRunsKept);
    EXPECT_EQ(experiment.previousRuns()[0].end, 50u) << "the oldest run went";
    EXPECT_EQ(experiment.previousRuns()[1].end, 40u);
    // Each parts from the current run where that one began: at step 10, though the
    // older went its own way from its successor at step 20.
    EXPECT_EQ(experiment.previousRuns()[0].leftAt, 10u);
    EXPECT_EQ(experiment.previousRuns()[1].leftAt, 10u);
    ASSERT_FALSE(experiment.apply(ResetScene{}));
    EXPECT_TRUE(experiment.previousRuns().empty()) << "a reset starts over";
}

}  // namespace
