// The optional top-level `camera` key: read with every entry, written back the
// same (save -> load), absent when the scene has none, and refused with the
// JSON path and the rule when an entry is missing, misspelt or out of range.
#include "scene/scene.h"

#include <gtest/gtest.h>

#include <string>

namespace impulse::scene {
namespace {

std::string withCamera(const std::string& camera) {
    return R"({"version": 1, "camera": )" + camera +
           R"(, "bodies": [{"name": "ball", "shape": {"type": "sphere", "radius": 0.5}, "position": [0, 1, 0]}]})";
}

const SceneCamera& cameraOf(const SceneResult& result) {
    static const SceneCamera none{};
    const Scene* scene = std::get_if<Scene>(&result);
    if (!scene || !scene->camera) {
        ADD_FAILURE() << (scene ? "no camera" : std::get<SceneError>(result).message());
        return none;
    }
    return *scene->camera;
}

TEST(SceneCamera, IsReadInDegreesAsWritten) {
    const SceneResult r =
        parseScene(withCamera(R"({"target": [1, 2.5, -3], "distance": 12, "yaw": 35, "pitch": 20})"));
    const SceneCamera& c = cameraOf(r);
    EXPECT_EQ(c.target, vec3(1.0f, 2.5f, -3.0f));
    EXPECT_EQ(c.distance, 12.0f);
    EXPECT_EQ(c.yawDegrees, 35.0f);
    EXPECT_EQ(c.pitchDegrees, 20.0f);
}

TEST(SceneCamera, IsAbsentUnlessWritten) {
    const SceneResult r = parseScene(R"({"version": 1, "bodies": []})");
    ASSERT_TRUE(std::holds_alternative<Scene>(r));
    EXPECT_FALSE(std::get<Scene>(r).camera.has_value());
    EXPECT_EQ(toJson(std::get<Scene>(r)).find("camera"), std::string::npos);
}

TEST(SceneCamera, SaveThenLoadGivesTheSameCamera) {
    Scene scene;
    scene.name = "camera round trip";
    scene.camera = SceneCamera{vec3(0.1f, 1.7f, -2.3f), 9.25f, -147.5f, 31.0f / 3.0f};
    const SceneResult back = parseScene(toJson(scene));
    EXPECT_EQ(cameraOf(back), *scene.camera);
}

TEST(SceneCamera, BadEntriesAreRefusedWithPathAndRule) {
    struct Bad {
        const char* camera;
        const char* path;
        const char* rule;
    };
    const Bad bads[] = {
        {R"([0, 1, 0])", "camera", "an object"},
        {R"({"distance": 5, "yaw": 0, "pitch": 10})", "camera.target", "required key is missing"},
        {R"({"target": [0, 0, 0], "yaw": 0, "pitch": 10})", "camera.distance", "required key is missing"},
        {R"({"target": [0, 0, 0], "distance": 5, "pitch": 10})", "camera.yaw", "required key is missing"},
        {R"({"target": [0, 0, 0], "distance": 5, "yaw": 0})", "camera.pitch", "required key is missing"},
        {R"({"target": [0, 0], "distance": 5, "yaw": 0, "pitch": 10})", "camera.target", "3 numbers"},
        {R"({"target": [0, "a", 0], "distance": 5, "yaw": 0, "pitch": 10})", "camera.target[1]", "a number"},
        {R"({"target": [0, 0, 0], "distance": 0, "yaw": 0, "pitch": 10})", "camera.distance", "must be > 0"},
        {R"({"target": [0, 0, 0], "distance": 1e5, "yaw": 0, "pitch": 10})", "camera.distance", "at most 2000"},
        {R"({"target": [0, 0, 0], "distance": 5, "yaw": 400, "pitch": 10})", "camera.yaw", "[-360, 360] degrees"},
        {R"({"target": [0, 0, 0], "distance": 5, "yaw": 0, "pitch": 90})", "camera.pitch", "[-88, 88] degrees"},
        {R"({"target": [0, 0, 0], "distance": 5, "yaw": 0, "pitch": 10, "fov": 45})", "camera",
         "unknown key 'fov'"},
        {R"({"target": [0, 0, 0], "distance": 5, "yaw": 0, "pich": 10})", "camera", "did you mean 'pitch'"},
    };
    for (const Bad& bad : bads) {
        SCOPED_TRACE(bad.camera);
        const SceneResult r = parseScene(withCamera(bad.camera), "cam.json");
        const auto* error = std::get_if<SceneError>(&r);
        ASSERT_NE(error, nullptr);
        EXPECT_EQ(error->path, bad.path) << error->message();
        EXPECT_NE(error->rule.find(bad.rule), std::string::npos) << error->message();
    }
}

}  // namespace
}  // namespace impulse::scene
