// A body that leaves the world's bounds is removed by the experiment after that
// step, as an undoable edit of the run: the gliders preset's glider3, which rolls
// off the end of its track, is removed about 100 m down instead of falling on.
#include "app/experiment.h"
#include "app/recording.h"
#include "physics/physics_test_util.h"

#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

using namespace impulse;
using namespace impulse::app;

namespace {

const std::string kGliders = std::string(IMPULSE_SOURCE_DIR) + "/assets/scenes/classroom/gliders_elastic.json";

/// Steps until a body leaves the bounds (at most `steps`); what was removed.
std::vector<BodyLeftBounds> runUntilABodyLeaves(Experiment& experiment, int steps) {
    for (int i = 0; i < steps; ++i) {
        experiment.step();
        std::vector<BodyLeftBounds> left = experiment.takeBodiesLeftBounds();
        if (!left.empty()) return left;
    }
    return {};
}

TEST(WorldBounds, TheGlidersPresetsThirdGliderIsRemovedOnceOutAndUndoBringsItBack) {
    Experiment experiment;
    ASSERT_EQ(experiment.open(kGliders), "");
    EXPECT_TRUE(experiment.world().settings().bounds == WorldBounds{}) << "the preset has the default bounds";
    const int bodies = experiment.world().bodyCount();
    const std::vector<BodyLeftBounds> left = runUntilABodyLeaves(experiment, 32 * 60);
    ASSERT_EQ(left.size(), 1u) << "glider3 rolls off its track and falls";
    EXPECT_EQ(left[0].name, "glider3");
    EXPECT_LT(left[0].position.y, -100.0f);
    EXPECT_GT(left[0].position.y, -105.0f) << "removed in the step it left, not 1684 m down";
    const uint64_t removedAt = left[0].step;
    EXPECT_EQ(experiment.shownStep(), removedAt);
    EXPECT_FALSE(experiment.world().findBody("glider3"));
    EXPECT_EQ(experiment.world().bodyCount(), bodies - 1);
    // An edit like any other: in the history, described, and undoable.
    ASSERT_NE(experiment.nextUndo(), nullptr);
    EXPECT_EQ(describe(*experiment.nextUndo()), "remove glider3 (left the world bounds)");
    EXPECT_TRUE(experiment.hasUnsavedEdits());
    EXPECT_EQ(describe(experiment.runInputs().back()), "remove glider3 (left the world bounds)");
    EXPECT_EQ(experiment.runInputs().back().step, removedAt);
    ASSERT_FALSE(experiment.undo());
    const BodyId back = experiment.world().findBody("glider3");
    ASSERT_TRUE(back) << "undo brings it back where it left";
    EXPECT_EQ(experiment.world().body(back).position, left[0].position);
    // Moved back onto the track before the next step, it stays.
    BodyDef onTrack = experiment.world().bodyDef(back);
    onTrack.position = vec3(0.0f, 0.1f, 0.0f);
    onTrack.linearVelocity = vec3(0.0f);
    ASSERT_FALSE(experiment.apply(SetBody{back, onTrack}));
    for (int i = 0; i < 30; ++i) experiment.step();
    EXPECT_TRUE(experiment.takeBodiesLeftBounds().empty());
    EXPECT_TRUE(experiment.world().findBody("glider3"));
    // glider1, which bounced back the other way, goes off the track's other end.
    const std::vector<BodyLeftBounds> alsoLeft = runUntilABodyLeaves(experiment, 32 * 60);
    ASSERT_EQ(alsoLeft.size(), 1u);
    EXPECT_EQ(alsoLeft[0].name, "glider1");
    EXPECT_TRUE(experiment.world().findBody("glider3"));
}

TEST(WorldBounds, ARewindShowsTheBodyAndARecordingReplaysItsRemoval) {
    Experiment experiment;
    ASSERT_EQ(experiment.open(kGliders), "");
    const std::vector<BodyLeftBounds> left = runUntilABodyLeaves(experiment, 32 * 60);
    ASSERT_EQ(left.size(), 1u);
    for (int i = 0; i < 30; ++i) experiment.step();
    const World end = experiment.world();
    // The recording leaves the removal out: the replay's own step takes the body out again.
    std::variant<Recording, std::string> captured = captureRecording(experiment);
    ASSERT_TRUE(std::holds_alternative<Recording>(captured));
    for (const RecordedInput& input : std::get<Recording>(captured).inputs) {
        const auto* command = std::get_if<Command>(&input.input);
        EXPECT_FALSE(command && std::holds_alternative<DeleteBody>(*command));
    }
    Experiment replayed;
    ASSERT_FALSE(replayRecording(std::get<Recording>(captured), replayed, ""));
    EXPECT_TRUE(test::sameState(replayed.world(), end));
    const std::vector<BodyLeftBounds> replayedLeft = replayed.takeBodiesLeftBounds();
    ASSERT_EQ(replayedLeft.size(), 1u);
    EXPECT_EQ(replayedLeft[0].step, left[0].step);
    // Shown before the step it left, the body is there; played on, it goes again, as recorded.
    experiment.seek(left[0].step - 1);
    EXPECT_TRUE(experiment.world().findBody("glider3"));
    for (int i = 0; i < 31; ++i) experiment.step();
    EXPECT_FALSE(experiment.world().findBody("glider3"));
    EXPECT_TRUE(test::sameState(experiment.world(), end));
    EXPECT_TRUE(experiment.takeBodiesLeftBounds().empty()) << "a recorded step removes nothing anew";
}

TEST(WorldBounds, TheWorldSettingsEditRefusesBadBoundsNamingTheField) {
    Experiment experiment;
    ASSERT_EQ(experiment.open(kGliders), "");
    WorldSettings settings = experiment.world().settings();
    settings.bounds.min.y = 5.0f;
    settings.bounds.max.y = 5.0f;
    const Validation refused = experiment.apply(SetWorldSettings{settings});
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->message(), "bounds: min must be less than max on every axis (y: min 5 >= max 5)");
    EXPECT_TRUE(experiment.world().settings().bounds == WorldBounds{});
    // Tighter bounds are an edit: the gliders' track is 20 m long, glider3 leaves it sooner.
    settings.bounds.min = vec3(-10.0f, -1.0f, -6.0f);
    settings.bounds.max = vec3(10.0f, 5.0f, 6.0f);
    ASSERT_FALSE(experiment.apply(SetWorldSettings{settings}));
    const std::vector<BodyLeftBounds> left = runUntilABodyLeaves(experiment, 32 * 60);
    ASSERT_EQ(left.size(), 1u);
    EXPECT_EQ(left[0].name, "glider3");
    EXPECT_GT(left[0].position.y, -1.1f);
}

}  // namespace
