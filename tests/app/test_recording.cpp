// Issue 21: recording files. A live run (drags, edits, undo, redo, spawn,
// delete, a branch) saved as a recording, read back and replayed into a fresh
// experiment gives the same world, byte for byte; impulse-sim --replay gives
// the same final state; every malformed file is refused with its JSON path and
// rule; a run that a recording cannot hold is refused, never written wrong.
#include "app/file_text.h"
#include "app/recording.h"
#include "physics/physics_test_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

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

BodyId bodyNamed(const World& world, const std::string& name) {
    for (BodyId id : world.bodyIds()) {
        if (world.body(id).name == name) return id;
    }
    return BodyId{};
}

BodyId firstDynamic(const World& world) {
    for (BodyId id : world.bodyIds()) {
        if (world.body(id).isDynamic()) return id;
    }
    return BodyId{};
}

BodyId firstStatic(const World& world) {
    for (BodyId id : world.bodyIds()) {
        if (world.body(id).isStatic) return id;
    }
    return BodyId{};
}

/// The test run's inputs at the experiment's step: a grab with a moving target and a
/// throw, the drag's spring and e and mu edited during it, a spawn, a deletion undone
/// and redone, gravity, and a static body's definition handed over as an edit gives it
/// (a mass kept, an orientation off unit length, which World renormalises).
void applyInputs(Experiment& experiment) {
    const World& world = experiment.world();
    const BodyId thrown = firstDynamic(world);
    switch (world.stepCount()) {
        case 5: ASSERT_FALSE(experiment.apply(BeginDrag{thrown, world.body(thrown).position + vec3(0.1f, 0, 0)})); break;
        case 15: ASSERT_FALSE(experiment.apply(SetDragSettings{DragSettings{8.0f, 0.5f, 40.0f}})); break;
        case 20: {
            BodyDef def = world.bodyDef(thrown);
            def.restitution = 0.85f;
            def.friction = 0.2f;
            ASSERT_FALSE(experiment.apply(SetBody{thrown, def}));
            break;
        }
        case 40: ASSERT_FALSE(experiment.apply(EndDrag{})); break;
        case 50: {
            BodyDef ball;
            ball.name = "spawned ball";
            ball.shape = Shape::sphere(0.3f);
            ball.position = vec3(-1.0f, 4.0f, 0.5f);
            ASSERT_FALSE(experiment.apply(SpawnBody{ball, true}));
            break;
        }
        case 60: ASSERT_FALSE(experiment.apply(DeleteBody{bodyNamed(world, "spawned ball")})); break;
        case 70: ASSERT_FALSE(experiment.undo()); break;
        case 75: ASSERT_FALSE(experiment.redo()); break;
        case 80: ASSERT_FALSE(experiment.undo()); break;
        case 90: {
            WorldSettings settings = world.settings();
            settings.gravity = vec3(0.5f, -9.81f, 0.0f);
            ASSERT_FALSE(experiment.apply(SetWorldSettings{settings}));
            break;
        }
        case 100: {
            const BodyId ground = firstStatic(world);
            BodyDef def = world.bodyDef(ground);
            def.mass = 3.0f;
            def.orientation = quat(1.00002f, 0.0f, 0.0f, 0.0f);
            ASSERT_FALSE(experiment.apply(SetBody{ground, def}));
            break;
        }
        default: break;
    }
    const uint64_t step = world.stepCount();
    if (step > 5 && step < 40) experiment.setDragTarget(vec3(0.05f * float(step), 2.5f, 0.03f * float(step)));
}

void runTo(Experiment& experiment, uint64_t end) {
    while (true) {
        applyInputs(experiment);
        if (experiment.world().stepCount() >= end) return;
        experiment.step();
    }
}

/// The test run, opened from the default scene with the drag's spring changed
/// before (the run starts with it), to step `end`.
void recordRun(Experiment& experiment, uint64_t end) {
    ASSERT_FALSE(experiment.apply(SetDragSettings{DragSettings{3.0f, 1.0f, 20.0f}}));
    ASSERT_EQ(experiment.open(kScene), "");
    runTo(experiment, end);
}

