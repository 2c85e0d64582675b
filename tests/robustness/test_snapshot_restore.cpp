// World::snapshot / restore (world_snapshot.h): from a restored step, every
// preset runs on bit for bit as it ran the first time, with a drag in progress,
// a body edit, a spawn and (in a resting scene) sleeping islands in between.
#include "physics/physics_test_util.h"
#include "physics/world_snapshot.h"
#include "scene/scene.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace impulse {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> presets() {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(fs::path(IMPULSE_SOURCE_DIR) / "assets" / "scenes")) {
        if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

World loadPreset(const fs::path& file) {
    const scene::SceneResult result = scene::loadSceneFile(file.string());
    if (const auto* error = std::get_if<scene::SceneError>(&result)) ADD_FAILURE() << error->message();
    return scene::buildWorld(std::get<scene::Scene>(result));
}

/// The inputs of the run, by step: a drag of the last dynamic body whose target
/// climbs every step, an edit of the first one's mass and e, a sphere spawned
/// above, the drag's release.
void applyInputs(World& world) {
    std::vector<BodyId> dynamic;
    for (BodyId id : world.bodyIds()) {
        if (world.body(id).isDynamic()) dynamic.push_back(id);
    }
    if (dynamic.empty()) return;
    const uint64_t step = world.stepCount();
    if (step == 4) {
        const Body& grabbed = world.body(dynamic.back());
        ASSERT_FALSE(world.beginDrag(dynamic.back(), grabbed.position + vec3(0.05f, 0.0f, 0.0f)));
    }
    if (world.drag().active) world.setDragTarget(world.drag().anchor + vec3(0.0f, 0.02f, 0.01f));
    if (step == 9) {
        BodyDef def = world.bodyDef(dynamic.front());
        def.mass *= 2.0f;
        def.inertia.reset();
        def.restitution = 0.2f;
        ASSERT_FALSE(world.updateBody(dynamic.front(), def));
    }
    if (step == 13) {
        BodyDef ball;
        ball.name = "spawned ball";
        ball.shape = Shape::sphere(0.3f);
        ball.position = world.body(dynamic.front()).position + vec3(0.0f, 1.5f, 0.0f);
        ASSERT_TRUE(world.createBody(ball));
    }
    if (step == 20) world.endDrag();
}

void runTo(World& world, uint64_t end) {
    while (world.stepCount() < end) {
        applyInputs(world);
        world.step();
    }
}

/// Runs `world` to `end` with snapshots at `marks`, full and kept against the
/// first one, keeping a copy of the world at each; then restores each snapshot,
/// into the world at the end and into a fresh one, and checks that the state at
/// the mark and at the end are repeated. Returns how many were kept against it.
// pile1000 stepped until every body moves slower than 1 mm/s (its contacts then
// stay the same ones), at least 600 steps and at most 1,800: when the last box
// comes to rest depends on the whole history of the pile.
World settledPile() {
    World world = loadPreset(fs::path(IMPULSE_SOURCE_DIR) / "assets" / "scenes" / "bench" / "pile1000.json");
    const auto fastest = [&world] {
        float speed = 0.0f;
        for (BodyId id : world.bodyIds()) speed = std::max(speed, glm::length(world.body(id).linearVelocity));
        return speed;
    };
    for (int i = 0; i < 600 || (i < 1800 && fastest() >= 0.001f); ++i) world.step();
    EXPECT_LT(fastest(), 0.001f) << "pile1000 did not come to rest in 30 s";
    return world;
}

int checkRestores(World world, const std::vector<uint64_t>& marks, uint64_t end) {
    std::vector<WorldSnapshot> snapshots, keptAgainstFirst;
    std::shared_ptr<const WorldSnapshot> first;
    std::vector<World> atMarks;
    int deltas = 0;
    for (uint64_t mark : marks) {
        runTo(world, mark);
        snapshots.push_back(world.snapshot(snapshots.empty() ? nullptr : &snapshots.back()));
        if (!first) first = std::make_shared<const WorldSnapshot>(snapshots.back());
        keptAgainstFirst.push_back(world.snapshotAgainst(first));
        deltas += keptAgainstFirst.back().base() == first ? 1 : 0;
        atMarks.push_back(world);
    }
    runTo(world, end);
    const World firstRun = world;
    for (size_t i = 0; i < marks.size(); ++i) {
        for (const WorldSnapshot* snapshot : {&snapshots[i], &keptAgainstFirst[i]}) {
            SCOPED_TRACE("restored at step " + std::to_string(marks[i]) + (snapshot->base() ? ", kept against the first" : ""));
            World fresh;
            for (World* target : {&world, &fresh}) {
                target->restore(*snapshot);
                EXPECT_TRUE(test::sameState(*target, atMarks[i]));
                EXPECT_TRUE(test::sameLastStep(*target, atMarks[i]));
                runTo(*target, end);
                EXPECT_TRUE(test::sameState(*target, firstRun));
                EXPECT_TRUE(test::sameLastStep(*target, firstRun));
            }
        }
    }
    return deltas;
}

