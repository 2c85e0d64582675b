// The experiment applies every change to the world as a command: an accepted one
// is recorded with what it replaced and the step it came at; a refused one names
// the field, changes nothing (the world stays the same to the bit) and records nothing.
#include "app/experiment.h"
#include "physics/physics_test_util.h"

#include <gtest/gtest.h>

#include <glm/gtc/quaternion.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace impulse;
using namespace impulse::app;

namespace {

using test::sameBits;

// Every stored field of every body, the settings, the drag and the step count, bit for bit.
// A body brought back by undo has a new handle: `sameHandles` false compares the slot
// index (the body's place in body order) and not the generation.
void expectSameWorld(const World& a, const World& b, bool sameHandles = true) {
    ASSERT_EQ(a.bodyCount(), b.bodyCount());
    EXPECT_EQ(a.stepCount(), b.stepCount());
    const WorldSettings& sa = a.settings();
    const WorldSettings& sb = b.settings();
    EXPECT_TRUE(sameBits(sa.gravity, sb.gravity) && sameBits(sa.timestep, sb.timestep) &&
                sa.passes == sb.passes && sa.subSteps == sb.subSteps &&
                sa.positionIterations == sb.positionIterations &&
                sameBits(sa.restitutionThreshold, sb.restitutionThreshold) &&
                sa.restitutionCombine == sb.restitutionCombine && sa.frictionCombine == sb.frictionCombine &&
                sa.warmStarting == sb.warmStarting && sa.sleeping == sb.sleeping &&
                sameBits(sa.sleepSpeed, sb.sleepSpeed) && sameBits(sa.sleepTime, sb.sleepTime));
    EXPECT_EQ(a.drag().active, b.drag().active);
    EXPECT_TRUE(a.drag().body == b.drag().body);
    const std::vector<BodyId> ids = a.bodyIds();
    const std::vector<BodyId> otherIds = b.bodyIds();
    ASSERT_EQ(ids.size(), otherIds.size());
    for (size_t i = 0; i < ids.size(); ++i) {
        ASSERT_EQ(ids[i].index, otherIds[i].index);
        if (sameHandles) {
            ASSERT_TRUE(ids[i] == otherIds[i]);
        }
        const Body& x = a.body(ids[i]);
        const Body& y = b.body(otherIds[i]);
        SCOPED_TRACE(x.name);
        EXPECT_EQ(x.name, y.name);
        EXPECT_EQ(x.shape.type, y.shape.type);
        EXPECT_TRUE(sameBits(x.shape.radius, y.shape.radius) && sameBits(x.shape.halfExtents, y.shape.halfExtents));
        EXPECT_EQ(x.isStatic, y.isStatic);
        EXPECT_EQ(x.asleep, y.asleep);
        EXPECT_TRUE(sameBits(x.position, y.position));
        EXPECT_TRUE(sameBits(x.orientation, y.orientation));
        EXPECT_TRUE(sameBits(x.linearVelocity, y.linearVelocity));
        EXPECT_TRUE(sameBits(x.angularVelocity, y.angularVelocity));
        EXPECT_TRUE(sameBits(x.rotation, y.rotation));
        EXPECT_TRUE(sameBits(x.restitution, y.restitution) && sameBits(x.friction, y.friction) &&
                    sameBits(x.staticFriction, y.staticFriction));
        EXPECT_TRUE(sameBits(x.mass, y.mass) && sameBits(x.inverseMass, y.inverseMass));
        EXPECT_TRUE(sameBits(x.inertiaBody, y.inertiaBody) && sameBits(x.inverseInertiaBody, y.inverseInertiaBody) &&
                    sameBits(x.inverseInertiaWorld, y.inverseInertiaWorld));
        EXPECT_EQ(x.inertiaOverridden, y.inertiaOverridden);
        EXPECT_EQ(x.staticFrictionSet, y.staticFrictionSet);
        EXPECT_TRUE(sameBits(x.restTime, y.restTime));
    }
}

// Positions and velocities after more steps: the contacts and warm starts agree too.
std::vector<vec3> future(World world, int steps) {
    for (int i = 0; i < steps; ++i) world.step();
    std::vector<vec3> out;
    for (BodyId id : world.bodyIds()) {
        out.push_back(world.body(id).position);
        out.push_back(world.body(id).linearVelocity);
    }
    return out;
}

// Ground, a 2 kg crate at 2 m and a ball: the panel tests' scene too.
const std::string kScenePath = IMPULSE_SOURCE_DIR "/tests/app/data/ground_crate_ball.json";

scene::Scene smallScene() {
    scene::SceneResult loaded = scene::loadSceneFile(kScenePath);
    if (const auto* bad = std::get_if<scene::SceneError>(&loaded)) ADD_FAILURE() << bad->message();
    return std::get<scene::Scene>(loaded);
}

struct ExperimentFixture : ::testing::Test {
    Experiment experiment;
    BodyId ground, crate, ball;

