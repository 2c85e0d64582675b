// Issue 21: the whole run exported to CSV from the app. The rows are the ones
// impulse-sim --replay writes for the run's recording (byte for byte, whatever
// step the app shows), and the last step's rows read back as the live world's
// floats; a stopped or failed export leaves no file; the app's export runs on a
// thread of its own and reports its outcome once.
#include "app/file_text.h"
#include "app/run_csv.h"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <thread>

using namespace impulse;
using namespace impulse::app;

namespace {

namespace fs = std::filesystem;

constexpr uint64_t kRunSteps = 90;

/// The default scene with a grab moved about and thrown, an edit, and a spawned ball
/// whose name needs CSV quoting; then shown at an earlier step (the export must not care).
void liveRun(Experiment& experiment) {
    ASSERT_EQ(experiment.open(std::string(IMPULSE_SOURCE_DIR) + "/assets/scenes/default.json"), "");
    BodyId thrown;
    for (BodyId id : experiment.world().bodyIds()) {
        if (experiment.world().body(id).isDynamic()) {
            thrown = id;
            break;
        }
    }
    while (experiment.world().stepCount() < kRunSteps) {
        const World& world = experiment.world();
        const uint64_t step = world.stepCount();
        if (step == 5) {
            ASSERT_FALSE(experiment.apply(BeginDrag{thrown, world.body(thrown).position}));
        }
        if (step > 5 && step < 30) experiment.setDragTarget(vec3(0.1f * float(step), 3.0f, 0.0f));
        if (step == 30) {
            ASSERT_FALSE(experiment.apply(EndDrag{}));
        }
        if (step == 35) {
            BodyDef def = world.bodyDef(thrown);
            def.restitution = 0.9f;
            ASSERT_FALSE(experiment.apply(SetBody{thrown, def}));
        }
        if (step == 40) {
            BodyDef ball;
            ball.name = "ball, \"spawned\"";
            ball.shape = Shape::sphere(0.3f);
            ball.position = vec3(-1.0f, 4.0f, 0.5f);
            ASSERT_FALSE(experiment.apply(SpawnBody{ball, false}));
        }
        experiment.step();
    }
}

class RunCsv : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("impulse_run_csv_" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    fs::path dir_;
};

}  // namespace

TEST_F(RunCsv, TheRowsAreImpulseSimReplaysAndTheLastStepIsTheLiveWorld) {
    Experiment experiment;
    liveRun(experiment);
    const World live = experiment.world();
    experiment.seek(20);  // the app may show any step
    const auto captured = captureRecording(experiment);
    ASSERT_TRUE(std::holds_alternative<Recording>(captured));
    const Recording& recording = std::get<Recording>(captured);

    const std::string exported = (dir_ / "run.csv").string();
    std::atomic<bool> stop{false};
    std::atomic<uint64_t> written{0};
    ASSERT_EQ(writeRunCsv(recording, exported, stop, written), "");
    EXPECT_EQ(written.load(), kRunSteps);
    EXPECT_FALSE(fs::exists(exported + ".partial"));

    const std::string file = (dir_ / "run.json").string();
    ASSERT_EQ(saveRecordingFile(recording, file), "");
    const std::string simCsv = (dir_ / "sim.csv").string();
    const std::string command =
        std::string(IMPULSE_SIM_PATH) + " --replay '" + file + "' --csv '" + simCsv + "' > /dev/null";
    const int status = std::system(command.c_str());
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    const std::string rows = fileText(exported);
    EXPECT_EQ(rows, fileText(simCsv));

    // The last step's rows: every body of the live world, each float as it was.
    std::istringstream lines(rows);
    std::string line;
    size_t lastRows = 0;
    while (std::getline(lines, line)) {
        if (line.rfind(std::to_string(kRunSteps) + ",", 0) != 0) continue;
        ++lastRows;
        // The 13 floats are the last fields (a quoted name may hold commas).
        float values[13];
        size_t end = line.size();
        for (int k = 12; k >= 0; --k) {
            const size_t comma = line.rfind(',', end - 1);
            values[k] = std::strtof(line.substr(comma + 1, end - comma - 1).c_str(), nullptr);
            end = comma;
        }
        const BodyId id = live.bodyIds()[lastRows - 1];
        const Body& b = live.body(id);
        SCOPED_TRACE(b.name);
        EXPECT_EQ(values[0], b.position.x);
        EXPECT_EQ(values[1], b.position.y);
        EXPECT_EQ(values[2], b.position.z);
        EXPECT_EQ(values[3], b.orientation.w);
        EXPECT_EQ(values[8], b.linearVelocity.y);
        EXPECT_EQ(values[12], b.angularVelocity.z);
    }
    EXPECT_EQ(lastRows, live.bodyIds().size());
    EXPECT_NE(rows.find("\"ball, \"\"spawned\"\"\""), std::string::npos) << "the spawned ball's name, quoted";
}

TEST_F(RunCsv, AStoppedOrFailedExportLeavesNoFile) {
    Experiment experiment;
    liveRun(experiment);
    const Recording recording = std::get<Recording>(captureRecording(experiment));
    std::atomic<bool> stop{true};
    std::atomic<uint64_t> written{0};
    const std::string path = (dir_ / "stopped.csv").string();
    EXPECT_EQ(writeRunCsv(recording, path, stop, written), "export run: stopped");
    EXPECT_FALSE(fs::exists(path));
    EXPECT_FALSE(fs::exists(path + ".partial"));

    stop = false;
    const std::string nowhere = (dir_ / "missing" / "run.csv").string();
    const std::string error = writeRunCsv(recording, nowhere, stop, written);
    EXPECT_NE(error.find("export run: cannot create '" + nowhere + ".partial'"), std::string::npos) << error;
}

TEST_F(RunCsv, TheAppsExportRunsOnItsOwnThreadAndReportsOnce) {
    Experiment experiment;
    liveRun(experiment);
    RunCsvExport exporter;
    EXPECT_EQ(exporter.start(experiment, ""), "export run: the file name is empty");
    const std::string path = (dir_ / "app.csv").string();
    ASSERT_EQ(exporter.start(experiment, path), "");
    EXPECT_EQ(exporter.steps(), kRunSteps);
    std::optional<RunCsvExport::Outcome> outcome;
    for (int i = 0; i < 6000 && !outcome; ++i) {  // at most 60 s
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        outcome = exporter.takeOutcome();
    }
    ASSERT_TRUE(outcome);
    EXPECT_FALSE(outcome->isError) << outcome->message;
    EXPECT_EQ(outcome->message, "wrote the run, steps 0 to 90 (impulse-sim's columns), to " + path);
    EXPECT_FALSE(exporter.takeOutcome()) << "reported once";
    EXPECT_FALSE(exporter.running());

    const std::string direct = (dir_ / "direct.csv").string();
    std::atomic<bool> stop{false};
    std::atomic<uint64_t> written{0};
    ASSERT_EQ(writeRunCsv(std::get<Recording>(captureRecording(experiment)), direct, stop, written), "");
    EXPECT_EQ(fileText(path), fileText(direct));
}
