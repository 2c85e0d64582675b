// Tunnelling: bodies that move several times their own size (or the obstacle's
// thickness) in one step must still collide. At 60 Hz a body at 100 m/s moves
// 1.67 m per step, at 300 m/s 5 m: far more than a 0.1 m wall.
#include "robustness_util.h"

namespace impulse {
namespace {

using robust::addBox;
using robust::addGround;
using robust::addSphere;

constexpr float kWallHalfThickness = 0.05f;  // a 0.1 m thick wall, its near face at x = -0.05

BodyId addWall(World& world) {
    BodyDef wall;
    wall.name = "wall";
    wall.isStatic = true;
    wall.shape = Shape::box(vec3(kWallHalfThickness, 3.0f, 3.0f));
    wall.position = vec3(0.0f, 3.0f, 0.0f);
    return world.createBody(wall);
}

struct ShotResult {
    robust::RunRecord record;
    float deepest = -INFINITY;  // furthest the leading point got past the wall's near face, m (< 0: never reached it)
    vec3 finalVelocity{0.0f};
    vec3 finalPosition{0.0f};
};

// Fires a body at the wall along +x from 5 m away; zero gravity keeps it on line.
ShotResult shoot(const Shape& shape, float speed, const quat& orientation = quat(1, 0, 0, 0), int steps = 120) {
    WorldSettings settings;
    settings.gravity = vec3(0.0f);
    World world(settings);
    addWall(world);
    BodyDef def;
    def.name = "bullet";
    def.shape = shape;
    def.mass = 1.0f;
    def.position = vec3(-5.0f, 3.0f, 0.0f);
    def.orientation = orientation;
    def.linearVelocity = vec3(speed, 0.0f, 0.0f);
    def.restitution = 0.5f;
    const BodyId bullet = world.createBody(def);
    ShotResult result;
    const float reach = boundingRadius(shape);
    result.record = robust::run(world, steps, [&](int) {
        const Body& b = world.body(bullet);
        // Leading point: the sphere's front, or for a box its furthest corner along +x.
        float front = b.position.x + reach;
        if (shape.type == ShapeType::Box) {
            front = b.position.x;
            for (int k = 0; k < 3; ++k) front += std::fabs(b.rotation[k].x) * shape.halfExtents[k];
        }
        result.deepest = std::max(result.deepest, front - (-kWallHalfThickness));
    });
    result.finalVelocity = world.body(bullet).linearVelocity;
    result.finalPosition = world.body(bullet).position;
    return result;
}

// Tolerance: the leading point may pass the near face by at most 1 cm (the
// solver allows 0.5 cm slop; the wall is 10 cm thick), the body must end on the
// near side, moving away from the wall or at rest.
void expectStopped(const ShotResult& r, const char* what) {
    EXPECT_EQ(r.record.recoveries, 0u) << what << ": " << r.record.firstProblem;
    EXPECT_FALSE(r.record.nonFinite) << what;
    EXPECT_LE(r.deepest, 0.01f) << what << ": passed the wall's face by " << r.deepest << " m";
    EXPECT_LT(r.finalPosition.x, -kWallHalfThickness) << what << ": ended behind the wall";
    EXPECT_LE(r.finalVelocity.x, 1e-3f) << what;
    std::printf("%s: closest approach %.4f m past the face (negative: short of it), final x %.3f, vx %.3f m/s\n",
                what, r.deepest, r.finalPosition.x, r.finalVelocity.x);
}

TEST(Tunnelling, SphereAt100MetresPerSecondStopsAtThinWall) {
    expectStopped(shoot(Shape::sphere(0.25f), 100.0f), "0.25 m sphere at 100 m/s");
}

TEST(Tunnelling, SmallSphereAt300MetresPerSecondStopsAtThinWall) {
    expectStopped(shoot(Shape::sphere(0.05f), 300.0f), "0.05 m sphere at 300 m/s");
}

TEST(Tunnelling, SmallSphereAtTheSpeedLimitStopsAtThinWall) {
    expectStopped(shoot(Shape::sphere(0.05f), kMaxSpeed), "0.05 m sphere at 1000 m/s");
}

TEST(Tunnelling, TumblingBoxAt100MetresPerSecondStopsAtThinWall) {
    expectStopped(shoot(Shape::box(vec3(0.2f, 0.1f, 0.05f)), 100.0f,
                        glm::angleAxis(0.6f, glm::normalize(vec3(1.0f, 2.0f, 3.0f)))),
                  "rotated 0.4 x 0.2 x 0.1 m box at 100 m/s");
}

// A fast body bounces at the surface, not before it: a point still short of
// contact is held by the speculative limit until it arrives, and gets its
// restitution there (it used to turn up to |v| dt short: 1.37 m at 100 m/s).
// Tolerance: within 1 cm.
TEST(Tunnelling, FastBodyTouchesTheWallBeforeBouncing) {
    for (float speed : {100.0f, 300.0f}) {
        const ShotResult r = shoot(Shape::sphere(speed > 200.0f ? 0.05f : 0.25f), speed);
        EXPECT_GE(r.deepest, -0.01f) << "turned " << -r.deepest << " m short of the wall at " << speed << " m/s";
    }
}

// A box thrown down at 100 m/s from 10 m: the ground (1 m thick, top at y = 0)
// must stop it. Gravity on; tolerance 1 cm below the top surface at any time.
void dropOnGround(const Shape& shape, float speed, const quat& orientation, const char* what) {
    World world;
    addGround(world);
    BodyDef def;
    def.name = "falling";
    def.shape = shape;
    def.mass = 2.0f;
    def.position = vec3(0.0f, 10.0f, 0.0f);
    def.orientation = orientation;
    def.linearVelocity = vec3(0.0f, -speed, 0.0f);
    def.angularVelocity = vec3(3.0f, 0.0f, 5.0f);
    const BodyId id = world.createBody(def);
    float lowest = INFINITY;
    const robust::RunRecord record = robust::run(world, 180, [&](int) {
        const Body& b = world.body(id);
        float bottom = b.position.y - shape.radius;
        if (shape.type == ShapeType::Box) {
            bottom = b.position.y;
            for (int k = 0; k < 3; ++k) bottom -= std::fabs(b.rotation[k].y) * shape.halfExtents[k];
        }
        lowest = std::min(lowest, bottom);
    });
    EXPECT_EQ(record.recoveries, 0u) << what << ": " << record.firstProblem;
    EXPECT_FALSE(record.nonFinite) << what;
    // Not through the 1 m ground, and at most 5 cm in: a spinning box hits with one
    // corner, and a face that turns toward the ground within that step had no
    // contact points yet, so its corner can dip a little before the push-out.
    EXPECT_GE(lowest, -0.05f) << what << ": went " << -lowest << " m into the ground";
    EXPECT_GT(world.body(id).position.y, 0.0f) << what << ": ended below the ground";
    std::printf("%s: lowest point %.4f m, final y %.3f\n", what, lowest, world.body(id).position.y);
}

TEST(Tunnelling, BoxFallingAt100MetresPerSecondStopsOnGround) {
    dropOnGround(Shape::box(vec3(0.5f)), 100.0f, quat(1, 0, 0, 0), "unit box at 100 m/s");
    dropOnGround(Shape::box(vec3(0.3f, 0.1f, 0.2f)), 100.0f, glm::angleAxis(0.7f, glm::normalize(vec3(1, 0, 1))),
                 "tilted small box at 100 m/s");
}

TEST(Tunnelling, SphereFallingAt300MetresPerSecondStopsOnGround) {
    dropOnGround(Shape::sphere(0.05f), 300.0f, quat(1, 0, 0, 0), "0.05 m sphere at 300 m/s down");
}

// Fast body against a fast body: two spheres closing at 2 x 100 m/s.
TEST(Tunnelling, TwoFastSpheresCollideHeadOn) {
    WorldSettings settings;
    settings.gravity = vec3(0.0f);
    World world(settings);
    const BodyId a = addSphere(world, "a", 0.1f, 1.0f, vec3(-5.0f, 0.0f, 0.0f), vec3(100.0f, 0.0f, 0.0f));
    const BodyId b = addSphere(world, "b", 0.1f, 1.0f, vec3(5.0f, 0.0f, 0.0f), vec3(-100.0f, 0.0f, 0.0f));
    const robust::RunRecord record = robust::run(world, 60);
    EXPECT_EQ(record.recoveries, 0u) << record.firstProblem;
    // They bounced: each is back on its own side, moving away.
    EXPECT_LT(world.body(a).position.x, 0.0f);
    EXPECT_GT(world.body(b).position.x, 0.0f);
    EXPECT_LT(world.body(a).linearVelocity.x, 0.0f);
    EXPECT_GT(world.body(b).linearVelocity.x, 0.0f);
    // Energy may not grow (restitution 0.1 makes it drop).
    EXPECT_LE(world.kineticEnergy(), 1e4 * (1.0 + 1e-5));
}

}  // namespace
}  // namespace impulse
