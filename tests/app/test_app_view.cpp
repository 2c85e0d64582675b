// The 3D view as the app lays it out: every preset's moving bodies inside the view
// rectangle (below its status bar) on the first frame, and still inside it where
// impulse-sim puts them two simulated seconds later (the app's own clock follows the
// wall clock, so a loaded machine would blur "two seconds"), projected with the camera
// the app reports (IMPULSE_LAYOUT_JSON); the scene's camera key kept through a run and
// a save.
#include "render/camera.h"
#include "ui/edit.h"
#include "ui/layout.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

const std::string kApp = IMPULSE_LAB_PATH;
const std::string kSource = IMPULSE_SOURCE_DIR;
const std::string kSim = IMPULSE_SIM_PATH;
constexpr int kStepsInTwoSeconds = 120;  // the presets' 1/60 s step

std::string tempFile(const std::string& name) {
    return (fs::temp_directory_path() / ("impulse_view_test_" + std::to_string(::getpid()) + "_" + name)).string();
}

// The app on SDL's hidden offscreen driver; leak checking is off as in test_app_run.cpp.
int runOffscreen(const std::string& args, const std::string& layoutReport) {
    const std::string command = "ASAN_OPTIONS=\"${ASAN_OPTIONS:-}:detect_leaks=0\" SDL_VIDEODRIVER=offscreen "
                                "IMPULSE_LAYOUT_JSON='" + layoutReport + "' '" + kApp + "' " + args + " > /dev/null";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

nlohmann::json readJson(const std::string& path) {
    std::ifstream in(path);
    if (!in) return nlohmann::json();
    return nlohmann::json::parse(in);
}

impulse::render::OrbitCamera cameraOf(const nlohmann::json& report) {
    const nlohmann::json& c = report.at("camera");
    impulse::render::OrbitCamera camera;
    camera.target = glm::vec3(c["target"][0], c["target"][1], c["target"][2]);
    camera.distance = c["distance"];
    camera.yaw = glm::radians(c["yaw"].get<float>());
    camera.pitch = glm::radians(c["pitch"].get<float>());
    camera.fovY = glm::radians(c["fov_y"].get<float>());
    return camera;
}

// The report's bodies moved to where `summary` (impulse-sim --summary) has them.
nlohmann::json movedTo(nlohmann::json report, const nlohmann::json& summary) {
    for (nlohmann::json& b : report.at("bodies")) {
        for (const nlohmann::json& later : summary.at("bodies")) {
            if (later.at("name") == b.at("name")) b["position"] = later.at("position");
        }
    }
    return report;
}

// Names of the moving bodies whose centre, or whose top (centre plus radius, up the
// screen), is not inside the view rectangle below the status bar.
std::vector<std::string> bodiesOutOfView(const nlohmann::json& report) {
    const impulse::render::OrbitCamera camera = cameraOf(report);
    const nlohmann::json& v = report.at("view");
    const float x = v[0], y = v[1], w = v[2], h = v[3];
    const float top = report.at("status_bar_bottom");
    std::vector<std::string> out;
    for (const nlohmann::json& b : report.at("bodies")) {
        if (b.at("static")) continue;
        const glm::vec3 p(b["position"][0], b["position"][1], b["position"][2]);
        const float r = b["radius"];
        for (const glm::vec3& point : {p, p + camera.up() * r}) {
            const glm::vec4 s = camera.project(point, w, h);  // pixels within the view
            const bool in = s.w > 0.0f && s.x >= 0.0f && s.x <= w && y + s.y >= top && s.y <= h;
            if (!in) {
                out.push_back(b["name"].get<std::string>() + " at screen (" + std::to_string(x + s.x) + ", " +
                              std::to_string(y + s.y) + ")");
                break;
            }
        }
    }
    return out;
}

}  // namespace

TEST(AppView, EveryPresetShowsItsMovingBodiesInTheViewAtFirstAndTwoSecondsIn) {
    const std::string dir = kSource + "/assets/scenes";
    const std::string report = tempFile("layout.json"), summary = tempFile("summary.json");
    for (const std::string& preset : impulse::ui::listPresets(dir)) {
        if (preset.rfind("bench/", 0) == 0) continue;  // the benchmark's piles, not presets to look at
        SCOPED_TRACE(preset);
        const std::string path = "'" + dir + "/" + preset + "'";
        fs::remove(report);
        ASSERT_EQ(runOffscreen(path + " --frames 1 --paused", report), 0);
        const nlohmann::json first = readJson(report);
        ASSERT_TRUE(first.is_object()) << "no layout report";
        std::vector<std::string> out = bodiesOutOfView(first);
        EXPECT_TRUE(out.empty()) << "first frame: " << out.size() << " out of view, first: " << out.front();

        ASSERT_EQ(std::system(("'" + kSim + "' " + path + " --steps " + std::to_string(kStepsInTwoSeconds) +
                               " --summary > '" + summary + "'").c_str()),
                  0);
        out = bodiesOutOfView(movedTo(first, readJson(summary)));
        EXPECT_TRUE(out.empty()) << "2 s later: " << out.size() << " out of view, first: " << out.front();
    }
    fs::remove(report);
    fs::remove(summary);
}

