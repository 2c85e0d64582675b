// The plots' sampling (one value a step of each picked body quantity, against
// closed forms where there is one) and their CSV export.
#include "app/experiment.h"
#include "validation/scenario.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

using namespace impulse;
using namespace impulse::app;
using impulse::test::boxDef;
using impulse::test::sphereDef;

namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// A free-falling sphere: semi-implicit Euler gives vy = -g t exactly at every
// step end; KE = 1/2 m v^2 with its spin's 1/2 I w^2; the lowest point r below the centre.
TEST(PlotSamples, FreeFallMatchesClosedForm) {
    WorldSettings settings;
    World world(settings);
    BodyDef def = sphereDef(0.2f, 2.0f, vec3(1.0f, 50.0f, -2.0f));
    def.name = "ball";
    def.angularVelocity = vec3(0.0f, 3.0f, 4.0f);
    const BodyId ball = world.createBody(def);
    PlotSamples plots;
    for (BodyQuantity q : {BodyQuantity::VelocityY, BodyQuantity::Height, BodyQuantity::KineticEnergy,
                           BodyQuantity::AngularSpeed, BodyQuantity::PositionX, BodyQuantity::ContactForce}) {
        ASSERT_FALSE(plots.add(world, ball, q));
    }
    const double dt = settings.timestep, g = 9.81;
    for (int i = 0; i < 30; ++i) {
        world.step();
        plots.record(world, (i + 1) * dt);
    }
    ASSERT_EQ(plots.steps().size(), 30u);
    const auto& s = plots.series();
    for (size_t k = 0; k < 30; ++k) {
        const double t = double(k + 1) * dt;
        EXPECT_EQ(plots.steps()[k], k + 1);
        EXPECT_NEAR(s[0].values[k], -g * t, 1e-4 * g * t);
        const double inertia = 0.4 * 2.0 * 0.2 * 0.2;
        EXPECT_NEAR(s[2].values[k], 0.5 * 2.0 * g * g * t * t + 0.5 * inertia * 25.0, 1e-3);
        EXPECT_NEAR(s[3].values[k], 5.0, 1e-5);
        EXPECT_FLOAT_EQ(s[4].values[k], 1.0f);
        EXPECT_EQ(s[5].values[k], 0.0f) << "no contact in the air";
    }
    EXPECT_FLOAT_EQ(s[1].values.back(), world.body(ball).position.y - 0.2f);
    EXPECT_EQ(s[0].label(), "ball: vy (m/s)");
}

// A box turned 45 degrees about z reaches (hx + hy) / sqrt 2 below its centre.
TEST(PlotSamples, HeightIsTheLowestPointOfATurnedBox) {
    World world(test::zeroGravity());
    BodyDef def = boxDef(vec3(0.5f, 0.2f, 0.3f), 1.0f, vec3(0.0f, 2.0f, 0.0f));
    def.orientation = glm::angleAxis(glm::radians(45.0f), vec3(0.0f, 0.0f, 1.0f));
    const BodyId box = world.createBody(def);
    EXPECT_NEAR(sampleQuantity(world, box, BodyQuantity::Height), 2.0 - 0.7 / std::sqrt(2.0), 1e-5);
}

// A box resting on the ground: the contact force is its weight.
TEST(PlotSamples, ContactForceOfARestingBoxIsItsWeight) {
    World world;
    test::addGround(world, 0.5f, 0.0f);
    const BodyId box = world.createBody(boxDef(vec3(0.25f), 3.0f, vec3(0.0f, 0.25f, 0.0f)));
    for (int i = 0; i < 60; ++i) world.step();
    EXPECT_NEAR(sampleQuantity(world, box, BodyQuantity::ContactForce), 3.0 * 9.81, 0.01 * 3.0 * 9.81);
}

TEST(PlotSamples, RefusesStaleBodiesAndRepeats) {
    World world;
    const BodyId ball = world.createBody(sphereDef(0.1f, 1.0f, vec3(0.0f)));
    PlotSamples plots;
    ASSERT_FALSE(plots.add(world, ball, BodyQuantity::Speed));
    const Validation repeat = plots.add(world, ball, BodyQuantity::Speed);
    ASSERT_TRUE(repeat);
    EXPECT_EQ(repeat->field, "quantity");
    world.removeBody(ball);
    const Validation stale = plots.add(world, ball, BodyQuantity::PositionY);
    ASSERT_TRUE(stale);
    EXPECT_EQ(stale->field, "body");
    EXPECT_EQ(plots.series().size(), 1u);
}