Recording capture(const Experiment& experiment) {
    std::variant<Recording, std::string> captured = captureRecording(experiment);
    if (auto* error = std::get_if<std::string>(&captured)) ADD_FAILURE() << *error;
    return std::get<Recording>(captured);
}

Recording parse(const std::string& text) {
    RecordingResult parsed = parseRecording(text);
    if (auto* error = std::get_if<scene::SceneError>(&parsed)) ADD_FAILURE() << error->message();
    return std::get<Recording>(parsed);
}

/// The recording through its file text, replayed into a fresh experiment.
void replayText(const std::string& text, Experiment& replayed) {
    const Validation refused = replayRecording(parse(text), replayed, "");
    ASSERT_FALSE(refused) << refused->message();
}

void expectSameWorld(const World& a, const World& b) {
    EXPECT_TRUE(test::sameState(a, b));
    EXPECT_TRUE(test::sameLastStep(a, b));
}

TEST(Recording, ALiveRunReplaysToTheSameWorldBitForBit) {
    Experiment live;
    recordRun(live, 160);
    ASSERT_EQ(live.runInputs().size() > 40u, true);
    const std::string text = toJson(capture(live));
    Experiment replayed;
    replayText(text, replayed);
    EXPECT_EQ(replayed.runEnd(), 160u);
    expectSameWorld(replayed.world(), live.world());
    EXPECT_EQ(replayed.simulatedTime(), live.simulatedTime());
    EXPECT_EQ(replayed.dragSettings().frequency, 8.0f);
    EXPECT_EQ(capture(replayed).dragSettings.frequency, 3.0f);
    // The replayed run is the same run: same inputs, so the same file.
    EXPECT_EQ(toJson(capture(replayed)), text);
}

TEST(Recording, EveryStepOfTheReplayedRunIsTheLiveOne) {
    Experiment live;
    recordRun(live, 120);
    Experiment replayed;
    replayText(toJson(capture(live)), replayed);
    for (uint64_t step : {0u, 5u, 6u, 39u, 40u, 61u, 70u, 100u, 119u}) {
        live.seek(step);
        replayed.seek(step);
        ASSERT_TRUE(test::sameState(replayed.world(), live.world())) << "step " << step;
    }
}

TEST(Recording, ABranchedRunReplaysToTheBranch) {
    Experiment live;
    recordRun(live, 120);
    live.seek(30);  // during the drag: the branch lets go earlier and edits mu
    ASSERT_FALSE(live.apply(EndDrag{}));
    const BodyId thrown = firstDynamic(live.world());
    BodyDef def = live.world().bodyDef(thrown);
    def.friction = 0.45f;
    const Validation refused = live.apply(SetBody{thrown, def});
    ASSERT_FALSE(refused) << refused->message();
    for (int i = 0; i < 50; ++i) live.step();
    ASSERT_EQ(live.previousRuns().size(), 1u);
    Experiment replayed;
    replayText(toJson(capture(live)), replayed);
    expectSameWorld(replayed.world(), live.world());
}

TEST(Recording, TheFileTextReadsBackToTheSameValues) {
    Experiment live;
    recordRun(live, 110);
    const Recording recording = capture(live);
    const std::string text = toJson(recording);
    EXPECT_EQ(toJson(parse(text)), text);
    const Recording back = parse(text);
    ASSERT_EQ(back.inputs.size(), recording.inputs.size());
    // The static body's edit keeps its mass and its orientation's bits (BodyReading::Exact).
    const auto& edit = std::get<SetBody>(std::get<Command>(back.inputs.back().input));
    EXPECT_EQ(edit.def.mass, 3.0f);
    EXPECT_EQ(edit.def.orientation.w, 1.00002f);
    EXPECT_EQ(back.end, 110u);
}

