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

World loadPreset(const std::string& name) {
    const SceneResult result = loadSceneFile((fs::path(IMPULSE_SOURCE_DIR) / "assets" / "scenes" / name).string());
    if (const auto* error = std::get_if<SceneError>(&result)) ADD_FAILURE() << error->message();
    return std::holds_alternative<Scene>(result) ? buildWorld(std::get<Scene>(result)) : World{};
}

float slid(World& world, BodyId body, int steps) {
    const vec3 start = world.body(body).position;
    for (int i = 0; i < steps; ++i) world.step();
    return glm::length(world.body(body).position - start);
}

// default.json's crate starts face on face on the 20 degree ramp with mu 0.3 and
// mu_s 0.5: static friction holds it (tan 20 deg = 0.364 < 0.5). With mu_s lowered
// below 0.364 in the Body panel it breaks away, and mu 0.3 cannot stop it.
TEST(ScenePresets, RampCrateSticksAndBreaksAwayBelowTan20) {
    World world = loadPreset("default.json");
    const BodyId crate = world.findBody("ramp_crate");
    ASSERT_TRUE(crate);
    EXPECT_LT(slid(world, crate, 300), 1e-3f);

    World lowered = loadPreset("default.json");
    BodyDef def = lowered.bodyDef(crate);
    def.staticFriction = 0.34f;
    ASSERT_FALSE(lowered.updateBody(crate, def));
    EXPECT_GT(slid(lowered, crate, 60), 0.1f);
}

// The scenery (static bodies) of the presets that use neutral scenery never wins the
// combine: a body's own e, mu and mu_s are those of its contacts with the floor.
TEST(ScenePresets, SceneryNeverWinsTheCombine) {
    for (const char* name : {"default.json", "tower10.json", "pyramid15.json", "ramp_friction.json", "dominoes.json",
                             "sliding_ball_rolls.json", "pile1000.json", "heavy_on_light.json"}) {
        SCOPED_TRACE(name);
        const World world = loadPreset(name);
        const WorldSettings& rules = world.settings();
        for (const BodyId scenery : world.bodyIds()) {
            const Body& still = world.body(scenery);
            if (!still.isStatic) continue;
            for (const BodyId id : world.bodyIds()) {
                const Body& b = world.body(id);
                if (b.isStatic) continue;
                EXPECT_EQ(combineRestitution(rules.restitutionCombine, b.restitution, still.restitution),
                          b.restitution);
                EXPECT_EQ(combineFriction(rules.frictionCombine, b.friction, still.friction), b.friction);
                EXPECT_EQ(combineFriction(rules.frictionCombine, b.staticFriction, still.staticFriction),
                          b.staticFriction);
            }
        }
    }
}

}  // namespace
}  // namespace impulse::scene