    void SetUp() override {
        ASSERT_FALSE(experiment.apply(LoadScene{smallScene(), kScenePath}));
        ground = experiment.world().findBody("ground");
        crate = experiment.world().findBody("crate");
        ball = experiment.world().findBody("ball");
        for (int i = 0; i < 10; ++i) experiment.step();  // some motion and contacts
        experiment.select(crate);
    }

    // Applies a command that must be refused: the message names `field`, and neither
    // the world (to the bit, and in how it goes on), the selection nor the history changed.
    void expectRefused(Command command, const std::string& field) {
        const World before = experiment.world();
        const std::vector<vec3> expected = future(before, 30);
        const BodyId selected = experiment.selected();
        const DragSettings drag = experiment.dragSettings();
        const size_t edits = experiment.history().size();
        const Validation refused = experiment.apply(std::move(command));
        ASSERT_TRUE(refused);
        EXPECT_NE(refused->message().find(field), std::string::npos) << refused->message();
        expectSameWorld(before, experiment.world());
        EXPECT_EQ(future(experiment.world(), 30), expected);
        EXPECT_TRUE(experiment.selected() == selected);
        EXPECT_TRUE(sameBits(experiment.dragSettings(), drag));
        EXPECT_EQ(experiment.history().size(), edits);
    }

    const AppliedEdit& last() const { return *experiment.history().back(); }
};

}  // namespace

TEST_F(ExperimentFixture, LoadingRecordsTheSceneWithAnEmptyWorldBefore) {
    ASSERT_EQ(experiment.history().size(), 1u);
    EXPECT_TRUE(std::holds_alternative<LoadScene>(last().command));
    EXPECT_EQ(last().step, 0u);
    ASSERT_TRUE(last().before.experiment);
    EXPECT_EQ(last().before.experiment->world.bodyCount(), 0);
    EXPECT_EQ(experiment.scenePath(), kScenePath);
    EXPECT_EQ(experiment.scene().name, "Ground, crate and ball");
    EXPECT_EQ(experiment.world().stepCount(), 10u);
    EXPECT_DOUBLE_EQ(experiment.simulatedTime(), 10.0 * static_cast<double>(experiment.world().settings().timestep));
}

TEST_F(ExperimentFixture, SetBodyAppliesAndKeepsTheDefinitionItReplaced) {
    const BodyDef before = experiment.world().bodyDef(crate);
    BodyDef edited = before;
    edited.mass = 5.0f;
    ASSERT_FALSE(experiment.apply(SetBody{crate, edited}));
    EXPECT_EQ(experiment.world().body(crate).mass, 5.0f);
    ASSERT_EQ(experiment.history().size(), 2u);
    EXPECT_EQ(last().step, 10u);
    ASSERT_TRUE(std::holds_alternative<SetBody>(last().command));
    EXPECT_TRUE(std::get<SetBody>(last().command).body == crate);
    ASSERT_TRUE(last().before.body);
    EXPECT_EQ(last().before.body->mass, 2.0f);
    EXPECT_TRUE(sameBits(last().before.body->position, before.position));
    EXPECT_TRUE(sameBits(last().before.body->linearVelocity, before.linearVelocity));
    EXPECT_TRUE(last().before.selection == crate);
}

TEST_F(ExperimentFixture, SetBodyRefusedLeavesEverythingAsItWas) {
    BodyDef bad = experiment.world().bodyDef(crate);
    bad.mass = -1.0f;
    expectRefused(SetBody{crate, bad}, "mass");
    bad = experiment.world().bodyDef(crate);
    bad.restitution = 1.5f;
    expectRefused(SetBody{crate, bad}, "restitution");
    bad = experiment.world().bodyDef(crate);
    bad.inertia = mat3(vec3(1, 0, 0), vec3(0, 1, 0), vec3(0, 0, 3));  // 1 + 1 < 3
    expectRefused(SetBody{crate, bad}, "inertia");
    expectRefused(SetBody{BodyId{}, experiment.world().bodyDef(crate)}, "body");
}

