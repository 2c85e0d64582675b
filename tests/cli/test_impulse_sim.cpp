// The impulse-sim contract (the README, "impulse-sim"): CSV rows and header, the JSON
// summary, exit codes 0/2/1 with nothing written on invalid input, determinism.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

const char* const kHeader = "step,time,body,px,py,pz,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz";

const char* const kSmallScene = R"({
  "version": 1,
  "name": "small",
  "bodies": [
    {"name": "ground", "static": true, "shape": {"type": "box", "half_extents": [10, 0.5, 10]}, "position": [0, -0.5, 0]},
    {"name": "box", "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}, "position": [0, 0.6, 0]},
    {"name": "ball, \"red\"", "shape": {"type": "sphere", "radius": 0.3}, "position": [2, 3, 0], "angular_velocity": [0, 1, 0]}
  ]
})";

struct Outcome {
    int exitCode = -1;
    std::string out;
    std::string err;
};

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string quote(const std::string& arg) {
    std::string quoted = "'";
    for (char c : arg) {
        if (c == '\'') {
            quoted += "'\\''";
        } else {
            quoted += c;
        }
    }
    return quoted + "'";
}

class ImpulseSim : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = fs::temp_directory_path() /
               ("impulse_sim_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        scene_ = write("scene.json", kSmallScene);
    }
    void TearDown() override {
        std::error_code ignored;
        fs::remove_all(dir_, ignored);
    }

    std::string write(const std::string& name, const std::string& text) {
        const fs::path path = dir_ / name;
        std::ofstream(path, std::ios::binary) << text;
        return path.string();
    }
    std::string path(const std::string& name) const { return (dir_ / name).string(); }

    Outcome run(const std::vector<std::string>& args) const {
        std::string command = quote(IMPULSE_SIM_PATH);
        for (const std::string& a : args) command += " " + quote(a);
        const fs::path out = dir_ / "stdout.txt", err = dir_ / "stderr.txt";
        command += " >" + quote(out.string()) + " 2>" + quote(err.string());
        const int status = std::system(command.c_str());
        Outcome r;
        r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        r.out = readFile(out);
        r.err = readFile(err);
        fs::remove(out);
        fs::remove(err);
        return r;
    }

    static std::vector<std::string> lines(const std::string& text) {
        std::vector<std::string> result;
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);) result.push_back(line);
        return result;
    }

    fs::path dir_;
    std::string scene_;
};

TEST_F(ImpulseSim, CsvHasHeaderAndRowsAtZeroEveryKAndLast) {
    const std::string csv = path("out.csv");
    const Outcome r = run({scene_, "--steps", "10", "--every", "3", "--csv", csv});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "");
    const std::vector<std::string> rows = lines(readFile(csv));
    ASSERT_EQ(rows.size(), 1u + 5u * 3u);  // header + steps 0, 3, 6, 9, 10 for 3 bodies
    EXPECT_EQ(rows[0], kHeader);
    const int expectedSteps[] = {0, 3, 6, 9, 10};
    for (std::size_t i = 1; i < rows.size(); ++i) {
        const std::string& row = rows[i];
        EXPECT_EQ(std::stoi(row.substr(0, row.find(','))), expectedSteps[(i - 1) / 3]) << row;
    }
    // Names are CSV-quoted when needed, and every row has 16 columns.
    EXPECT_NE(rows[3].find("\"ball, \"\"red\"\"\""), std::string::npos) << rows[3];
    EXPECT_EQ(rows[1].rfind("0,0,ground,", 0), 0u) << rows[1];
    std::size_t commas = 0;
    for (char c : rows[2]) commas += c == ',';
    EXPECT_EQ(commas, 15u) << rows[2];
}

