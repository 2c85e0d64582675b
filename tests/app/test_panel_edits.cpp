// Panel edits go through the experiment (the app's EditTarget) to World's
// validating API: a refused edit must leave the world exactly as it was (and
// keep simulating as if nothing happened).
#include "app/experiment.h"
#include "app/experiment_edits.h"
#include "ui/edit.h"
#include "ui/pair_coefficients.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>

using namespace impulse;

namespace {

const std::string kGroundCrateBall = IMPULSE_SOURCE_DIR "/tests/app/data/ground_crate_ball.json";

struct PanelFixture : ::testing::Test {
    app::Experiment experiment;
    app::ExperimentEdits edits{experiment};
    const World& world = experiment.world();
    BodyId ground, crate, ball;
    ui::BodyEditor editor;

    void SetUp() override {
        ASSERT_EQ(experiment.open(kGroundCrateBall), "");
        ground = world.findBody("ground");
        crate = world.findBody("crate");
        ball = world.findBody("ball");
        ASSERT_TRUE(crate && ball && ground);
        for (int i = 0; i < 10; ++i) experiment.step();  // some state and contacts
        editor.select(edits, crate);
    }

    // Positions of every body after `steps` more steps, for before/after comparisons.
    static std::vector<vec3> future(World w, int steps) {
        for (int i = 0; i < steps; ++i) w.step();
        std::vector<vec3> out;
        for (BodyId id : w.bodyIds()) out.push_back(w.body(id).position);
        return out;
    }
};

void expectSameDef(const BodyDef& a, const BodyDef& b) {
    EXPECT_EQ(a.mass, b.mass);
    EXPECT_EQ(a.restitution, b.restitution);
    EXPECT_EQ(a.friction, b.friction);
    EXPECT_EQ(a.isStatic, b.isStatic);
    EXPECT_EQ(a.position, b.position);
    EXPECT_EQ(a.linearVelocity, b.linearVelocity);
    EXPECT_EQ(a.shape.halfExtents, b.shape.halfExtents);
    EXPECT_EQ(a.shape.radius, b.shape.radius);
}

}  // namespace

TEST_F(PanelFixture, InvalidScalarEditsAreRefusedAndLeaveTheWorldIntact) {
    const BodyDef before = world.bodyDef(crate);
    const std::vector<vec3> expected = future(world, 60);
    const float nan = std::numeric_limits<float>::quiet_NaN();

    EXPECT_FALSE(editor.setMass(edits, -1.0f));
    EXPECT_NE(editor.status().error.find("mass"), std::string::npos) << editor.status().error;
    EXPECT_FALSE(editor.setMass(edits, 0.0f));
    EXPECT_FALSE(editor.setMass(edits, nan));
    EXPECT_FALSE(editor.setRestitution(edits, 1.5f));
    EXPECT_NE(editor.status().error.find("restitution"), std::string::npos) << editor.status().error;
    EXPECT_FALSE(editor.setFriction(edits, -0.1f));
    EXPECT_FALSE(editor.setStaticFriction(edits, 0.1f));  // below the dynamic mu of 0.5
    EXPECT_FALSE(editor.setShape(edits, Shape::box(vec3(0.5f, -0.2f, 0.5f))));
    EXPECT_NE(editor.status().error.find("shape"), std::string::npos) << editor.status().error;
    EXPECT_FALSE(editor.setShape(edits, Shape::sphere(0.0f)));
    EXPECT_FALSE(editor.setLinearVelocity(edits, vec3(nan, 0.0f, 0.0f)));
    EXPECT_FALSE(editor.setPosition(edits, vec3(0.0f, std::numeric_limits<float>::infinity(), 0.0f)));

    expectSameDef(world.bodyDef(crate), before);
    EXPECT_EQ(future(world, 60), expected) << "a refused edit changed the simulation";
}

