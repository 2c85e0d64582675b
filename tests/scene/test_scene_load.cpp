// Loading scene files: every field, the defaults, and every kind of rejected
// input with the JSON path and the rule in the message.
#include "scene/scene.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace impulse::scene {
namespace {

// By value: callers pass a temporary result.
Scene expectScene(const SceneResult& result) {
    if (const auto* error = std::get_if<SceneError>(&result)) {
        ADD_FAILURE() << "unexpected error: " << error->message();
        return {};
    }
    return std::get<Scene>(result);
}

// A scene holding one body given as JSON object members.
std::string oneBody(const std::string& members) {
    return R"({"version": 1, "bodies": [{)" + members + "}]}";
}
const std::string kBox =
    R"("shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}, "position": [0, 1, 0])";
std::string boxWith(const std::string& extra) {
    return oneBody(kBox + ", " + extra);
}
std::string withWorld(const std::string& members) {
    return R"({"version": 1, "world": {)" + members + "}}";
}

// Version 2 renamed the step counts only: the same world read from either version.
TEST(SceneLoad, VersionTwoNamesTheStepCountsForWhatTheyCount) {
    const Scene v2 = expectScene(parseScene(R"({"version": 2, "world": {"passes": 3, "sub_steps": 7}})"));
    const Scene v1 = expectScene(parseScene(R"({"version": 1, "world": {"substeps": 3, "velocity_iterations": 7}})"));
    EXPECT_EQ(v2.settings.passes, 3);
    EXPECT_EQ(v2.settings.subSteps, 7);
    EXPECT_EQ(v1.settings.passes, 3);
    EXPECT_EQ(v1.settings.subSteps, 7);
    // Written as version 2, with the new names.
    const std::string written = toJson(v1);
    EXPECT_NE(written.find("\"version\": 2"), std::string::npos) << written;
    EXPECT_NE(written.find("\"passes\": 3"), std::string::npos) << written;
    EXPECT_NE(written.find("\"sub_steps\": 7"), std::string::npos) << written;
    EXPECT_EQ(written.find("substeps"), std::string::npos) << written;
}