TEST(AppView, TheSceneCameraIsUsedAndSavedBack) {
    const std::string scene = tempFile("camera.json"), saved = tempFile("camera_saved.json");
    const std::string report = tempFile("camera_layout.json");
    std::ofstream(scene) << R"({"version": 1, "name": "camera",
        "camera": {"target": [1, 2, 3], "distance": 7.5, "yaw": -30, "pitch": 20},
        "bodies": [{"name": "ball", "shape": {"type": "sphere", "radius": 0.5}, "position": [1, 2, 3]}]})";
    ASSERT_EQ(runOffscreen("'" + scene + "' --frames 2 --paused --save-on-exit '" + saved + "'", report), 0);
    const nlohmann::json layout = readJson(report);
    ASSERT_TRUE(layout.is_object());
    EXPECT_NEAR(layout["camera"]["distance"].get<float>(), 7.5f, 1e-4f);
    EXPECT_NEAR(layout["camera"]["yaw"].get<float>(), -30.0f, 1e-3f);
    EXPECT_NEAR(layout["camera"]["pitch"].get<float>(), 20.0f, 1e-3f);
    const nlohmann::json camera = readJson(saved).at("camera");
    EXPECT_EQ(camera["target"], nlohmann::json::parse("[1, 2, 3]"));
    EXPECT_NEAR(camera["distance"].get<float>(), 7.5f, 1e-5f);
    EXPECT_NEAR(camera["yaw"].get<float>(), -30.0f, 1e-4f);
    EXPECT_NEAR(camera["pitch"].get<float>(), 20.0f, 1e-4f);
    for (const std::string& f : {scene, saved, report}) fs::remove(f);
}

namespace {

bool haveCommand(const char* name) {
    return std::system((std::string("command -v ") + name + " > /dev/null 2>&1").c_str()) == 0;
}

impulse::ui::Rect rectOf(const nlohmann::json& r) { return impulse::ui::Rect{r[0], r[1], r[2], r[3]}; }

// Every panel inside the window and beside the view, never over it or over another panel.
void expectPanelsOnScreenBesideTheView(const nlohmann::json& layout, float width, float height) {
    const impulse::ui::Rect view = rectOf(layout.at("view"));
    EXPECT_GT(view.w, 0.3f * width);
    EXPECT_EQ(view.h, height);
    std::vector<impulse::ui::Rect> panels;
    for (const auto& [name, r] : layout.at("panels").items()) {
        SCOPED_TRACE(name);
        const impulse::ui::Rect p = rectOf(r);
        EXPECT_GE(p.x, 0.0f);
        EXPECT_GE(p.y, 0.0f);
        EXPECT_LE(p.right(), width);
        EXPECT_LE(p.bottom(), height);
        EXPECT_TRUE(p.right() <= view.x || p.x >= view.right()) << "over the view";
        for (const impulse::ui::Rect& q : panels) {
            EXPECT_FALSE(p.x < q.right() && q.x < p.right() && p.y < q.bottom() && q.y < p.bottom()) << "overlap";
        }
        panels.push_back(p);
    }
    EXPECT_EQ(panels.size(), 5u);
}

}  // namespace

