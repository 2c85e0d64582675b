// Validation of body definitions, world settings and drag settings, and the
// guarantee that a rejected edit leaves the world bit-identical.
#include "physics/body.h"
#include "physics/constants.h"
#include "physics/world.h"

#include "physics_test_util.h"

#include <functional>
#include <limits>

namespace impulse {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

TEST(ValidateBodyDef, DefaultsAreValid) {
    EXPECT_FALSE(validateBodyDef(BodyDef{}));
    BodyDef sphere;
    sphere.shape = Shape::sphere(0.5f);
    EXPECT_FALSE(validateBodyDef(sphere));
    BodyDef ground;
    ground.isStatic = true;
    ground.shape = Shape::box(vec3(20.0f, 0.5f, 20.0f));
    EXPECT_FALSE(validateBodyDef(ground));
    // Boundary values are allowed: e = 0 and 1, mu = 0, mu_s == mu.
    BodyDef edge;
    edge.restitution = 1.0f;
    edge.friction = 0.0f;
    edge.staticFriction = 0.0f;
    EXPECT_FALSE(validateBodyDef(edge));
    edge.restitution = 0.0f;
    EXPECT_FALSE(validateBodyDef(edge));
}

struct BadDef {
    const char* what;
    std::function<void(BodyDef&)> edit;
    const char* field;
};

TEST(ValidateBodyDef, RejectsEachBadFieldByName) {
    const BadDef cases[] = {
        {"zero mass", [](BodyDef& d) { d.mass = 0.0f; }, "mass"},
        {"negative mass", [](BodyDef& d) { d.mass = -1.0f; }, "mass"},
        {"NaN mass", [](BodyDef& d) { d.mass = kNaN; }, "mass"},
        {"huge mass", [](BodyDef& d) { d.mass = 2.0f * kMaxMass; }, "mass"},
        {"zero radius", [](BodyDef& d) { d.shape = Shape::sphere(0.0f); }, "shape.radius"},
        {"negative radius", [](BodyDef& d) { d.shape = Shape::sphere(-0.5f); }, "shape.radius"},
        {"inf radius", [](BodyDef& d) { d.shape = Shape::sphere(kInf); }, "shape.radius"},
        {"zero half extent y", [](BodyDef& d) { d.shape = Shape::box(vec3(1.0f, 0.0f, 1.0f)); },
         "shape.half_extents[1]"},
        {"NaN half extent x", [](BodyDef& d) { d.shape = Shape::box(vec3(kNaN, 1.0f, 1.0f)); },
         "shape.half_extents[0]"},
        {"huge half extent z", [](BodyDef& d) { d.shape = Shape::box(vec3(1.0f, 1.0f, 2.0f * kMaxBodySize)); },
         "shape.half_extents[2]"},
        {"restitution > 1", [](BodyDef& d) { d.restitution = 1.5f; }, "restitution"},
        {"restitution < 0", [](BodyDef& d) { d.restitution = -0.1f; }, "restitution"},
        {"NaN restitution", [](BodyDef& d) { d.restitution = kNaN; }, "restitution"},
        {"negative friction", [](BodyDef& d) { d.friction = -0.1f; }, "friction"},
        {"NaN friction", [](BodyDef& d) { d.friction = kNaN; }, "friction"},
        {"static friction below friction", [](BodyDef& d) { d.staticFriction = 0.4f; }, "static_friction"},
        {"NaN static friction", [](BodyDef& d) { d.staticFriction = kNaN; }, "static_friction"},
        {"NaN position", [](BodyDef& d) { d.position.y = kNaN; }, "position"},
        {"far position", [](BodyDef& d) { d.position.x = 2.0f * kBlownUpPosition; }, "position"},
        {"NaN orientation", [](BodyDef& d) { d.orientation.x = kNaN; }, "orientation"},
        {"zero quaternion", [](BodyDef& d) { d.orientation = quat(0, 0, 0, 0); }, "orientation"},
        {"inf linear velocity", [](BodyDef& d) { d.linearVelocity.z = kInf; }, "linear_velocity"},
        {"too fast", [](BodyDef& d) { d.linearVelocity = vec3(kBlownUpSpeed, kBlownUpSpeed, 0.0f); }, "linear_velocity"},
        {"NaN angular velocity", [](BodyDef& d) { d.angularVelocity.x = kNaN; }, "angular_velocity"},
        {"spin too fast", [](BodyDef& d) { d.angularVelocity = vec3(0.0f, 1.01f * maxAngularSpeed(d.shape), 0.0f); },
         "angular_velocity"},
        {"non-physical inertia", [](BodyDef& d) { d.inertia = mat3(1.0f, 0, 0, 0, 1.0f, 0, 0, 0, 3.0f); }, "inertia"},
    };
    for (const BadDef& c : cases) {
        BodyDef def;
        def.friction = 0.5f;
        c.edit(def);
        const Validation error = validateBodyDef(def);
        ASSERT_TRUE(error) << c.what << " was accepted";
        EXPECT_EQ(error->field, c.field) << c.what << ": " << error->message();
        EXPECT_FALSE(error->rule.empty()) << c.what;
    }
}

TEST(ValidateBodyDef, RuleStatesTheRangeAndTheValue) {
    BodyDef def;
    def.restitution = 1.5f;
    const Validation error = validateBodyDef(def);
    ASSERT_TRUE(error);
    EXPECT_NE(error->rule.find("[0, 1]"), std::string::npos) << error->rule;
    EXPECT_NE(error->rule.find("1.5"), std::string::npos) << error->rule;
    EXPECT_EQ(error->message(), "restitution: " + error->rule);
}

TEST(ValidateBodyDef, StaticBodiesDoNotNeedAMass) {
    BodyDef def;
    def.isStatic = true;
    def.mass = 0.0f;
    EXPECT_FALSE(validateBodyDef(def));
}

TEST(ValidateSettings, DefaultsAreValid) { EXPECT_FALSE(validateSettings(WorldSettings{})); }

struct BadSettings {
    const char* what;
    std::function<void(WorldSettings&)> edit;
    const char* field;
};

TEST(ValidateSettings, RejectsEachBadFieldByName) {
    const BadSettings cases[] = {
        {"NaN gravity", [](WorldSettings& s) { s.gravity.y = kNaN; }, "gravity"},
        {"huge gravity", [](WorldSettings& s) { s.gravity = vec3(0.0f, -2.0f * kMaxGravity, 0.0f); }, "gravity"},
        {"zero timestep", [](WorldSettings& s) { s.timestep = 0.0f; }, "timestep"},
        {"negative timestep", [](WorldSettings& s) { s.timestep = -0.01f; }, "timestep"},
        {"NaN timestep", [](WorldSettings& s) { s.timestep = kNaN; }, "timestep"},
        {"timestep too long", [](WorldSettings& s) { s.timestep = 0.2f; }, "timestep"},
        {"zero passes", [](WorldSettings& s) { s.passes = 0; }, "passes"},
        {"too many passes", [](WorldSettings& s) { s.passes = kMaxPasses + 1; }, "passes"},
        {"zero sub-steps", [](WorldSettings& s) { s.subSteps = 0; }, "sub_steps"},
        {"negative position iterations", [](WorldSettings& s) { s.positionIterations = -1; }, "position_iterations"},
        {"too many position iterations", [](WorldSettings& s) { s.positionIterations = kMaxPositionIterations + 1; },
         "position_iterations"},
        {"negative threshold", [](WorldSettings& s) { s.restitutionThreshold = -1.0f; }, "restitution_threshold"},
        {"NaN threshold", [](WorldSettings& s) { s.restitutionThreshold = kNaN; }, "restitution_threshold"},
    };
    for (const BadSettings& c : cases) {
        WorldSettings settings;
        c.edit(settings);
        const Validation error = validateSettings(settings);
        ASSERT_TRUE(error) << c.what << " was accepted";
        EXPECT_EQ(error->field, c.field) << c.what << ": " << error->message();
    }
    // Limits themselves are accepted.
    WorldSettings limits;
    limits.timestep = kMaxTimestep;
    limits.passes = kMaxPasses;
    limits.positionIterations = 0;
    limits.restitutionThreshold = 0.0f;
    limits.gravity = vec3(0.0f);
    EXPECT_FALSE(validateSettings(limits));
}

TEST(ValidateDragSettings, DefaultsValidAndEachBadFieldNamed) {
    EXPECT_FALSE(validateDragSettings(DragSettings{}));
    DragSettings s;
    s.frequency = 0.0f;
    ASSERT_TRUE(validateDragSettings(s));
    EXPECT_EQ(validateDragSettings(s)->field, "drag.frequency");
    s = DragSettings{};
    s.dampingRatio = -0.5f;
    ASSERT_TRUE(validateDragSettings(s));
    EXPECT_EQ(validateDragSettings(s)->field, "drag.damping_ratio");
    s = DragSettings{};
    s.maxForceInWeights = kNaN;
    ASSERT_TRUE(validateDragSettings(s));
    EXPECT_EQ(validateDragSettings(s)->field, "drag.max_force");
}

// ---------------------------------------------------------------- world refuses invalid input

TEST(WorldValidation, CreateBodyRefusesInvalidDefAndLeavesWorldUntouched) {
    World world = test::makeScene();
    world.step();
    const World untouched = world;
    BodyDef bad;
    bad.name = "bad";
    bad.shape = Shape::box(vec3(1.0f, 0.0f, 1.0f));
    FieldError error;
    const BodyId id = world.createBody(bad, &error);
    EXPECT_FALSE(id);
    EXPECT_EQ(error.field, "shape.half_extents[1]");
    EXPECT_EQ(world.bodyCount(), 3);
    EXPECT_FALSE(world.findBody("bad"));
    // No slot was consumed: the next valid body takes index 3, generation 1.
    World probe = world;
    const BodyId next = probe.createBody(BodyDef{});
    EXPECT_EQ(next.index, 3u);
    EXPECT_EQ(next.generation, 1u);
    // Stepping on gives exactly what the untouched copy gives.
    World copy = untouched;
    for (int i = 0; i < 30; ++i) {
        world.step();
        copy.step();
    }
    EXPECT_TRUE(test::sameState(world, copy));
}

TEST(WorldValidation, UpdateBodyRefusesInvalidDefAndLeavesWorldUntouched) {
    World world = test::makeScene();
    for (int i = 0; i < 20; ++i) world.step();  // live contacts with warm-start data
    const World untouched = world;
    const BodyId box = world.findBody("box");
    ASSERT_TRUE(box);
    const BodyDef before = world.bodyDef(box);

    // A definition that is valid everywhere but one field, with many other edits.
    BodyDef bad = before;
    bad.mass = 5.0f;
    bad.position = vec3(3.0f, 3.0f, 3.0f);
    bad.shape = Shape::box(vec3(1.0f));
    bad.restitution = 2.0f;
    const Validation error = world.updateBody(box, bad);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->field, "restitution");
    EXPECT_TRUE(test::sameDef(world.bodyDef(box), before));

