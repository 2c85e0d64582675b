// A ball dropped from rest at height h onto a floor with restitution e rises to
// e^2 h after the first bounce. At dt = 1/600 s semi-implicit Euler's apex and
// impact-timing errors are O(v dt) ~ 1 cm; the tolerance is 1 % of h.
#include "scenario.h"

#include <gtest/gtest.h>

namespace impulse::test {
namespace {

class Bounce : public ::testing::TestWithParam<float> {};

TEST_P(Bounce, ReachesRestitutionSquaredHeight) {
    const float e = GetParam();
    const float h = 2.0f, radius = 0.25f;
    WorldSettings settings;
    settings.timestep = 1.0f / 600.0f;
    settings.restitutionThreshold = 0.1f;
    World world(settings);
    addGround(world, 0.5f, e);
    BodyDef ball = sphereDef(radius, 1.0f, vec3(0.0f, h + radius, 0.0f));
    ball.restitution = e;
    const BodyId id = world.createBody(ball);

    bool bounced = false;
    float apex = 0.0f;
    for (int i = 0; i < 3 * 600; ++i) {
        world.step();
        const Body& body = world.body(id);
        if (!bounced && body.linearVelocity.y > 0.0f) bounced = true;
        if (bounced) {
            apex = std::max(apex, body.position.y - radius);
            if (body.linearVelocity.y < 0.0f) break;  // past the first apex
        }
    }
    ASSERT_TRUE(bounced);
    EXPECT_NEAR(apex, e * e * h, 0.01f * h) << "e = " << e;
}

INSTANTIATE_TEST_SUITE_P(Restitution, Bounce, ::testing::Values(0.3f, 0.5f, 0.8f, 1.0f));

// e = 0: after the impact the ball rises no more than 1 mm above its lowest point.
TEST(Bounce, ZeroRestitutionStops) {
    World world;
    addGround(world, 0.5f, 0.0f);
    BodyDef ball = sphereDef(0.25f, 1.0f, vec3(0.0f, 1.25f, 0.0f));
    ball.restitution = 0.0f;
    const BodyId id = world.createBody(ball);
    float lowest = 1e9f, rise = 0.0f;
    for (int i = 0; i < 120; ++i) {
        world.step();
        const float y = world.body(id).position.y;
        lowest = std::min(lowest, y);
        rise = std::max(rise, y - lowest);
    }
    EXPECT_LT(lowest, 0.26f) << "the ball should have reached the floor";
    EXPECT_LT(rise, 0.001f);
}

}  // namespace
}  // namespace impulse::test
