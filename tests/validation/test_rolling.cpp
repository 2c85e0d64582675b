// A sphere launched sliding without spin on a rough floor: kinetic friction
// slows it and spins it up until v = w r, after which it rolls at
//   v_roll = v0 / (1 + I / (m r^2))   (solid 5/7 v0, hollow shell 3/5 v0),
// reached at t = (v0 - v_roll) / (mu g). Friction at the contact exerts no
// torque about the contact point, so the result does not depend on the
// step size: it is checked to 0.2 %.
#include "scenario.h"

#include <gtest/gtest.h>

namespace impulse::test {
namespace {

struct RollingCase {
    const char* name;
    float inertiaFactor;  // I / (m r^2)
};

class SlidingSphere : public ::testing::TestWithParam<RollingCase> {};

TEST_P(SlidingSphere, ReachesRollingSpeed) {
    const RollingCase& c = GetParam();
    const float radius = 0.5f, mass = 2.0f, v0 = 5.0f, mu = 0.3f, g = 9.81f;
    World world;
    addGround(world, mu, 0.0f);
    BodyDef ball = sphereDef(radius, mass, vec3(0.0f, radius, 0.0f));
    ball.linearVelocity = vec3(v0, 0.0f, 0.0f);
    ball.friction = mu;
    ball.restitution = 0.0f;
    ball.inertia = mat3(c.inertiaFactor * mass * radius * radius);
    const BodyId id = world.createBody(ball);

    const float expectedSpeed = v0 / (1.0f + c.inertiaFactor);
    const float expectedTime = (v0 - expectedSpeed) / (mu * g);
    const float dt = world.settings().timestep;
    float rollingTime = -1.0f;
    for (int i = 1; i <= 180; ++i) {
        world.step();
        const Body& body = world.body(id);
        // Rolling without slipping: contact point at rest, v_x = -w_z r.
        const float slip = body.linearVelocity.x + body.angularVelocity.z * radius;
        if (rollingTime < 0.0f && std::fabs(slip) < 1e-3f) rollingTime = float(i) * dt;
    }
    const Body& body = world.body(id);
    EXPECT_NEAR(body.linearVelocity.x, expectedSpeed, 0.002f * expectedSpeed) << c.name;
    EXPECT_NEAR(-body.angularVelocity.z * radius, expectedSpeed, 0.002f * expectedSpeed) << c.name;
    // Slip ends within one step of the analytic time.
    EXPECT_NEAR(rollingTime, expectedTime, 1.5f * dt) << c.name;
    // No vertical motion: it rolls on the floor (within the 5 mm contact slop).
    EXPECT_NEAR(body.position.y, radius, 0.005f);
}

// A 1 cm marble rolling at 5 m/s spins at 500 rad/s, and rolls on: with no
// slip there is no friction, so v and w stay, v = w r. A spin limit of 400 rad/s
// whatever the size cut w to 400 at the first sub-step, and friction then took
// v down to 4.3 m/s. Now the limit is on the surface speed (5 m/s here).
TEST(RollingMarble, KeepsRollingAtFiveMetresPerSecond) {
    const float radius = 0.01f, v0 = 5.0f;
    World world;
    addGround(world, 0.5f, 0.0f);
    BodyDef marble = sphereDef(radius, 0.01f, vec3(0.0f, radius, 0.0f));
    marble.linearVelocity = vec3(v0, 0.0f, 0.0f);
    marble.angularVelocity = vec3(0.0f, 0.0f, -v0 / radius);
    marble.friction = 0.5f;
    marble.restitution = 0.0f;
    const BodyId id = world.createBody(marble);
    ASSERT_TRUE(world.isValid(id));
    for (int i = 0; i < 60; ++i) {
        world.step();
        const Body& body = world.body(id);
        ASSERT_NEAR(body.linearVelocity.x, v0, 0.01f * v0) << "step " << i;
        ASSERT_NEAR(-body.angularVelocity.z * radius, body.linearVelocity.x, 0.01f * v0) << "step " << i;
    }
    EXPECT_EQ(world.spinClampCount(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Shells, SlidingSphere,
                         ::testing::Values(RollingCase{"solid", 0.4f}, RollingCase{"hollow", 2.0f / 3.0f}),
                         [](const ::testing::TestParamInfo<RollingCase>& param) { return std::string(param.param.name); });

}  // namespace
}  // namespace impulse::test
