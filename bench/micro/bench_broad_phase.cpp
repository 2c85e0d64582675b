// Broadphase update: BroadPhase::findPairs on a settled-pile layout of 1k/4k/16k
// AABBs with small motions between calls, as in a running pile scene:
// BM_BroadPhaseUpdate moves the bodies past the fat margin, so every call builds
// the grid; BM_BroadPhaseResting moves them by a resting pile's creep, so the
// calls filter the kept fat pairs.
//
// Layout: the bench piles after they settle (assets/scenes/bench/pile*.json):
// a static ground and four walls, and n rotated unit cubes spread uniformly over
// a square pen of 0.576 m^2 per cube, about two layers deep. The pen grows with
// n, so per-body cost should stay flat if the broadphase scales linearly.
#include "physics/broad_phase.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace {

using impulse::Aabb;
using impulse::BodyPair;
using impulse::BroadPhase;
using impulse::vec3;

constexpr int kFrames = 8;  // precomputed poses; the benchmark walks 0..7..0 so motion stays coherent
// m per call per axis at most: up to 6 m/s at 60 Hz, which takes some body out of
// its fat AABB every call, and a resting pile's creep (0.1 mm/s), which never does.
constexpr float kMovingMotion = 2.0f * BroadPhase::kFatMargin;
constexpr float kRestingMotion = 2e-6f;
constexpr float kAreaPerBody = 0.576f;  // m^2 of pen floor per cube, as in pile1000

struct Layout {
    std::vector<Aabb> frames[kFrames];
    std::vector<uint8_t> present;
    std::vector<uint8_t> isStatic;
};

Aabb box(const vec3& centre, const vec3& half) {
    return Aabb{centre - half, centre + half};
}

Layout makeLayout(int dynamicCount, float stepMotion) {
    std::mt19937 rng(12345u + static_cast<unsigned>(dynamicCount));
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    const float halfWidth = 0.5f * std::sqrt(kAreaPerBody * static_cast<float>(dynamicCount));
    const float wallLength = halfWidth + 1.0f;
    std::vector<Aabb> statics = {
        box(vec3(0.0f, -0.5f, 0.0f), vec3(4.0f * halfWidth, 0.5f, 4.0f * halfWidth)),
        box(vec3(-halfWidth - 0.5f, 5.0f, 0.0f), vec3(0.5f, 5.0f, wallLength)),
        box(vec3(halfWidth + 0.5f, 5.0f, 0.0f), vec3(0.5f, 5.0f, wallLength)),
        box(vec3(0.0f, 5.0f, -halfWidth - 0.5f), vec3(wallLength, 5.0f, 0.5f)),
        box(vec3(0.0f, 5.0f, halfWidth + 0.5f), vec3(wallLength, 5.0f, 0.5f)),
    };
    Layout layout;
    const size_t total = statics.size() + static_cast<size_t>(dynamicCount);
    layout.present.assign(total, 1);
    layout.isStatic.assign(total, 0);
    std::vector<vec3> centres, halves;
    for (int i = 0; i < dynamicCount; ++i) {
        const float inner = halfWidth - 0.7f;
        centres.emplace_back((2.0f * unit(rng) - 1.0f) * inner, 0.7f + 1.6f * unit(rng),
                             (2.0f * unit(rng) - 1.0f) * inner);
        // A randomly rotated unit cube's AABB half-size lies in [0.5, 0.87]; add the speculative margin.
        halves.emplace_back(0.5f + 0.37f * unit(rng) + 0.01f, 0.5f + 0.37f * unit(rng) + 0.01f,
                            0.5f + 0.37f * unit(rng) + 0.01f);
    }
    for (int frame = 0; frame < kFrames; ++frame) {
        std::vector<Aabb>& aabbs = layout.frames[frame];
        for (size_t s = 0; s < statics.size(); ++s) {
            aabbs.push_back(statics[s]);
            layout.isStatic[s] = 1;
        }
        for (int i = 0; i < dynamicCount; ++i) {
            centres[i] +=
                stepMotion * vec3(2.0f * unit(rng) - 1.0f, 2.0f * unit(rng) - 1.0f, 2.0f * unit(rng) - 1.0f);
            aabbs.push_back(box(centres[i], halves[i]));
        }
    }
    return layout;
}

void runBroadPhase(benchmark::State& state, float stepMotion) {
    const int count = static_cast<int>(state.range(0));
    const Layout layout = makeLayout(count, stepMotion);
    BroadPhase broadPhase;
    std::vector<BodyPair> pairs;
    broadPhase.findPairs(layout.frames[0], layout.present, layout.isStatic, pairs);  // sizes scratch, untimed
    int frame = 0, direction = 1;
    size_t pairCount = 0;
    for (auto _ : state) {
        if (frame + direction < 0 || frame + direction >= kFrames) direction = -direction;
        frame += direction;
        broadPhase.findPairs(layout.frames[frame], layout.present, layout.isStatic, pairs);
        pairCount = pairs.size();
        benchmark::DoNotOptimize(pairs.data());
    }
    state.counters["pairs"] = static_cast<double>(pairCount);
    state.counters["grids_per_call"] =
        static_cast<double>(broadPhase.gridBuilds() - 1) / static_cast<double>(state.iterations());
    // items/s = bodies per second: equal across sizes if cost is linear in n.
    state.SetItemsProcessed(state.iterations() * count);
    state.counters["ns_per_body"] =
        benchmark::Counter(static_cast<double>(state.iterations()) * count,
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
void BM_BroadPhaseUpdate(benchmark::State& state) { runBroadPhase(state, kMovingMotion); }
void BM_BroadPhaseResting(benchmark::State& state) { runBroadPhase(state, kRestingMotion); }
BENCHMARK(BM_BroadPhaseUpdate)->Arg(1000)->Arg(4000)->Arg(16000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BroadPhaseResting)->Arg(1000)->Arg(4000)->Arg(16000)->Unit(benchmark::kMicrosecond);

}  // namespace