TEST_F(PanelFixture, ValidEditsApplyAtOnceAndClearTheMessage) {
    EXPECT_FALSE(editor.setMass(edits, -3.0f));
    EXPECT_FALSE(editor.status().ok());
    EXPECT_TRUE(editor.setMass(edits, 5.0f));
    EXPECT_TRUE(editor.status().ok());
    EXPECT_FLOAT_EQ(world.body(crate).mass, 5.0f);
    EXPECT_TRUE(editor.setRestitution(edits, 0.9f));
    EXPECT_FLOAT_EQ(world.body(crate).restitution, 0.9f);
    EXPECT_TRUE(editor.setStaticFriction(edits, 0.8f));
    EXPECT_FLOAT_EQ(world.body(crate).staticFriction, 0.8f);
    EXPECT_TRUE(editor.setStatic(edits, true));
    EXPECT_TRUE(world.body(crate).isStatic);
    EXPECT_EQ(world.body(crate).inverseMass, 0.0f);
}

TEST_F(PanelFixture, NonPhysicalInertiaIsRefusedAndThePreviousTensorStays) {
    const mat3 before = world.body(crate).inertiaBody;
    const std::vector<vec3> expected = future(world, 60);

    // Principal moments 1, 1, 3 break the triangle inequality (1 + 1 < 3).
    editor.inertiaDraft() = mat3(vec3(1, 0, 0), vec3(0, 1, 0), vec3(0, 0, 3));
    EXPECT_FALSE(editor.applyInertiaDraft(edits));
    EXPECT_NE(editor.status().error.find("inertia"), std::string::npos) << editor.status().error;
    EXPECT_FALSE(ui::analyseInertia(editor.inertiaDraft()).problem.empty());

    // Not positive definite.
    editor.inertiaDraft() = mat3(vec3(1, 0, 0), vec3(0, -1, 0), vec3(0, 0, 1));
    EXPECT_FALSE(editor.applyInertiaDraft(edits));
    // Not symmetric (an off-diagonal entry typed without its mirror).
    editor.inertiaDraft() = mat3(1.0f);
    editor.inertiaDraft()[0][1] = 0.3f;
    EXPECT_FALSE(editor.applyInertiaDraft(edits));
    // Physical on its own, but a ten-thousandth of the crate's own tensor:
    // refused with the rule (kMinOwnInertiaShare) when applied to the crate.
    editor.inertiaDraft() = 1e-4f * before;
    EXPECT_TRUE(ui::analyseInertia(editor.inertiaDraft()).problem.empty());
    EXPECT_FALSE(editor.applyInertiaDraft(edits));
    EXPECT_NE(editor.status().error.find("inertia: must be at least 0.001 of the shape's own tensor"),
              std::string::npos)
        << editor.status().error;

    EXPECT_EQ(world.body(crate).inertiaBody, before);
    EXPECT_FALSE(world.body(crate).inertiaOverridden);
    EXPECT_EQ(future(world, 60), expected);
}

// A tensor set by hand stays when the mass changes: a mass 2000 times the
// crate's puts the crate's own tensor, set by hand, below the share of the new
// mass's own. Refused naming the tensor, the new mass and why.
TEST_F(PanelFixture, MassEditThatLeavesAHandSetTensorTooSmallIsRefused) {
    editor.inertiaDraft() = world.body(crate).inertiaBody;
    ASSERT_TRUE(editor.applyInertiaDraft(edits)) << editor.status().error;
    ASSERT_TRUE(world.body(crate).inertiaOverridden);
    const BodyDef before = world.bodyDef(crate);
    const std::vector<vec3> expected = future(world, 60);
    const float heavier = 2000.0f * before.mass;

    EXPECT_FALSE(editor.setMass(edits, heavier));
    const std::string& error = editor.status().error;
    std::ostringstream mass;  // as the rule prints it
    mass << double(heavier);
    EXPECT_NE(error.find("inertia: must be at least 0.001 of the shape's own tensor at the body's mass (" +
                         mass.str() + " kg)"),
              std::string::npos)
        << error;
    EXPECT_NE(error.find("a tensor set by hand does not follow mass or size edits"), std::string::npos) << error;
    expectSameDef(world.bodyDef(crate), before);
    EXPECT_EQ(future(world, 60), expected);
    // 500 times the mass keeps the tensor at 0.002 of the new own: accepted.
    EXPECT_TRUE(editor.setMass(edits, 500.0f * before.mass)) << editor.status().error;
}