TEST(SceneLoad, FullSceneKeepsEveryField) {
    const std::string text = R"({
      "version": 1,
      "name": "Two boxes",
      "world": {
        "gravity": [0, -3.5, 1],
        "timestep": 0.01,
        "substeps": 4,
        "velocity_iterations": 12,
        "position_iterations": 3,
        "restitution_threshold": 0.5,
        "restitution_combine": "multiply",
        "friction_combine": "average",
        "warm_starting": false,
        "sleeping": true,
        "sleep_speed": 0.125,
        "sleep_time": 2.5
      },
      "bodies": [
        { "name": "ground", "static": true,
          "shape": { "type": "box", "half_extents": [20, 0.5, 20] },
          "position": [0, -0.5, 0], "friction": 0.6 },
        { "name": "crate",
          "shape": { "type": "box", "half_extents": [0.5, 0.25, 0.125] },
          "mass": 2.0,
          "position": [1, 3, -2],
          "orientation": [0, 0, 1, 0],
          "linear_velocity": [1, 2, 3],
          "angular_velocity": [-1, 0.5, 0.25],
          "restitution": 0.3,
          "friction": 0.5,
          "static_friction": 0.6,
          "inertia": [[0.4, 0.01, 0], [0.01, 0.3, 0], [0, 0, 0.35]] },
        { "name": "ball", "shape": { "type": "sphere", "radius": 0.75 }, "position": [0, 5, 0] }
      ]
    })";
    const Scene s = expectScene(parseScene(text));
    EXPECT_EQ(s.name, "Two boxes");
    EXPECT_EQ(s.settings.gravity, vec3(0.0f, -3.5f, 1.0f));
    EXPECT_EQ(s.settings.timestep, 0.01f);
    EXPECT_EQ(s.settings.passes, 4);
    EXPECT_EQ(s.settings.subSteps, 12);
    EXPECT_EQ(s.settings.positionIterations, 3);
    EXPECT_EQ(s.settings.restitutionThreshold, 0.5f);
    EXPECT_EQ(s.settings.restitutionCombine, RestitutionCombine::Multiply);
    EXPECT_EQ(s.settings.frictionCombine, FrictionCombine::Average);
    EXPECT_FALSE(s.settings.warmStarting);
    EXPECT_TRUE(s.settings.sleeping);
    EXPECT_EQ(s.settings.sleepSpeed, 0.125f);
    EXPECT_EQ(s.settings.sleepTime, 2.5f);
    ASSERT_EQ(s.bodies.size(), 3u);

    const BodyDef& ground = s.bodies[0];
    EXPECT_EQ(ground.name, "ground");
    EXPECT_TRUE(ground.isStatic);
    EXPECT_EQ(ground.shape.type, ShapeType::Box);
    EXPECT_EQ(ground.shape.halfExtents, vec3(20.0f, 0.5f, 20.0f));
    EXPECT_EQ(ground.position, vec3(0.0f, -0.5f, 0.0f));
    EXPECT_EQ(ground.friction, 0.6f);
    EXPECT_FALSE(ground.staticFriction.has_value());
    EXPECT_FALSE(ground.inertia.has_value());

    const BodyDef& crate = s.bodies[1];
    EXPECT_EQ(crate.name, "crate");
    EXPECT_FALSE(crate.isStatic);
    EXPECT_EQ(crate.shape.halfExtents, vec3(0.5f, 0.25f, 0.125f));
    EXPECT_EQ(crate.mass, 2.0f);
    EXPECT_EQ(crate.position, vec3(1.0f, 3.0f, -2.0f));
    EXPECT_EQ(crate.orientation, quat(0.0f, 0.0f, 1.0f, 0.0f));  // glm::quat(w, x, y, z)
    EXPECT_EQ(crate.linearVelocity, vec3(1.0f, 2.0f, 3.0f));
    EXPECT_EQ(crate.angularVelocity, vec3(-1.0f, 0.5f, 0.25f));
    EXPECT_EQ(crate.restitution, 0.3f);
    EXPECT_EQ(crate.friction, 0.5f);
    ASSERT_TRUE(crate.staticFriction.has_value());
    EXPECT_EQ(*crate.staticFriction, 0.6f);
    ASSERT_TRUE(crate.inertia.has_value());
    // Rows in the file; GLM indexes [column][row].
    EXPECT_EQ((*crate.inertia)[0][0], 0.4f);
    EXPECT_EQ((*crate.inertia)[1][0], 0.01f);
    EXPECT_EQ((*crate.inertia)[0][1], 0.01f);
    EXPECT_EQ((*crate.inertia)[1][1], 0.3f);
    EXPECT_EQ((*crate.inertia)[2][2], 0.35f);
    EXPECT_EQ((*crate.inertia)[2][0], 0.0f);

    const BodyDef& ball = s.bodies[2];
    EXPECT_EQ(ball.shape.type, ShapeType::Sphere);
    EXPECT_EQ(ball.shape.radius, 0.75f);
}