TEST_F(ExperimentFixture, WorldSettingsApplyOrAreRefused) {
    WorldSettings s = experiment.world().settings();
    s.passes = 4;
    ASSERT_FALSE(experiment.apply(SetWorldSettings{s}));
    EXPECT_EQ(experiment.world().settings().passes, 4);
    ASSERT_TRUE(last().before.settings);
    EXPECT_EQ(last().before.settings->passes, 1);

    s.timestep = 0.0f;
    expectRefused(SetWorldSettings{s}, "timestep");
    s = experiment.world().settings();
    s.sleepTime = -1.0f;
    expectRefused(SetWorldSettings{s}, "sleep_time");
}

TEST_F(ExperimentFixture, DragSettingsApplyOrAreRefused) {
    DragSettings d;
    d.frequency = 2.0f;
    ASSERT_FALSE(experiment.apply(SetDragSettings{d}));
    EXPECT_EQ(experiment.dragSettings().frequency, 2.0f);
    ASSERT_TRUE(last().before.dragSettings);
    EXPECT_EQ(last().before.dragSettings->frequency, DragSettings{}.frequency);
    // The next grab uses them.
    ASSERT_FALSE(experiment.apply(BeginDrag{crate, experiment.world().body(crate).position}));
    EXPECT_EQ(experiment.world().drag().settings.frequency, 2.0f);

    d.frequency = -1.0f;
    expectRefused(SetDragSettings{d}, "drag.frequency");
}

TEST_F(ExperimentFixture, SpawnCreatesSelectsWhenAskedAndRecordsTheBody) {
    BodyDef box;
    box.name = "box_1";
    box.position = vec3(3.0f, 2.0f, 0.0f);
    ASSERT_FALSE(experiment.apply(SpawnBody{box, true}));
    const BodyId spawned = experiment.world().findBody("box_1");
    ASSERT_TRUE(spawned);
    EXPECT_TRUE(experiment.selected() == spawned);
    EXPECT_TRUE(last().before.created == spawned);
    EXPECT_TRUE(last().before.selection == crate);

    BodyDef shot;
    shot.name = "shot_1";
    shot.shape = Shape::sphere(0.25f);
    ASSERT_FALSE(experiment.apply(SpawnBody{shot, false}));
    EXPECT_TRUE(experiment.selected() == spawned) << "a shot does not take the selection";

    BodyDef bad = box;
    bad.shape = Shape::sphere(0.0f);
    expectRefused(SpawnBody{bad, true}, "shape.radius");
}

TEST_F(ExperimentFixture, SelectionFollowsDeletions) {
    ASSERT_FALSE(experiment.apply(DeleteBody{ball}));
    EXPECT_TRUE(experiment.selected() == crate) << "deleting another body keeps the selection";
    ASSERT_TRUE(last().before.body);
    EXPECT_EQ(last().before.body->name, "ball");

    ASSERT_FALSE(experiment.apply(DeleteBody{crate}));
    EXPECT_FALSE(experiment.selected());
    EXPECT_TRUE(last().before.selection == crate);
    EXPECT_FALSE(experiment.world().isValid(crate));
    experiment.select(crate);  // a stale handle selects nothing
    EXPECT_FALSE(experiment.selected());

    expectRefused(DeleteBody{crate}, "body");
}

TEST_F(ExperimentFixture, DragBeginsAndEndsAsCommands) {
    const vec3 grab = experiment.world().body(ball).position + vec3(0.0f, 0.1f, 0.0f);
    ASSERT_FALSE(experiment.apply(BeginDrag{ball, grab}));
    EXPECT_TRUE(experiment.world().drag().active);
    ASSERT_TRUE(last().before.drag);
    EXPECT_FALSE(last().before.drag->active);

    experiment.setDragTarget(grab + vec3(1.0f, 0.0f, 0.0f));  // input, not an edit
    const size_t edits = experiment.history().size();
    experiment.step();
    EXPECT_EQ(experiment.history().size(), edits);

    ASSERT_FALSE(experiment.apply(EndDrag{}));
    EXPECT_FALSE(experiment.world().drag().active);
    ASSERT_TRUE(last().before.drag);
    EXPECT_TRUE(last().before.drag->active);
    EXPECT_TRUE(last().before.drag->body == ball);
    EXPECT_EQ(last().step, 11u);

    expectRefused(EndDrag{}, "drag");
    expectRefused(BeginDrag{ground, vec3(0.0f)}, "static");
    expectRefused(BeginDrag{BodyId{}, vec3(0.0f)}, "body");
}

