// Deep initial overlaps: bodies spawned inside each other (a user drops a body
// into a pile, a scene file puts two at the same point). They must separate in
// bounded time without being launched.
//
// The energy bound. Penetration recovery (the position pass at 651bc78, the
// split-impulse push-out since d6b2fb8) moves positions without changing the
// bodies' real velocities, and a contact whose points already penetrate has a
// normal target velocity of 0 (no Baumgarte bias in the velocity solve), so
// pushing bodies apart adds no kinetic energy by itself. Kinetic energy can
// only come from gravity acting after the recovery has lifted a body. So:
//  - without gravity, KE stays at its initial value (0) up to float rounding;
//  - with gravity, E(t) = KE + PE <= E(0) + sum_i m_i |g| L, where L bounds how far
//    the recovery lifts a body: the overlap depth for two bodies, and for a
//    cluster spawned at one point the height of the tallest stack it could form
//    (the sum of the bodies' diameters). A launch (a body thrown out at tens of
//    m/s) breaks this bound by orders of magnitude.
// "Separated" means the deepest contact penetration is below 1 cm (2 slops).
#include "robustness_util.h"

namespace impulse {
namespace {

using robust::addBox;
using robust::addGround;
using robust::addSphere;

struct OverlapRun {
    robust::RunRecord record;
    int separatedAtStep = -1;  // first step after which the deepest penetration stays < 1 cm
    double maxEnergyGrowth = 0.0;
    float maxSpeed = 0.0f;
    float lowestCentre = INFINITY;       // over the run
    float lowestFinalBottom = INFINITY;  // lowest point of any dynamic body at the end (m; 0 = ground top)
};

constexpr float kSeparated = 0.01f;

OverlapRun watch(World& world, int steps) {
    OverlapRun r;
    const double initial = robust::totalEnergy(world);
    r.record = robust::run(world, steps, [&](int i) {
        const float deepest = robust::deepestPenetration(world);
        if (deepest >= kSeparated) {
            r.separatedAtStep = -1;
        } else if (r.separatedAtStep < 0) {
            r.separatedAtStep = i;
        }
        r.maxEnergyGrowth = std::max(r.maxEnergyGrowth, robust::totalEnergy(world) - initial);
        for (BodyId id : world.bodyIds()) {
            const Body& b = world.body(id);
            if (b.isStatic) continue;
            r.maxSpeed = std::max(r.maxSpeed, glm::length(b.linearVelocity));
            r.lowestCentre = std::min(r.lowestCentre, b.position.y);
        }
    });
    for (BodyId id : world.bodyIds()) {
        const Body& b = world.body(id);
        if (b.isStatic) continue;
        float bottom = b.position.y - b.shape.radius;
        if (b.shape.type == ShapeType::Box) {
            bottom = b.position.y;
            for (int k = 0; k < 3; ++k) bottom -= std::fabs(b.rotation[k].y) * b.shape.halfExtents[k];
        }
        r.lowestFinalBottom = std::min(r.lowestFinalBottom, bottom);
    }
    return r;
}

// Ground checks: a body may be pushed into the (1 m thick) ground while the pile
// sorts itself out, but never through it, and at the end every body rests on or
// above it (1 cm tolerance: two slops).
void expectOnTheGround(const OverlapRun& r, const char* what) {
    EXPECT_GT(r.lowestCentre, -1.0f) << what << ": a body went through the ground";
    EXPECT_GT(r.lowestFinalBottom, -0.01f) << what << ": a body ended inside the ground";
}

// Two unit boxes, one 0.9 m inside the other, no gravity: they separate within
// 1 s and their kinetic energy stays zero (nothing is launched).
TEST(DeepOverlap, TwoBoxesInsideEachOtherWithoutGravitySeparateWithoutGainingEnergy) {
    WorldSettings settings;
    settings.gravity = vec3(0.0f);
    World world(settings);
    addBox(world, "a", vec3(0.5f), 1.0f, vec3(0.0f));
    addBox(world, "b", vec3(0.5f), 1.0f, vec3(0.1f, 0.05f, 0.02f));
    const OverlapRun r = watch(world, 120);
    EXPECT_EQ(r.record.recoveries, 0u) << r.record.firstProblem;
    EXPECT_FALSE(r.record.nonFinite);
    EXPECT_LE(r.record.maxKinetic, 1e-9);
    EXPECT_GE(r.separatedAtStep, 0);
    EXPECT_LT(r.separatedAtStep, 60);
    std::printf("two boxes, g = 0: separated after %d steps, max KE %.3g J\n", r.separatedAtStep,
                r.record.maxKinetic);
}

// The same two boxes on the ground, with gravity: E(t) <= E(0) + (m_a + m_b) g 0.9 m.
TEST(DeepOverlap, TwoBoxesInsideEachOtherOnTheGroundSeparate) {
    World world;
    addGround(world);
    addBox(world, "a", vec3(0.5f), 1.0f, vec3(0.0f, 0.5f, 0.0f));
    addBox(world, "b", vec3(0.5f), 1.0f, vec3(0.05f, 0.6f, 0.0f));
    const OverlapRun r = watch(world, 180);
    const double bound = 2.0 * 9.81 * 0.9;
    EXPECT_EQ(r.record.recoveries, 0u) << r.record.firstProblem;
    EXPECT_FALSE(r.record.nonFinite);
    EXPECT_LE(r.maxEnergyGrowth, bound);
    EXPECT_GE(r.separatedAtStep, 0);
    EXPECT_LT(r.separatedAtStep, 60);
    expectOnTheGround(r, "two boxes");
    std::printf("two boxes on ground: separated after %d steps, max dE %.3g J (bound %.3g), max speed %.3f\n",
                r.separatedAtStep, r.maxEnergyGrowth, bound, r.maxSpeed);
}

// Ten bodies (boxes and spheres, 1 m across, 1 kg) spawned at the same point just
// above the ground. Bound: L = 10 m, E(t) <= E(0) + 10 kg g 10 m; speed below 15 m/s
// (a fall from the top of that 10 m stack reaches 14 m/s). Separated within 3 s.
void tenAtOnePoint(bool gravity) {
    WorldSettings settings;
    if (!gravity) settings.gravity = vec3(0.0f);
    World world(settings);
    addGround(world);
    for (int i = 0; i < 10; ++i) {
        const vec3 point(0.0f, 0.6f, 0.0f);
        if (i % 2 == 0) {
            addBox(world, "box" + std::to_string(i), vec3(0.5f), 1.0f, point);
        } else {
            addSphere(world, "ball" + std::to_string(i), 0.5f, 1.0f, point);
        }
    }
    const OverlapRun r = watch(world, 300);
    const double bound = gravity ? 10.0 * 9.81 * 10.0 : 1e-9;
    EXPECT_EQ(r.record.recoveries, 0u) << r.record.firstProblem;
    EXPECT_FALSE(r.record.nonFinite);
    if (gravity) {
        EXPECT_LE(r.maxEnergyGrowth, bound);
        EXPECT_LT(r.maxSpeed, 15.0f);
    } else {
        EXPECT_LE(r.record.maxKinetic, bound);
    }
    EXPECT_GE(r.separatedAtStep, 0);
    EXPECT_LT(r.separatedAtStep, 180);
    expectOnTheGround(r, "ten at one point");
    std::printf("ten at one point (g %s): separated after %d steps, max dE %.3g J, max KE %.3g J, max speed %.3f "
                "m/s, lowest centre %.4f\n",
                gravity ? "on" : "off", r.separatedAtStep, r.maxEnergyGrowth, r.record.maxKinetic, r.maxSpeed,
                r.lowestCentre);
}

TEST(DeepOverlap, TenBodiesAtOnePointWithGravitySeparate) { tenAtOnePoint(true); }
TEST(DeepOverlap, TenBodiesAtOnePointWithoutGravitySeparateWithoutGainingEnergy) { tenAtOnePoint(false); }

// The same ten bodies on a 10 cm thick floor (top at y = 0): no body is pushed
// through it. (Before d6b2fb8 one was: the position pass moved a pair apart by up
// to 0.2 m per iteration, more than the floor's thickness, and the body fell
// forever, y = -99 m after 5 s; on the 1 m ground the lowest centre dipped to
// y = -0.07 before recovering, -0.002 now.)
TEST(DeepOverlap, TenBodiesAtOnePointStayAboveAThinFloor) {
    World world;
    addGround(world, 50.0f, 0.05f);
    for (int i = 0; i < 10; ++i) {
        const vec3 point(0.0f, 0.6f, 0.0f);
        if (i % 2 == 0) {
            addBox(world, "box" + std::to_string(i), vec3(0.5f), 1.0f, point);
        } else {
            addSphere(world, "ball" + std::to_string(i), 0.5f, 1.0f, point);
        }
    }
    const OverlapRun r = watch(world, 300);
    EXPECT_EQ(r.record.recoveries, 0u) << r.record.firstProblem;
    EXPECT_GT(r.lowestCentre, -0.1f) << "a body went through the 10 cm floor";
    EXPECT_GT(r.lowestFinalBottom, -0.01f);
}

// A body moved by a live edit into the middle of a resting stack: the same rules.
TEST(DeepOverlap, BodyTeleportedIntoARestingStack) {
    World world;
    addGround(world);
    for (int i = 0; i < 4; ++i) addBox(world, "s" + std::to_string(i), vec3(0.5f), 1.0f, vec3(0.0f, 0.5f + i * 1.001f, 0.0f));
    const BodyId ball = addSphere(world, "ball", 0.4f, 1.0f, vec3(3.0f, 0.4f, 0.0f));
    robust::run(world, 60);
    BodyDef def = world.bodyDef(ball);
    def.position = world.body(world.findBody("s1")).position + vec3(0.1f, 0.2f, 0.0f);
    ASSERT_FALSE(world.updateBody(ball, def));
    const OverlapRun r = watch(world, 240);
    EXPECT_EQ(r.record.recoveries, 0u) << r.record.firstProblem;
    EXPECT_FALSE(r.record.nonFinite);
    EXPECT_LE(r.maxEnergyGrowth, 5.0 * 9.81 * 5.0);  // L = height of the 5-body stack
    EXPECT_LT(r.maxSpeed, 15.0f);
    EXPECT_GE(r.separatedAtStep, 0);
    expectOnTheGround(r, "teleported");
    std::printf("teleported into stack: separated after %d steps, max dE %.3g J, max speed %.3f m/s\n",
                r.separatedAtStep, r.maxEnergyGrowth, r.maxSpeed);
}

}  // namespace
}  // namespace impulse