TEST_F(PanelFixture, PhysicalInertiaIsInstalledAndCanBeDerivedAgain) {
    mat3& draft = editor.inertiaDraft();
    draft = mat3(vec3(0.4f, 0.0f, 0.0f), vec3(0.0f, 0.5f, 0.0f), vec3(0.0f, 0.0f, 0.6f));
    draft[1][0] = 0.05f;  // typed at (row 0, column 1) ...
    editor.mirrorDraftEntry(1, 0);  // ... and mirrored to (row 1, column 0)
    EXPECT_EQ(draft[0][1], 0.05f);
    ASSERT_TRUE(editor.applyInertiaDraft(edits)) << editor.status().error;
    EXPECT_TRUE(world.body(crate).inertiaOverridden);
    EXPECT_FLOAT_EQ(world.body(crate).inertiaBody[1][0], 0.05f);

    const ui::InertiaReport report = ui::analyseInertia(world.body(crate).inertiaBody);
    EXPECT_TRUE(report.problem.empty());
    EXPECT_LE(report.moments.x, report.moments.y);
    EXPECT_LE(report.moments.y, report.moments.z);
    EXPECT_NEAR(report.moments.x + report.moments.y + report.moments.z, 1.5f, 1e-4f);  // trace is invariant

    ASSERT_TRUE(editor.useDerivedInertia(edits));
    EXPECT_FALSE(world.body(crate).inertiaOverridden);
    const mat3 derived = shapeInertia(world.body(crate).shape, world.body(crate).mass);
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) EXPECT_NEAR(world.body(crate).inertiaBody[c][r], derived[c][r], 1e-6f);
}

TEST_F(PanelFixture, InvalidWorldSettingsAreRefused) {
    const WorldSettings before = world.settings();
    ui::EditStatus status;
    WorldSettings s = before;
    s.timestep = 0.0f;
    EXPECT_FALSE(ui::applySettings(edits, s, status));
    EXPECT_NE(status.error.find("timestep"), std::string::npos) << status.error;
    s = before;
    s.passes = 0;
    EXPECT_FALSE(ui::applySettings(edits, s, status));
    s = before;
    s.subSteps = -2;
    EXPECT_FALSE(ui::applySettings(edits, s, status));
    s = before;
    s.gravity.y = std::numeric_limits<float>::quiet_NaN();
    EXPECT_FALSE(ui::applySettings(edits, s, status));
    EXPECT_EQ(world.settings().timestep, before.timestep);
    EXPECT_EQ(world.settings().passes, before.passes);
    EXPECT_EQ(world.settings().gravity, before.gravity);

    s = before;
    s.passes = 4;
    EXPECT_TRUE(ui::applySettings(edits, s, status));
    EXPECT_TRUE(status.ok());
    EXPECT_EQ(world.settings().passes, 4);
}

// The World panel's sleeping checkbox and its two inputs go through the same validated path.
TEST_F(PanelFixture, SleepSettingsAreValidatedLikeTheOthers) {
    const WorldSettings before = world.settings();
    const std::vector<vec3> expected = future(world, 60);
    ui::EditStatus status;
    WorldSettings s = before;
    s.sleeping = true;
    s.sleepTime = 0.0f;  // the rule is (0, 1000] s
    EXPECT_FALSE(ui::applySettings(edits, s, status));
    EXPECT_NE(status.error.find("sleep_time"), std::string::npos) << status.error;
    EXPECT_NE(status.error.find("(0, 1000] s"), std::string::npos) << status.error;
    s.sleepTime = std::numeric_limits<float>::quiet_NaN();
    EXPECT_FALSE(ui::applySettings(edits, s, status));
    EXPECT_NE(status.error.find("sleep_time"), std::string::npos) << status.error;
    s = before;
    s.sleepSpeed = -0.1f;  // [0, 10] m/s
    EXPECT_FALSE(ui::applySettings(edits, s, status));
    EXPECT_NE(status.error.find("sleep_speed"), std::string::npos) << status.error;
    s.sleepSpeed = 10.5f;
    EXPECT_FALSE(ui::applySettings(edits, s, status));
    // Refused: nothing changed, not even the checkbox that came with the bad time.
    EXPECT_FALSE(world.settings().sleeping);
    EXPECT_EQ(world.settings().sleepTime, before.sleepTime);
    EXPECT_EQ(world.settings().sleepSpeed, before.sleepSpeed);
    EXPECT_EQ(future(world, 60), expected) << "a refused edit changed the simulation";

    s = before;
    s.sleeping = true;
    s.sleepSpeed = 0.1f;
    s.sleepTime = 2.0f;
    EXPECT_TRUE(ui::applySettings(edits, s, status)) << status.error;
    EXPECT_TRUE(status.ok());
    EXPECT_TRUE(world.settings().sleeping);
    EXPECT_EQ(world.settings().sleepSpeed, 0.1f);
    EXPECT_EQ(world.settings().sleepTime, 2.0f);
}

