// Every preset under assets/scenes/ (recursively) loads, builds a world with
// one body per definition and survives a step: the app, the tests and the
// benchmark all read these files.
#include "scene/scene.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace impulse::scene {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> presetFiles() {
    std::vector<fs::path> files;
    const fs::path root = fs::path(IMPULSE_SOURCE_DIR) / "assets" / "scenes";
    if (!fs::is_directory(root)) return files;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
        if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

TEST(ScenePresets, EveryPresetLoadsBuildsAndSteps) {
    const std::vector<fs::path> files = presetFiles();
    if (files.empty()) GTEST_SKIP() << "no scene files under assets/scenes/ yet";
    for (const fs::path& file : files) {
        SCOPED_TRACE(file.string());
        const SceneResult result = loadSceneFile(file.string());
        const auto* error = std::get_if<SceneError>(&result);
        ASSERT_EQ(error, nullptr) << error->message();
        const Scene& scene = std::get<Scene>(result);
        World world = buildWorld(scene);
        EXPECT_EQ(static_cast<std::size_t>(world.bodyCount()), scene.bodies.size());
        world.step();
        EXPECT_FALSE(world.firstNonFiniteBody());
    }
}

// The presets the app and the validation tests rely on by name.
TEST(ScenePresets, NamedPresetsExist) {
    const fs::path root = fs::path(IMPULSE_SOURCE_DIR) / "assets" / "scenes";
    for (const char* name :
         {"default.json", "two_spheres_head_on.json", "sphere_hits_box_off_centre.json",
          "sphere_hits_spinning_box.json", "tower10.json", "pyramid15.json", "ramp_friction.json",
          "dominoes.json", "newtons_cradle.json", "sliding_ball_rolls.json", "spin_major_axis.json",
          "spin_intermediate_axis.json", "spin_minor_axis.json", "billiard_break.json", "pile1000.json",
          "heavy_on_light.json"}) {
        EXPECT_TRUE(fs::is_regular_file(root / name)) << name;
    }
}

}  // namespace
}  // namespace impulse::scene