TEST_F(ExperimentFixture, LoadReplacesTheWorldAndKeepsTheOldOneWhole) {
    const World old = experiment.world();
    scene::Scene next = smallScene();
    next.name = "next";
    next.bodies.pop_back();
    ASSERT_FALSE(experiment.apply(LoadScene{next, "next.json"}));
    EXPECT_EQ(experiment.world().bodyCount(), 2);
    EXPECT_FALSE(experiment.selected());
    EXPECT_EQ(experiment.scenePath(), "next.json");
    EXPECT_EQ(experiment.simulatedTime(), 0.0);
    EXPECT_EQ(last().step, 10u);
    ASSERT_TRUE(last().before.experiment);
    expectSameWorld(old, last().before.experiment->world);
    EXPECT_EQ(last().before.experiment->scenePath, kScenePath);
    EXPECT_EQ(last().before.experiment->scene.name, "Ground, crate and ball");
    EXPECT_TRUE(last().before.selection == crate);

    scene::Scene bad = smallScene();
    bad.bodies[1].mass = 0.0f;
    expectRefused(LoadScene{bad, "bad.json"}, "bodies[1].mass");
    bad = smallScene();
    bad.settings.passes = 0;
    expectRefused(LoadScene{bad, "bad.json"}, "world.passes");
    EXPECT_EQ(experiment.scenePath(), "next.json");
}

TEST_F(ExperimentFixture, ResetRebuildsTheSceneAndKeepsTheWorldItReplaced) {
    BodyDef edited = experiment.world().bodyDef(crate);
    edited.mass = 7.0f;
    ASSERT_FALSE(experiment.apply(SetBody{crate, edited}));
    const World old = experiment.world();
    ASSERT_FALSE(experiment.apply(ResetScene{}));
    expectSameWorld(scene::buildWorld(smallScene()), experiment.world());
    EXPECT_FALSE(experiment.selected());
    EXPECT_EQ(experiment.simulatedTime(), 0.0);
    EXPECT_EQ(last().step, 10u);
    ASSERT_TRUE(last().before.experiment);
    expectSameWorld(old, last().before.experiment->world);
    EXPECT_EQ(experiment.history().size(), 3u);
    // The step index counts from the reset.
    experiment.step();
    ASSERT_FALSE(experiment.apply(DeleteBody{ball}));
    EXPECT_EQ(last().step, 1u);
}

// What each entry keeps is enough to put the world back: applying the before-states
// in reverse order gives the bodies and settings the edits started from.
TEST_F(ExperimentFixture, TheBeforeStatesPutTheEditsBack) {
    const BodyDef crateBefore = experiment.world().bodyDef(crate);
    const World start = experiment.world();
    BodyDef edited = crateBefore;
    edited.friction = 0.9f;
    edited.linearVelocity = vec3(1.0f, 0.0f, 0.0f);
    ASSERT_FALSE(experiment.apply(SetBody{crate, edited}));
    WorldSettings s = experiment.world().settings();
    s.gravity = vec3(0.0f, -1.62f, 0.0f);
    ASSERT_FALSE(experiment.apply(SetWorldSettings{s}));

    const EditHistory history = experiment.history();
    ASSERT_FALSE(experiment.apply(SetWorldSettings{*history[2]->before.settings}));
    ASSERT_FALSE(experiment.apply(SetBody{crate, *history[1]->before.body}));
    expectSameWorld(start, experiment.world());
}

TEST(Experiment, OpensSceneFilesAndReportsBadOnes) {
    Experiment experiment;
    const std::string missing = "/nonexistent/scene.json";
    const std::string error = experiment.open(missing);
    EXPECT_NE(error.find(missing), std::string::npos) << error;
    EXPECT_TRUE(experiment.history().empty());

    const std::string preset = std::string(IMPULSE_SOURCE_DIR) + "/assets/scenes/default.json";
    ASSERT_EQ(experiment.open(preset), "");
    EXPECT_EQ(experiment.scenePath(), preset);
    EXPECT_GT(experiment.world().bodyCount(), 0);
    ASSERT_EQ(experiment.history().size(), 1u);
    EXPECT_EQ(std::get<LoadScene>(experiment.history()[0]->command).path, preset);
}

