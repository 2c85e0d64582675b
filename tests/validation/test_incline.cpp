// A block on an incline of angle theta: it sticks while tan(theta) <= mu_s and
// otherwise slides with a = g (sin theta - mu_d cos theta). The acceleration is
// measured between t = 1 s and t = 2 s and checked to 1 %; "sticks" means less
// than 1 mm of travel in 2 s.
#include "scenario.h"

#include <glm/gtc/constants.hpp>
#include <gtest/gtest.h>

namespace impulse::test {
namespace {

constexpr float kG = 9.81f;

struct Incline {
    World world;
    BodyId block;
    vec3 downhill;
};

Incline makeIncline(float thetaDegrees, float staticMu, float dynamicMu, float initialSpeed) {
    Incline s{World(), {}, {}};
    const quat tilt = glm::angleAxis(glm::radians(thetaDegrees), vec3(0.0f, 0.0f, 1.0f));
    BodyDef ramp;
    ramp.isStatic = true;
    ramp.shape = Shape::box(vec3(50.0f, 0.5f, 5.0f));
    ramp.orientation = tilt;
    ramp.position = rotate(tilt, vec3(0.0f, -0.5f, 0.0f));  // top face through the origin
    ramp.friction = dynamicMu;
    ramp.staticFriction = staticMu;
    s.world.createBody(ramp);
    s.downhill = rotate(tilt, vec3(-1.0f, 0.0f, 0.0f));
    BodyDef block = boxDef(vec3(0.25f), 1.0f, rotate(tilt, vec3(0.0f, 0.25f, 0.0f)));
    block.orientation = tilt;
    block.friction = dynamicMu;
    block.staticFriction = staticMu;
    block.restitution = 0.0f;
    block.linearVelocity = initialSpeed * s.downhill;
    s.block = s.world.createBody(block);
    return s;
}

float travel(const Incline& s) { return glm::dot(s.world.body(s.block).position, s.downhill); }
float speed(const Incline& s) { return glm::dot(s.world.body(s.block).linearVelocity, s.downhill); }

void run(Incline& s, float seconds) {
    const int steps = int(seconds / s.world.settings().timestep + 0.5f);
    for (int i = 0; i < steps; ++i) s.world.step();
}

TEST(Incline, SticksBelowFrictionAngle) {
    Incline s = makeIncline(20.0f, 0.5f, 0.5f, 0.0f);  // tan 20 deg = 0.364 < 0.5
    const float start = travel(s);
    run(s, 2.0f);
    EXPECT_LT(std::fabs(travel(s) - start), 0.001f);
    const auto contacts = s.world.contacts();
    ASSERT_FALSE(contacts.empty());
    for (const ContactPointInfo& c : contacts) EXPECT_TRUE(c.sticking);
}

class SlidingBlock : public ::testing::TestWithParam<std::pair<float, float>> {};

TEST_P(SlidingBlock, AcceleratesAtClosedFormRate) {
    const auto [thetaDegrees, mu] = GetParam();
    Incline s = makeIncline(thetaDegrees, mu, mu, 0.0f);
    const float theta = glm::radians(thetaDegrees);
    const float expected = kG * (std::sin(theta) - mu * std::cos(theta));
    run(s, 1.0f);
    const float v1 = speed(s);
    run(s, 1.0f);
    const float v2 = speed(s);
    EXPECT_NEAR(v2 - v1, expected, 0.01f * expected) << "theta " << thetaDegrees << " mu " << mu;
    for (const ContactPointInfo& c : s.world.contacts()) EXPECT_FALSE(c.sticking);
}

INSTANTIATE_TEST_SUITE_P(AnglesAndFriction, SlidingBlock,
                         ::testing::Values(std::make_pair(30.0f, 0.3f), std::make_pair(45.0f, 0.5f),
                                           std::make_pair(20.0f, 0.1f), std::make_pair(35.0f, 0.0f)));

// Static above dynamic: at rest the block holds on a 25 degree slope with
// mu_s = 0.5 (tan 25 = 0.466), yet once pushed it slides with mu_d = 0.3.
TEST(Incline, StaticFrictionHoldsAndKineticFrictionSlides) {
    Incline resting = makeIncline(25.0f, 0.5f, 0.3f, 0.0f);
    const float start = travel(resting);
    run(resting, 2.0f);
    EXPECT_LT(std::fabs(travel(resting) - start), 0.001f);

    Incline pushed = makeIncline(25.0f, 0.5f, 0.3f, 1.0f);
    run(pushed, 1.0f);
    const float v1 = speed(pushed);
    run(pushed, 1.0f);
    const float v2 = speed(pushed);
    const float theta = glm::radians(25.0f);
    const float expected = kG * (std::sin(theta) - 0.3f * std::cos(theta));
    EXPECT_NEAR(v2 - v1, expected, 0.01f * expected);
}

}  // namespace
}  // namespace impulse::test