TEST_F(ImpulseSim, DtOverridesTheSceneTimestep) {
    const std::string csv = path("out.csv");
    const Outcome r = run({scene_, "--steps", "4", "--dt", "0.005", "--csv", csv, "--every", "4"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::vector<std::string> rows = lines(readFile(csv));
    ASSERT_EQ(rows.size(), 1u + 2u * 3u);
    EXPECT_EQ(rows.back().rfind("4,0.0199999996,", 0), 0u) << rows.back();  // 4 * float(0.005)
}

TEST_F(ImpulseSim, SummaryIsJsonWithTheContractKeys) {
    const Outcome r = run({scene_, "--steps", "20", "--summary"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const nlohmann::json summary = nlohmann::json::parse(r.out);  // throws (fails the test) if not JSON
    for (const char* key :
         {"steps", "simulated_time", "wall_time_s", "step_time_ms", "bodies", "kinetic_energy",
          "potential_energy", "linear_momentum", "angular_momentum", "contact_points", "max_speed",
          "sleeping_bodies"}) {
        EXPECT_TRUE(summary.contains(key)) << key;
    }
    EXPECT_EQ(summary["steps"], 20);
    EXPECT_NEAR(summary["simulated_time"].get<double>(), 20.0 / 60.0, 1e-6);
    for (const char* key : {"median", "p95", "mean", "max"}) {
        ASSERT_TRUE(summary["step_time_ms"].contains(key)) << key;
        EXPECT_GE(summary["step_time_ms"][key].get<double>(), 0.0);
    }
    EXPECT_LE(summary["step_time_ms"]["median"].get<double>(), summary["step_time_ms"]["max"].get<double>());
    ASSERT_EQ(summary["bodies"].size(), 3u);
    const nlohmann::json& box = summary["bodies"][1];
    EXPECT_EQ(box["name"], "box");
    for (const char* key : {"position", "linear_velocity", "angular_velocity"})
        EXPECT_EQ(box[key].size(), 3u) << key;
    EXPECT_EQ(box["orientation"].size(), 4u);
    EXPECT_EQ(summary["linear_momentum"].size(), 3u);
    EXPECT_EQ(summary["angular_momentum"].size(), 3u);
    EXPECT_TRUE(summary["contact_points"].is_number_integer());
    EXPECT_GT(summary["contact_points"].get<int>(), 0);  // the box rests on the ground
    EXPECT_GE(summary["max_speed"].get<double>(), 0.0);
    EXPECT_EQ(summary["sleeping_bodies"], 0);  // the scene does not turn sleeping on
}

// A box resting on the ground falls asleep once it has rested for sleep_time; a ball
// spinning about the vertical (no friction stops that spin) stays awake.
TEST_F(ImpulseSim, SummaryCountsSleepingBodies) {
    const std::string sleepy = write("sleepy.json", R"({"version": 1,
      "world": {"sleeping": true, "sleep_speed": 0.05, "sleep_time": 0.5},
      "bodies": [
        {"name": "ground", "static": true, "shape": {"type": "box", "half_extents": [10, 0.5, 10]},
         "position": [0, -0.5, 0]},
        {"name": "box", "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}, "position": [0, 0.5, 0]},
        {"name": "spinner", "shape": {"type": "sphere", "radius": 0.3}, "position": [3, 0.3, 0],
         "angular_velocity": [0, 2, 0]}]})");
    const Outcome r = run({sleepy, "--steps", "120", "--summary"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const nlohmann::json summary = nlohmann::json::parse(r.out);
    EXPECT_EQ(summary["sleeping_bodies"], 1) << r.out;
    EXPECT_EQ(summary["bodies"][1]["linear_velocity"], nlohmann::json::array({0, 0, 0}));
}

TEST_F(ImpulseSim, HelpExitsZero) {
    const Outcome r = run({"--help"});
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_NE(r.out.find("usage: impulse-sim"), std::string::npos);
}

TEST_F(ImpulseSim, BadFlagsExitTwoAndWriteNothing) {
    const std::string csv = path("never.csv");
    struct Case {
        std::vector<std::string> args;
        std::string message;  // expected on stderr
    };
    const std::vector<Case> cases = {
        {{scene_, "--steps", "10", "--csv", csv, "--bogus"}, "--bogus: unknown flag"},
        {{scene_, "--csv", csv, "--steps"}, "--steps: missing value"},
        {{scene_, "--csv", csv}, "--steps: required"},
        {{scene_, "--steps", "ten", "--csv", csv}, "--steps: expected a whole number"},
        {{scene_, "--steps", "1.5", "--csv", csv}, "--steps: expected a whole number"},
        {{scene_, "--steps", "-1", "--csv", csv}, "--steps: must be >= 0"},
        {{scene_, "--steps", "100000000000", "--csv", csv}, "--steps: must be <="},
        {{scene_, "--steps", "99999999999999999999999", "--csv", csv}, "--steps"},
        {{scene_, "--steps", "10", "--dt", "0", "--csv", csv}, "--dt: must be a number in"},
        {{scene_, "--steps", "10", "--dt", "5", "--csv", csv}, "--dt: must be a number in"},
        {{scene_, "--steps", "10", "--dt", "fast", "--csv", csv}, "--dt: expected a number"},
        {{scene_, "--steps", "10", "--dt", "nan", "--csv", csv}, "--dt"},
        {{scene_, "--steps", "10", "--every", "0", "--csv", csv}, "--every: must be >= 1"},
        {{scene_, "--steps", "10", "--every", "x", "--csv", csv}, "--every: expected a whole number"},
        {{scene_, "--steps", "10", "--steps", "5", "--csv", csv}, "--steps: given more than once"},
        {{scene_, "--steps", "10", "--threads", "0", "--csv", csv}, "--threads: must be an integer in [1, 64]"},
        {{scene_, "--steps", "10", "--threads", "65", "--csv", csv}, "--threads: must be an integer in [1, 64]"},
        {{scene_, "--steps", "10", "--threads", "two", "--csv", csv}, "--threads: expected a whole number"},
        {{"--steps", "10", "--csv", csv}, "missing SCENE.json"},
        {{scene_, scene_, "--steps", "10", "--csv", csv}, "unexpected argument"},
    };
    for (const Case& c : cases) {
        std::string joined;
        for (const std::string& a : c.args) joined += " " + a;
        SCOPED_TRACE(joined);
        const Outcome r = run(c.args);
        EXPECT_EQ(r.exitCode, 2);
        EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
        EXPECT_EQ(r.out, "");
        EXPECT_FALSE(fs::exists(csv));
    }
}

TEST_F(ImpulseSim, BadSceneExitsTwoWithThePathAndWritesNothing) {
    const std::string bad = write(
        "bad.json",
        R"({"version": 1, "bodies": [{"shape": {"type": "sphere", "radius": 1}, "position": [0, 0, 0], "mass": -1}]})");
    const std::string csv = path("never.csv");
    Outcome r = run({bad, "--steps", "10", "--csv", csv, "--summary"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find(bad + ": bodies[0].mass: must be > 0"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_FALSE(fs::exists(csv));

    r = run({path("no_such_scene.json"), "--steps", "10", "--csv", csv});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("no_such_scene.json"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(csv));

    const std::string malformed = write("malformed.json", "{\"version\": 1,\n\"bodies\": [\n");
    r = run({malformed, "--steps", "1", "--csv", csv});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("line 3"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(csv));
}

TEST_F(ImpulseSim, TwoRunsGiveByteIdenticalCsv) {
    const std::string a = path("a.csv"), b = path("b.csv");
    ASSERT_EQ(run({scene_, "--steps", "120", "--csv", a, "--summary"}).exitCode, 0);
    ASSERT_EQ(run({scene_, "--steps", "120", "--csv", b}).exitCode, 0);
    const std::string first = readFile(a);
    EXPECT_GT(first.size(), 1000u);
    EXPECT_EQ(first, readFile(b));
}

TEST_F(ImpulseSim, ThreadsGiveTheSameBytes) {
    const std::string one = path("one.csv"), two = path("two.csv");
    ASSERT_EQ(run({scene_, "--steps", "120", "--csv", one}).exitCode, 0);
    ASSERT_EQ(run({scene_, "--steps", "120", "--csv", two, "--threads", "2"}).exitCode, 0);
    EXPECT_EQ(readFile(one), readFile(two));
}

// A body that falls off the ground leaves the default bounds (100 m below the origin):
// removed after that step, named on stderr and in the summary; the CSV lists it until then.
TEST_F(ImpulseSim, ABodyLeavingTheBoundsIsRemovedAndReported) {
    const std::string falling = write("falling.json", R"({"version": 2, "bodies": [
      {"name": "ground", "static": true, "shape": {"type": "box", "half_extents": [2, 0.5, 2]}, "position": [0, -0.5, 0]},
      {"name": "stays", "shape": {"type": "sphere", "radius": 0.5}, "position": [0, 0.5, 0]},
      {"name": "faller", "shape": {"type": "sphere", "radius": 0.5}, "position": [5, 0.5, 0]}]})");
    const std::string csv = path("falling.csv");
    const Outcome r = run({falling, "--steps", "600", "--csv", csv, "--every", "600", "--summary"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("body 'faller' left the world bounds at (5.0, -100."), std::string::npos) << r.err;
    const nlohmann::json summary = nlohmann::json::parse(r.out);
    ASSERT_EQ(summary["left_bounds"].size(), 1u) << r.out;
    EXPECT_EQ(summary["left_bounds"][0]["name"], "faller");
    // 100 m of free fall from rest takes sqrt(2 * 100.5 / 9.81) = 4.53 s: step 272.
    EXPECT_NEAR(summary["left_bounds"][0]["step"].get<double>(), 272.0, 2.0);
    ASSERT_EQ(summary["bodies"].size(), 2u);
    EXPECT_EQ(summary["bodies"][1]["name"], "stays");
    EXPECT_EQ(lines(readFile(csv)).size(), 1u + 3u + 2u) << "header, step 0 with the faller, step 600 without";
}

TEST_F(ImpulseSim, HugeVelocityStillCompletes) {
    // Bounds as wide as the step guard's: the run is about contacts at speed, not the bounds.
    const std::string fast = write("fast.json", R"({"version": 1,
      "world": {"bounds": {"min": [-1e6, -1e6, -1e6], "max": [1e6, 1e6, 1e6]}}, "bodies": [
      {"name": "ground", "static": true, "shape": {"type": "box", "half_extents": [10, 0.5, 10]}, "position": [0, -0.5, 0]},
      {"name": "wall", "static": true, "shape": {"type": "box", "half_extents": [0.5, 5, 10]}, "position": [5, 5, 0]},
      {"name": "bullet", "shape": {"type": "sphere", "radius": 0.1}, "mass": 0.01, "position": [0, 1, 0],
       "linear_velocity": [999, -10, 0], "angular_velocity": [0, 0, 99]},
      {"name": "brick", "shape": {"type": "box", "half_extents": [0.2, 0.1, 0.1]}, "position": [2, 0.1, 0],
       "linear_velocity": [-500, 300, 700]}
    ]})");
    const std::string csv = path("fast.csv");
    const Outcome r = run({fast, "--steps", "300", "--csv", csv, "--every", "50", "--summary"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(nlohmann::json::accept(r.out)) << r.out;
    EXPECT_EQ(lines(readFile(csv)).size(), 1u + 7u * 4u);
}

// A runaway state (here a body driven past 1e6 m by maximal gravity) is an
// internal failure: exit 1, the body and the step named, the CSV kept up to then.
TEST_F(ImpulseSim, BlownUpStateExitsOneNamingBodyAndStep) {
    const std::string runaway = write("runaway.json", R"({"version": 1, "world": {"gravity": [0, -1000, 0],
      "bounds": {"min": [-1e6, -1e6, -1e6], "max": [1e6, 1e6, 1e6]}},
      "bodies": [{"name": "runaway", "shape": {"type": "sphere", "radius": 0.5},
                  "position": [0, -99000, 0], "linear_velocity": [0, -1000, 0]}]})");
    const std::string csv = path("runaway.csv");
    const Outcome r = run({runaway, "--steps", "5000", "--csv", csv, "--every", "1000"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("body 'runaway' at step"), std::string::npos) << r.err;
    EXPECT_GE(lines(readFile(csv)).size(), 2u);
}

}  // namespace

namespace {

const char* const kDropScene = R"({
  "version": 2,
  "name": "drop",
  "world": {"restitution_combine": "multiply"},
  "bodies": [
    {"name": "ground", "static": true, "shape": {"type": "box", "half_extents": [10, 0.5, 10]}, "position": [0, -0.5, 0], "restitution": 1},
    {"name": "ball", "shape": {"type": "sphere", "radius": 0.1}, "position": [0.5, 1.1, 0], "linear_velocity": [1, 0, 0], "restitution": 0.5}
  ]
})";

TEST_F(ImpulseSim, SweepPrintsOneRowPerValueWithTheSingleRunsNumbers) {
    const std::string drop = write("drop.json", kDropScene);
    const Outcome sweep = run({drop, "--steps", "90", "--sweep", "ball.e=0.2:0.8:3", "--measure", "final_x:ball"});
    ASSERT_EQ(sweep.exitCode, 0) << sweep.err;
    const std::vector<std::string> rows = lines(sweep.out);
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(rows[0], "ball.e,final_x:ball,note");
    EXPECT_EQ(rows[2].rfind("0.5,", 0), 0u) << rows[2];
    // The middle value is the scene's own e: its row is the plain run's final x.
    const Outcome single = run({drop, "--steps", "90", "--summary"});
    ASSERT_EQ(single.exitCode, 0) << single.err;
    const auto summary = nlohmann::json::parse(single.out);
    const float x = summary["bodies"][1]["position"][0].get<float>();
    const std::string middle = rows[2].substr(4, rows[2].find(',', 4) - 4);
    EXPECT_EQ(std::stof(middle), x) << rows[2];
    // Variants run side by side give the same bytes.
    const Outcome threaded =
        run({drop, "--steps", "90", "--sweep", "ball.e=0.2:0.8:3", "--measure", "final_x:ball", "--threads", "3"});
    EXPECT_EQ(threaded.out, sweep.out);
}

TEST_F(ImpulseSim, SweepRefusesBadSpecsNamingTheFlagAndTheRule) {
    const std::string drop = write("drop.json", kDropScene);
    const auto refused = [&](const std::vector<std::string>& args, const std::string& expected) {
        const Outcome r = run(args);
        EXPECT_EQ(r.exitCode, 2) << r.err;
        EXPECT_EQ(r.out, "");
        EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
    };
    refused({drop, "--steps", "10", "--sweep", "ball.e=0:1:3"}, "--sweep: needs --measure");
    refused({drop, "--steps", "10", "--measure", "apex:ball"}, "--measure: only with --sweep");
    refused({drop, "--steps", "10", "--sweep", "ball.spin=0:1:3", "--measure", "apex:ball"}, "unknown body field");
    refused({drop, "--steps", "10", "--sweep", "cube.e=0:1:3", "--measure", "apex:ball"}, "no body named 'cube'");
    refused({drop, "--steps", "10", "--sweep", "ball.e=0:1:3", "--measure", "apex:cube"}, "no body named 'cube'");
    refused({drop, "--steps", "10", "--sweep", "ball.e=0:1:3", "--measure", "apex:ball", "--summary"},
            "not with --csv, --every or --summary");
    // Every value refused by the model: nothing ran.
    const Outcome allRefused = run({drop, "--steps", "10", "--sweep", "ball.e=2:3:2", "--measure", "apex:ball"});
    EXPECT_EQ(allRefused.exitCode, 2);
    EXPECT_NE(allRefused.err.find("ball.e = 2: bodies[1].restitution"), std::string::npos) << allRefused.err;
}

}  // namespace
