// Resting stacks must stand still: the 10-box tower and the 15-row pyramid of
// the presets, 10 s at the default settings (dt 1/60 s, 10 velocity
// iterations, 2 position iterations, warm starting). Tolerances: every box
// stays within 1 cm of where it started (measured: tower 2.8 mm, pyramid
// 1.1 mm), sags less than 5 mm, and the stack is at rest at the end.
#include "scenario.h"

#include "scene/scene.h"

#include <gtest/gtest.h>

#include <string>

namespace impulse::test {
namespace {

struct StackResult {
    float maxDrift = 0.0f;     // largest displacement of any dynamic box after 10 s, m
    float maxDrop = 0.0f;      // largest downward displacement, m
    double finalEnergy = 0.0;  // kinetic energy at the end, J
};

StackResult runPreset(const std::string& file) {
    const auto loaded = scene::loadSceneFile(std::string(IMPULSE_SOURCE_DIR) + "/assets/scenes/" + file);
    if (const auto* error = std::get_if<scene::SceneError>(&loaded)) {
        ADD_FAILURE() << error->message();
        return {};
    }
    World world = scene::buildWorld(std::get<scene::Scene>(loaded));
    std::vector<std::pair<BodyId, vec3>> start;
    for (BodyId id : world.bodyIds()) {
        if (world.body(id).isDynamic()) start.emplace_back(id, world.body(id).position);
    }
    for (int i = 0; i < 600; ++i) world.step();
    StackResult result;
    for (const auto& [id, position] : start) {
        const vec3 now = world.body(id).position;
        result.maxDrift = std::max(result.maxDrift, glm::length(now - position));
        result.maxDrop = std::max(result.maxDrop, position.y - now.y);
    }
    result.finalEnergy = world.kineticEnergy();
    return result;
}

TEST(Stacking, TowerOfTenStands) {
    const StackResult r = runPreset("tower10.json");
    RecordProperty("max_drift_m", std::to_string(r.maxDrift));
    EXPECT_LT(r.maxDrift, 0.01f);
    EXPECT_LT(r.maxDrop, 0.005f);
    EXPECT_LT(r.finalEnergy, 0.01);
}

TEST(Stacking, PyramidOfFifteenRowsStands) {
    const StackResult r = runPreset("pyramid15.json");
    RecordProperty("max_drift_m", std::to_string(r.maxDrift));
    EXPECT_LT(r.maxDrift, 0.01f);
    EXPECT_LT(r.maxDrop, 0.005f);
    EXPECT_LT(r.finalEnergy, 0.01);
}

}  // namespace
}  // namespace impulse::test