TEST(SceneLoad, DefaultsApply) {
    const Scene s = expectScene(parseScene(oneBody(kBox)));
    const WorldSettings defaults;
    EXPECT_EQ(s.name, "");
    EXPECT_EQ(s.settings.gravity, defaults.gravity);
    EXPECT_EQ(s.settings.timestep, defaults.timestep);
    EXPECT_EQ(s.settings.passes, defaults.passes);
    EXPECT_EQ(s.settings.subSteps, defaults.subSteps);
    EXPECT_EQ(s.settings.positionIterations, defaults.positionIterations);
    EXPECT_EQ(s.settings.restitutionThreshold, defaults.restitutionThreshold);
    EXPECT_EQ(s.settings.restitutionCombine, defaults.restitutionCombine);
    EXPECT_EQ(s.settings.frictionCombine, defaults.frictionCombine);
    EXPECT_EQ(s.settings.warmStarting, defaults.warmStarting);
    EXPECT_FALSE(s.settings.sleeping);  // off unless a scene asks for it
    EXPECT_EQ(s.settings.sleepSpeed, defaults.sleepSpeed);
    EXPECT_EQ(s.settings.sleepTime, defaults.sleepTime);

    ASSERT_EQ(s.bodies.size(), 1u);
    const BodyDef& b = s.bodies[0];
    const BodyDef d;
    EXPECT_EQ(b.name, "body0");
    EXPECT_FALSE(b.isStatic);
    EXPECT_EQ(b.mass, d.mass);
    EXPECT_EQ(b.orientation, d.orientation);
    EXPECT_EQ(b.linearVelocity, d.linearVelocity);
    EXPECT_EQ(b.angularVelocity, d.angularVelocity);
    EXPECT_EQ(b.restitution, d.restitution);
    EXPECT_EQ(b.friction, d.friction);
    EXPECT_FALSE(b.staticFriction.has_value());
    EXPECT_FALSE(b.inertia.has_value());

    // No bodies at all is an empty world, not an error.
    EXPECT_TRUE(expectScene(parseScene(R"({"version": 1})")).bodies.empty());
}

TEST(SceneLoad, DefaultNamesUseTheIndex) {
    const Scene s = expectScene(parseScene(R"({"version": 1, "bodies": [
        {"name": "a", "shape": {"type": "sphere", "radius": 1}, "position": [0, 0, 0]},
        {"shape": {"type": "sphere", "radius": 1}, "position": [3, 0, 0]}]})"));
    ASSERT_EQ(s.bodies.size(), 2u);
    EXPECT_EQ(s.bodies[1].name, "body1");
}

TEST(SceneLoad, OrientationIsNormalised) {
    const Scene a = expectScene(parseScene(boxWith(R"("orientation": [2, 0, 0, 0])")));
    EXPECT_EQ(a.bodies[0].orientation, quat(1.0f, 0.0f, 0.0f, 0.0f));
    const Scene b = expectScene(parseScene(boxWith(R"("orientation": [1, 1, 0, 0])")));
    const quat q = b.bodies[0].orientation;
    EXPECT_NEAR(q.w, std::sqrt(0.5f), 1e-7f);
    EXPECT_NEAR(q.x, std::sqrt(0.5f), 1e-7f);
    EXPECT_EQ(q.y, 0.0f);
    EXPECT_NEAR(glm::length(q), 1.0f, 1e-6f);
    // Rounded by a person: normalised too.
    const Scene c = expectScene(parseScene(boxWith(R"("orientation": [0.7071, 0, 0.7071, 0])")));
    EXPECT_NEAR(glm::length(c.bodies[0].orientation), 1.0f, 1e-6f);
    EXPECT_NEAR(c.bodies[0].orientation.w, std::sqrt(0.5f), 1e-6f);
}

TEST(SceneLoad, MessageNamesFilePathAndRule) {
    SceneError e{"scenes/a.json", "bodies[3].mass", "must be > 0 (got 0)"};
    EXPECT_EQ(e.message(), "scenes/a.json: bodies[3].mass: must be > 0 (got 0)");
    SceneError fileLevel{"scenes/a.json", "", "cannot open: No such file or directory"};
    EXPECT_EQ(fileLevel.message(), "scenes/a.json: cannot open: No such file or directory");

    const SceneResult r = parseScene(boxWith(R"("mass": 0)"), "my.json");
    ASSERT_TRUE(std::holds_alternative<SceneError>(r));
    const std::string message = std::get<SceneError>(r).message();
    EXPECT_EQ(message.rfind("my.json: bodies[0].mass: ", 0), 0u) << message;
}

struct BadInput {
    const char* label;
    std::string text;
    std::string path;  // expected SceneError::path
    std::string rule;  // expected to appear in SceneError::rule
};