    bad = before;
    bad.inertia = mat3(1.0f, 0.5f, 0, 0, 1.0f, 0, 0, 0, 1.0f);  // non-symmetric
    ASSERT_TRUE(world.updateBody(box, bad));
    EXPECT_EQ(world.updateBody(box, bad)->field, "inertia");
    EXPECT_TRUE(test::sameDef(world.bodyDef(box), before));

    World copy = untouched;
    EXPECT_TRUE(test::sameState(world, copy));
    for (int i = 0; i < 30; ++i) {
        world.step();
        copy.step();
    }
    EXPECT_TRUE(test::sameState(world, copy));
}

TEST(WorldValidation, UpdateBodyOnStaleHandleIsRefused) {
    World world = test::makeScene();
    const BodyId ball = world.findBody("ball");
    BodyDef def = world.bodyDef(ball);
    ASSERT_TRUE(world.removeBody(ball));
    const Validation error = world.updateBody(ball, def);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->field, "body");
}

TEST(WorldValidation, ValidUpdateRoundTripsThroughBodyDef) {
    World world = test::makeScene();
    const BodyId box = world.findBody("box");
    BodyDef def = world.bodyDef(box);
    def.mass = 4.0f;
    def.staticFriction = 0.8f;
    def.inertia = mat3(1.0f, 0.1f, 0, 0.1f, 1.0f, 0, 0, 0, 1.5f);
    ASSERT_FALSE(world.updateBody(box, def));
    EXPECT_TRUE(test::sameDef(world.bodyDef(box), def));
    EXPECT_FLOAT_EQ(world.body(box).inverseMass, 0.25f);
    // The inverse tensor is the inverse of the override (float rounding 1e-5).
    const mat3 product = world.body(box).inertiaBody * world.body(box).inverseInertiaBody;
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) EXPECT_NEAR(product[c][r], c == r ? 1.0f : 0.0f, 1e-5f);
}