TEST(Recording, ARunThatDoesNotStartAtALoadIsRefused) {
    Experiment nothingLoaded;
    for (int i = 0; i < 3; ++i) nothingLoaded.step();
    EXPECT_TRUE(std::holds_alternative<std::string>(captureRecording(nothingLoaded)));

    // Undoing a second load brings the first world back at step 40, with its edits.
    Experiment experiment;
    recordRun(experiment, 40);
    ASSERT_EQ(experiment.open(kScene), "");
    ASSERT_FALSE(experiment.undo());
    ASSERT_EQ(experiment.runStart(), 40u);
    const auto refused = captureRecording(experiment);
    ASSERT_TRUE(std::holds_alternative<std::string>(refused));
    EXPECT_NE(std::get<std::string>(refused).find("does not start at a scene's load or reset"), std::string::npos);

    // A reset starts a run a recording holds.
    ASSERT_FALSE(experiment.apply(ResetScene{}));
    EXPECT_TRUE(std::holds_alternative<Recording>(captureRecording(experiment)));
}

// ---------------------------------------------------------------- refusals

std::string smallRecordingText() {
    Experiment live;
    EXPECT_EQ(live.open(kScene), "");
    for (int i = 0; i < 3; ++i) live.step();
    const BodyId body = firstDynamic(live.world());
    EXPECT_FALSE(live.apply(BeginDrag{body, live.world().body(body).position}));
    live.setDragTarget(vec3(0.0f, 3.0f, 0.0f));
    for (int i = 0; i < 3; ++i) live.step();
    EXPECT_FALSE(live.apply(EndDrag{}));
    live.step();
    return toJson(capture(live));
}

std::string refusal(const std::string& text) {
    RecordingResult parsed = parseRecording(text, "r.json");
    if (auto* error = std::get_if<scene::SceneError>(&parsed)) return error->message();
    return "";
}

std::string edited(const std::function<void(nlohmann::json&)>& edit) {
    nlohmann::json j = nlohmann::json::parse(smallRecordingText());
    edit(j);
    return j.dump();
}

TEST(RecordingFile, EveryRefusalNamesThePathAndTheRule) {
    using J = nlohmann::json;
    const std::pair<std::function<void(J&)>, std::string> cases[] = {
        {[](J& j) { j.erase("format"); }, "r.json: format: required key is missing"},
        {[](J& j) { j["format"] = "impulse-lab-scene"; }, "r.json: format: expected \"impulse-lab-recording\""},
        {[](J& j) { j["version"] = 2; }, "r.json: version: unsupported version 2"},
        {[](J& j) { j["end_step"] = -1; }, "r.json: end_step: must be >= 0"},
        {[](J& j) { j["end_step"] = 1.5; }, "r.json: end_step: expected a whole number of steps"},
        {[](J& j) { j["inputs"][1]["step"] = 1; }, "r.json: inputs[1].step: must not be less than inputs[0].step (3)"},
        {[](J& j) { j["end_step"] = 2; }, "r.json: inputs[0].step: must not be more than end_step (2)"},
        {[](J& j) { j["inputs"][0]["type"] = "grab"; }, "r.json: inputs[0].type: unknown input type 'grab'"},
        {[](J& j) { j["inputs"][0]["body"]["generation"] = 0; },
         "r.json: inputs[0].body.generation: must be >= 1 (0 is no body)"},
        {[](J& j) { j["inputs"][0]["body"]["index"] = -3; }, "r.json: inputs[0].body.index: expected a whole number >= 0"},
        {[](J& j) { j["inputs"][0]["pointe"] = 1; }, "r.json: inputs[0]: unknown key 'pointe' (did you mean 'point'?)"},
        {[](J& j) { j["inputs"][1].erase("target"); }, "r.json: inputs[1].target: required key is missing"},
        {[](J& j) { j["drag"]["frequency"] = 0; }, "r.json: drag.frequency: must be a number in (0, 1000] Hz"},
        {[](J& j) { j["scene"]["bodies"][1]["mass"] = -1; }, "r.json: scene.bodies[1].mass: "},
        {[](J& j) { j["scene"] = 3; }, "r.json: scene: expected a JSON object at the top level, got a number"},
        {[](J& j) {
             j["inputs"].push_back(J{{"step", 7}, {"type", "set_world_settings"}, {"world", {{"timestep", -1}}}});
         },
         "r.json: inputs[3].world.timestep: "},
        {[](J& j) {
             j["inputs"].push_back(J{{"step", 7}, {"type", "set_body"}, {"body", {{"index", 1}, {"generation", 1}}},
                                     {"def", {{"name", "x"}, {"shape", {{"type", "sphere"}, {"radius", 0}}},
                                              {"position", {0, 1, 0}}}}});
         },
         "r.json: inputs[3].def.shape.radius: "},
    };
    for (const auto& [edit, expected] : cases) {
        const std::string message = refusal(edited(edit));
        EXPECT_EQ(message.substr(0, expected.size()), expected) << message;
    }
    EXPECT_EQ(refusal(smallRecordingText()), "");
    EXPECT_NE(refusal("{\"format\": 1,").find("r.json: "), std::string::npos);
    EXPECT_NE(refusal("[]"), "");
}