std::string deepNesting() {
    return R"({"version": 1, "name": )" + std::string(40, '[') + std::string(40, ']') + "}";
}

// The 32nd nested array is refused; it would be name[0]...[0] (31 indices).
std::string deepNestingPath() {
    std::string path = "name";
    for (int i = 0; i < 31; ++i) path += "[0]";
    return path;
}

std::vector<BadInput> badInputs() {
    const std::string sphere = R"("position": [0, 0, 0], "shape": {"type": "sphere", )";
    return {
        // syntax
        {"malformed JSON", "{\n  \"version\": 1,\n  \"bodies\": x\n}", "", "line 3, column 13"},
        {"trailing comma", "{\"version\": 1,}", "", "line 1, column 15"},
        {"trailing garbage", "{\"version\": 1} x", "", "line 1"},
        {"empty text", "", "", "line 1, column 1"},
        {"duplicate key", R"({"version": 1, "version": 1})", "version", "duplicate key 'version'"},
        {"duplicate body key", boxWith(R"("mass": 1, "mass": 2)"), "bodies[0].mass", "duplicate key"},
        {"nesting too deep", deepNesting(), deepNestingPath(), "nested deeper than 32"},
        {"number overflow (1e999)", boxWith(R"("mass": 1e999)"), "bodies[0].mass", "number overflow"},
        {"beyond single precision", boxWith(R"("mass": 1e39)"), "bodies[0].mass", "single-precision"},
        // document structure
        {"top level not an object", "[1, 2]", "", "expected a JSON object at the top level, got an array"},
        {"missing version", R"({"bodies": []})", "version", "required key is missing"},
        {"future version", R"({"version": 3})", "version", "unsupported version 3"},
        {"version 0", R"({"version": 0})", "version", "understands versions 1 to 2"},
        // the step counts' keys are those of the file's version
        {"version 2 key in a version 1 file", withWorld(R"("passes": 2)"), "world.passes",
         "a version 2 key; this file is version 1, where it is 'substeps'"},
        {"version 1 key in a version 2 file", R"({"version": 2, "world": {"velocity_iterations": 8}})",
         "world.velocity_iterations", "a version 1 key; this file is version 2, where it is 'sub_steps'"},
        {"version 2 sub-steps zero", R"({"version": 2, "world": {"sub_steps": 0}})", "world.sub_steps", "[1, "},
        {"version as string", R"({"version": "1"})", "version", "expected an integer, got a string"},
        {"unknown top-level key", R"({"version": 1, "bodys": []})", "",
         "unknown key 'bodys' (did you mean 'bodies'?)"},
        {"unknown world key", withWorld(R"("gravty": [0, 0, 0])"), "world", "unknown key 'gravty'"},
        {"unknown body key", boxWith(R"("frction": 0.3)"), "bodies[0]",
         "unknown key 'frction' (did you mean 'friction'?)"},
        {"unknown shape key",
         oneBody(R"("position": [0, 0, 0], "shape": {"type": "box", "half_extents": [1, 1, 1], "size": 2})"),
         "bodies[0].shape", "unknown key 'size'"},
        // types
        {"name not a string", R"({"version": 1, "name": 3})", "name", "expected a string, got a number"},
        {"world not an object", R"({"version": 1, "world": []})", "world",
         "expected an object, got an array"},
        {"bodies not an array", R"({"version": 1, "bodies": {}})", "bodies",
         "expected an array, got an object"},
        {"body not an object", R"({"version": 1, "bodies": [3]})", "bodies[0]",
         "expected an object, got a number"},
        {"mass as string", boxWith(R"("mass": "heavy")"), "bodies[0].mass",
         "expected a number, got a string"},
        {"static as string", boxWith(R"("static": "yes")"), "bodies[0].static", "expected a boolean"},
        {"body name as number", boxWith(R"("name": 7)"), "bodies[0].name", "expected a string, got a number"},
        {"vector element as string",
         oneBody(R"("shape": {"type": "sphere", "radius": 1}, "position": [0, "up", 0])"),
         "bodies[0].position[1]", "expected a number, got a string"},
        {"vector too short", oneBody(R"("shape": {"type": "sphere", "radius": 1}, "position": [0, 0])"),
         "bodies[0].position", "expected an array of 3 numbers, got 2 elements"},
        {"vector as object", boxWith(R"("linear_velocity": {"x": 1})"), "bodies[0].linear_velocity",
         "expected an array of 3 numbers, got an object"},
        {"orientation of 3", boxWith(R"("orientation": [1, 0, 0])"), "bodies[0].orientation",
         "got 3 elements"},
        {"inertia of 2 rows", boxWith(R"("inertia": [[1, 0, 0], [0, 1, 0]])"), "bodies[0].inertia",
         "got 2 elements"},
        {"inertia short row", boxWith(R"("inertia": [[1, 0, 0], [0, 1], [0, 0, 1]])"), "bodies[0].inertia[1]",
         "expected a row of 3 numbers"},
        {"inertia entry null", boxWith(R"("inertia": [[1, 0, 0], [0, 1, 0], [0, null, 1]])"),
         "bodies[0].inertia[2][1]", "expected a number, got null"},
        {"substeps fractional", withWorld(R"("substeps": 1.5)"), "world.substeps",
         "expected an integer, got a number"},
        {"warm_starting as number", withWorld(R"("warm_starting": 1)"), "world.warm_starting",
         "expected a boolean"},
        {"combine rule as number", withWorld(R"("friction_combine": 2)"), "world.friction_combine",
         "expected a string"},
        {"sleeping as string", withWorld(R"("sleeping": "yes")"), "world.sleeping", "expected a boolean"},
        {"sleep_speed as boolean", withWorld(R"("sleep_speed": true)"), "world.sleep_speed",
         "expected a number, got a boolean"},
        {"sleep_time as array", withWorld(R"("sleep_time": [1])"), "world.sleep_time",
         "expected a number, got an array"},
        // required keys and shapes
        {"missing shape", oneBody(R"("position": [0, 0, 0])"), "bodies[0].shape", "required key is missing"},
        {"missing position", oneBody(R"("shape": {"type": "sphere", "radius": 1})"), "bodies[0].position",
         "required key is missing"},
        {"missing shape type", oneBody(R"("position": [0, 0, 0], "shape": {"radius": 1})"),
         "bodies[0].shape.type", "required key is missing"},
        {"unknown shape type", oneBody(R"("position": [0, 0, 0], "shape": {"type": "cone", "radius": 1})"),
         "bodies[0].shape.type", "unknown shape type 'cone'"},
        {"box without half_extents", oneBody(R"("position": [0, 0, 0], "shape": {"type": "box"})"),
         "bodies[0].shape.half_extents", "required key is missing"},
        {"box with a radius",
         oneBody(
             R"("position": [0, 0, 0], "shape": {"type": "box", "half_extents": [1, 1, 1], "radius": 1})"),
         "bodies[0].shape.radius", "a box has half_extents"},
        {"sphere with half_extents", oneBody(sphere + R"("radius": 1, "half_extents": [1, 1, 1]})"),
         "bodies[0].shape.half_extents", "a sphere has a radius"},
        {"mass on a static body", boxWith(R"("static": true, "mass": 3)"), "bodies[0].mass",
         "static body has no mass"},
        // values (rules of the physics layer)
        {"mass zero", boxWith(R"("mass": 0)"), "bodies[0].mass", "must be > 0"},
        {"mass negative", boxWith(R"("mass": -2)"), "bodies[0].mass", "must be > 0"},
        {"radius zero", oneBody(sphere + R"("radius": 0})"), "bodies[0].shape.radius", "must be > 0"},
        {"radius negative", oneBody(sphere + R"("radius": -1})"), "bodies[0].shape.radius", "must be > 0"},
        {"half extent zero",
         oneBody(R"("position": [0, 0, 0], "shape": {"type": "box", "half_extents": [1, 0, 1]})"),
         "bodies[0].shape.half_extents[1]", "must be > 0"},
        {"restitution above 1", boxWith(R"("restitution": 1.5)"), "bodies[0].restitution",
         "must be in [0, 1]"},
        {"restitution below 0", boxWith(R"("restitution": -0.1)"), "bodies[0].restitution",
         "must be in [0, 1]"},
        {"friction negative", boxWith(R"("friction": -0.1)"), "bodies[0].friction", "must be >= 0"},
        {"static friction below friction", boxWith(R"("friction": 0.5, "static_friction": 0.4)"),
         "bodies[0].static_friction", "must be >= friction"},
        {"inertia not symmetric", boxWith(R"("inertia": [[1, 0.5, 0], [0, 1, 0], [0, 0, 1]])"),
         "bodies[0].inertia", "symmetric"},
        {"inertia not positive definite", boxWith(R"("inertia": [[1, 0, 0], [0, -1, 0], [0, 0, 1]])"),
         "bodies[0].inertia", "positive definite"},
        {"inertia zero", boxWith(R"("inertia": [[0, 0, 0], [0, 0, 0], [0, 0, 0]])"), "bodies[0].inertia",
         "positive definite"},
        {"inertia breaks triangle inequality", boxWith(R"("inertia": [[1, 0, 0], [0, 1, 0], [0, 0, 3]])"),
         "bodies[0].inertia", "triangle inequality"},
        {"inertia far below the body's own", boxWith(R"("inertia": [[1e-6, 0, 0], [0, 1e-6, 0], [0, 0, 1e-6]])"),
         "bodies[0].inertia", "must be at least 0.001 of the shape's own tensor at the body's mass"},
        {"position too far", oneBody(R"("shape": {"type": "sphere", "radius": 1}, "position": [2e6, 0, 0])"),
         "bodies[0].position", "magnitude"},
        {"zero quaternion", boxWith(R"("orientation": [0, 0, 0, 0])"), "bodies[0].orientation",
         "zero quaternion"},
        {"duplicate names", R"({"version": 1, "bodies": [
            {"name": "a", "shape": {"type": "sphere", "radius": 1}, "position": [0, 0, 0]},
            {"name": "b", "shape": {"type": "sphere", "radius": 1}, "position": [3, 0, 0]},
            {"name": "a", "shape": {"type": "sphere", "radius": 1}, "position": [6, 0, 0]}]})",
         "bodies[2].name", "duplicate name 'a' (also bodies[0])"},
        {"explicit name equal to a default name", R"({"version": 1, "bodies": [
            {"shape": {"type": "sphere", "radius": 1}, "position": [0, 0, 0]},
            {"name": "body0", "shape": {"type": "sphere", "radius": 1}, "position": [3, 0, 0]}]})",
         "bodies[1].name", "duplicate name 'body0'"},
        {"bad restitution rule", withWorld(R"("restitution_combine": "maximum")"),
         "world.restitution_combine", "unknown rule 'maximum'"},
        {"bad friction rule", withWorld(R"("friction_combine": "harmonic")"), "world.friction_combine",
         "unknown rule 'harmonic'"},
        {"substeps zero", withWorld(R"("substeps": 0)"), "world.substeps", "[1, "},
        {"substeps huge", withWorld(R"("substeps": 99999999999999)"), "world.substeps", "[1, "},
        {"velocity iterations zero", withWorld(R"("velocity_iterations": 0)"), "world.velocity_iterations",
         "[1, "},
        {"timestep zero", withWorld(R"("timestep": 0)"), "world.timestep", "must be a number in"},
        {"timestep negative", withWorld(R"("timestep": -0.01)"), "world.timestep", "must be a number in"},
        {"gravity too strong", withWorld(R"("gravity": [0, -1e5, 0])"), "world.gravity", "magnitude"},
        {"sleep_speed negative", withWorld(R"("sleep_speed": -0.01)"), "world.sleep_speed",
         "must be a number in [0, 10] m/s"},
        {"sleep_speed above 10", withWorld(R"("sleep_speed": 11)"), "world.sleep_speed",
         "must be a number in [0, 10] m/s"},
        {"sleep_time zero", withWorld(R"("sleep_time": 0)"), "world.sleep_time",
         "must be a number in (0, 1000] s"},
        {"sleep_time too long", withWorld(R"("sleeping": true, "sleep_time": 1001)"), "world.sleep_time",
         "must be a number in (0, 1000] s"},
        {"gravity overflows", withWorld(R"("gravity": [0, 1e400, 0])"), "world.gravity[1]",
         "number overflow"},
        // the world's bounds
        {"bounds min above max", withWorld(R"("bounds": {"min": [-10, 5, -10], "max": [10, 3, 10]})"),
         "world.bounds", "min must be less than max on every axis (y: min 5 >= max 3)"},
        {"bounds min equal to max", withWorld(R"("bounds": {"min": [0, 0, 0], "max": [0, 1, 1]})"),
         "world.bounds", "min must be less than max on every axis (x: min 0 >= max 0)"},
        {"bounds beyond the step guard", withWorld(R"("bounds": {"min": [-2e6, 0, 0], "max": [1, 1, 1]})"),
         "world.bounds.min", "must hold finite numbers in [-1e6, 1e6] m"},
        {"bounds overflow", withWorld(R"("bounds": {"min": [0, 0, 0], "max": [1, 1e400, 1]})"),
         "world.bounds.max[1]", "number overflow"},
        {"bounds without max", withWorld(R"("bounds": {"min": [0, 0, 0]})"), "world.bounds.max",
         "required key is missing"},
        {"bounds as array", withWorld(R"("bounds": [0, 0, 0])"), "world.bounds", "expected an object"},
        {"unknown bounds key", withWorld(R"("bounds": {"min": [0, 0, 0], "max": [1, 1, 1], "floor": 0})"),
         "world.bounds", "unknown key 'floor'"},
    };
}