TEST(WorldValidation, SetSettingsRefusesInvalidAndKeepsPrevious) {
    World world = test::makeScene();
    WorldSettings custom;
    custom.gravity = vec3(0.0f, -3.0f, 0.0f);
    custom.subSteps = 7;
    ASSERT_FALSE(world.setSettings(custom));
    world.step();
    const World untouched = world;

    WorldSettings bad = custom;
    bad.gravity = vec3(0.0f, -20.0f, 0.0f);  // valid on its own...
    bad.passes = 0;                        // ...but this one is not: nothing applies
    const Validation error = world.setSettings(bad);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->field, "passes");
    EXPECT_TRUE(test::sameBits(world.settings().gravity, custom.gravity));
    EXPECT_EQ(world.settings().subSteps, 7);
    EXPECT_EQ(world.settings().passes, 1);

    World copy = untouched;
    for (int i = 0; i < 30; ++i) {
        world.step();
        copy.step();
    }
    EXPECT_TRUE(test::sameState(world, copy));
}

TEST(WorldValidation, ConstructorFallsBackToDefaultsOnInvalidSettings) {
    WorldSettings bad;
    bad.timestep = -1.0f;
    const World world(bad);
    EXPECT_FALSE(validateSettings(world.settings()));
    EXPECT_FLOAT_EQ(world.settings().timestep, 1.0f / 60.0f);
}

}  // namespace
}  // namespace impulse