TEST(RecordingFile, AnInputTheRunCannotHoldStopsTheReplayWithItsPath) {
    using J = nlohmann::json;
    const std::pair<std::function<void(J&)>, std::string> cases[] = {
        // Undo at the start would take the load back.
        {[](J& j) { j["inputs"].insert(j["inputs"].begin(), J{{"step", 0}, {"type", "undo"}}); },
         "inputs[0]: undo: nothing to undo"},
        {[](J& j) { j["inputs"][0]["body"]["generation"] = 7; }, "inputs[0]: body: no such body"},
        {[](J& j) { j["inputs"].erase(0); }, "inputs[0]: target: a drag target while nothing is being dragged"},
        {[](J& j) { j["inputs"].push_back(J{{"step", 7}, {"type", "end_drag"}}); },
         "inputs[3]: drag: nothing is being dragged"},
    };
    for (const auto& [edit, expected] : cases) {
        RecordingResult parsed = parseRecording(edited(edit));
        ASSERT_TRUE(std::holds_alternative<Recording>(parsed));
        Experiment experiment;
        const Validation refused = replayRecording(std::get<Recording>(parsed), experiment, "");
        ASSERT_TRUE(refused) << expected;
        EXPECT_EQ(refused->message().substr(0, expected.size()), expected);
    }
}

TEST(RecordingFile, AnUndoOfTheLoadInAnAppWithHistoryIsRefused) {
    Experiment app;
    ASSERT_EQ(app.open(kScene), "");  // the app had a scene open before the recording
    nlohmann::json j = nlohmann::json::parse(smallRecordingText());
    j["inputs"].insert(j["inputs"].begin(), nlohmann::json{{"step", 0}, {"type", "undo"}});
    const Validation refused = replayRecording(parse(j.dump()), app, "");
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->message(), "inputs[0]: undo: a recording holds one run, from its scene's load: this undo would "
                                  "take the load back");
}

// ---------------------------------------------------------------- impulse-sim --replay

std::string readFile(const fs::path& path) { return fileText(path.string()); }

struct SimRun {
    int exitCode = -1;
    std::string out, err;
};

SimRun runSim(const std::string& arguments, const fs::path& dir) {
    const fs::path out = dir / "out.txt", err = dir / "err.txt";
    const std::string command = std::string(IMPULSE_SIM_PATH) + " " + arguments + " >" + out.string() + " 2>" + err.string();
    const int status = std::system(command.c_str());
    return SimRun{WIFEXITED(status) ? WEXITSTATUS(status) : -1, readFile(out), readFile(err)};
}

class ReplayCli : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("impulse_replay_" + std::to_string(::getpid()));
        fs::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ignored;
        fs::remove_all(dir_, ignored);
    }
    fs::path dir_;
};

float shortestFloat(const nlohmann::json& j) { return static_cast<float>(j.get<double>()); }