TEST(SceneLoad, TheWorldsBoundsDefaultWhenAbsentAndAreReadWhenGiven) {
    const Scene plain = expectScene(parseScene(R"({"version": 2, "bodies": []})"));
    EXPECT_EQ(plain.settings.bounds.min, vec3(-1000.0f, -100.0f, -1000.0f));
    EXPECT_EQ(plain.settings.bounds.max, vec3(1000.0f, 1000.0f, 1000.0f));
    const Scene boxed = expectScene(parseScene(
        R"({"version": 2, "world": {"bounds": {"min": [-5, -2.5, -5], "max": [5, 20, 5]}}, "bodies": []})"));
    EXPECT_EQ(boxed.settings.bounds.min, vec3(-5.0f, -2.5f, -5.0f));
    EXPECT_EQ(boxed.settings.bounds.max, vec3(5.0f, 20.0f, 5.0f));
    // Written back, and read the same; the default is not written (a file without the key gets it).
    const std::string written = toJson(boxed);
    EXPECT_NE(written.find("\"bounds\": {\"min\": [-5.0, -2.5, -5.0], \"max\": [5.0, 20.0, 5.0]}"), std::string::npos) << written;
    EXPECT_TRUE(expectScene(parseScene(written)).settings.bounds == boxed.settings.bounds);
    EXPECT_EQ(toJson(plain).find("bounds"), std::string::npos);
}