TEST_F(PanelFixture, EditsWithoutSelectionOrOnDeletedBodiesAreRefused) {
    ASSERT_FALSE(experiment.apply(app::DeleteBody{crate}));
    editor.follow(edits);
    EXPECT_FALSE(experiment.selected());
    EXPECT_FALSE(editor.setMass(edits, 3.0f));
    EXPECT_FALSE(editor.status().ok());
    editor.select(edits, crate);  // stale handle
    EXPECT_FALSE(experiment.selected());
}

// The panels' edits reach the world as experiment commands, recorded like any other;
// a refused one is not recorded.
TEST_F(PanelFixture, EditsAreRecordedAsExperimentCommands) {
    const size_t recorded = experiment.history().size();
    ASSERT_TRUE(editor.setMass(edits, 4.0f));
    ASSERT_EQ(experiment.history().size(), recorded + 1);
    const app::AppliedEdit& entry = *experiment.history().back();
    ASSERT_TRUE(std::holds_alternative<app::SetBody>(entry.command));
    EXPECT_TRUE(std::get<app::SetBody>(entry.command).body == crate);
    EXPECT_EQ(std::get<app::SetBody>(entry.command).def.mass, 4.0f);
    EXPECT_EQ(entry.before.body->mass, 2.0f);
    EXPECT_EQ(entry.step, 10u);

    WorldSettings s = world.settings();
    s.passes = 2;
    ui::EditStatus status;
    ASSERT_TRUE(ui::applySettings(edits, s, status));
    EXPECT_TRUE(std::holds_alternative<app::SetWorldSettings>(experiment.history().back()->command));

    EXPECT_FALSE(editor.setMass(edits, -1.0f));
    s.passes = 0;
    EXPECT_FALSE(ui::applySettings(edits, s, status));
    EXPECT_EQ(experiment.history().size(), recorded + 2);
}

TEST(StatsHistory, KeepsTheNewestSamplesOldestFirst) {
    ui::StatsHistory h;
    for (int i = 0; i < ui::StatsHistory::kCapacity + 10; ++i) {
        ui::StatsHistory::Sample s;
        s.kinetic = static_cast<float>(i);
        h.push(s);
    }
    EXPECT_EQ(h.size(), ui::StatsHistory::kCapacity);
    EXPECT_EQ(h.at(0).kinetic, 10.0f);
    EXPECT_EQ(h.latest().kinetic, static_cast<float>(ui::StatsHistory::kCapacity + 9));
    const std::vector<float> ke = h.series(&ui::StatsHistory::Sample::kinetic);
    ASSERT_EQ(ke.size(), static_cast<size_t>(ui::StatsHistory::kCapacity));
    EXPECT_EQ(ke.front(), 10.0f);
}

TEST(ContactKey, FindsThePickedPointAgain) {
    std::vector<ContactPointInfo> contacts(3);
    for (uint32_t i = 0; i < 3; ++i) {
        contacts[i].bodyA = BodyId{0, 1};
        contacts[i].bodyB = BodyId{i + 1, 1};
        contacts[i].featureId = 7 + i;
        contacts[i].point = vec3(static_cast<float>(i), 0.0f, 0.0f);
    }
    ui::ContactKey key{BodyId{0, 1}, BodyId{2, 1}, 8, true, vec3(1.0f, 0.0f, 0.0f)};
    EXPECT_EQ(ui::findContact(contacts, key), 1);
    // The manifold renumbered its features: the same pair's point nearby is taken and tracked.
    key.feature = 99;
    key.point = vec3(1.05f, 0.0f, 0.0f);
    EXPECT_EQ(ui::trackContact(contacts, key), 1);
    EXPECT_EQ(key.feature, 8u);
    // Far from where it was, or another pair: gone.
    key.feature = 99;
    key.point = vec3(5.0f, 0.0f, 0.0f);
    EXPECT_EQ(ui::findContact(contacts, key), -1);
    EXPECT_EQ(ui::findContact(contacts, ui::ContactKey{BodyId{4, 1}, BodyId{5, 1}, 8, true, vec3(1.0f, 0, 0)}), -1);
    EXPECT_EQ(ui::findContact(contacts, ui::ContactKey{}), -1);
}