// Issue 20: the panels follow a window resized by the window system (xdotool under
// Xvfb), the view stays between the columns, and a column widened by dragging its
// edge is remembered in the settings file for the next run.
TEST(AppView, ResizedWindowKeepsPanelsOnScreenAndADraggedColumnIsRemembered) {
    if (!haveCommand("xvfb-run") || !haveCommand("xdotool")) GTEST_SKIP() << "needs xvfb-run and xdotool";
    const std::string config = tempFile("config"), layout = tempFile("resize_layout.json");
    fs::remove_all(config);
    const std::string scene = kSource + "/assets/scenes/dominoes.json";
    const auto resize = [&](const std::string& size, int drag, int edgeX) {
        fs::remove(layout);
        const std::string command = "XDG_CONFIG_HOME='" + config + "' EDGE_X=" + std::to_string(edgeX) +
                                    " ASAN_OPTIONS=\"${ASAN_OPTIONS:-}:detect_leaks=0\" xvfb-run -a -s "
                                    "'-screen 0 1920x1080x24' '" + kSource + "/tests/app/resize_with_xdotool.sh' '" +
                                    kApp + "' '" + scene + "' '" + layout + "' " + size + " " + std::to_string(drag) +
                                    " > /dev/null 2>&1";
        const int status = std::system(command.c_str());
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << command;
        return readJson(layout);
    };

    const nlohmann::json small = resize("1000x600", 0, 0);
    ASSERT_TRUE(small.is_object()) << "no layout report";
    EXPECT_EQ(small["window"][2], 1000.0);
    EXPECT_EQ(small["window"][3], 600.0);
    expectPanelsOnScreenBesideTheView(small, 1000.0f, 600.0f);
    EXPECT_TRUE(bodiesOutOfView(small).empty()) << "the dominoes left the narrower view";
    EXPECT_FALSE(fs::exists(config)) << "nothing dragged: no settings written";

    // Drag the left column's edge 60 pixels right at 1600x900 (text scale 1.25).
    const impulse::ui::Layout expected = impulse::ui::computeLayout(1600, 900, impulse::ui::ColumnWidths{});
    const int edge = static_cast<int>(expected.leftColumn.right() - impulse::ui::kPanelMargin / 2.0f);
    const nlohmann::json large = resize("1600x900", 60, edge);
    ASSERT_TRUE(large.is_object()) << "no layout report";
    EXPECT_EQ(large["text_scale"], 1.25);
    expectPanelsOnScreenBesideTheView(large, 1600.0f, 900.0f);
    const float sceneWidth = large["panels"]["Scene"][2];
    EXPECT_NEAR(sceneWidth, expected.scene.w + 60.0f, 6.0f) << "the drag widened the left column";

    // The next run starts with the widened column (kept at text scale 1 in the file).
    std::ifstream settings(config + "/impulse-lab/layout.ini");
    ASSERT_TRUE(settings) << "the dragged width was not saved under XDG_CONFIG_HOME";
    const nlohmann::json again = resize("1600x900", 0, 0);
    ASSERT_TRUE(again.is_object());
    EXPECT_NEAR(again["panels"]["Scene"][2].get<float>(), sceneWidth, 1.0f);
    fs::remove_all(config);
    fs::remove(layout);
}

// L follows the selected body: the rolling ball, clicked where the first frame shows
// it, runs for 3 s (15 m) and the camera's target is still on it.
TEST(AppView, FollowKeepsTheCameraOnTheSelectedBody) {
    if (!haveCommand("xvfb-run") || !haveCommand("xdotool")) GTEST_SKIP() << "needs xvfb-run and xdotool";
    const std::string scene = kSource + "/assets/scenes/sliding_ball_rolls.json";
    const std::string layout = tempFile("follow_layout.json");
    fs::remove(layout);
    ASSERT_EQ(runOffscreen("'" + scene + "' --frames 1 --paused", layout), 0);
    const nlohmann::json first = readJson(layout);
    ASSERT_TRUE(first.is_object());
    const impulse::render::OrbitCamera camera = cameraOf(first);
    const glm::vec4 ball = camera.project(glm::vec3(-30.0f, 0.5f, 0.0f), first["view"][2], first["view"][3]);
    const int x = static_cast<int>(ball.x + first["view"][0].get<float>());
    const int y = static_cast<int>(ball.y + first["view"][1].get<float>());

    fs::remove(layout);
    const std::string command = "ASAN_OPTIONS=\"${ASAN_OPTIONS:-}:detect_leaks=0\" xvfb-run -a -s '-screen 0 1280x720x24' '" +
                                kSource + "/tests/app/follow_with_xdotool.sh' '" + kApp + "' '" + scene + "' '" + layout +
                                "' " + std::to_string(x) + " " + std::to_string(y) + " 3 > /dev/null 2>&1";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    const nlohmann::json last = readJson(layout);
    ASSERT_TRUE(last.is_object());
    glm::vec3 position(0.0f);
    for (const nlohmann::json& b : last["bodies"]) {
        if (b["name"] == "ball") position = glm::vec3(b["position"][0], b["position"][1], b["position"][2]);
    }
    EXPECT_GT(position.x, -25.0f) << "the ball did not roll: was the app run?";
    const glm::vec3 target = cameraOf(last).target;
    EXPECT_LT(glm::length(target - position), 0.5f) << "the camera stayed behind at x = " << target.x;
    EXPECT_TRUE(bodiesOutOfView(last).empty());
    fs::remove(layout);
}
