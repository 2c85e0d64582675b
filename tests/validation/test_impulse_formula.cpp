// Collisions against the closed-form impulse formula:
//   j = -(1 + e) v_rel.n / (1/m_A + 1/m_B + n.[(I_A^-1 (r_A x n)) x r_A] + n.[(I_B^-1 (r_B x n)) x r_B])
//   v' = v -+ j n / m,  w' = w -+ I^-1 (r x j n)
#include "scenario.h"

#include <gtest/gtest.h>

#include <glm/gtc/quaternion.hpp>

#include <tuple>

namespace impulse::test {
namespace {

using glm::dmat3;
using glm::dvec3;

// Body-frame tensor with off-diagonal terms; principal moments 0.15, 0.25, 0.3
// kg m^2 (physical: 0.15 + 0.25 >= 0.3), the 0.25 axis along (1, 1, 0)/sqrt(2).
const mat3 kSkewedInertia(vec3(0.2f, 0.05f, 0.0f), vec3(0.05f, 0.2f, 0.0f), vec3(0.0f, 0.0f, 0.3f));

struct OffCentreImpact {
    World world;
    BodyId sphere, box;
    dvec3 normal, point;
};

// A spinning sphere strikes a rotated, spinning box off-centre on its +x face,
// starting exactly in contact. The box spins about a principal axis, so the
// gyroscopic term leaves its angular velocity unchanged before the impact.
OffCentreImpact makeOffCentreImpact(const WorldSettings& settings, float restitution, float friction) {
    OffCentreImpact s{World(settings), {}, {}, {}, {}};
    const quat boxOrientation = glm::angleAxis(0.6f, glm::normalize(vec3(1.0f, 2.0f, 3.0f)));
    const vec3 halfExtents(0.6f, 0.4f, 0.3f);
    const vec3 boxPosition(0.3f, -0.2f, 0.1f);
    const float radius = 0.25f;
    const vec3 localContact(halfExtents.x, 0.2f, -0.1f);

    BodyDef sphere = sphereDef(radius, 0.7f, boxPosition + rotate(boxOrientation, localContact + vec3(radius, 0, 0)));
    sphere.linearVelocity = rotate(boxOrientation, vec3(-4.0f, 0.5f, 0.3f));
    sphere.angularVelocity = vec3(1.0f, 2.0f, 3.0f);
    sphere.restitution = restitution;
    sphere.friction = friction;
    s.sphere = s.world.createBody(sphere);

    BodyDef box = boxDef(halfExtents, 3.0f, boxPosition);
    box.orientation = boxOrientation;
    box.inertia = kSkewedInertia;
    box.angularVelocity = rotate(boxOrientation, 2.0f * glm::normalize(vec3(1.0f, 1.0f, 0.0f)));
    box.linearVelocity = vec3(0.2f, 0.1f, -0.3f);
    box.restitution = restitution;
    box.friction = friction;
    s.box = s.world.createBody(box);

    s.normal = -dvec3(rotate(boxOrientation, vec3(1, 0, 0)));  // from the sphere (A) to the box (B)
    s.point = dvec3(boxPosition + rotate(boxOrientation, localContact));
    return s;
}

struct Velocities {
    double impulse;  // j
    dvec3 vA, wA, vB, wB;
    dvec3 spinMomentumB;  // I_B,world w_B after the impulse, at the pre-step orientation
};

dvec3 spinMomentum(const Body& body) {
    const dmat3 rotation(glm::mat3_cast(body.orientation));
    return rotation * dmat3(body.inertiaBody) * glm::transpose(rotation) * dvec3(body.angularVelocity);
}

// The textbook single impulse, evaluated in double precision from the state before the step.
Velocities textbookImpulse(const World& world, BodyId idA, BodyId idB, const dvec3& n, const dvec3& point, double e) {
    const Body& a = world.body(idA);
    const Body& b = world.body(idB);
    const dmat3 inverseInertiaA(a.inverseInertiaWorld);
    const dmat3 rotationB(glm::mat3_cast(b.orientation));
    const dmat3 inverseInertiaB = rotationB * glm::inverse(dmat3(b.inertiaBody)) * glm::transpose(rotationB);
    const dvec3 rA = point - dvec3(a.position), rB = point - dvec3(b.position);
    Velocities v{0.0, dvec3(a.linearVelocity), dvec3(a.angularVelocity), dvec3(b.linearVelocity),
                 dvec3(b.angularVelocity), dvec3(0.0)};
    const dvec3 relative = v.vB + glm::cross(v.wB, rB) - v.vA - glm::cross(v.wA, rA);
    const double approach = glm::dot(relative, n);
    const double k = 1.0 / a.mass + 1.0 / b.mass + glm::dot(n, glm::cross(inverseInertiaA * glm::cross(rA, n), rA)) +
                     glm::dot(n, glm::cross(inverseInertiaB * glm::cross(rB, n), rB));
    v.impulse = -(1.0 + e) * approach / k;
    const dvec3 impulse = v.impulse * n;
    v.vA -= impulse / double(a.mass);
    v.wA -= inverseInertiaA * glm::cross(rA, impulse);
    v.vB += impulse / double(b.mass);
    v.wB += inverseInertiaB * glm::cross(rB, impulse);
    v.spinMomentumB = rotationB * dmat3(b.inertiaBody) * glm::transpose(rotationB) * v.wB;
    return v;
}

void expectNear(const dvec3& expected, const vec3& actual, double tolerance, const char* what) {
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(expected[i], actual[i], tolerance) << what << "[" << i << "]";
}

class SingleImpulse : public ::testing::TestWithParam<float> {};

// One contact, one iteration (one sub-step), no warm start, no friction: the
// solver's velocities must be the textbook result. The box then turns during
// the step and its w changes with its orientation at constant spin angular
// momentum, so for the box I_world w is compared. e > 0 only: with e = 0 the
// bodies stay in contact after the impact and the turning box keeps pressing,
// which is more than one impulse (e = 0 is checked head-on below).
// Tolerance 2e-5 (m/s, rad/s, kg m^2/s): single-precision rounding on values of ~4.
TEST_P(SingleImpulse, MatchesTextbookFormulaWithSkewedInertia) {
    const float e = GetParam();
    WorldSettings settings = zeroGravity();
    settings.subSteps = 1;
    settings.warmStarting = false;
    settings.restitutionThreshold = 0.01f;
    OffCentreImpact s = makeOffCentreImpact(settings, e, 0.0f);
    const Velocities expected = textbookImpulse(s.world, s.sphere, s.box, s.normal, s.point, e);

    s.world.step();

    ASSERT_EQ(s.world.contacts().size(), 1u);
    const ContactPointInfo contact = s.world.contacts()[0];
    EXPECT_NEAR(glm::length(dvec3(contact.normal) - s.normal), 0.0, 1e-6);
    EXPECT_NEAR(glm::length(dvec3(contact.point) - s.point), 0.0, 1e-5);
    const double tolerance = 2e-5;
    expectNear(expected.vA, s.world.body(s.sphere).linearVelocity, tolerance, "sphere v");
    expectNear(expected.wA, s.world.body(s.sphere).angularVelocity, tolerance, "sphere w");
    expectNear(expected.vB, s.world.body(s.box).linearVelocity, tolerance, "box v");
    const dvec3 spin = spinMomentum(s.world.body(s.box));
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(expected.spinMomentumB[i], spin[i], tolerance) << "box I w [" << i << "]";
    // The impulse of the step is j itself (2e-5 N s).
    EXPECT_NEAR(contact.normalImpulse, expected.impulse, tolerance);
}

INSTANTIATE_TEST_SUITE_P(Restitution, SingleImpulse, ::testing::Values(0.3f, 0.8f, 1.0f));

// With e = 1 and no friction the impulse model conserves kinetic energy, and
// every impulse conserves linear and angular momentum, also with the full
// solver (10 iterations, warm starting). Tolerance 1e-4 relative (float state).
TEST(OffCentreImpact, ElasticFrictionlessConservesEnergyAndMomentum) {
    WorldSettings settings = zeroGravity();
    settings.restitutionThreshold = 0.01f;
    OffCentreImpact s = makeOffCentreImpact(settings, 1.0f, 0.0f);
    const double energy = s.world.kineticEnergy();
    const dvec3 linear = s.world.linearMomentum();
    const dvec3 angular = s.world.angularMomentum();
    for (int i = 0; i < 60; ++i) s.world.step();
    EXPECT_NEAR(s.world.kineticEnergy(), energy, 1e-4 * energy);
    EXPECT_NEAR(glm::length(s.world.linearMomentum() - linear), 0.0, 1e-4 * glm::length(linear));
    EXPECT_NEAR(glm::length(s.world.angularMomentum() - angular), 0.0, 1e-4 * glm::length(angular));
    EXPECT_TRUE(s.world.contacts().empty()) << "the bodies should have separated";
}

// Head-on spheres, any e and mass ratio:
//   v1' = (m1 v1 + m2 v2 + m2 e (v2 - v1)) / (m1 + m2),  v2' = (m1 v1 + m2 v2 + m1 e (v1 - v2)) / (m1 + m2)
// Tolerance 1e-5 relative to the approach speed (3 m/s).
class HeadOn : public ::testing::TestWithParam<std::tuple<float, float>> {};

TEST_P(HeadOn, MatchesNewtonRestitution) {
    const auto [e, massRatio] = GetParam();
    World world(zeroGravity());
    const double m1 = 1.0, m2 = massRatio, v1 = 2.0, v2 = -1.0;
    BodyDef first = sphereDef(0.5f, float(m1), vec3(-1.0f, 0.0f, 0.0f));
    first.linearVelocity = vec3(float(v1), 0.0f, 0.0f);
    first.restitution = e;
    BodyDef second = sphereDef(0.5f, float(m2), vec3(1.0f, 0.0f, 0.0f));
    second.linearVelocity = vec3(float(v2), 0.0f, 0.0f);
    second.restitution = e;
    const BodyId a = world.createBody(first), b = world.createBody(second);
    for (int i = 0; i < 60; ++i) world.step();
    const double expected1 = (m1 * v1 + m2 * v2 + m2 * e * (v2 - v1)) / (m1 + m2);
    const double expected2 = (m1 * v1 + m2 * v2 + m1 * e * (v1 - v2)) / (m1 + m2);
    const double tolerance = 1e-5 * 3.0;
    EXPECT_NEAR(world.body(a).linearVelocity.x, expected1, tolerance);
    EXPECT_NEAR(world.body(b).linearVelocity.x, expected2, tolerance);
    EXPECT_NEAR(glm::length(vec3(0.0f, world.body(a).linearVelocity.y, world.body(a).linearVelocity.z)), 0.0, 1e-6);
    EXPECT_NEAR(glm::length(world.body(a).angularVelocity), 0.0, 1e-6);
}

INSTANTIATE_TEST_SUITE_P(RestitutionAndMassRatio, HeadOn,
                         ::testing::Combine(::testing::Values(0.0f, 0.25f, 0.5f, 0.75f, 1.0f),
                                            ::testing::Values(1.0f, 2.0f, 10.0f, 100.0f)));

// Two spheres of radius 0.5 m on the x axis with `gap` between them; A (1 kg)
// moves toward B, which is at rest; the pair is stepped for 1 s.
struct SpherePair {
    World world;
    BodyId a, b;
};

SpherePair headOnPair(const WorldSettings& settings, float gap, float massB, float speedA, float restitutionA,
                      float restitutionB) {
    SpherePair pair{World(settings), {}, {}};
    BodyDef first = sphereDef(0.5f, 1.0f, vec3(-0.5f - 0.5f * gap, 0.0f, 0.0f));
    first.linearVelocity = vec3(speedA, 0.0f, 0.0f);
    first.restitution = restitutionA;
    BodyDef second = sphereDef(0.5f, massB, vec3(0.5f + 0.5f * gap, 0.0f, 0.0f));
    second.restitution = restitutionB;
    pair.a = pair.world.createBody(first);
    pair.b = pair.world.createBody(second);
    for (int i = 0; i < 60; ++i) pair.world.step();
    return pair;
}

// Approaches slower than the restitution threshold do not bounce: the pair
// moves on together at the centre-of-mass velocity (tolerance 1e-5 m/s).
TEST(HeadOn, BelowThresholdIsPerfectlyInelastic) {
    WorldSettings settings = zeroGravity();
    settings.restitutionThreshold = 1.0f;
    const SpherePair pair = headOnPair(settings, 0.2f, 3.0f, 0.4f, 1.0f, 1.0f);
    EXPECT_NEAR(pair.world.body(pair.a).linearVelocity.x, 0.1, 1e-5);
    EXPECT_NEAR(pair.world.body(pair.b).linearVelocity.x, 0.1, 1e-5);
}

// The pair's e follows the world's combine rule (0.2 and 0.9 here).
TEST(HeadOn, RestitutionCombineRules) {
    const std::pair<RestitutionCombine, double> cases[] = {{RestitutionCombine::Max, 0.9},
                                                           {RestitutionCombine::Min, 0.2},
                                                           {RestitutionCombine::Average, 0.55},
                                                           {RestitutionCombine::Multiply, 0.18}};
    for (const auto& [rule, e] : cases) {
        WorldSettings settings = zeroGravity();
        settings.restitutionCombine = rule;
        const SpherePair pair = headOnPair(settings, 1.0f, 1.0f, 2.0f, 0.2f, 0.9f);
        // Equal masses: separating speed e * 2 m/s around the centre-of-mass velocity 1 m/s.
        EXPECT_NEAR(pair.world.body(pair.a).linearVelocity.x, 1.0 - e, 1e-5) << toString(rule);
        EXPECT_NEAR(pair.world.body(pair.b).linearVelocity.x, 1.0 + e, 1e-5) << toString(rule);
    }
}

}  // namespace
}  // namespace impulse::test
