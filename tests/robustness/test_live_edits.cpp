// Live edits with hostile values, through the public API a panel uses
// (World::updateBody / setSettings / beginDrag / setDragSettings / setDragTarget),
// on a world with live contacts, warm-start data and an active drag. Each edit
// must be refused with a message naming the field, and the world must stay
// bit-identical: same bodies, settings, contacts and drag, and stepping on gives
// exactly what an untouched copy gives. (tests/physics/test_validation.cpp covers
// the rules themselves and a few world-level refusals; this covers every kind.)
#include "physics/physics_test_util.h"
#include "robustness_util.h"

#include <climits>
#include <functional>
#include <limits>

namespace impulse {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// A ground, a box resting on it, a sphere resting against the box, a box with a
// user tensor, stepped until contacts are warm; the sphere is being dragged.
// `subSteps` and `dragShift` (m along x of the drag's target) vary the run for
// the tests that must hold whatever the trajectory.
World liveWorld(int subSteps = WorldSettings{}.subSteps, float dragShift = 0.0f) {
    WorldSettings settings;
    settings.subSteps = subSteps;
    settings.sleeping = true;
    settings.sleepTime = 0.25f;
    World world(settings);
    robust::addGround(world);
    // Asleep by the end: a refused edit must not wake it either.
    robust::addBox(world, "sleeper", vec3(0.5f), 1.0f, vec3(4.0f, 0.5f, 0.0f));
    robust::addBox(world, "box", vec3(0.5f, 0.3f, 0.4f), 2.0f, vec3(0.0f, 0.3f, 0.0f));
    robust::addSphere(world, "ball", 0.3f, 1.0f, vec3(0.79f, 0.3f, 0.0f), vec3(-0.5f, 0.0f, 0.0f));
    BodyDef tensor;
    tensor.name = "tensor";
    tensor.position = vec3(-2.0f, 0.5f, 0.0f);
    tensor.inertia = mat3(0.3f, 0.02f, 0.0f, 0.02f, 0.25f, 0.01f, 0.0f, 0.01f, 0.2f);
    world.createBody(tensor);
    for (int i = 0; i < 30; ++i) world.step();
    const BodyId ball = world.findBody("ball");
    EXPECT_FALSE(world.beginDrag(ball, world.body(ball).position + vec3(0.0f, 0.1f, 0.0f)));
    world.setDragTarget(vec3(0.9f + dragShift, 0.8f, 0.0f));
    world.step();
    EXPECT_GT(world.contacts().size(), 4u);
    EXPECT_TRUE(world.body(world.findBody("sleeper")).asleep);
    return world;
}

::testing::AssertionResult sameContacts(const World& a, const World& b) {
    const std::vector<ContactPointInfo> x = a.contacts(), y = b.contacts();
    if (x.size() != y.size()) return ::testing::AssertionFailure() << "contact counts differ";
    for (size_t i = 0; i < x.size(); ++i) {
        const bool same = x[i].bodyA == y[i].bodyA && x[i].bodyB == y[i].bodyB && x[i].featureId == y[i].featureId &&
                          test::sameBits(x[i].point, y[i].point) && test::sameBits(x[i].normal, y[i].normal) &&
                          test::sameBits(x[i].normalImpulse, y[i].normalImpulse) &&
                          test::sameBits(x[i].frictionImpulse, y[i].frictionImpulse) &&
                          test::sameBits(x[i].separation, y[i].separation);
        if (!same) return ::testing::AssertionFailure() << "contact " << i << " differs";
    }
    return ::testing::AssertionSuccess();
}

::testing::AssertionResult sameSettings(const WorldSettings& a, const WorldSettings& b) {
    const bool same = test::sameBits(a.gravity, b.gravity) && test::sameBits(a.timestep, b.timestep) &&
                      a.passes == b.passes && a.subSteps == b.subSteps &&
                      a.positionIterations == b.positionIterations &&
                      test::sameBits(a.restitutionThreshold, b.restitutionThreshold) &&
                      a.restitutionCombine == b.restitutionCombine && a.frictionCombine == b.frictionCombine &&
                      a.warmStarting == b.warmStarting && a.sleeping == b.sleeping &&
                      test::sameBits(a.sleepSpeed, b.sleepSpeed) && test::sameBits(a.sleepTime, b.sleepTime);
    return same ? ::testing::AssertionSuccess() : ::testing::AssertionFailure() << "settings differ";
}

::testing::AssertionResult sameDrag(const DragState& a, const DragState& b) {
    const bool same = a.active == b.active && a.body == b.body && test::sameBits(a.localAnchor, b.localAnchor) &&
                      test::sameBits(a.target, b.target) && test::sameBits(a.settings.frequency, b.settings.frequency) &&
                      test::sameBits(a.settings.dampingRatio, b.settings.dampingRatio) &&
                      test::sameBits(a.settings.maxForceInWeights, b.settings.maxForceInWeights);
    return same ? ::testing::AssertionSuccess() : ::testing::AssertionFailure() << "drag differs";
}

// The edited world against an untouched copy: now, and after 30 more steps.
void expectUntouched(World& world, const World& untouched, const std::string& what) {
    EXPECT_TRUE(test::sameState(world, untouched)) << what;
    EXPECT_TRUE(sameSettings(world.settings(), untouched.settings())) << what;
    EXPECT_TRUE(sameContacts(world, untouched)) << what;
    EXPECT_TRUE(sameDrag(world.drag(), untouched.drag())) << what;
    World copy = untouched;
    for (int i = 0; i < 30; ++i) {
        world.step();
        copy.step();
    }
    EXPECT_TRUE(test::sameState(world, copy)) << what << " (after 30 steps)";
    EXPECT_TRUE(sameContacts(world, copy)) << what << " (after 30 steps)";
}

void expectRefusal(const Validation& error, const std::string& field, const std::string& what) {
    ASSERT_TRUE(error) << what << " was accepted";
    EXPECT_EQ(error->field, field) << what << ": " << error->message();
    EXPECT_FALSE(error->rule.empty()) << what;
    EXPECT_EQ(error->message().rfind(field + ": ", 0), 0u) << what << ": " << error->message();
}

struct BodyEdit {
    const char* body;
    const char* what;
    std::function<void(BodyDef&)> edit;
    const char* field;
};

TEST(LiveEdits, EveryKindOfBadBodyValueIsRefusedAndTheWorldIsBitIdentical) {
    const BodyEdit cases[] = {
        // mass
        {"box", "NaN mass", [](BodyDef& d) { d.mass = kNaN; }, "mass"},
        {"box", "+inf mass", [](BodyDef& d) { d.mass = kInf; }, "mass"},
        {"box", "-inf mass", [](BodyDef& d) { d.mass = -kInf; }, "mass"},
        {"box", "zero mass", [](BodyDef& d) { d.mass = 0.0f; }, "mass"},
        {"box", "negative zero mass", [](BodyDef& d) { d.mass = -0.0f; }, "mass"},
        {"box", "negative mass", [](BodyDef& d) { d.mass = -2.0f; }, "mass"},
        {"box", "denormal mass", [](BodyDef& d) { d.mass = 1e-40f; }, "mass"},
        {"box", "absurd mass", [](BodyDef& d) { d.mass = 1e30f; }, "mass"},
        {"tensor", "zero mass with a user tensor", [](BodyDef& d) { d.mass = 0.0f; }, "mass"},
        // sizes
        {"ball", "NaN radius", [](BodyDef& d) { d.shape.radius = kNaN; }, "shape.radius"},
        {"ball", "inf radius", [](BodyDef& d) { d.shape.radius = kInf; }, "shape.radius"},
        {"ball", "zero radius", [](BodyDef& d) { d.shape.radius = 0.0f; }, "shape.radius"},
        {"ball", "negative radius", [](BodyDef& d) { d.shape.radius = -0.3f; }, "shape.radius"},
        {"ball", "microscopic radius", [](BodyDef& d) { d.shape.radius = 1e-6f; }, "shape.radius"},
        {"ball", "absurd radius", [](BodyDef& d) { d.shape.radius = 1e9f; }, "shape.radius"},
        {"box", "zero half extent x", [](BodyDef& d) { d.shape.halfExtents.x = 0.0f; }, "shape.half_extents[0]"},
        {"box", "negative half extent y", [](BodyDef& d) { d.shape.halfExtents.y = -0.3f; }, "shape.half_extents[1]"},
        {"box", "NaN half extent z", [](BodyDef& d) { d.shape.halfExtents.z = kNaN; }, "shape.half_extents[2]"},
        {"box", "inf half extent x", [](BodyDef& d) { d.shape.halfExtents.x = kInf; }, "shape.half_extents[0]"},
        {"box", "absurd half extent y", [](BodyDef& d) { d.shape.halfExtents.y = 1e7f; }, "shape.half_extents[1]"},
        {"box", "box turned sphere with zero radius",
         [](BodyDef& d) { d.shape = Shape::sphere(0.0f); }, "shape.radius"},
        {"ground", "static ground with a NaN size", [](BodyDef& d) { d.shape.halfExtents.x = kNaN; },
         "shape.half_extents[0]"},
        {"ground", "static ground with a negative size", [](BodyDef& d) { d.shape.halfExtents.y = -1.0f; },
         "shape.half_extents[1]"},
        // materials
        {"box", "restitution below 0", [](BodyDef& d) { d.restitution = -0.01f; }, "restitution"},
        {"box", "restitution above 1", [](BodyDef& d) { d.restitution = 1.01f; }, "restitution"},
        {"box", "NaN restitution", [](BodyDef& d) { d.restitution = kNaN; }, "restitution"},
        {"box", "inf restitution", [](BodyDef& d) { d.restitution = kInf; }, "restitution"},
        {"box", "negative friction", [](BodyDef& d) { d.friction = -0.1f; }, "friction"},
        {"box", "NaN friction", [](BodyDef& d) { d.friction = kNaN; }, "friction"},
        {"box", "inf friction", [](BodyDef& d) { d.friction = kInf; }, "friction"},
        {"ground", "negative friction on the static ground", [](BodyDef& d) { d.friction = -1.0f; }, "friction"},
        {"box", "static friction below friction", [](BodyDef& d) { d.staticFriction = 0.1f; }, "static_friction"},
        {"box", "NaN static friction", [](BodyDef& d) { d.staticFriction = kNaN; }, "static_friction"},
        {"box", "-inf static friction", [](BodyDef& d) { d.staticFriction = -kInf; }, "static_friction"},
        // state
        {"box", "NaN position", [](BodyDef& d) { d.position.y = kNaN; }, "position"},
        {"box", "inf position", [](BodyDef& d) { d.position.x = kInf; }, "position"},
        {"box", "absurd position", [](BodyDef& d) { d.position.z = 1e30f; }, "position"},
        {"box", "NaN orientation", [](BodyDef& d) { d.orientation.x = kNaN; }, "orientation"},
        {"box", "zero orientation", [](BodyDef& d) { d.orientation = quat(0, 0, 0, 0); }, "orientation"},
        {"box", "overflowing orientation", [](BodyDef& d) { d.orientation = quat(1e20f, 1e20f, 0, 0); },
         "orientation"},
        {"ball", "NaN velocity", [](BodyDef& d) { d.linearVelocity.x = kNaN; }, "linear_velocity"},
        {"ball", "inf velocity", [](BodyDef& d) { d.linearVelocity.y = -kInf; }, "linear_velocity"},
        {"ball", "absurd velocity", [](BodyDef& d) { d.linearVelocity = vec3(1e6f, 0, 0); }, "linear_velocity"},
        {"ball", "velocity whose length overflows", [](BodyDef& d) { d.linearVelocity = vec3(3e38f); },
         "linear_velocity"},
        {"ball", "NaN spin", [](BodyDef& d) { d.angularVelocity.z = kNaN; }, "angular_velocity"},
        {"ball", "absurd spin", [](BodyDef& d) { d.angularVelocity = vec3(0, 1e4f, 0); }, "angular_velocity"},
        // non-physical tensors on a body with contacts
        {"box", "zero tensor", [](BodyDef& d) { d.inertia = mat3(0.0f); }, "inertia"},
        {"box", "negative definite tensor", [](BodyDef& d) { d.inertia = mat3(-1.0f); }, "inertia"},
        {"box", "indefinite tensor", [](BodyDef& d) { d.inertia = mat3(1, 0, 0, 0, -1, 0, 0, 0, 1); }, "inertia"},
        {"box", "singular tensor (a rod)", [](BodyDef& d) { d.inertia = mat3(0, 0, 0, 0, 1, 0, 0, 0, 1); },
         "inertia"},
        {"box", "singular off-diagonal tensor", [](BodyDef& d) { d.inertia = mat3(1, 1, 0, 1, 1, 0, 0, 0, 2); },
         "inertia"},
        {"box", "triangle inequality broken", [](BodyDef& d) { d.inertia = mat3(1, 0, 0, 0, 1, 0, 0, 0, 3); },
         "inertia"},
        {"box", "triangle inequality broken after rotation",
         [](BodyDef& d) {
             const mat3 r = glm::mat3_cast(glm::angleAxis(0.7f, glm::normalize(vec3(1, 2, 3))));
             d.inertia = r * mat3(1, 0, 0, 0, 1.2f, 0, 0, 0, 2.5f) * glm::transpose(r);
         },
         "inertia"},
        {"box", "non-symmetric tensor", [](BodyDef& d) { d.inertia = mat3(1, 0, 0.3f, 0, 1, 0, 0, 0, 1); }, "inertia"},
        {"box", "NaN tensor entry", [](BodyDef& d) { d.inertia = mat3(1.0f); (*d.inertia)[1][1] = kNaN; }, "inertia"},
        {"box", "inf tensor entry", [](BodyDef& d) { d.inertia = mat3(1.0f); (*d.inertia)[2][2] = kInf; }, "inertia"},
        {"tensor", "tensor with a -0 diagonal", [](BodyDef& d) { d.inertia = mat3(1, 0, 0, 0, -0.0f, 0, 0, 0, 1); },
         "inertia"},
    };
    const World base = liveWorld();
    for (const BodyEdit& c : cases) {
        World world = base;
        const BodyId id = world.findBody(c.body);
        ASSERT_TRUE(id) << c.body;
        BodyDef def = world.bodyDef(id);
        // Change some valid fields too: a refusal must apply none of them.
        def.position += vec3(0.0f, 0.25f, 0.0f);
        if (!def.isStatic) def.linearVelocity += vec3(1.0f, 0.0f, 0.0f);
        c.edit(def);
        expectRefusal(world.updateBody(id, def), c.field, c.what);
        expectUntouched(world, base, c.what);
    }
}

// A symmetric, positive definite tensor that obeys the triangle inequality but
// is absurdly large (1e38 I) or small (1e-30 I) has no float inverse (it used to
// be accepted, and every later step was rolled back: the world froze). It is
// refused with a message naming "inertia" and the world stays bit-identical.
TEST(LiveEdits, AbsurdlyLargeOrSmallTensorIsRefused) {
    const World base = liveWorld();
    for (float scale : {1e38f, 1e30f, 1e-30f, 1e-38f}) {
        World world = base;
        const BodyId id = world.findBody("box");
        BodyDef def = world.bodyDef(id);
        def.inertia = mat3(scale);
        const std::string what = "tensor " + std::to_string(scale) + " I";
        expectRefusal(world.updateBody(id, def), "inertia", what);
        expectUntouched(world, base, what);
    }
}

// What any accepted tensor must give: a world that keeps stepping, whatever the
// trajectory (sub-step counts, drag targets). Checked at the extremes the box
// accepts: kMinOwnInertiaShare of its own tensor in every direction (below it,
// docs/physics.md "Tiny inertia": the smallest moment of any shape, 4e-11 kg m^2,
// rolled back a step in 12 of these 30 runs) and the largest moment of any shape
// (1e6 kg box of 1 km).
TEST(LiveEdits, TensorsAtTheEdgesOfTheAcceptedRangeKeepTheWorldStepping) {
    const World base = liveWorld();
    const BodyId box = base.findBody("box");
    const mat3 own = shapeInertia(base.body(box).shape, base.body(box).mass);
    const mat3 smallest = (1.001f * kMinOwnInertiaShare) * own;
    const mat3 largest(kMaxMass / 3.0f * 2.0f * kMaxBodySize * kMaxBodySize);
    for (const mat3& tensor : {smallest, largest}) {
        for (int subSteps : {1, 2, 4, 6, 10}) {
            for (float dragShift : {0.0f, 0.01f, 0.05f, 0.1f, 0.2f, 0.3f}) {
                World world = liveWorld(subSteps, dragShift);
                const BodyId id = world.findBody("box");
                BodyDef def = world.bodyDef(id);
                def.inertia = tensor;
                ASSERT_FALSE(world.updateBody(id, def)) << tensor[0][0];
                const robust::RunRecord record = robust::run(world, 300);
                EXPECT_EQ(record.recoveries, 0u) << tensor[0][0] << " kg m^2, " << subSteps
                                                 << " sub-steps, drag shift " << dragShift << ": "
                                                 << record.firstProblem;
                EXPECT_FALSE(record.nonFinite) << tensor[0][0];
            }
        }
    }
}

// Below kMinOwnInertiaShare of the body's own tensor in any one direction, a
// tensor is refused naming "inertia" and the rule, and the world stays as it
// was: uniformly (the smallest moment of any shape, 4e-11 kg m^2, on the 2 kg
// box), just under the share, and in one direction only (a tensor that passes
// every rule of its own: symmetric, positive, I1 + I2 >= I3).
TEST(LiveEdits, TensorFarBelowTheBodysOwnIsRefused) {
    const World base = liveWorld();
    const BodyId id = base.findBody("box");
    const mat3 own = shapeInertia(base.body(id).shape, base.body(id).mass);
    const mat3 oneThin(1e-4f * own[0][0], 0, 0, 0, own[1][1], 0, 0, 0, own[1][1]);
    ASSERT_FALSE(validateInertia(oneThin));
    for (const mat3& tensor : {mat3(0.4f * kMinMass * kMinBodySize * kMinBodySize),
                               (0.99f * kMinOwnInertiaShare) * own, oneThin}) {
        World world = base;
        BodyDef def = world.bodyDef(id);
        def.inertia = tensor;
        const std::string what = "tensor with [0][0] = " + std::to_string(tensor[0][0]);
        const Validation error = world.updateBody(id, def);
        expectRefusal(error, "inertia", what);
        if (error) {
            EXPECT_NE(error->rule.find("shape's own tensor"), std::string::npos) << error->message();
        }
        expectUntouched(world, base, what);
    }
}

struct SettingsEdit {
    const char* what;
    std::function<void(WorldSettings&)> edit;
    const char* field;
};

TEST(LiveEdits, EveryKindOfBadSettingIsRefusedAndTheWorldIsBitIdentical) {
    const SettingsEdit cases[] = {
        {"NaN gravity", [](WorldSettings& s) { s.gravity.x = kNaN; }, "gravity"},
        {"inf gravity", [](WorldSettings& s) { s.gravity.y = -kInf; }, "gravity"},
        {"absurd gravity", [](WorldSettings& s) { s.gravity = vec3(0, -1e4f, 0); }, "gravity"},
        {"gravity just over the limit", [](WorldSettings& s) { s.gravity = vec3(600.0f, -600.0f, 600.0f); },
         "gravity"},
        {"gravity whose length overflows", [](WorldSettings& s) { s.gravity = vec3(3e38f, 3e38f, 0.0f); }, "gravity"},
        {"zero timestep", [](WorldSettings& s) { s.timestep = 0.0f; }, "timestep"},
        {"negative timestep", [](WorldSettings& s) { s.timestep = -1.0f / 60.0f; }, "timestep"},
        {"NaN timestep", [](WorldSettings& s) { s.timestep = kNaN; }, "timestep"},
        {"inf timestep", [](WorldSettings& s) { s.timestep = kInf; }, "timestep"},
        {"one-second timestep", [](WorldSettings& s) { s.timestep = 1.0f; }, "timestep"},
        {"nanosecond timestep", [](WorldSettings& s) { s.timestep = 1e-9f; }, "timestep"},
        {"negative passes", [](WorldSettings& s) { s.passes = -4; }, "passes"},
        {"absurd passes", [](WorldSettings& s) { s.passes = INT_MAX; }, "passes"},
        {"zero sub-steps", [](WorldSettings& s) { s.subSteps = 0; }, "sub_steps"},
        {"absurd sub-steps", [](WorldSettings& s) { s.subSteps = 1000000; }, "sub_steps"},
        {"negative position iterations", [](WorldSettings& s) { s.positionIterations = INT_MIN; },
         "position_iterations"},
        {"absurd position iterations", [](WorldSettings& s) { s.positionIterations = 101; }, "position_iterations"},
        {"negative restitution threshold", [](WorldSettings& s) { s.restitutionThreshold = -0.5f; },
         "restitution_threshold"},
        {"inf restitution threshold", [](WorldSettings& s) { s.restitutionThreshold = kInf; },
         "restitution_threshold"},
        {"absurd restitution threshold", [](WorldSettings& s) { s.restitutionThreshold = 1e6f; },
         "restitution_threshold"},
        {"negative sleep speed", [](WorldSettings& s) { s.sleepSpeed = -0.01f; }, "sleep_speed"},
        {"NaN sleep speed", [](WorldSettings& s) { s.sleepSpeed = kNaN; }, "sleep_speed"},
        {"absurd sleep speed", [](WorldSettings& s) { s.sleepSpeed = 11.0f; }, "sleep_speed"},
        {"zero sleep time", [](WorldSettings& s) { s.sleepTime = 0.0f; }, "sleep_time"},
        {"inf sleep time", [](WorldSettings& s) { s.sleepTime = kInf; }, "sleep_time"},
        {"absurd sleep time", [](WorldSettings& s) { s.sleepTime = 1e4f; }, "sleep_time"},
    };
    const World base = liveWorld();
    for (const SettingsEdit& c : cases) {
        World world = base;
        WorldSettings settings = world.settings();
        settings.subSteps = 20;  // a valid change that must not apply
        c.edit(settings);
        expectRefusal(world.setSettings(settings), c.field, c.what);
        expectUntouched(world, base, c.what);
    }
}

TEST(LiveEdits, BadDragInputIsRefusedOrIgnoredAndTheWorldIsBitIdentical) {
    const World base = liveWorld();
    ASSERT_TRUE(base.drag().active);
    struct DragCase {
        const char* what;
        DragSettings settings;
        const char* field;
    };
    const DragCase cases[] = {
        {"NaN frequency", {kNaN, 0.7f, 50.0f}, "drag.frequency"},
        {"zero frequency", {0.0f, 0.7f, 50.0f}, "drag.frequency"},
        {"absurd frequency", {1e9f, 0.7f, 50.0f}, "drag.frequency"},
        {"negative damping", {5.0f, -1.0f, 50.0f}, "drag.damping_ratio"},
        {"inf damping", {5.0f, kInf, 50.0f}, "drag.damping_ratio"},
        {"negative force cap", {5.0f, 0.7f, -1.0f}, "drag.max_force"},
        {"absurd force cap", {5.0f, 0.7f, 1e30f}, "drag.max_force"},
    };
    for (const DragCase& c : cases) {
        World world = base;
        expectRefusal(world.setDragSettings(c.settings), c.field, c.what);
        expectUntouched(world, base, c.what);
        // A new grab with the same settings is refused too and keeps the current drag.
        World again = base;
        const BodyId box = again.findBody("box");
        expectRefusal(again.beginDrag(box, again.body(box).position, c.settings), c.field, c.what);
        expectUntouched(again, base, std::string(c.what) + " (beginDrag)");
    }
    {
        World world = base;
        const BodyId box = world.findBody("box");
        expectRefusal(world.beginDrag(box, vec3(kNaN, 0.0f, 0.0f)), "drag.point", "NaN grab point");
        expectUntouched(world, base, "NaN grab point");
    }
    {
        World world = base;
        expectRefusal(world.beginDrag(world.findBody("ground"), vec3(0.0f)), "body", "grabbing the static ground");
        expectUntouched(world, base, "grabbing the static ground");
    }
    for (const vec3& target : {vec3(kNaN, 0, 0), vec3(0, kInf, 0), vec3(0, 0, -kInf)}) {
        World world = base;
        world.setDragTarget(target);  // ignored: no return value to check, only the state
        expectUntouched(world, base, "non-finite drag target");
    }
}

// A body removed by one panel while another still holds its handle: every edit
// through the stale handle is refused and changes nothing.
TEST(LiveEdits, EditsThroughAStaleHandleAreRefused) {
    World base = liveWorld();
    const BodyId box = base.findBody("box");
    const BodyDef def = base.bodyDef(box);
    ASSERT_TRUE(base.removeBody(box));
    World world = base;
    expectRefusal(world.updateBody(box, def), "body", "update of a removed body");
    expectRefusal(world.beginDrag(box, def.position), "body", "grab of a removed body");
    EXPECT_FALSE(world.removeBody(box));
    expectUntouched(world, base, "stale handle");
}

}  // namespace
}  // namespace impulse