TEST(SceneLoad, NonFiniteBoundsBuiltInCodeAreRefusedNamingTheField) {
    Scene scene;
    scene.settings.bounds.max.y = std::numeric_limits<float>::quiet_NaN();
    Validation refused = validateScene(scene);
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->message(), "world.bounds.max: must hold finite numbers in [-1e6, 1e6] m");
    scene.settings.bounds = WorldBounds{};
    scene.settings.bounds.min.z = -std::numeric_limits<float>::infinity();
    refused = validateScene(scene);
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->field, "world.bounds.min");
}

TEST(SceneLoad, BadInputIsRejectedWithPathAndRule) {
    for (const BadInput& bad : badInputs()) {
        SCOPED_TRACE(bad.label);
        const SceneResult result = parseScene(bad.text, "bad.json");
        const auto* error = std::get_if<SceneError>(&result);
        ASSERT_NE(error, nullptr) << "accepted: " << bad.text;
        EXPECT_EQ(error->file, "bad.json");
        EXPECT_EQ(error->path, bad.path) << error->message();
        EXPECT_NE(error->rule.find(bad.rule), std::string::npos) << error->message();
        EXPECT_NE(error->message().find(bad.rule), std::string::npos);
    }
}

// The spin limit is on the surface speed (kMaxSurfaceSpeed at the bounding
// radius), not on rad/s: a 1 cm marble rolling at 5 m/s spins at 500 rad/s and
// loads; a 1 m box (0.87 m to its corners, at most 404.1 rad/s) at 410 rad/s is
// refused with the rule and the limit for its shape.
TEST(SceneLoad, SpinLimitScalesWithTheBody) {
    const Scene marble = expectScene(parseScene(
        oneBody(R"("shape": {"type": "sphere", "radius": 0.01}, "position": [0, 0.01, 0], "mass": 0.01,)"
                R"( "linear_velocity": [5, 0, 0], "angular_velocity": [0, 0, -500])")));
    ASSERT_EQ(marble.bodies.size(), 1u);
    EXPECT_EQ(marble.bodies[0].angularVelocity.z, -500.0f);
    const SceneResult box = parseScene(boxWith(R"("angular_velocity": [0, 410, 0])"), "spin.json");
    const auto* error = std::get_if<SceneError>(&box);
    ASSERT_NE(error, nullptr);
    EXPECT_EQ(error->path, "bodies[0].angular_velocity");
    EXPECT_NE(error->rule.find("surface speed) must be <= 350 m/s: <= 404.145 rad/s for this shape (got 410)"),
              std::string::npos)
        << error->message();
    EXPECT_TRUE(std::holds_alternative<Scene>(parseScene(boxWith(R"("angular_velocity": [0, 400, 0])"))));
}

