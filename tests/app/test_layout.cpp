// The window layout (columns and view for any window size), the text scale, the
// column widths' settings file, and framing a box into a view with margins.
#include "app/settings.h"
#include "render/camera.h"
#include "ui/layout.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

using namespace impulse;
namespace fs = std::filesystem;

namespace {

bool inside(const ui::Rect& inner, const ui::Rect& outer) {
    return inner.x >= outer.x && inner.y >= outer.y && inner.right() <= outer.right() + 1e-3f &&
           inner.bottom() <= outer.bottom() + 1e-3f;
}

bool overlap(const ui::Rect& a, const ui::Rect& b) {
    return a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom();
}

}  // namespace

TEST(Layout, At1280x720ThePanelsAreWhereTheyAlwaysWere) {
    const ui::Layout l = ui::computeLayout(1280, 720, ui::ColumnWidths{});
    EXPECT_EQ(l.textScale, 1.0f);
    EXPECT_EQ(l.scene.x, 8.0f);
    EXPECT_EQ(l.scene.w, 330.0f);
    EXPECT_EQ(l.scene.h, 276.0f);
    EXPECT_EQ(l.world.y, 292.0f);
    EXPECT_EQ(l.stats.bottom(), 712.0f);
    EXPECT_EQ(l.body.x, 922.0f);
    EXPECT_EQ(l.contacts.y, 388.0f);
    EXPECT_EQ(l.view.x, 346.0f);
    EXPECT_EQ(l.view.right(), 914.0f);
    EXPECT_EQ(l.view.bottom(), 662.0f) << "the timeline's 58 px under it";
    EXPECT_EQ(l.timeline.y, 662.0f);
    EXPECT_EQ(l.timeline.bottom(), 720.0f);
    EXPECT_EQ(l.timeline.x, l.view.x);
    EXPECT_EQ(l.timeline.w, l.view.w);
}

TEST(Layout, EveryPanelIsOnScreenAndNoneOverlapsAnotherOrTheView) {
    for (const auto& [w, h] : {std::pair{1000, 600}, {1280, 720}, {1600, 900}, {1920, 1080}, {3840, 2160},
                               {800, 1200}, {640, 360}}) {
        for (const ui::ColumnWidths widths : {ui::ColumnWidths{}, ui::ColumnWidths{700, 700}, ui::ColumnWidths{0, 1e9f}}) {
            SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
            const ui::Layout l = ui::computeLayout(w, h, widths);
            const ui::Rect panels[] = {l.scene, l.world, l.stats, l.body, l.contacts};
            for (size_t i = 0; i < 5; ++i) {
                EXPECT_TRUE(inside(panels[i], l.window));
                EXPECT_GT(panels[i].h, 0.0f);
                EXPECT_FALSE(overlap(panels[i], l.view));
                EXPECT_FALSE(overlap(panels[i], l.timeline));
                for (size_t j = i + 1; j < 5; ++j) EXPECT_FALSE(overlap(panels[i], panels[j]));
            }
            EXPECT_TRUE(inside(l.view, l.window));
            // The timeline: right under the view, as wide, down to the window's bottom.
            EXPECT_TRUE(inside(l.timeline, l.window));
            EXPECT_FALSE(overlap(l.timeline, l.view));
            EXPECT_EQ(l.timeline.y, l.view.bottom());
            EXPECT_EQ(l.timeline.bottom(), static_cast<float>(h));
            EXPECT_EQ(l.timeline.x, l.view.x);
            EXPECT_EQ(l.timeline.w, l.view.w);
            EXPECT_GE(l.timeline.h, 0.25f * ui::kTimelineHeight * l.textScale);
            EXPECT_GE(l.view.h, 0.6f * static_cast<float>(h));
            EXPECT_EQ(l.view.x, l.leftColumn.right());
            EXPECT_EQ(l.view.right(), l.rightColumn.x);
            EXPECT_GE(l.view.w, (1.0f - ui::kMaxColumnsShare) * static_cast<float>(w) - 1.0f);
        }
    }
}