TEST_F(ReplayCli, TheSummaryIsTheLiveRunsFinalState) {
    Experiment live;
    recordRun(live, 160);
    const std::string file = (dir_ / "run.json").string();
    ASSERT_EQ(saveRecordingFile(capture(live), file), "");
    const SimRun sim = runSim("--replay " + file + " --summary --csv " + (dir_ / "run.csv").string(), dir_);
    ASSERT_EQ(sim.exitCode, 0) << sim.err;
    const nlohmann::json summary = nlohmann::json::parse(sim.out);
    EXPECT_EQ(summary["steps"], 160);
    EXPECT_EQ(summary["simulated_time"].get<double>(), live.simulatedTime());
    const std::vector<BodyId> ids = live.world().bodyIds();
    ASSERT_EQ(summary["bodies"].size(), ids.size());
    for (size_t i = 0; i < ids.size(); ++i) {
        const Body& body = live.world().body(ids[i]);
        const nlohmann::json& b = summary["bodies"][i];
        EXPECT_EQ(b["name"], body.name);
        for (int k = 0; k < 3; ++k) {
            EXPECT_EQ(shortestFloat(b["position"][k]), body.position[k]) << body.name;
            EXPECT_EQ(shortestFloat(b["linear_velocity"][k]), body.linearVelocity[k]) << body.name;
            EXPECT_EQ(shortestFloat(b["angular_velocity"][k]), body.angularVelocity[k]) << body.name;
        }
        EXPECT_EQ(shortestFloat(b["orientation"][0]), body.orientation.w) << body.name;
    }
    // The CSV's last rows are the final bodies; a second replay writes the same bytes.
    const std::string csv = readFile(dir_ / "run.csv");
    EXPECT_NE(csv.find("\n160,2.6666"), std::string::npos);
    ASSERT_EQ(runSim("--replay " + file + " --csv " + (dir_ / "again.csv").string(), dir_).exitCode, 0);
    EXPECT_EQ(readFile(dir_ / "again.csv"), csv);
}

TEST_F(ReplayCli, ARecordingWithoutInputsGivesTheScenesCsv) {
    Experiment live;
    ASSERT_EQ(live.open(kScene), "");
    for (int i = 0; i < 90; ++i) live.step();
    const std::string file = (dir_ / "plain.json").string();
    ASSERT_EQ(saveRecordingFile(capture(live), file), "");
    ASSERT_EQ(runSim("--replay " + file + " --every 7 --csv " + (dir_ / "replay.csv").string(), dir_).exitCode, 0);
    ASSERT_EQ(runSim(kScene + " --steps 90 --every 7 --csv " + (dir_ / "scene.csv").string(), dir_).exitCode, 0);
    EXPECT_EQ(readFile(dir_ / "replay.csv"), readFile(dir_ / "scene.csv"));
}

TEST_F(ReplayCli, BadInputExitsTwoAndWritesNothing) {
    const std::string bad = (dir_ / "bad.json").string();
    nlohmann::json j = nlohmann::json::parse(smallRecordingText());
    j["inputs"][0]["body"]["generation"] = 9;
    std::ofstream(bad) << j.dump();
    const fs::path csv = dir_ / "x.csv";
    SimRun sim = runSim("--replay " + bad + " --csv " + csv.string(), dir_);
    EXPECT_EQ(sim.exitCode, 2);
    EXPECT_EQ(sim.err, "impulse-sim: " + bad + ": inputs[0]: body: no such body\n");
    EXPECT_FALSE(fs::exists(csv));
    j["inputs"][0]["step"] = 99;
    std::ofstream(bad) << j.dump();
    sim = runSim("--replay " + bad, dir_);
    EXPECT_EQ(sim.exitCode, 2);
    EXPECT_EQ(sim.err, "impulse-sim: " + bad + ": inputs[0].step: must not be more than end_step (7)\n");
    sim = runSim("--replay " + bad + " --steps 5", dir_);
    EXPECT_EQ(sim.exitCode, 2);
    EXPECT_EQ(sim.err, "impulse-sim: --steps: not with --replay (a recording runs to its own last step)\n");
    sim = runSim(kScene + " --replay " + bad, dir_);
    EXPECT_EQ(sim.err, "impulse-sim: --replay: give a recording or a scene, not both\n");
    sim = runSim("--replay", dir_);
    EXPECT_EQ(sim.err, "impulse-sim: --replay: missing value\n");
}

}  // namespace