TEST(SceneLoad, BodyCountLimit) {
    std::string text = R"({"version": 1, "bodies": [)";
    for (std::size_t i = 0; i <= kMaxBodies; ++i) text += i == 0 ? "{}" : ",{}";
    text += "]}";
    const SceneResult result = parseScene(text);
    const auto* error = std::get_if<SceneError>(&result);
    ASSERT_NE(error, nullptr);
    EXPECT_EQ(error->path, "bodies");
    EXPECT_NE(error->rule.find(std::to_string(kMaxBodies)), std::string::npos) << error->rule;
}

TEST(SceneLoad, FileSizeLimit) {
    std::string text(kMaxFileBytes + 1, ' ');
    const SceneResult result = parseScene(text, "huge.json");
    const auto* error = std::get_if<SceneError>(&result);
    ASSERT_NE(error, nullptr);
    EXPECT_NE(error->message().find("huge.json"), std::string::npos);
    EXPECT_NE(error->message().find("64 MiB"), std::string::npos) << error->message();
}

TEST(SceneLoad, MissingFileNamesThePath) {
    const SceneResult result = loadSceneFile("/nonexistent/dir/scene.json");
    const auto* error = std::get_if<SceneError>(&result);
    ASSERT_NE(error, nullptr);
    EXPECT_EQ(error->file, "/nonexistent/dir/scene.json");
    EXPECT_NE(error->message().find("/nonexistent/dir/scene.json: cannot open"), std::string::npos)
        << error->message();
}

}  // namespace
}  // namespace impulse::scene
