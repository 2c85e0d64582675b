// Saving and loading: save -> load is bit-exact for every float, optional keys
// stay absent or present, a stepped world survives capture -> save -> load ->
// build unchanged, and saving is atomic.
#include "physics/constants.h"
#include "physics/shape.h"
#include "scene/scene.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>

#include <unistd.h>

namespace impulse::scene {
namespace {

namespace fs = std::filesystem;

bool sameBits(float a, float b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

::testing::AssertionResult same(float a, float b) {
    if (sameBits(a, b)) return ::testing::AssertionSuccess();
    std::ostringstream text;
    text.precision(9);
    text << a << " != " << b;
    return ::testing::AssertionFailure() << text.str();
}
::testing::AssertionResult same(const vec3& a, const vec3& b) {
    for (int i = 0; i < 3; ++i)
        if (auto r = same(a[i], b[i]); !r) return r << " (component " << i << ")";
    return ::testing::AssertionSuccess();
}
::testing::AssertionResult same(const quat& a, const quat& b) {
    if (auto r = same(a.w, b.w); !r) return r << " (w)";
    if (auto r = same(a.x, b.x); !r) return r << " (x)";
    if (auto r = same(a.y, b.y); !r) return r << " (y)";
    return same(a.z, b.z) << " (z)";
}
::testing::AssertionResult same(const mat3& a, const mat3& b) {
    for (int c = 0; c < 3; ++c)
        if (auto r = same(a[c], b[c]); !r) return r << " (column " << c << ")";
    return ::testing::AssertionSuccess();
}

void expectSameDef(const BodyDef& a, const BodyDef& b) {
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.isStatic, b.isStatic);
    EXPECT_EQ(a.shape.type, b.shape.type);
    if (a.shape.type == ShapeType::Sphere) {
        EXPECT_TRUE(same(a.shape.radius, b.shape.radius));
    } else {
        EXPECT_TRUE(same(a.shape.halfExtents, b.shape.halfExtents));
    }
    if (!a.isStatic) {
        EXPECT_TRUE(same(a.mass, b.mass));
    }
    EXPECT_TRUE(same(a.position, b.position));
    EXPECT_TRUE(same(a.orientation, b.orientation));
    EXPECT_TRUE(same(a.linearVelocity, b.linearVelocity));
    EXPECT_TRUE(same(a.angularVelocity, b.angularVelocity));
    EXPECT_TRUE(same(a.restitution, b.restitution));
    EXPECT_TRUE(same(a.friction, b.friction));
    ASSERT_EQ(a.staticFriction.has_value(), b.staticFriction.has_value());
    if (a.staticFriction) {
        EXPECT_TRUE(same(*a.staticFriction, *b.staticFriction));
    }
    ASSERT_EQ(a.inertia.has_value(), b.inertia.has_value());
    if (a.inertia) {
        EXPECT_TRUE(same(*a.inertia, *b.inertia));
    }
}

void expectSameScene(const Scene& a, const Scene& b) {
    EXPECT_EQ(a.name, b.name);
    EXPECT_TRUE(same(a.settings.gravity, b.settings.gravity));
    EXPECT_TRUE(same(a.settings.timestep, b.settings.timestep));
    EXPECT_EQ(a.settings.passes, b.settings.passes);
    EXPECT_EQ(a.settings.subSteps, b.settings.subSteps);
    EXPECT_EQ(a.settings.positionIterations, b.settings.positionIterations);
    EXPECT_TRUE(same(a.settings.restitutionThreshold, b.settings.restitutionThreshold));
    EXPECT_EQ(a.settings.restitutionCombine, b.settings.restitutionCombine);
    EXPECT_EQ(a.settings.frictionCombine, b.settings.frictionCombine);
    EXPECT_EQ(a.settings.warmStarting, b.settings.warmStarting);
    EXPECT_EQ(a.settings.sleeping, b.settings.sleeping);
    EXPECT_TRUE(same(a.settings.sleepSpeed, b.settings.sleepSpeed));
    EXPECT_TRUE(same(a.settings.sleepTime, b.settings.sleepTime));
    ASSERT_EQ(a.bodies.size(), b.bodies.size());
    for (std::size_t i = 0; i < a.bodies.size(); ++i) {
        SCOPED_TRACE("bodies[" + std::to_string(i) + "]");
        expectSameDef(a.bodies[i], b.bodies[i]);
    }
}

Scene reparse(const Scene& scene) {
    const std::string text = toJson(scene);
    SceneResult result = parseScene(text, "<roundtrip>");
    if (auto* error = std::get_if<SceneError>(&result)) {
        ADD_FAILURE() << error->message() << "\n" << text;
        return {};
    }
    return std::get<Scene>(result);
}

// A fresh folder per test, removed afterwards.
class TempDir {
public:
    TempDir() {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        path_ = fs::temp_directory_path() /
                ("impulse_scene_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
        fs::remove_all(path_);
        fs::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ignored;
        fs::remove_all(path_, ignored);
    }
    fs::path operator/(const std::string& name) const { return path_ / name; }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

Scene handMadeScene() {
    Scene s;
    s.name = "Round \"trip\" \\ ünïcödé\nline two";
    s.settings.gravity = vec3(0.1f, -9.81f, 1.0f / 3.0f);
    s.settings.timestep = 1.0f / 120.0f;
    s.settings.passes = 3;
    s.settings.subSteps = 17;
    s.settings.positionIterations = 0;
    s.settings.restitutionThreshold = 0.3f;
    s.settings.restitutionCombine = RestitutionCombine::Average;
    s.settings.frictionCombine = FrictionCombine::Min;
    s.settings.warmStarting = false;
    s.settings.sleeping = true;
    s.settings.sleepSpeed = 0.03f;
    s.settings.sleepTime = 1.0f / 3.0f;

    BodyDef ground;
    ground.name = "ground";
    ground.isStatic = true;
    ground.shape = Shape::box(vec3(20.0f, 0.5f, 20.0f));
    ground.position = vec3(0.0f, -0.5f, -0.0f);  // negative zero must survive
    ground.friction = 0.6f;
    s.bodies.push_back(ground);

    BodyDef crate;  // every optional key present
    crate.name = "crate";
    crate.shape = Shape::box(vec3(0.1f, 0.2f, 0.3f));
    crate.mass = 2.2f;
    crate.position = vec3(1e-7f, 12345.678f, -0.1f);
    crate.orientation = glm::normalize(quat(0.3f, -0.2f, 0.9f, 0.1f));
    crate.linearVelocity = vec3(std::nextafter(1.0f, 2.0f), -3.3f, 0.0f);
    crate.angularVelocity = vec3(0.0f, 7.77f, -1e-30f);
    crate.restitution = 1.0f / 3.0f;
    crate.friction = 0.7f;
    crate.staticFriction = 0.70000005f;
    mat3 inertia(0.0f);
    inertia[0][0] = 0.02f;
    inertia[1][1] = 0.03f;
    inertia[2][2] = 0.04f;
    inertia[0][1] = inertia[1][0] = 0.001f;
    crate.inertia = inertia;
    s.bodies.push_back(crate);

    BodyDef ball;  // optional keys absent
    ball.name = "ball";
    ball.shape = Shape::sphere(0.0286f);
    ball.mass = 0.17f;
    ball.position = vec3(-2.0f, 0.0286f, 0.5f);
    ball.restitution = 0.95f;
    ball.friction = 1e-40f;  // subnormal
    s.bodies.push_back(ball);

    BodyDef wall;  // static with an inertia override (allowed, kept)
    wall.name = "wall";
    wall.isStatic = true;
    wall.shape = Shape::box(vec3(0.25f, 2.0f, 5.0f));
    wall.position = vec3(9.0f, 2.0f, 0.0f);
    wall.staticFriction = 0.9f;
    s.bodies.push_back(wall);
    return s;
}

TEST(SceneRoundTrip, SaveThenLoadIsBitExact) {
    const Scene original = handMadeScene();
    const Scene loaded = reparse(original);
    expectSameScene(original, loaded);
    EXPECT_FALSE(loaded.bodies[2].staticFriction.has_value());
    EXPECT_FALSE(loaded.bodies[2].inertia.has_value());
    EXPECT_TRUE(loaded.bodies[1].staticFriction.has_value());
    EXPECT_TRUE(loaded.bodies[1].inertia.has_value());
    // The text is stable: saving the loaded scene gives the same bytes.
    EXPECT_EQ(toJson(loaded), toJson(original));
}

TEST(SceneRoundTrip, AbsentOptionalKeysStayAbsentInTheText) {
    const std::string text = toJson(handMadeScene());
    // Only the crate has an inertia override and only crate and wall a static friction.
    std::size_t count = 0;
    for (std::size_t p = text.find("\"inertia\""); p != std::string::npos;
         p = text.find("\"inertia\"", p + 1))
        ++count;
    EXPECT_EQ(count, 1u);
    count = 0;
    for (std::size_t p = text.find("\"static_friction\""); p != std::string::npos;
         p = text.find("\"static_friction\"", p + 1))
        ++count;
    EXPECT_EQ(count, 2u);
    // Static bodies have no mass in the file.
    const std::size_t groundLine = text.find("\"name\": \"ground\"");
    ASSERT_NE(groundLine, std::string::npos);
    const std::string line = text.substr(groundLine, text.find('\n', groundLine) - groundLine);
    EXPECT_EQ(line.find("\"mass\""), std::string::npos) << line;
    // Short numbers stay short.
    EXPECT_NE(text.find("\"friction\": 0.6"), std::string::npos);
    EXPECT_EQ(text.find("0.60000002"), std::string::npos);
}

// Random floats over the whole valid range of every field.
TEST(SceneRoundTrip, RandomScenesAreBitExact) {
    std::mt19937 rng(20240601u);
    auto uniform = [&](float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); };
    auto logUniform = [&](float lo, float hi) { return std::exp(uniform(std::log(lo), std::log(hi))); };
    auto randomVec = [&](float limit) {
        return vec3(uniform(-limit, limit), uniform(-limit, limit), uniform(-limit, limit));
    };

    for (int trial = 0; trial < 20; ++trial) {
        Scene s;
        s.name = "random " + std::to_string(trial);
        s.settings.gravity = randomVec(50.0f);
        s.settings.timestep = logUniform(1.1e-4f, 0.09f);
        s.settings.passes = 1 + static_cast<int>(rng() % 8);
        s.settings.subSteps = 1 + static_cast<int>(rng() % 50);
        s.settings.positionIterations = static_cast<int>(rng() % 10);
        s.settings.restitutionThreshold = uniform(0.0f, 5.0f);
        s.settings.restitutionCombine = static_cast<RestitutionCombine>(rng() % 4);
        s.settings.frictionCombine = static_cast<FrictionCombine>(rng() % 4);
        s.settings.warmStarting = rng() % 2 == 0;
        s.settings.sleeping = rng() % 2 == 0;
        s.settings.sleepSpeed = uniform(0.0f, 10.0f);
        s.settings.sleepTime = logUniform(1e-3f, 999.0f);
        for (int i = 0; i < 50; ++i) {
            BodyDef b;
            b.name = "b" + std::to_string(i);
            b.isStatic = rng() % 5 == 0;
            b.shape = rng() % 2 == 0
                          ? Shape::sphere(logUniform(0.0011f, 990.0f))
                          : Shape::box(vec3(logUniform(0.0011f, 990.0f), logUniform(0.0011f, 990.0f),
                                            logUniform(0.0011f, 990.0f)));
            b.mass = logUniform(1.1e-4f, 9e5f);
            b.position = randomVec(5e4f);
            b.orientation =
                glm::normalize(quat(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)));
            b.linearVelocity = randomVec(500.0f);
            // Within the spin limit of the shape (its surface speed), up to 50 rad/s.
            b.angularVelocity = randomVec(std::min(50.0f, 0.5f * maxAngularSpeed(b.shape)));
            b.restitution = uniform(0.0f, 1.0f);
            b.friction = uniform(0.0f, 2.0f);
            if (rng() % 2 == 0) b.staticFriction = b.friction + uniform(0.0f, 1.0f);
            if (rng() % 2 == 0) {
                // Around the shape's own tensor (validation wants at least
                // kMinOwnInertiaShare of it in every direction), within the
                // accepted moments.
                const mat3 own = shapeInertia(b.shape, b.mass);
                const float largestOwn = std::max(own[0][0], std::max(own[1][1], own[2][2]));
                const float scale =
                    glm::clamp(largestOwn * logUniform(1e-2f, 1e2f), 10.0f * kMinMoment, 0.1f * kMaxMoment);
                mat3 m(0.0f);
                m[0][0] = scale * uniform(1.0f, 1.2f);
                m[1][1] = scale * uniform(1.0f, 1.2f);
                m[2][2] = scale * uniform(1.0f, 1.2f);
                m[0][2] = m[2][0] = scale * uniform(-0.1f, 0.1f);
                b.inertia = m;
            }
            ASSERT_FALSE(validateBodyDef(b).has_value()) << validateBodyDef(b)->message();
            s.bodies.push_back(b);
        }
        SCOPED_TRACE("trial " + std::to_string(trial));
        expectSameScene(s, reparse(s));
    }
}

const char* const kStackScene = R"({
  "version": 1,
  "name": "stack",
  "bodies": [
    {"name": "ground", "static": true, "shape": {"type": "box", "half_extents": [10, 0.5, 10]}, "position": [0, -0.5, 0]},
    {"name": "a", "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}, "mass": 2, "position": [0, 0.5, 0]},
    {"name": "b", "shape": {"type": "box", "half_extents": [0.4, 0.3, 0.5]}, "position": [0.1, 1.4, 0],
     "orientation": [0.99, 0.05, 0.1, 0.02], "static_friction": 0.8},
    {"name": "c", "shape": {"type": "sphere", "radius": 0.3}, "position": [0.2, 2.5, 0.1],
     "linear_velocity": [1, 0, 0], "angular_velocity": [0, 3, 1],
     "inertia": [[0.04, 0, 0], [0, 0.03, 0], [0, 0, 0.035]]},
    {"name": "d", "shape": {"type": "sphere", "radius": 0.5}, "position": [-3, 0.5, 0], "linear_velocity": [4, 0, 0.5]}
  ]
})";

World steppedStack() {
    SceneResult first = parseScene(kStackScene);
    if (!std::holds_alternative<Scene>(first)) {
        ADD_FAILURE() << std::get<SceneError>(first).message();
        return World();
    }
    World world = buildWorld(std::get<Scene>(first));
    for (int i = 0; i < 30; ++i) world.step();
    return world;
}

// The scene layer's part: the captured definitions come back bit for bit.
TEST(SceneRoundTrip, SteppedWorldCaptureSaveLoadIsBitExact) {
    TempDir dir;
    const World world = steppedStack();
    const Scene captured = captureScene(world, "stepped");
    const std::string path = (dir / "stepped.json").string();
    ASSERT_EQ(saveSceneFile(captured, path), "");
    SceneResult loaded = loadSceneFile(path);
    ASSERT_TRUE(std::holds_alternative<Scene>(loaded)) << std::get<SceneError>(loaded).message();
    expectSameScene(captured, std::get<Scene>(loaded));
}

// End to end: a rebuilt world continues exactly where the saved one stopped
// (this also needs World::createBody to keep a unit orientation's bits).
TEST(SceneRoundTrip, SteppedWorldSurvivesCaptureSaveLoadBuild) {
    TempDir dir;
    const World world = steppedStack();
    const std::string path = (dir / "stepped.json").string();
    ASSERT_EQ(saveSceneFile(captureScene(world, "stepped"), path), "");
    SceneResult loaded = loadSceneFile(path);
    ASSERT_TRUE(std::holds_alternative<Scene>(loaded)) << std::get<SceneError>(loaded).message();
    EXPECT_EQ(std::get<Scene>(loaded).name, "stepped");
    const World rebuilt = buildWorld(std::get<Scene>(loaded));

    const std::vector<BodyId> before = world.bodyIds();
    const std::vector<BodyId> after = rebuilt.bodyIds();
    ASSERT_EQ(before.size(), after.size());
    for (std::size_t i = 0; i < before.size(); ++i) {
        const Body& a = world.body(before[i]);
        const Body& b = rebuilt.body(after[i]);
        SCOPED_TRACE(a.name);
        EXPECT_EQ(a.name, b.name);
        EXPECT_EQ(a.isStatic, b.isStatic);
        EXPECT_TRUE(same(a.position, b.position));
        EXPECT_TRUE(same(a.orientation, b.orientation));
        EXPECT_TRUE(same(a.linearVelocity, b.linearVelocity));
        EXPECT_TRUE(same(a.angularVelocity, b.angularVelocity));
        EXPECT_TRUE(same(a.inverseMass, b.inverseMass));
        EXPECT_TRUE(same(a.inertiaBody, b.inertiaBody));
        EXPECT_TRUE(same(a.inverseInertiaWorld, b.inverseInertiaWorld));
        EXPECT_TRUE(same(a.restitution, b.restitution));
        EXPECT_TRUE(same(a.friction, b.friction));
        EXPECT_TRUE(same(a.staticFriction, b.staticFriction));
        EXPECT_EQ(a.staticFrictionSet, b.staticFrictionSet);
        EXPECT_EQ(a.inertiaOverridden, b.inertiaOverridden);
    }
    // The world really moved, so the test compared non-trivial states.
    EXPECT_NE(world.body(before[4]).position.x, -3.0f);
}

TEST(SceneRoundTrip, CaptureGivesLoadableUniqueNames) {
    World world;
    BodyDef def;
    def.shape = Shape::sphere(0.5f);
    const char* names[] = {"", "a", "a", "body0"};
    for (int i = 0; i < 4; ++i) {
        def.name = names[i];
        def.position = vec3(3.0f * static_cast<float>(i), 0.0f, 0.0f);
        ASSERT_TRUE(world.createBody(def));
    }
    const Scene scene = captureScene(world, "names");
    ASSERT_EQ(scene.bodies.size(), 4u);
    std::set<std::string> unique;
    for (const BodyDef& b : scene.bodies) {
        EXPECT_FALSE(b.name.empty());
        unique.insert(b.name);
    }
    EXPECT_EQ(unique.size(), 4u);
    EXPECT_EQ(scene.bodies[1].name, "a");      // first holder keeps its name
    EXPECT_EQ(scene.bodies[3].name, "body0");  // an explicit name wins over a generated one
    expectSameScene(scene, reparse(scene));
}

TEST(SceneRoundTrip, SaveIsAtomicAndOverwrites) {
    TempDir dir;
    const std::string path = (dir / "scene.json").string();
    { std::ofstream(path) << "old contents"; }
    const Scene scene = handMadeScene();
    ASSERT_EQ(saveSceneFile(scene, path), "");
    EXPECT_FALSE(fs::exists(path + ".tmp"));
    std::size_t files = 0;
    for (const auto& entry : fs::directory_iterator(dir.path())) {
        (void)entry;
        ++files;
    }
    EXPECT_EQ(files, 1u);
    SceneResult loaded = loadSceneFile(path);
    ASSERT_TRUE(std::holds_alternative<Scene>(loaded)) << std::get<SceneError>(loaded).message();
    expectSameScene(scene, std::get<Scene>(loaded));
}

TEST(SceneRoundTrip, SaveFailureNamesThePathAndLeavesNothing) {
    TempDir dir;
    const std::string path = (dir / "missing_folder" / "scene.json").string();
    const std::string error = saveSceneFile(handMadeScene(), path);
    EXPECT_NE(error.find(path), std::string::npos) << error;
    EXPECT_FALSE(fs::exists(path));
    EXPECT_FALSE(fs::exists(path + ".tmp"));
}

}  // namespace
}  // namespace impulse::scene
