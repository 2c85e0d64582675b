// The contact solver (physics/contact_solver.h) on hand-built contacts: the
// textbook single impulse, restitution and speculative targets, the friction
// cone, and warm-start matching by feature id and proximity.
#include "physics/contact_solver.h"

#include "physics_test_util.h"

namespace impulse {
namespace {

using test::axisAngle;

Body dynamicBox(const vec3& half, float mass, const vec3& position, const quat& q) {
    Body body;
    body.shape = Shape::box(half);
    body.mass = mass;
    body.inverseMass = 1.0f / mass;
    body.inertiaBody = shapeInertia(body.shape, mass);
    body.inverseInertiaBody = glm::inverse(body.inertiaBody);
    body.position = position;
    body.orientation = q;
    body.alive = true;
    body.updateWorldInertia();
    return body;
}

Body staticGround() {
    Body body;
    body.shape = Shape::box(vec3(10.0f, 0.5f, 10.0f));
    body.isStatic = true;
    body.inverseMass = 0.0f;
    body.inverseInertiaBody = mat3(0.0f);
    body.position = vec3(0.0f, -0.5f, 0.0f);
    body.alive = true;
    body.updateWorldInertia();
    return body;
}

// One point: A = tilted falling box, B = static ground, n from A to B = -y.
struct OneContact {
    std::vector<Body> bodies;
    std::vector<ContactManifold> manifolds;
    vec3 point;
    ContactSolverData data;
};

// One sweep, then the velocities and impulses written back for inspection.
void solveSweep(OneContact& c, bool reverse) {
    solveContactVelocities(c.data, reverse);
    finishContacts(c.data, c.manifolds, c.bodies);
}

OneContact makeContact(const vec3& velocity, const vec3& spin, float separation, float restitution, float friction) {
    OneContact c;
    const quat q = axisAngle(vec3(1.0f, 0.4f, 0.7f), 0.6f);
    c.bodies.push_back(dynamicBox(vec3(0.5f, 0.3f, 0.2f), 2.0f, vec3(0.0f, 1.0f, 0.0f), q));
    c.bodies.push_back(staticGround());
    c.bodies[0].linearVelocity = velocity;
    c.bodies[0].angularVelocity = spin;
    c.point = vec3(0.2f, 0.0f, -0.1f);
    Manifold m;
    m.normal = vec3(0.0f, -1.0f, 0.0f);
    m.pointCount = 1;
    m.points[0] = ManifoldPoint{c.point, separation, 5};
    ContactManifold& cm = c.manifolds.emplace_back();
    cm.a = 0;
    cm.b = 1;
    cm.restitution = restitution;
    cm.friction = friction;
    cm.staticFriction = friction;
    initManifold(cm, m, c.bodies[0], c.bodies[1], nullptr, true);
    return c;
}

float normalVelocity(const OneContact& c) {
    const Body& a = c.bodies[0];
    const vec3 vA = a.linearVelocity + glm::cross(a.angularVelocity, c.point - a.position);
    return glm::dot(-vA, c.manifolds[0].normal);  // B is static
}

TEST(ContactSolver, OneContactOneIterationIsTheTextbookImpulse) {
    OneContact c = makeContact(vec3(0.3f, -3.0f, 0.1f), vec3(1.0f, -0.5f, 2.0f), -0.001f, 0.6f, 0.0f);
    const float dt = 1.0f / 60.0f;
    prepareContacts(c.manifolds, c.bodies, SolverSettings{dt, 1.0f, vec3(0.0f)}, c.data);
    const ContactPoint& p = c.manifolds[0].points[0];

    // k_n computed independently in double: 1/m + n.[(I^-1 (r x n)) x r] with I^-1 = R I_b^-1 R^T.
    const Body& a = c.bodies[0];
    const glm::dmat3 r(a.rotation);
    const glm::dmat3 invI = r * glm::inverse(glm::dmat3(a.inertiaBody)) * glm::transpose(r);
    const glm::dvec3 rA(c.point - a.position), n(c.manifolds[0].normal);
    const double angular = glm::dot(n, glm::cross(invI * glm::cross(rA, n), rA));
    const double k = 0.5 + angular;
    EXPECT_NEAR(p.angularTermA, angular, 1e-5 * angular);  // float vs double: 1e-5 relative
    EXPECT_EQ(p.angularTermB, 0.0f);
    EXPECT_NEAR(p.normalMass, 1.0 / k, 1e-5 / k);

    const double vn = normalVelocity(c);
    ASSERT_LT(vn, -1.0) << "approach faster than the threshold";
    EXPECT_NEAR(p.normalVelocityBefore, vn, 1e-5);
    EXPECT_NEAR(p.targetVelocity, -0.6 * vn, 1e-5);

    solveSweep(c, false);
    // j = -(1 + e) v_n / k_n, and afterwards v_n' = -e v_n (1e-5 relative).
    const double j = -(1.0 + 0.6) * vn / k;
    EXPECT_NEAR(c.manifolds[0].points[0].normalImpulse, j, 1e-5 * j);
    EXPECT_NEAR(normalVelocity(c), -0.6 * vn, 1e-5 * std::fabs(vn));
    // The impulse acts on A as -j n: its linear velocity changes by j/m along +y.
    EXPECT_NEAR(c.bodies[0].linearVelocity.y, -3.0 + j / 2.0, 1e-5);
    EXPECT_NEAR(c.bodies[0].linearVelocity.x, 0.3f, 1e-6f);  // frictionless: tangential untouched
}

TEST(ContactSolver, SlowApproachDoesNotBounce) {
    OneContact c = makeContact(vec3(0.0f, -0.5f, 0.0f), vec3(0.0f), -0.001f, 1.0f, 0.0f);
    prepareContacts(c.manifolds, c.bodies, SolverSettings{1.0f / 60.0f, 1.0f, vec3(0.0f)}, c.data);
    EXPECT_EQ(c.manifolds[0].points[0].targetVelocity, 0.0f);
    for (int i = 0; i < 4; ++i) solveSweep(c, i % 2 == 1);
    EXPECT_NEAR(normalVelocity(c), 0.0f, 1e-6f);  // inelastic below the threshold (rounding)
}

TEST(ContactSolver, SpeculativePointLetsTheGapCloseButNoMore) {
    const float dt = 1.0f / 60.0f;
    // 5 cm gap, approaching at 0.5 m/s: the gap is not closed this step -> no impulse.
    OneContact far = makeContact(vec3(0.0f, -0.5f, 0.0f), vec3(0.0f), 0.05f, 0.5f, 0.0f);
    prepareContacts(far.manifolds, far.bodies, SolverSettings{dt, 1.0f, vec3(0.0f)}, far.data);
    EXPECT_NEAR(far.manifolds[0].points[0].targetVelocity, -0.05f / dt, 1e-4f);
    const vec3 before = far.bodies[0].linearVelocity;
    solveSweep(far, false);
    EXPECT_EQ(far.manifolds[0].points[0].normalImpulse, 0.0f);
    EXPECT_TRUE(test::sameBits(far.bodies[0].linearVelocity, before));
    // 1 cm gap at 6 m/s (would travel 10 cm this step): the gap closes within the
    // step, so the approach counts as a collision and Newton's law applies.
    OneContact fast = makeContact(vec3(0.0f, -6.0f, 0.0f), vec3(0.0f), 0.01f, 0.5f, 0.0f);
    prepareContacts(fast.manifolds, fast.bodies, SolverSettings{dt, 1.0f, vec3(0.0f)}, fast.data);
    EXPECT_NEAR(fast.manifolds[0].points[0].targetVelocity, 3.0f, 1e-5f);  // -e v_n, rounding
    for (int i = 0; i < 4; ++i) solveSweep(fast, i % 2 == 1);
    EXPECT_NEAR(normalVelocity(fast), 3.0f, 1e-4f);  // converged after 4 sweeps of one point
    // 1 cm gap at 0.5 m/s: does not close this step, so only the gap limit applies.
    OneContact slow = makeContact(vec3(0.0f, -0.5f, 0.0f), vec3(0.0f), 0.01f, 0.5f, 0.0f);
    prepareContacts(slow.manifolds, slow.bodies, SolverSettings{dt, 0.1f, vec3(0.0f)}, slow.data);
    EXPECT_NEAR(slow.manifolds[0].points[0].targetVelocity, -0.01f / dt, 1e-4f);
}

TEST(ContactSolver, SeparatingContactGetsNoImpulse) {
    OneContact c = makeContact(vec3(0.0f, 2.0f, 0.0f), vec3(0.0f), -0.002f, 0.5f, 0.8f);
    prepareContacts(c.manifolds, c.bodies, SolverSettings{1.0f / 60.0f, 1.0f, vec3(0.0f)}, c.data);
    const vec3 v = c.bodies[0].linearVelocity, w = c.bodies[0].angularVelocity;
    for (int i = 0; i < 10; ++i) solveSweep(c, i % 2 == 1);
    EXPECT_EQ(c.manifolds[0].points[0].normalImpulse, 0.0f);  // contacts only push
    EXPECT_TRUE(test::sameBits(c.bodies[0].linearVelocity, v));
    EXPECT_TRUE(test::sameBits(c.bodies[0].angularVelocity, w));
}

TEST(ContactSolver, FrictionStaysInsideTheCone) {
    // Sliding fast along x while pressing down: friction saturates at mu j_n.
    OneContact c = makeContact(vec3(5.0f, -2.0f, 0.0f), vec3(0.0f), -0.001f, 0.0f, 0.3f);
    prepareContacts(c.manifolds, c.bodies, SolverSettings{1.0f / 60.0f, 1.0f, vec3(0.0f)}, c.data);
    for (int i = 0; i < 10; ++i) solveSweep(c, i % 2 == 1);
    const ContactPoint& p = c.manifolds[0].points[0];
    ASSERT_GT(p.normalImpulse, 0.0f);
    // Inside the cone (rounding 1e-6 relative), and on its edge while sliding: within 1%,
    // because friction is solved before the last normal update of each sweep.
    EXPECT_LE(glm::length(p.frictionImpulse), 0.3f * p.normalImpulse * (1.0f + 1e-6f));
    EXPECT_GE(glm::length(p.frictionImpulse), 0.99f * 0.3f * p.normalImpulse);
    EXPECT_FALSE(p.sticking);
    // Friction is tangential and opposes the sliding (+x): it pushes B along +x, i.e. A along -x.
    EXPECT_NEAR(glm::dot(p.frictionImpulse, c.manifolds[0].normal), 0.0f, 1e-6f);
    EXPECT_LT(c.bodies[0].linearVelocity.x, 5.0f);
}

TEST(ContactSolver, WarmStartMatchesByIdThenByProximity) {
    OneContact c = makeContact(vec3(0.0f), vec3(0.0f), -0.001f, 0.0f, 0.5f);
    ContactManifold previous = c.manifolds[0];
    previous.pointCount = 2;
    previous.points[0].id = 5;
    previous.points[0].point = vec3(5.0f);  // far away: must match by id
    previous.points[0].normalImpulse = 0.25f;
    previous.points[0].frictionImpulse = vec3(0.1f, 0.2f, 0.0f);  // has a normal (y) part
    previous.points[0].sticking = true;
    previous.points[1].id = 99;
    previous.points[1].point = vec3(-1.0f, 0.0f, 0.0f);
    previous.points[1].normalImpulse = 0.75f;

    Manifold fresh;
    fresh.normal = vec3(0.0f, -1.0f, 0.0f);
    fresh.pointCount = 3;
    fresh.points[0] = ManifoldPoint{c.point, -0.001f, 5};                                // same id
    fresh.points[1] = ManifoldPoint{vec3(-1.0f, 0.0f, 0.03f), -0.001f, 42};             // 3 cm from id 99
    fresh.points[2] = ManifoldPoint{vec3(3.0f, 0.0f, 0.0f), -0.001f, 77};               // nothing near
    ContactManifold next;
    next.a = 0;
    next.b = 1;
    initManifold(next, fresh, c.bodies[0], c.bodies[1], &previous, true);
    ASSERT_EQ(next.pointCount, 3);
    EXPECT_TRUE(next.points[0].warmStarted);
    EXPECT_EQ(next.points[0].normalImpulse, 0.25f);
    // Only the tangential part of last step's friction carries over (exact: y dropped).
    EXPECT_TRUE(test::near(next.points[0].frictionImpulse, vec3(0.1f, 0.0f, 0.0f), 1e-7f));
    EXPECT_TRUE(next.points[0].useStaticFriction);
    EXPECT_TRUE(next.points[1].warmStarted);
    EXPECT_EQ(next.points[1].normalImpulse, 0.75f);
    EXPECT_FALSE(next.points[2].warmStarted);
    EXPECT_EQ(next.points[2].normalImpulse, 0.0f);

    // Warm starting off: nothing is carried, but the stick state still is.
    ContactManifold cold;
    cold.a = 0;
    cold.b = 1;
    initManifold(cold, fresh, c.bodies[0], c.bodies[1], &previous, false);
    EXPECT_FALSE(cold.points[0].warmStarted);
    EXPECT_EQ(cold.points[0].normalImpulse, 0.0f);
    EXPECT_TRUE(cold.points[0].useStaticFriction);
}

}  // namespace
}  // namespace impulse
