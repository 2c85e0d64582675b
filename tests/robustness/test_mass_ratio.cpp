// Extreme mass ratios: a 1000 kg box resting on a 1 kg box on the ground, and
// the other way round. Sequential impulses converge slowly when a heavy body
// rests on a light one, so this is where a stack sinks, jitters or explodes.
#include "robustness_util.h"
#include "scene/scene.h"

#include <variant>

namespace impulse {
namespace {

using robust::addBox;
using robust::addGround;

struct StackResult {
    robust::RunRecord record;
    vec3 bottom, top;        // final positions, m
    float maxSpeed = 0.0f;   // over the run, m/s
    float maxTilt = 0.0f;    // largest rotation of either box from upright, rad
    double energyGrowth = 0.0;  // max over the run of E(t) - E(0), J
    float deepest = 0.0f;    // deepest penetration seen, m
};

StackResult stack(float bottomMass, float topMass, int steps, const WorldSettings& settings = {}) {
    World world(settings);
    addGround(world);
    // 1 mm gaps: the boxes start just apart, at rest.
    const BodyId bottom = addBox(world, "bottom", vec3(0.5f), bottomMass, vec3(0.0f, 0.501f, 0.0f));
    const BodyId top = addBox(world, "top", vec3(0.5f), topMass, vec3(0.0f, 1.502f, 0.0f));
    StackResult result;
    const double initial = robust::totalEnergy(world);
    result.record = robust::run(world, steps, [&](int) {
        for (BodyId id : {bottom, top}) {
            const Body& b = world.body(id);
            result.maxSpeed = std::max(result.maxSpeed, glm::length(b.linearVelocity));
            result.maxTilt = std::max(result.maxTilt, 2.0f * std::acos(std::min(1.0f, std::fabs(b.orientation.w))));
        }
        result.energyGrowth = std::max(result.energyGrowth, robust::totalEnergy(world) - initial);
        result.deepest = std::max(result.deepest, robust::deepestPenetration(world));
    });
    result.bottom = world.body(bottom).position;
    result.top = world.body(top).position;
    return result;
}

// Tolerances: the stack stands when each centre stays within 2 cm of its resting
// height (4 slops) and 1 cm of its column, tilts less than 1 degree and never
// moves faster than 0.5 m/s (falling the 1 mm gap reaches 0.14 m/s). Energy may
// not grow: E(t) <= E(0) + 1 mJ per kg (the position pass lifting by 0.1 mm).
void expectStands(const StackResult& r, float bottomMass, float topMass) {
    EXPECT_EQ(r.record.recoveries, 0u) << r.record.firstProblem;
    EXPECT_FALSE(r.record.nonFinite) << r.record.firstProblem;
    EXPECT_NEAR(r.bottom.y, 0.5f, 0.02f);
    EXPECT_NEAR(r.top.y, 1.5f, 0.02f);
    EXPECT_LT(std::hypot(r.bottom.x, r.bottom.z), 0.01f);
    EXPECT_LT(std::hypot(r.top.x, r.top.z), 0.01f);
    EXPECT_LT(r.maxTilt, 0.0175f);
    EXPECT_LT(r.maxSpeed, 0.5f);
    EXPECT_LE(r.energyGrowth, 1e-3 * (bottomMass + topMass));
    EXPECT_LT(r.deepest, 0.02f);
}

// Whatever the solver makes of it, a 1000:1 stack may not produce NaN, gain
// energy or push a body out through the ground (1 m thick, bottom at y = -1).
TEST(MassRatio, HeavyBoxOnLightBoxNeverBlowsUpOrEscapes) {
    const StackResult r = stack(1.0f, 1000.0f, 600);
    EXPECT_EQ(r.record.recoveries, 0u) << r.record.firstProblem;
    EXPECT_FALSE(r.record.nonFinite) << r.record.firstProblem;
    EXPECT_LE(r.energyGrowth, 1e-3 * 1001.0);
    EXPECT_GT(r.bottom.y, 0.0f);
    EXPECT_GT(r.top.y, 0.0f);
}

// At the default settings (10 sub-steps). Sequential impulses alone let the
// heavy box creep 1.7 cm sideways in 10 s and press the light one 7.5 mm into
// the ground for seconds (at 651bc78 it sank through it at 2.2 m/s). The
// support sweep (Sweep::Support) holds it: measured 1.6 mm and 3 mm sideways,
// 0.8 mm deepest.
TEST(MassRatio, HeavyBoxOnLightBoxStands) {
    const StackResult r = stack(1.0f, 1000.0f, 600);  // 10 s
    expectStands(r, 1.0f, 1000.0f);
    std::printf("heavy on light: bottom y %.4f, top y %.4f, max speed %.3f m/s, deepest %.4f m, dE %.3g J\n",
                r.bottom.y, r.top.y, r.maxSpeed, r.deepest, r.energyGrowth);
}

// With 4 substeps and 200 velocity iterations the same stack stands too.
TEST(MassRatio, HeavyBoxOnLightBoxStandsWithSubstepsAndIterations) {
    WorldSettings settings;
    settings.passes = 4;
    settings.subSteps = 200;
    const StackResult r = stack(1.0f, 1000.0f, 300, settings);  // 5 s
    expectStands(r, 1.0f, 1000.0f);
    std::printf("heavy on light, 4 x 200: bottom y %.4f, top y %.4f, max speed %.3f m/s, deepest %.4f m\n", r.bottom.y,
                r.top.y, r.maxSpeed, r.deepest);
}

// The support sweep's own impulses are not carried from sub-step to sub-step,
// so the contact forces the inspector shows must still come to the weights:
// after 10 s the ground carries both boxes and the light box carries the heavy
// one, as statics says. Tolerance 1 % (measured 0.04 %; 13 % low at 2 s while
// the accumulated impulses grow).
TEST(MassRatio, HeavyBoxOnLightBoxLoadReachesTheGround) {
    World world;
    addGround(world);
    const BodyId bottom = addBox(world, "bottom", vec3(0.5f), 1.0f, vec3(0.0f, 0.501f, 0.0f));
    const BodyId top = addBox(world, "top", vec3(0.5f), 1000.0f, vec3(0.0f, 1.502f, 0.0f));
    for (int i = 0; i < 600; ++i) world.step();
    double onGround = 0.0, between = 0.0;
    for (const ContactPointInfo& c : world.contacts()) {
        const bool touchesTop = c.bodyA == top || c.bodyB == top;
        const bool touchesBottom = c.bodyA == bottom || c.bodyB == bottom;
        if (touchesTop && touchesBottom) between += c.normalImpulse;
        if (touchesBottom && !touchesTop) onGround += c.normalImpulse;
    }
    const double g = 9.81, dt = 1.0 / 60.0;
    EXPECT_NEAR(onGround / dt, 1001.0 * g, 0.01 * 1001.0 * g);
    EXPECT_NEAR(between / dt, 1000.0 * g, 0.01 * 1000.0 * g);
}

TEST(MassRatio, LightBoxOnHeavyBoxStands) {
    const StackResult r = stack(1000.0f, 1.0f, 600);
    expectStands(r, 1000.0f, 1.0f);
    std::printf("light on heavy: bottom y %.4f, top y %.4f, max speed %.3f m/s, deepest %.4f m, dE %.3g J\n",
                r.bottom.y, r.top.y, r.maxSpeed, r.deepest, r.energyGrowth);
}

// A 1000 kg sphere dropped from 1 m onto a 1 kg box: 1000:1 in an impact.
struct DropResult {
    robust::RunRecord record;
    vec3 box, ball;
    double growth = 0.0;
};

DropResult dropHeavySphere() {
    World world;
    addGround(world);
    const BodyId box = addBox(world, "light", vec3(0.5f), 1.0f, vec3(0.0f, 0.5f, 0.0f));
    const BodyId ball = robust::addSphere(world, "heavy", 0.4f, 1000.0f, vec3(0.0f, 2.4f, 0.0f));
    const double initial = robust::totalEnergy(world);
    DropResult r;
    r.record = robust::run(world, 300, [&](int) { r.growth = std::max(r.growth, robust::totalEnergy(world) - initial); });
    r.box = world.body(box).position;
    r.ball = world.body(ball).position;
    return r;
}

TEST(MassRatio, HeavySphereDroppedOnLightBoxNeverBlowsUp) {
    const DropResult r = dropHeavySphere();
    EXPECT_EQ(r.record.recoveries, 0u) << r.record.firstProblem;
    EXPECT_FALSE(r.record.nonFinite);
    EXPECT_LE(r.growth, 1.0);  // 1 J of the 9810 J dropped: rounding and slop only
    EXPECT_GT(r.box.y, 0.0f);
    EXPECT_GT(r.ball.y, 0.0f);
}

// The sphere comes to rest on the box. Without the support sweep it drove the
// box 0.10 m into the ground, squeezed it out sideways at 8 m/s and ended on
// the ground (y = 0.40); at 651bc78 it pushed through the box. Tolerance: both
// centres within 2 cm of resting (box 0.5, sphere 1.4 m); measured 0.5 mm and 0.9 mm.
TEST(MassRatio, HeavySphereDroppedOnLightBoxRestsOnIt) {
    const DropResult r = dropHeavySphere();
    EXPECT_NEAR(r.box.y, 0.5f, 0.02f);
    EXPECT_NEAR(r.ball.y, 1.4f, 0.02f);
    std::printf("heavy sphere on box: box y %.4f, ball y %.4f, dE %.3g J\n", r.box.y, r.ball.y, r.growth);
}

// The preset assets/scenes/heavy_on_light.json: both stacks and the dropped
// sphere, side by side, so that their contacts share batches. A support lane
// once gave the padding points of a shorter manifold an effective mass, and the
// sphere hung 9.9 mm above the box with nothing holding it. Tolerance: every
// centre within 2 mm of resting on what is under it (measured <= 1 mm).
TEST(MassRatio, HeavyOnLightPresetComesToRest) {
    const scene::SceneResult loaded =
        scene::loadSceneFile(std::string(IMPULSE_SOURCE_DIR) + "/assets/scenes/heavy_on_light.json");
    ASSERT_TRUE(std::holds_alternative<scene::Scene>(loaded));
    World world = scene::buildWorld(std::get<scene::Scene>(loaded));
    robust::run(world, 600);
    const std::pair<const char*, float> resting[] = {{"light_under", 0.5f},  {"heavy_on_top", 1.5f},
                                                     {"heavy_under", 0.5f},  {"light_on_top", 1.5f},
                                                     {"light_target", 0.5f}, {"heavy_ball", 1.4f}};
    for (const auto& [name, height] : resting) {
        for (BodyId id : world.bodyIds()) {
            if (world.body(id).name == name) {
                EXPECT_NEAR(world.body(id).position.y, height, 0.002f) << name;
            }
        }
    }
}

}  // namespace
}  // namespace impulse