namespace impulse {
namespace {

// A finite quaternion whose squared length overflows float (components ~1e20)
// would normalise to (0,0,0,0); validation refuses it by name.
TEST(ValidateBodyDef, HugeButFiniteQuaternionIsRejected) {
    BodyDef def;
    def.orientation = quat(1.0e20f, 0.0f, 0.0f, 0.0f);
    World world;
    FieldError error;
    EXPECT_FALSE(world.createBody(def, &error));
    EXPECT_EQ(error.field, "orientation");
    EXPECT_EQ(world.bodyCount(), 0);
}

// Whatever a run does to a body, its state is a definition the loader takes: a
// saved or autosaved world loads again. (The definitions' old limits, 1000 m/s
// and 1e5 m, were passed within 3 s by a crate under a sideways gravity of
// 360 m/s^2, and the app's save of that world did not load.) A sphere under the
// strongest gravity, 1000 m/s^2 sideways, for 60 s: past 1000 m/s after 1 s,
// and at 1e6 m after 45 s, where the step guard rolls its steps back. Every
// step's state validates, and both of those happened.
TEST(WorldValidation, EveryStateAStepLeavesIsAValidDefinition) {
    WorldSettings settings;
    settings.gravity = vec3(kMaxGravity, 0.0f, 0.0f);
    World world(settings);
    BodyDef def;
    def.shape = Shape::sphere(0.5f);
    const BodyId id = world.createBody(def);
    ASSERT_TRUE(world.isValid(id));
    float fastest = 0.0f;
    for (int step = 0; step < 3600; ++step) {
        world.step();
        fastest = std::max(fastest, glm::length(world.body(id).linearVelocity));
        const Validation refused = validateBodyDef(world.bodyDef(id));
        ASSERT_FALSE(refused) << "step " << step << ": " << refused->message();
    }
    EXPECT_GT(fastest, 1000.0f);
    EXPECT_GT(world.recoveryCount(), 0u);
}

}  // namespace
}  // namespace impulse