// "The e you type is not the e you get": the Body panel shows the pair's values as the
// physics combines them, with the rule and both inputs.
TEST_F(PanelFixture, EffectiveCoefficientsShowThePairsValueAndTheRule) {
    editor.select(edits, ball);
    ASSERT_TRUE(editor.setRestitution(edits, 0.1f));
    ASSERT_TRUE(editor.setFriction(edits, 0.3f));
    ui::PairCoefficients pair = ui::combinePair(world, ball, ground);  // ground: the defaults e 0.5, mu 0.5
    EXPECT_EQ(pair.partner, ground);
    EXPECT_EQ(pair.restitution, 0.5f);
    EXPECT_EQ(pair.restitutionText, "e 0.5 = max(0.1, 0.5)");
    EXPECT_EQ(pair.friction, combineFriction(FrictionCombine::Geometric, 0.3f, 0.5f));
    EXPECT_EQ(pair.frictionText, "mu 0.387 = sqrt(0.3 x 0.5)");
    EXPECT_EQ(pair.staticFrictionText, "mu_s 0.387 = sqrt(0.3 x 0.5)");

    WorldSettings rules = world.settings();
    rules.restitutionCombine = RestitutionCombine::Multiply;
    rules.frictionCombine = FrictionCombine::Min;
    ui::EditStatus status;
    ASSERT_TRUE(ui::applySettings(edits, rules, status));
    pair = ui::combinePair(world, ball, ground);
    EXPECT_EQ(pair.restitution, 0.1f * 0.5f);
    EXPECT_EQ(pair.restitutionText, "e 0.05 = 0.1 x 0.5");
    EXPECT_EQ(pair.frictionText, "mu 0.3 = min(0.3, 0.5)");
}

TEST_F(PanelFixture, PartnersAreWhatTheBodyTouchesOrWhatLiesBelow) {
    EXPECT_TRUE(ui::contactPartners(world.contacts(), ball).empty());  // still falling
    EXPECT_EQ(ui::bodyBelow(world, ball), ground);
    for (int i = 0; i < 60; ++i) experiment.step();
    EXPECT_EQ(ui::contactPartners(world.contacts(), ball), std::vector<BodyId>{ground});
    EXPECT_FALSE(ui::bodyBelow(world, ground));  // nothing under the ground
}

// Paused, no step measures the world: the app refreshes the newest sample instead, so
// setting gravity to 0 shows PE 0 at once and the plots do not move on.
TEST_F(PanelFixture, StatsFollowAnEditWithoutAStep) {
    ui::StatsHistory history;
    history.push(ui::measure(world, 0.1f));
    ASSERT_NE(history.latest().potential, 0.0f);
    WorldSettings weightless = world.settings();
    weightless.gravity = vec3(0.0f);
    ui::EditStatus status;
    ASSERT_TRUE(ui::applySettings(edits, weightless, status));
    history.refreshLatest(ui::measure(world, history.latest().stepMs));
    EXPECT_EQ(history.size(), 1);
    EXPECT_EQ(history.latest().potential, 0.0f);
    EXPECT_EQ(history.latest().stepMs, 0.1f);
}