// A series added later has gaps before it; a removed body gives gaps after it.
TEST(PlotSamples, GapsWhereASeriesHadNoBody) {
    World world(test::zeroGravity());
    BodyDef a = sphereDef(0.1f, 1.0f, vec3(0.0f));
    a.name = "a";
    BodyDef b = sphereDef(0.1f, 1.0f, vec3(1.0f, 0.0f, 0.0f));
    b.name = "b, the \"second\"";
    const BodyId ia = world.createBody(a);
    const BodyId ib = world.createBody(b);
    PlotSamples plots;
    ASSERT_FALSE(plots.add(world, ia, BodyQuantity::PositionX));
    world.step();
    plots.record(world, 0.5);
    ASSERT_FALSE(plots.add(world, ib, BodyQuantity::PositionX));
    world.step();
    plots.record(world, 1.0);
    world.removeBody(ia);
    world.step();
    plots.record(world, 1.5);
    EXPECT_EQ(plots.csv(),
              "step,time,a: x (m),\"b, the \"\"second\"\": x (m)\"\n"
              "1,0.5,0,\n"
              "2,1,0,1\n"
              "3,1.5,,1\n");
}

TEST(PlotSamples, ForgetAfterDropsLaterSamplesAndNothingElse) {
    World world;
    const BodyId ball = world.createBody(sphereDef(0.1f, 1.0f, vec3(0.0f, 10.0f, 0.0f)));
    PlotSamples plots;
    ASSERT_FALSE(plots.add(world, ball, BodyQuantity::PositionY));
    for (int i = 0; i < 10; ++i) {
        world.step();
        plots.record(world, i);
    }
    const float fourth = plots.series()[0].values[3];
    plots.forgetAfter(4);
    ASSERT_EQ(plots.steps().size(), 4u);
    EXPECT_EQ(plots.steps().back(), 4u);
    EXPECT_EQ(plots.series()[0].values.size(), 4u);
    EXPECT_EQ(plots.series()[0].values.back(), fourth);
}

TEST(PlotSamples, WriteCsvWritesTheFileAndNamesWhatWentWrong) {
    World world;
    BodyDef def = sphereDef(0.1f, 1.0f, vec3(0.0f, 10.0f, 0.0f));
    def.name = "ball";
    const BodyId ball = world.createBody(def);
    PlotSamples plots;
    EXPECT_EQ(plots.writeCsv(::testing::TempDir() + "plots_empty.csv"), "nothing to export: add a series first");
    ASSERT_FALSE(plots.add(world, ball, BodyQuantity::VelocityY));
    world.step();
    plots.record(world, 1.0 / 60.0);
    EXPECT_EQ(plots.writeCsv(""), "path: empty (type a file name, e.g. plots.csv)");
    const std::string bad = ::testing::TempDir() + "no_such_folder/plots.csv";
    EXPECT_EQ(plots.writeCsv(bad), "cannot write '" + bad + "': No such file or directory");
    const std::string good = ::testing::TempDir() + "plots.csv";
    ASSERT_EQ(plots.writeCsv(good), "");
    EXPECT_EQ(readFile(good), plots.csv());
    EXPECT_EQ(readFile(good).rfind("step,time,ball: vy (m/s)\n1,0.0166666667,-0.1635", 0), 0u) << readFile(good);
    std::remove(good.c_str());
}

// Through the experiment: step() samples; a reset keeps the series of bodies that are
// still there (by name) and drops their samples.
TEST(ExperimentPlots, StepSamplesAndAResetRebindsByName) {
    scene::Scene scene;
    scene.name = "two";
    BodyDef ball = sphereDef(0.1f, 1.0f, vec3(0.0f, 5.0f, 0.0f));
    ball.name = "ball";
    scene.bodies = {ball};
    Experiment experiment;
    ASSERT_FALSE(experiment.apply(LoadScene{scene, ""}));
    const BodyId id = experiment.world().findBody("ball");
    ASSERT_FALSE(experiment.observations().plots.add(experiment.world(), id, BodyQuantity::PositionY));
    for (int i = 0; i < 5; ++i) experiment.step();
    const PlotSamples& plots = experiment.observations().plots;
    ASSERT_EQ(plots.steps().size(), 5u);
    EXPECT_NEAR(plots.times().back(), 5.0 * experiment.world().settings().timestep, 1e-9);
    EXPECT_EQ(plots.series()[0].values.back(), experiment.world().body(id).position.y);
    ASSERT_FALSE(experiment.apply(ResetScene{}));
    ASSERT_EQ(plots.series().size(), 1u);
    EXPECT_TRUE(plots.steps().empty());
    EXPECT_TRUE(plots.series()[0].body == experiment.world().findBody("ball"));
    experiment.step();
    EXPECT_EQ(plots.series()[0].values.size(), 1u);
}

}  // namespace