// Tab hides the columns: the view and the timeline take the whole width, the text
// keeps its scale, no panel has room, and shown again the layout is the same as before.
TEST(Layout, HiddenColumnsLeaveTheViewTheWholeWidth) {
    for (const auto& [w, h] : {std::pair{1280, 720}, {1920, 1080}, {1000, 600}}) {
        SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
        const ui::Layout shown = ui::computeLayout(w, h, {}), hidden = ui::computeLayout(w, h, {}, false);
        EXPECT_EQ(hidden.view.x, 0.0f);
        EXPECT_EQ(hidden.view.w, static_cast<float>(w));
        EXPECT_EQ(hidden.view.h, shown.view.h) << "the timeline stays under it";
        EXPECT_EQ(hidden.timeline.x, 0.0f);
        EXPECT_EQ(hidden.timeline.w, static_cast<float>(w));
        EXPECT_EQ(hidden.textScale, shown.textScale);
        EXPECT_EQ(hidden.leftColumn.w, 0.0f);
        EXPECT_EQ(hidden.rightColumn.w, 0.0f);
        EXPECT_EQ(hidden.rightColumn.x, static_cast<float>(w));
        for (const ui::Rect& panel : {hidden.scene, hidden.world, hidden.stats, hidden.body, hidden.contacts}) {
            EXPECT_EQ(panel.w * panel.h, 0.0f);
        }
        const ui::Layout again = ui::computeLayout(w, h, {});
        EXPECT_EQ(again.view.x, shown.view.x);
        EXPECT_EQ(again.view.w, shown.view.w);
    }
}

TEST(Layout, TextAndColumnsGrowWithTheWindow) {
    EXPECT_EQ(ui::textScaleFor(1280, 720), 1.0f);
    EXPECT_EQ(ui::textScaleFor(1000, 600), 1.0f);  // never smaller than the 13 px font
    EXPECT_EQ(ui::textScaleFor(1600, 900), 1.25f);
    EXPECT_EQ(ui::textScaleFor(1920, 1080), 1.5f);
    EXPECT_EQ(ui::textScaleFor(3840, 2160), 3.0f);
    EXPECT_EQ(ui::textScaleFor(3840, 720), 1.0f);  // wide and short: the height decides
    const ui::Layout small = ui::computeLayout(1280, 720, {}), large = ui::computeLayout(1920, 1080, {});
    EXPECT_EQ(large.scene.w, 1.5f * small.scene.w);
    EXPECT_GT(large.stats.h, 1.4f * small.stats.h);
}

TEST(Layout, ColumnWidthsAreClamped) {
    const ui::ColumnWidths c = ui::clampWidths({10.0f, 5000.0f});
    EXPECT_EQ(c.left, ui::kMinColumnWidth);
    EXPECT_EQ(c.right, ui::kMaxColumnWidth);
    EXPECT_EQ(ui::clampWidths({NAN, 300.0f}).left, ui::kMinColumnWidth);
}

class LayoutSettings : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("impulse_layout_" + std::to_string(::getpid()));
        fs::remove_all(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    fs::path dir_;
};

TEST_F(LayoutSettings, PathFollowsXdgConfigHomeThenHome) {
    const char* oldXdg = std::getenv("XDG_CONFIG_HOME");
    const std::string savedXdg = oldXdg ? oldXdg : "";
    ::setenv("XDG_CONFIG_HOME", "/tmp/xdg", 1);
    EXPECT_EQ(app::layoutSettingsPath(), "/tmp/xdg/impulse-lab/layout.ini");
    ::setenv("XDG_CONFIG_HOME", "relative", 1);  // not absolute: ignored, as the XDG rule says
    const std::string home = std::getenv("HOME") ? std::getenv("HOME") : "";
    if (!home.empty()) {
        EXPECT_EQ(app::layoutSettingsPath(), home + "/.config/impulse-lab/layout.ini");
    }
    if (oldXdg) {
        ::setenv("XDG_CONFIG_HOME", savedXdg.c_str(), 1);
    } else {
        ::unsetenv("XDG_CONFIG_HOME");
    }
}