// Issue 20: undo takes back every kind of edit, redo applies it again, each to the
// exact world it came from (the sim paused: no steps in between), and the world goes
// on from there as the original would have. A deleted body comes back in its place in
// body order, and later edits of it (and of a spawned body redone) still reach it.
TEST(ExperimentUndo, UndoAndRedoWalkEveryKindOfEditBackAndForthToTheBit) {
    Experiment experiment;
    ASSERT_FALSE(experiment.apply(LoadScene{smallScene(), kScenePath}));
    EXPECT_FALSE(experiment.canUndo()) << "the first load replaced nothing to go back to";
    const World& world = experiment.world();
    std::vector<World> states{world};
    const auto edit = [&](Command command) {
        ASSERT_FALSE(experiment.apply(std::move(command)));
        states.push_back(world);
    };
    const BodyId crate = world.findBody("crate");
    const BodyId ball = world.findBody("ball");
    BodyDef crateDef = world.bodyDef(crate);
    crateDef.mass = 25.0f;
    edit(SetBody{crate, crateDef});
    crateDef.restitution = 0.9f;
    edit(SetBody{crate, crateDef});
    crateDef.inertia = mat3(vec3(0.5f, 0, 0), vec3(0, 0.6f, 0), vec3(0, 0, 0.7f));
    edit(SetBody{crate, crateDef});
    WorldSettings settings = world.settings();
    settings.gravity = vec3(0.0f, -1.62f, 0.0f);
    settings.restitutionCombine = RestitutionCombine::Min;
    edit(SetWorldSettings{settings});
    BodyDef box;
    box.name = "box_1";
    box.position = vec3(3.0f, 2.0f, 0.0f);
    edit(SpawnBody{box, true});
    edit(DeleteBody{crate});
    BodyDef copy = world.bodyDef(ball);
    copy.name = "ball_1";
    copy.position.x += 1.0f;
    edit(SpawnBody{copy, true});
    const BodyId copyId = experiment.selected();
    copy.friction = 0.9f;
    edit(SetBody{copyId, copy});
    DragSettings spring = experiment.dragSettings();
    spring.frequency = 2.0f;
    edit(SetDragSettings{spring});
    scene::Scene other = smallScene();
    other.name = "other";
    other.bodies.pop_back();
    edit(LoadScene{other, "other.json"});
    edit(ResetScene{});

    const auto walkBack = [&] {
        for (size_t i = states.size() - 1; i > 0; --i) {
            SCOPED_TRACE("undo to state " + std::to_string(i - 1));
            ASSERT_FALSE(experiment.undo());
            expectSameWorld(states[i - 1], world, false);
        }
        EXPECT_FALSE(experiment.canUndo());
        EXPECT_EQ(experiment.scenePath(), kScenePath);
    };
    walkBack();
    EXPECT_EQ(future(world, 60), future(states[0], 60)) << "the restored world runs on differently";
    for (size_t i = 1; i < states.size(); ++i) {
        SCOPED_TRACE("redo to state " + std::to_string(i));
        ASSERT_FALSE(experiment.redo());
        expectSameWorld(states[i], world, false);
    }
    EXPECT_FALSE(experiment.canRedo());
    EXPECT_EQ(experiment.scene().name, "other");
    walkBack();  // the handles rewritten by the first walk still lead to their bodies
    EXPECT_EQ(future(world, 60), future(states[0], 60));
}

