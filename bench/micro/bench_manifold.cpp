// Narrowphase: box-box manifolds (resting stack, rotated, edge-edge, separated)
// and sphere-box, one collide call per iteration. The "points" counter shows the
// manifold size each configuration produces, so a change of contact generation
// is visible next to the timing.
#include "physics/constants.h"
#include "physics/manifold.h"

#include <benchmark/benchmark.h>

#include <glm/gtc/quaternion.hpp>

#include <cmath>

namespace {

using impulse::Manifold;
using impulse::Shape;
using impulse::ShapePose;
using impulse::vec3;

const Shape kUnitBox = Shape::box(vec3(0.5f));
const Shape kUnitSphere = Shape::sphere(0.5f);
constexpr float kMargin = impulse::kSpeculativeDistance;

glm::mat3 rotation(float angleDegrees, const vec3& axis) {
    return glm::mat3_cast(glm::angleAxis(glm::radians(angleDegrees), glm::normalize(axis)));
}

ShapePose pose(const Shape& shape, const vec3& position, const glm::mat3& r = glm::mat3(1.0f)) {
    return ShapePose{&shape, position, r};
}

void runCollide(benchmark::State& state, Manifold (*collide)(const ShapePose&, const ShapePose&, float),
                ShapePose a, ShapePose b) {
    int points = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(a);
        benchmark::DoNotOptimize(b);
        const Manifold m = collide(a, b, kMargin);
        points = m.pointCount;
        benchmark::DoNotOptimize(m);
    }
    state.counters["points"] = points;
}

// One cube resting on another, 1 mm of overlap: face contact, 4 points.
void BM_BoxBox_RestingStack(benchmark::State& state) {
    runCollide(state, impulse::collideBoxes, pose(kUnitBox, vec3(0.0f, 0.5f, 0.0f)),
               pose(kUnitBox, vec3(0.0f, 1.499f, 0.0f)));
}
BENCHMARK(BM_BoxBox_RestingStack);

// The upper cube turned 30 degrees about the vertical: clipping yields an
// octagon-like polygon that is reduced to 4 points.
void BM_BoxBox_Rotated(benchmark::State& state) {
    runCollide(state, impulse::collideBoxes, pose(kUnitBox, vec3(0.0f, 0.5f, 0.0f)),
               pose(kUnitBox, vec3(0.1f, 1.499f, -0.05f), rotation(30.0f, vec3(0, 1, 0))));
}
BENCHMARK(BM_BoxBox_Rotated);

// A randomly tilted cube in a pile touching another with a corner/face.
void BM_BoxBox_Tilted(benchmark::State& state) {
    runCollide(state, impulse::collideBoxes,
               pose(kUnitBox, vec3(0.0f, 0.5f, 0.0f), rotation(10.0f, vec3(1, 0, 1))),
               pose(kUnitBox, vec3(0.2f, 1.55f, 0.1f), rotation(37.0f, vec3(0.3f, 1.0f, -0.6f))));
}
BENCHMARK(BM_BoxBox_Tilted);

// Edges crossing at right angles: A's edge along z on top, B's edge along x below; one point.
void BM_BoxBox_EdgeEdge(benchmark::State& state) {
    const float edgeHeight = 0.5f * std::sqrt(2.0f);  // centre-to-edge distance of a cube turned 45 degrees
    runCollide(state, impulse::collideBoxes, pose(kUnitBox, vec3(0.0f), rotation(45.0f, vec3(0, 0, 1))),
               pose(kUnitBox, vec3(0.0f, 2.0f * edgeHeight - 0.002f, 0.0f), rotation(45.0f, vec3(1, 0, 0))));
}
BENCHMARK(BM_BoxBox_EdgeEdge);

// AABBs overlap but the boxes do not touch (a broadphase false positive): the
// SAT has to find a separating axis, 0 points. Measures the early-out.
void BM_BoxBox_Separated(benchmark::State& state) {
    runCollide(state, impulse::collideBoxes, pose(kUnitBox, vec3(0.0f), rotation(45.0f, vec3(0, 1, 0))),
               pose(kUnitBox, vec3(1.15f, 0.0f, 1.15f), rotation(45.0f, vec3(0, 1, 0))));
}
BENCHMARK(BM_BoxBox_Separated);

// Sphere resting on a box face (box is the ground-like body B in the pair order of the world).
void BM_SphereBox_Face(benchmark::State& state) {
    runCollide(state, impulse::collideSphereBox, pose(kUnitSphere, vec3(0.1f, 0.999f, -0.2f)),
               pose(kUnitBox, vec3(0.0f)));
}
BENCHMARK(BM_SphereBox_Face);

// Sphere against a tilted box's edge.
void BM_SphereBox_Edge(benchmark::State& state) {
    runCollide(state, impulse::collideSphereBox,
               pose(kUnitSphere, vec3(0.0f, 0.5f * std::sqrt(2.0f) + 0.499f, 0.1f)),
               pose(kUnitBox, vec3(0.0f), rotation(45.0f, vec3(0, 0, 1))));
}
BENCHMARK(BM_SphereBox_Edge);

// Sphere-sphere, for scale (spheres1000).
void BM_SphereSphere(benchmark::State& state) {
    runCollide(state, impulse::collideSpheres, pose(kUnitSphere, vec3(0.0f)),
               pose(kUnitSphere, vec3(0.3f, 0.9f, 0.1f)));
}
BENCHMARK(BM_SphereSphere);

}  // namespace