TEST_F(LayoutSettings, SavedWidthsLoadBackAndAMissingFileKeepsTheDefaults) {
    const std::string path = (dir_ / "impulse-lab" / "layout.ini").string();
    app::AppSettings settings;
    EXPECT_EQ(app::loadSettings(path, settings), "");
    EXPECT_EQ(settings.columns.left, ui::ColumnWidths{}.left);
    EXPECT_EQ(settings.shadows, app::ShadowMode::automatic);
    ASSERT_EQ(app::saveSettings(path, app::AppSettings{ui::ColumnWidths{412.5f, 260.0f}, app::ShadowMode::off}), "");
    EXPECT_EQ(app::loadSettings(path, settings), "");
    EXPECT_EQ(settings.columns.left, 412.5f);
    EXPECT_EQ(settings.columns.right, 260.0f);
    EXPECT_EQ(settings.shadows, app::ShadowMode::off);
    ASSERT_EQ(app::saveSettings(path, app::AppSettings{ui::ColumnWidths{}, app::ShadowMode::on}), "");
    EXPECT_EQ(app::loadSettings(path, settings), "");
    EXPECT_EQ(settings.shadows, app::ShadowMode::on);
}

TEST_F(LayoutSettings, AMalformedFileIsNamedAndChangesNothing) {
    fs::create_directories(dir_);
    const std::string path = (dir_ / "layout.ini").string();
    std::ofstream(path) << "left_column_width = 300\nright_column_width = wide\n";
    app::AppSettings settings;
    const std::string error = app::loadSettings(path, settings);
    EXPECT_NE(error.find(path + ":2: right_column_width takes a number of pixels, got 'wide'"), std::string::npos)
        << error;
    EXPECT_EQ(settings.columns.left, ui::ColumnWidths{}.left);
    std::ofstream(path) << "left_colum_width = 300\n";
    EXPECT_NE(app::loadSettings(path, settings).find("unknown key 'left_colum_width'"), std::string::npos);
    std::ofstream(path) << "shadows = off\nleft_column_width 300\n";
    EXPECT_NE(app::loadSettings(path, settings).find(":2: expected 'key = value'"), std::string::npos);
    EXPECT_EQ(settings.shadows, app::ShadowMode::automatic);
    std::ofstream(path) << "shadows = sometimes\n";
    const std::string badShadows = app::loadSettings(path, settings);
    EXPECT_NE(badShadows.find(":1: shadows takes auto, on or off, got 'sometimes'"), std::string::npos) << badShadows;
}

TEST_F(LayoutSettings, AnUnwritablePlaceIsReported) {
    fs::create_directories(dir_);
    std::ofstream(dir_ / "file") << "x";  // a file where the folder should be
    const std::string error = app::saveSettings((dir_ / "file" / "layout.ini").string(), app::AppSettings{});
    EXPECT_NE(error.find("cannot"), std::string::npos) << error;
}

TEST(OrbitCamera, FrameBoxPutsEveryCornerInsideTheMargins) {
    render::OrbitCamera cam;
    const glm::vec3 lo(-6.0f, 0.0f, -0.5f), hi(6.0f, 1.0f, 0.5f);  // a long row, like the dominoes
    const float w = 568.0f, h = 720.0f;
    cam.frameBox(lo, hi, w / h, 0.1f, 0.3f, 0.1f);
    float top = h;
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 corner((i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z);
        const glm::vec4 s = cam.project(corner, w, h);
        ASSERT_GT(s.w, 0.0f);
        EXPECT_GE(s.x, 0.05f * w - 0.5f);
        EXPECT_LE(s.x, 0.95f * w + 0.5f);
        EXPECT_GE(s.y, 0.15f * h - 0.5f);  // the top margin: 0.3 of the half height
        EXPECT_LE(s.y, 0.95f * h + 0.5f);
        top = std::min(top, s.y);
    }
    // Nearest such distance: some corner touches a margin.
    cam.distance *= 0.97f;
    bool outside = false;
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 corner((i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z);
        const glm::vec4 s = cam.project(corner, w, h);
        outside |= s.x < 0.05f * w || s.x > 0.95f * w || s.y < 0.15f * h || s.y > 0.95f * h;
    }
    EXPECT_TRUE(outside);
}