TEST(SnapshotRestore, EveryPresetRunsOnBitForBitFromRestoredSteps) {
    int deltas = 0;
    for (const fs::path& file : presets()) {
        SCOPED_TRACE(file.filename().string());
        World world = loadPreset(file);
        // The large piles cost a few hundred times a small scene per step.
        const uint64_t end = world.bodyCount() > 200 ? 24 : 60;
        deltas += checkRestores(world, {0, 6, 11, 15, end / 2 + 5}, end);
    }
    EXPECT_GT(deltas, 20) << "most snapshots before the spawn are kept against the first";
}

TEST(SnapshotRestore, SleepingIslandsAndTheirContactsComeBack) {
    World world = loadPreset(fs::path(IMPULSE_SOURCE_DIR) / "assets" / "scenes" / "tower10.json");
    WorldSettings settings = world.settings();
    settings.sleeping = true;
    settings.sleepTime = 0.1f;
    settings.sleepSpeed = 0.2f;
    ASSERT_FALSE(world.setSettings(settings));
    World probe = world;
    runTo(probe, 40);
    ASSERT_GT(probe.stats().sleepingBodies, 0) << "the tower should rest by then";
    checkRestores(world, {10, 40, 70, 100}, 120);
}

TEST(SnapshotRestore, ConsecutiveSnapshotsShareTheBodiesUntilAnEdit) {
    World world = loadPreset(fs::path(IMPULSE_SOURCE_DIR) / "assets" / "scenes" / "tower10.json");
    const WorldSnapshot first = world.snapshot();
    world.step();
    const WorldSnapshot second = world.snapshot(&first);
    EXPECT_TRUE(second.sharesLayoutWith(first));
    const BodyId top = world.bodyIds().back();
    BodyDef def = world.bodyDef(top);
    def.friction = 0.9f;
    ASSERT_FALSE(world.updateBody(top, def));
    const WorldSnapshot third = world.snapshot(&second);
    EXPECT_FALSE(third.sharesLayoutWith(second));
    EXPECT_GT(third.layoutBytes(), size_t(world.bodyCount()) * sizeof(Body));
}

// Between two steps of a resting pile, most bytes of the motion and contacts stay
// (the low bits of the floats move): kept against an earlier snapshot, a snapshot
// holds a fraction of them, and restores the world as a full one does.
TEST(SnapshotRestore, ARestingPileKeptAgainstAnEarlierSnapshotHoldsAFractionOfIt) {
    World world = settledPile();
    const auto full = std::make_shared<const WorldSnapshot>(world.snapshot());
    for (int i = 0; i < 10; ++i) world.step();
    const WorldSnapshot kept = world.snapshotAgainst(full);
    const WorldSnapshot whole = world.snapshot(full.get());
    ASSERT_EQ(kept.base(), full);
    EXPECT_TRUE(kept.sharesLayoutWith(*full));
    EXPECT_EQ(kept.stateBytes(), whole.stateBytes());
    EXPECT_LT(kept.bytes(), whole.bytes() / 4);
    World restored;
    restored.restore(kept);
    EXPECT_TRUE(test::sameState(restored, world));
    EXPECT_TRUE(test::sameLastStep(restored, world));
    // Kept against a snapshot kept so, it is kept against that one's base.
    const WorldSnapshot keptAgain = world.snapshotAgainst(std::make_shared<const WorldSnapshot>(kept));
    EXPECT_EQ(keptAgain.base(), full);
}

// Kept without the last step's reports (a history's keyframe between inputs), a
// snapshot holds less, and the world it restores steps on bit for bit: no step
// reads the reports, and the first step writes them all again.
TEST(SnapshotRestore, ASnapshotWithoutTheLastStepsReportsStepsOnExactly) {
    World world = settledPile();
    const auto full = std::make_shared<const WorldSnapshot>(world.snapshot());
    for (int i = 0; i < 5; ++i) world.step();
    const WorldSnapshot withReports = world.snapshotAgainst(full);
    const WorldSnapshot withoutReports = world.snapshotAgainst(full, LastStepReports::dropped);
    ASSERT_EQ(withoutReports.base(), full) << "the same contacts as the base: kept against it";
    EXPECT_TRUE(withReports.hasLastStepReports());
    EXPECT_FALSE(withoutReports.hasLastStepReports());
    EXPECT_LT(withoutReports.bytes(), withReports.bytes());
    World restored;
    restored.restore(withoutReports);
    EXPECT_TRUE(test::sameState(restored, world));
    float shownImpulse = 0.0f;
    for (const ContactPointInfo& point : restored.contacts()) shownImpulse += std::fabs(point.normalImpulse);
    EXPECT_EQ(shownImpulse, 0.0f) << "no report until a step: none shown rather than a stale one";
    for (int i = 0; i < 20; ++i) {
        world.step();
        restored.step();
        ASSERT_TRUE(test::sameState(restored, world)) << "step " << i;
        ASSERT_TRUE(test::sameLastStep(restored, world)) << "step " << i;
    }
}

}  // namespace
}  // namespace impulse
