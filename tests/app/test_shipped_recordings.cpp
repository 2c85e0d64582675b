// The recordings in assets/recordings/: each is what its script
// (tools/recordings/scripted_runs.cpp) makes today, byte for byte, so a change
// to the physics or the format cannot leave a stale file behind silently (run
// impulse-make-recordings SOURCE_DIR to write them again); each replays to the
// live run's world bit for bit; and each ends as mechanics says it must.
#include "app/file_text.h"
#include "app/recording.h"
#include "physics/physics_test_util.h"
#include "recordings/scripted_runs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

using namespace impulse;
using namespace impulse::app;

namespace {

const std::string kSource = IMPULSE_SOURCE_DIR;

tools::ScriptedRun scripted(const std::string& file) {
    for (const tools::ScriptedRun& run : tools::scriptedRuns()) {
        if (run.file == file) return run;
    }
    ADD_FAILURE() << "no script for " << file;
    return {};
}

const Body& bodyNamed(const World& world, const std::string& name) {
    for (BodyId id : world.bodyIds()) {
        if (world.body(id).name == name) return world.body(id);
    }
    throw std::runtime_error("no body " + name);
}

/// The shipped file replayed into `replayed`, after checking it is what its script makes
/// today and that the replay is the live run.
void replayShipped(const std::string& file, Experiment& replayed) {
    const std::string path = kSource + "/assets/recordings/" + file;
    Experiment live;
    ASSERT_EQ(tools::play(scripted(file), kSource, live), "");
    const auto captured = captureRecording(live);
    ASSERT_TRUE(std::holds_alternative<Recording>(captured));
    ASSERT_EQ(fileText(path), toJson(std::get<Recording>(captured)))
        << path << " is not what its script makes now: run impulse-make-recordings " << kSource;
    const RecordingResult loaded = loadRecordingFile(path);
    ASSERT_TRUE(std::holds_alternative<Recording>(loaded));
    const Validation refused = replayRecording(std::get<Recording>(loaded), replayed, "");
    ASSERT_FALSE(refused) << refused->message();
    EXPECT_TRUE(test::sameState(replayed.world(), live.world()));
    EXPECT_TRUE(test::sameLastStep(replayed.world(), live.world()));
}

TEST(ShippedRecordings, EveryScriptHasItsFile) {
    for (const tools::ScriptedRun& run : tools::scriptedRuns()) {
        EXPECT_FALSE(fileText(kSource + "/assets/recordings/" + run.file).empty()) << run.file;
    }
}

// e = 1, equal masses in line: the striker stops and the last ball leaves with its
// speed (typed in as 3 m/s); momentum 0.5 kg x 3 m/s and energy 2.25 J are kept.
TEST(ShippedRecordings, TheCradlePassesTheStrikersSpeedToTheLastBall) {
    Experiment replayed;
    replayShipped("newtons_cradle.json", replayed);
    const World& world = replayed.world();
    EXPECT_NEAR(bodyNamed(world, "ball5").linearVelocity.x, 3.0f, 0.03f);
    for (const char* name : {"striker", "ball1", "ball2", "ball3", "ball4"}) {
        EXPECT_LT(glm::length(bodyNamed(world, name).linearVelocity), 0.03f) << name;
    }
    EXPECT_NEAR(world.linearMomentum().x, 1.5, 1e-4);
    EXPECT_NEAR(world.kineticEnergy(), 2.25, 0.0225);
}

// The thrown box carries the e and mu typed while it was held, leaves the hand fast,
// flies far and comes to rest on the floor, not in it.
TEST(ShippedRecordings, TheTunedThrowFliesFarAndRestsOnTheFloor) {
    Experiment replayed;
    replayShipped("tuned_throw.json", replayed);
    const Body& box = bodyNamed(replayed.world(), "pyramid2_0");
    EXPECT_EQ(box.restitution, 0.8f);
    EXPECT_EQ(box.friction, 0.3f);
    EXPECT_LT(glm::length(box.linearVelocity), 0.05f);
    EXPECT_GT(shapeAabb(box.shape, box.position, box.rotation, 0.0f).lower.y, -0.01f);
    const vec3 rest = box.position;
    replayed.seek(105);  // the release
    const Body& released = bodyNamed(replayed.world(), "pyramid2_0");
    EXPECT_GT(glm::length(released.linearVelocity), 3.0f);
    replayed.seek(0);
    EXPECT_GT(glm::length(rest - bodyNamed(replayed.world(), "pyramid2_0").position), 5.0f);
}

// Twelve boxes dropped by the Box button end at rest, none in the floor or in
// another (no contact deeper than 2 cm). Whether a box dropped half onto
// another stays there is chaotic (24 jittered drops of this pattern keep 0.3
// to 0.4 boxes on others on average), so the test does not ask for a stack.
TEST(ShippedRecordings, ThePileSettlesOnTheFloor) {
    Experiment replayed;
    replayShipped("pile.json", replayed);
    const World& world = replayed.world();
    for (int n = 1; n <= 12; ++n) {
        const Body& box = bodyNamed(world, "box" + std::to_string(n));
        const float lowest = shapeAabb(box.shape, box.position, box.rotation, 0.0f).lower.y;
        EXPECT_GT(lowest, -0.02f) << box.name;
        EXPECT_LT(glm::length(box.linearVelocity), 0.05f) << box.name;
    }
    const std::vector<ContactPointInfo> contacts = world.contacts();
    EXPECT_FALSE(contacts.empty());
    for (const ContactPointInfo& c : contacts) {
        EXPECT_GT(c.separation, -0.02f) << world.body(c.bodyA).name << " / " << world.body(c.bodyB).name;
    }
}

}  // namespace