// The inspector and the debug layer copy out only the points they show: a body's
// points carry their index in World::contacts(), and a picked point is tracked to
// that index without copying the others.
TEST_F(PanelFixture, ABodysContactsAndThePickedPointKeepTheirIndexInTheWholeList) {
    // Until both the ball and the crate (which bounces, e 0.5) touch the ground.
    for (int i = 0; i < 600 && (ui::contactsOf(world, ball).points.empty() || ui::contactsOf(world, crate).points.empty());
         ++i) {
        experiment.step();
    }
    const std::vector<ContactPointInfo> all = world.contacts();
    const ui::BodyContacts of = ui::contactsOf(world, ball);
    ASSERT_FALSE(of.points.empty());
    ASSERT_LT(of.points.size(), all.size());
    for (size_t k = 0; k < of.points.size(); ++k) {
        const ContactPointInfo& whole = all[of.indices[k]];
        EXPECT_TRUE(whole.bodyA == ball || whole.bodyB == ball);
        EXPECT_EQ(of.points[k].featureId, whole.featureId);
        EXPECT_EQ(of.points[k].normalImpulse, whole.normalImpulse);
    }
    ui::ContactKey key{all[of.indices.back()].bodyA, all[of.indices.back()].bodyB, all[of.indices.back()].featureId,
                       true, all[of.indices.back()].point};
    EXPECT_EQ(ui::trackContact(world, key), static_cast<int>(of.indices.back()));
    EXPECT_EQ(ui::trackContact(world, key), ui::findContact(all, key));
    EXPECT_EQ(ui::contactsOf(world, BodyId{}).points.size(), 0u);
}

// Issue 45: before any step a body has no contacts of its own; the Body panel names the
// partners the next step touches (the ramp under ramp_crate, not the ground the ray
// down from its centre meets first).
TEST(NextStepContacts, AreTheBodiesTheNextStepTouches) {
    ui::NextStepContacts next;
    app::Experiment scene;
    ASSERT_EQ(scene.open(IMPULSE_SOURCE_DIR "/assets/scenes/default.json"), "");
    const World& w = scene.world();
    ASSERT_EQ(w.stepCount(), 0u);
    const BodyId crate = w.findBody("ramp_crate");
    EXPECT_TRUE(w.contactIndicesOf(crate).empty());
    EXPECT_EQ(ui::contactPartners(next.of(w), crate), std::vector<BodyId>{w.findBody("ramp")});
    EXPECT_NE(ui::bodyBelow(w, crate), w.findBody("ramp")) << "the ray down names the ramp too: no longer a case for this test";
    ASSERT_EQ(scene.open(IMPULSE_SOURCE_DIR "/assets/scenes/classroom/gliders_inelastic.json"), "");
    EXPECT_EQ(ui::contactPartners(next.of(scene.world()), scene.world().findBody("glider3")),
              std::vector<BodyId>{scene.world().findBody("ground")});
    EXPECT_EQ(scene.world().stepCount(), 0u) << "the world shown took no step";
}

// Issue 45: paused, a body moved since the last step makes the world's own contacts (the
// last step's, at the old pose) stale: the next step's stand in, at the new pose; playing,
// or with nothing moved since the step, the world's own are used.
TEST(NextStepContacts, ReplaceTheLastStepsOnlyAfterAPausedEdit) {
    app::Experiment scene;
    ASSERT_EQ(scene.open(IMPULSE_SOURCE_DIR "/assets/scenes/default.json"), "");
    World w = scene.world();
    for (int i = 0; i < 5; ++i) w.step();
    const BodyId crate = w.findBody("ramp_crate");
    ASSERT_FALSE(w.contactIndicesOf(crate).empty());
    ui::NextStepContacts next;
    EXPECT_EQ(next.replacingStale(w, true), nullptr) << "nothing moved since the step";
    const BodyDef before = w.bodyDef(crate);
    BodyDef def = before;
    def.position += vec3(0.0f, 3.0f, 0.0f);  // lifted clear of the ramp
    ASSERT_FALSE(w.updateBody(crate, def));
    EXPECT_EQ(next.replacingStale(w, false), nullptr) << "playing: the next step comes anyway";
    const std::vector<ContactPointInfo>* stale = next.replacingStale(w, true);
    ASSERT_NE(stale, nullptr);
    EXPECT_TRUE(ui::contactPartners(*stale, crate).empty()) << "the lifted crate touches nothing";
    EXPECT_FALSE(ui::contactPartners(w.contacts(), crate).empty()) << "the world's own still has the old points";
    ASSERT_FALSE(w.updateBody(crate, before));
    EXPECT_EQ(next.replacingStale(w, true), nullptr) << "put back: the step's contacts hold again";
    w.step();
    EXPECT_EQ(next.replacingStale(w, true), nullptr) << "a new step";
}