// Undo reverts what the edit changed on the world as it is now, not a time rewind:
// the crate gets its mass back but stays where it has fallen to since.
TEST_F(ExperimentFixture, UndoRevertsTheEditedValuesOnlyAndANewEditDropsTheRedo) {
    BodyDef def = experiment.world().bodyDef(crate);
    const float mass = def.mass;
    def.mass = 25.0f;
    ASSERT_FALSE(experiment.apply(SetBody{crate, def}));
    EXPECT_TRUE(experiment.hasUnsavedEdits());
    EXPECT_EQ(describe(*experiment.nextUndo()), "crate: mass");
    for (int i = 0; i < 30; ++i) experiment.step();
    const vec3 fallen = experiment.world().body(crate).position;
    ASSERT_FALSE(experiment.undo());
    EXPECT_EQ(experiment.world().body(crate).mass, mass);
    EXPECT_TRUE(sameBits(experiment.world().body(crate).position, fallen));
    EXPECT_FALSE(experiment.hasUnsavedEdits()) << "back to the file as loaded";
    ASSERT_TRUE(experiment.canRedo());
    ASSERT_FALSE(experiment.redo());
    EXPECT_EQ(experiment.world().body(crate).mass, 25.0f);
    ASSERT_FALSE(experiment.undo());
    BodyDef box;
    box.name = "box_1";
    ASSERT_FALSE(experiment.apply(SpawnBody{box, true}));
    EXPECT_FALSE(experiment.canRedo()) << "a new edit forks from the undone ones";
    // A drag is recorded but is not an edit: undo passes over it.
    ASSERT_FALSE(experiment.apply(BeginDrag{ball, experiment.world().body(ball).position}));
    ASSERT_FALSE(experiment.apply(EndDrag{}));
    EXPECT_EQ(describe(*experiment.nextUndo()), "spawn box_1");
    ASSERT_FALSE(experiment.undo());
    EXPECT_FALSE(experiment.world().findBody("box_1"));
}

TEST_F(ExperimentFixture, TheHistoryKeepsAtMostItsLimitOfEntriesAndOfWholeExperiments) {
    for (size_t i = 0; i < Experiment::kExperimentsKeptLimit + 5; ++i) ASSERT_FALSE(experiment.apply(ResetScene{}));
    size_t experiments = 0;
    for (const auto& e : experiment.history()) experiments += e->before.experiment != nullptr;
    EXPECT_EQ(experiments, Experiment::kExperimentsKeptLimit);
    WorldSettings s = experiment.world().settings();
    for (size_t i = 0; i < Experiment::kHistoryLimit + 10; ++i) {
        s.restitutionThreshold = 1.0f + static_cast<float>(i) * 1e-3f;
        ASSERT_FALSE(experiment.apply(SetWorldSettings{s}));
    }
    EXPECT_EQ(experiment.history().size(), Experiment::kHistoryLimit);
}

// Issue 20: a body moved (the gizmo's or a paused drag's one SetBody) into another is
// pushed out by the next steps, with finite state throughout; the ground moved and
// turned like any body; one undo puts each back to the bit.
TEST_F(ExperimentFixture, ABodyMovedIntoAnotherIsPushedOutAndUndoPutsItBack) {
    const World before = experiment.world();
    BodyDef def = experiment.world().bodyDef(ball);
    def.position = experiment.world().body(crate).position + vec3(0.1f, 0.0f, 0.0f);  // deep inside the crate
    ASSERT_FALSE(experiment.apply(SetBody{ball, def}));
    World moved = experiment.world();
    for (int i = 0; i < 120; ++i) {
        moved.step();
        for (BodyId id : moved.bodyIds()) {
            const Body& b = moved.body(id);
            ASSERT_TRUE(std::isfinite(glm::length(b.position)) && std::isfinite(glm::length(b.linearVelocity)))
                << b.name << " at step " << i;
        }
    }
    // Two seconds on they no longer overlap: centres further apart than the ball's radius
    // plus the crate's smallest half extent.
    const float apart = glm::length(moved.body(ball).position - moved.body(crate).position);
    EXPECT_GT(apart, 0.3f + 0.25f - 0.01f);
    ASSERT_FALSE(experiment.undo());
    expectSameWorld(before, experiment.world());

    // A static body is placed the same way: moved and turned in one edit, undone in one.
    BodyDef ground2 = experiment.world().bodyDef(ground);
    ground2.position += vec3(0.0f, 0.2f, 0.0f);
    ground2.orientation = glm::angleAxis(glm::radians(10.0f), vec3(0.0f, 0.0f, 1.0f));
    ASSERT_FALSE(experiment.apply(SetBody{ground, ground2}));
    EXPECT_TRUE(sameBits(experiment.world().body(ground).orientation, ground2.orientation));
    ASSERT_FALSE(experiment.undo());
    expectSameWorld(before, experiment.world());
}
