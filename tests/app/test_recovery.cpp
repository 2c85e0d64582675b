// Issue 22: autosave and recovery. The work captured from a live experiment (edits, a
// spawn, a grab, the run shown at an earlier step), written and read back, restores
// the same world bit for bit with its run, scene path and camera; a run a recording
// cannot hold is kept as the world; malformed files are refused with the JSON path;
// the folder follows IMPULSE_STATE_DIR, XDG_STATE_HOME and HOME; only files of
// processes that are gone are offered; the writer's files are whole and a clean quit
// removes them.
#include "app/recovery.h"
#include "app/file_text.h"
#include "physics/physics_test_util.h"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

using namespace impulse;
using namespace impulse::app;

namespace {

namespace fs = std::filesystem;

const std::string kScene = std::string(IMPULSE_SOURCE_DIR) + "/assets/scenes/default.json";

BodyId firstDynamic(const World& world) {
    for (BodyId id : world.bodyIds()) {
        if (world.body(id).isDynamic()) return id;
    }
    return BodyId{};
}

fs::path freshFolder(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("impulse_recovery_test_" + std::to_string(::getpid()) + "_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

/// A loaded scene with the kinds of work a user does: a grab and throw, an edit, a
/// spawn, 90 steps, then shown at step 70.
void doSomeWork(Experiment& experiment) {
    ASSERT_EQ(experiment.open(kScene), "");
    const World& world = experiment.world();
    const BodyId thrown = firstDynamic(world);
    for (int i = 0; i < 90; ++i) {
        if (i == 5) {
            ASSERT_FALSE(experiment.apply(BeginDrag{thrown, world.body(thrown).position}));
        }
        if (i > 5 && i < 30) experiment.setDragTarget(world.body(thrown).position + vec3(0.05f * i, 0.5f, 0.0f));
        if (i == 30) {
            ASSERT_FALSE(experiment.apply(EndDrag{}));
        }
        if (i == 40) {
            BodyDef def = world.bodyDef(thrown);
            def.restitution = 0.9f;
            ASSERT_FALSE(experiment.apply(SetBody{thrown, def}));
        }
        if (i == 50) {
            BodyDef ball;
            ball.name = "spawned";
            ball.shape = Shape::sphere(0.25f);
            ball.position = vec3(1.0f, 3.0f, 0.0f);
            ASSERT_FALSE(experiment.apply(SpawnBody{ball, true}));
        }
        experiment.step();
    }
    experiment.seek(70);
}

const scene::SceneCamera kCamera{vec3(1.0f, 2.0f, 3.0f), 12.5f, 30.0f, -20.0f};

}  // namespace

TEST(Recovery, TheRunComesBackBitForBitAtTheStepShown) {
    Experiment live;
    doSomeWork(live);
    ASSERT_TRUE(live.hasUnsavedEdits());
    const Recovery captured = captureRecovery(live, kCamera, "2026-11-26 08:00:00 UTC");
    ASSERT_TRUE(std::holds_alternative<Recording>(captured.work));

    const RecoveryResult read = parseRecovery(toJson(captured));
    ASSERT_TRUE(std::holds_alternative<Recovery>(read)) << std::get<scene::SceneError>(read).message();
    const Recovery& recovery = std::get<Recovery>(read);
    EXPECT_EQ(recovery.savedAt, "2026-11-26 08:00:00 UTC");
    EXPECT_EQ(recovery.scenePath, kScene);
    EXPECT_TRUE(recovery.unsavedEdits);
    ASSERT_TRUE(recovery.camera);
    EXPECT_EQ(recovery.camera->target, kCamera.target);
    EXPECT_EQ(recovery.camera->distance, kCamera.distance);
    EXPECT_EQ(recovery.camera->pitchDegrees, kCamera.pitchDegrees);
    EXPECT_EQ(recovery.shownStep, 70u);

    Experiment restored;
    ASSERT_FALSE(restoreRecovery(recovery, restored));
    EXPECT_EQ(restored.shownStep(), 70u);
    EXPECT_EQ(restored.runEnd(), 90u);
    EXPECT_EQ(restored.scenePath(), kScene);
    EXPECT_TRUE(restored.hasUnsavedEdits());
    EXPECT_TRUE(test::sameState(restored.world(), live.world()));
    // The rest of the run too: its end, and the steps after it.
    live.seek(90);
    restored.seek(90);
    EXPECT_TRUE(test::sameState(restored.world(), live.world()));
    for (int i = 0; i < 30; ++i) {
        live.step();
        restored.step();
    }
    EXPECT_TRUE(test::sameState(restored.world(), live.world()));
    // Undo works on the restored history: the spawn goes.
    const size_t bodies = restored.world().bodyCount();
    ASSERT_FALSE(restored.undo());
    EXPECT_EQ(restored.world().bodyCount(), bodies - 1);
}

TEST(Recovery, ARunARecordingCannotHoldIsKeptAsTheWorld) {
    Experiment live;
    doSomeWork(live);
    live.seek(90);
    // A second load, undone: the world brought back depends on edits before its run.
    ASSERT_EQ(live.open(kScene), "");
    ASSERT_FALSE(live.undo());
    for (int i = 0; i < 10; ++i) live.step();
    const Recovery captured = captureRecovery(live, std::nullopt, utcNow());
    ASSERT_TRUE(std::holds_alternative<scene::Scene>(captured.work));
    const RecoveryResult read = parseRecovery(toJson(captured));
    ASSERT_TRUE(std::holds_alternative<Recovery>(read)) << std::get<scene::SceneError>(read).message();
    const Recovery& recovery = std::get<Recovery>(read);
    EXPECT_FALSE(recovery.camera);
    Experiment restored;
    ASSERT_FALSE(restoreRecovery(recovery, restored));
    // Every body as it was (the scene format holds position, orientation, velocities and properties).
    EXPECT_EQ(scene::toJson(scene::captureScene(restored.world(), "x")), scene::toJson(scene::captureScene(live.world(), "x")));
    EXPECT_EQ(restored.scenePath(), "") << "the scene's file does not hold this world";
    EXPECT_NE(describe(recovery).find("could not be kept"), std::string::npos) << describe(recovery);
}

TEST(Recovery, DescribeSaysWhatAndWhen) {
    Experiment live;
    doSomeWork(live);
    const std::string text = describe(captureRecovery(live, std::nullopt, "2026-11-26 08:00:00 UTC"));
    EXPECT_NE(text.find("'Default': a run of 90 steps with 28 inputs"), std::string::npos) << text;
    EXPECT_NE(text.find("shown at step 70, with unsaved edits; saved 2026-11-26 08:00:00 UTC"), std::string::npos) << text;
}

TEST(Recovery, MalformedFilesAreRefusedWithThePath) {
    Experiment live;
    doSomeWork(live);
    const std::string good = toJson(captureRecovery(live, kCamera, "now"));
    const auto refusal = [](const std::string& text) {
        const RecoveryResult read = parseRecovery(text, "r.json");
        return std::holds_alternative<scene::SceneError>(read) ? std::get<scene::SceneError>(read).message()
                                                              : std::string("accepted");
    };
    const auto replaced = [&](const std::string& from, const std::string& to) {
        std::string text = good;
        const size_t at = text.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        return at == std::string::npos ? text : text.replace(at, from.size(), to);
    };
    EXPECT_EQ(refusal(good), "accepted");
    EXPECT_EQ(refusal(replaced("impulse-lab-recovery", "impulse-lab-recording")),
              "r.json: format: expected \"impulse-lab-recovery\", got \"impulse-lab-recording\"");
    EXPECT_EQ(refusal(replaced("\"version\": 1,\n  \"saved", "\"version\": 2,\n  \"saved")),
              "r.json: version: unsupported version 2 (this reader understands version 1)");
    EXPECT_EQ(refusal(replaced("\"shown_step\": 70", "\"shown_step\": 91")),
              "r.json: shown_step: must not be more than the run's end_step (90)");
    EXPECT_EQ(refusal(replaced("\"shown_step\": 70", "\"shown_step\": -1")).rfind("r.json: shown_step: expected a step", 0), 0u);
    EXPECT_EQ(refusal(replaced("\"distance\": 12.5", "\"distance\": -1")).rfind("r.json: camera.distance: must be > 0", 0),
              0u);
    EXPECT_EQ(refusal(replaced("\"end_step\": 90", "\"end_step\": 9")),
              "r.json: run.inputs[5].step: must not be more than end_step (9)");
    EXPECT_EQ(refusal(replaced("\"run\": {", "\"world\": {}, \"run\": {")), "r.json: must hold either \"run\" or \"world\"");
    EXPECT_EQ(refusal(replaced("\"unsaved_edits\": true", "\"unsaved_edit\": true")),
              "r.json: unknown key 'unsaved_edit' (did you mean 'unsaved_edits'?)");
    EXPECT_EQ(refusal(good.substr(0, good.size() / 2)).rfind("r.json: ", 0), 0u);
}

TEST(Recovery, TheFolderFollowsTheEnvironment) {
    const auto keep = [](const char* name) {
        const char* value = std::getenv(name);
        return std::make_pair(std::string(name), value ? std::optional<std::string>(value) : std::nullopt);
    };
    const auto saved = {keep("IMPULSE_STATE_DIR"), keep("XDG_STATE_HOME"), keep("HOME")};
    ::unsetenv("IMPULSE_STATE_DIR");
    ::setenv("XDG_STATE_HOME", "/xdg/state", 1);
    ::setenv("HOME", "/home/u", 1);
    EXPECT_EQ(recoveryFolder(), "/xdg/state/impulse-lab");
    ::setenv("XDG_STATE_HOME", "relative/state", 1);  // the XDG rule: ignored
    EXPECT_EQ(recoveryFolder(), "/home/u/.local/state/impulse-lab");
    ::setenv("IMPULSE_STATE_DIR", "/tmp/mine", 1);
    EXPECT_EQ(recoveryFolder(), "/tmp/mine");
    ::unsetenv("IMPULSE_STATE_DIR");
    ::unsetenv("XDG_STATE_HOME");
    ::unsetenv("HOME");
    EXPECT_EQ(recoveryFolder(), "");
    for (const auto& [name, value] : saved) {
        if (value) {
            ::setenv(name.c_str(), value->c_str(), 1);
        } else {
            ::unsetenv(name.c_str());
        }
    }
    EXPECT_EQ(recoveryFilePath("/s", 42), "/s/recovery-42.json");
}

TEST(Recovery, OnlyFilesOfProcessesThatAreGoneAreOffered) {
    const fs::path dir = freshFolder("orphans");
    // Two processes that have ended (reaped: their PIDs name nothing now).
    std::vector<pid_t> gone;
    for (int i = 0; i < 2; ++i) {
        const pid_t child = ::fork();
        if (child == 0) ::_exit(0);
        ::waitpid(child, nullptr, 0);
        gone.push_back(child);
    }
    std::ofstream(recoveryFilePath(dir.string(), gone[0])) << "older";
    std::ofstream(recoveryFilePath(dir.string(), gone[1])) << "newer";
    fs::last_write_time(recoveryFilePath(dir.string(), gone[0]),
                        fs::last_write_time(recoveryFilePath(dir.string(), gone[1])) - std::chrono::seconds(60));
    std::ofstream(recoveryFilePath(dir.string(), ::getpid())) << "this process's own";
    std::ofstream(dir / "recovery-1x.json") << "not one of ours";
    std::ofstream(recoveryFilePath(dir.string(), gone[0]) + ".tmp") << "a write cut short";
    EXPECT_EQ(orphanedRecoveryFiles(dir.string()),
              (std::vector<std::string>{recoveryFilePath(dir.string(), gone[1]), recoveryFilePath(dir.string(), gone[0])}));
    EXPECT_TRUE(orphanedRecoveryFiles((dir / "missing").string()).empty());
    fs::remove_all(dir);
}

TEST(Recovery, TheWriterWritesWholeFilesAndACleanQuitRemovesThem) {
    const fs::path dir = freshFolder("writer");
    const std::string path = recoveryFilePath((dir / "made" / "on demand").string(), 7);
    Experiment live;
    doSomeWork(live);
    {
        RecoveryWriter writer(path);
        writer.submit(captureRecovery(live, kCamera, "first"));
        EXPECT_EQ(writer.flush(), "");
        Recovery second = captureRecovery(live, kCamera, "second");
        while (!writer.trySubmit(second)) {}  // the writer's lock is free but for moments
        EXPECT_EQ(writer.flush(), "");
        EXPECT_EQ(writer.writes(), 2u);
        const RecoveryResult read = loadRecoveryFile(path);
        ASSERT_TRUE(std::holds_alternative<Recovery>(read)) << std::get<scene::SceneError>(read).message();
        EXPECT_EQ(std::get<Recovery>(read).savedAt, "second");
        EXPECT_FALSE(fs::exists(path + ".tmp"));
    }
    // Destroyed without removeFile (a quit by a signal): the file stays.
    EXPECT_TRUE(fs::exists(path));
    {
        RecoveryWriter writer(path);
        writer.submit(captureRecovery(live, kCamera, "third"));
        writer.removeFile();  // the handed-over work is written first, then removed
        EXPECT_EQ(writer.writes(), 1u);
    }
    EXPECT_FALSE(fs::exists(path));

    // A folder that cannot be made: the error names the file, and comes once.
    std::ofstream(dir / "a file") << "x";
    RecoveryWriter blocked(recoveryFilePath((dir / "a file").string(), 7));
    blocked.submit(captureRecovery(live, kCamera, "x"));
    const std::string error = blocked.flush();
    EXPECT_NE(error.find("recovery-7.json"), std::string::npos) << error;
    EXPECT_EQ(blocked.takeError(), error);
    EXPECT_EQ(blocked.takeError(), "");
    fs::remove_all(dir);
}

TEST(Recovery, TheWorkMarkChangesWithTheWork) {
    Experiment experiment;
    ASSERT_EQ(experiment.open(kScene), "");
    WorkMark mark = workMark(experiment);
    EXPECT_EQ(workMark(experiment), mark) << "nothing happened";
    const auto changes = [&](const char* what) {
        const WorkMark now = workMark(experiment);
        EXPECT_NE(now, mark) << what;
        mark = now;
    };
    experiment.step();
    changes("a step");
    const BodyId body = firstDynamic(experiment.world());
    BodyDef def = experiment.world().bodyDef(body);
    def.mass = 3.0f;
    ASSERT_FALSE(experiment.apply(SetBody{body, def}));
    changes("an edit");
    ASSERT_FALSE(experiment.undo());
    changes("an undo");
    ASSERT_FALSE(experiment.redo());
    changes("a redo");
    experiment.step();
    experiment.seek(0);
    mark = workMark(experiment);
    experiment.seek(1);
    changes("a seek");
    ASSERT_EQ(experiment.open(kScene), "");
    changes("a load of the same scene");
}
