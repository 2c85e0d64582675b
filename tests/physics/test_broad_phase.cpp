// Sweep-and-prune broadphase (physics/broad_phase.h) against brute force.
#include "physics/broad_phase.h"

#include "physics_test_util.h"

#include <algorithm>
#include <random>

namespace impulse {
namespace {

struct Bodies {
    std::vector<Aabb> aabbs;
    std::vector<uint8_t> present;
    std::vector<uint8_t> isStatic;
};

Bodies randomBodies(uint32_t seed, int count, float spread) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> coordinate(-spread, spread);
    std::uniform_real_distribution<float> size(0.1f, 1.5f);
    std::uniform_int_distribution<int> percent(0, 99);
    Bodies bodies;
    for (int i = 0; i < count; ++i) {
        const vec3 centre(coordinate(rng), coordinate(rng), 0.3f * coordinate(rng));
        const vec3 half(size(rng), size(rng), size(rng));
        bodies.aabbs.push_back(Aabb{centre - half, centre + half});
        bodies.present.push_back(percent(rng) >= 15 ? 1 : 0);  // ~15% free slots
        bodies.isStatic.push_back(percent(rng) < 25 ? 1 : 0);  // ~25% static
    }
    return bodies;
}

std::vector<std::pair<uint32_t, uint32_t>> bruteForce(const Bodies& bodies) {
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    for (uint32_t a = 0; a < bodies.aabbs.size(); ++a) {
        for (uint32_t b = a + 1; b < bodies.aabbs.size(); ++b) {
            if (!bodies.present[a] || !bodies.present[b]) continue;
            if (bodies.isStatic[a] && bodies.isStatic[b]) continue;
            if (bodies.aabbs[a].overlaps(bodies.aabbs[b])) pairs.emplace_back(a, b);
        }
    }
    return pairs;  // generated in (a, b) order
}

std::vector<std::pair<uint32_t, uint32_t>> run(BroadPhase& broadPhase, const Bodies& bodies) {
    std::vector<BodyPair> pairs;
    broadPhase.findPairs(bodies.aabbs, bodies.present, bodies.isStatic, pairs);
    std::vector<std::pair<uint32_t, uint32_t>> out;
    for (const BodyPair& p : pairs) out.emplace_back(p.a, p.b);
    return out;
}

TEST(BroadPhase, MatchesBruteForceOnRandomSets) {
    for (uint32_t seed : {1u, 2u, 3u, 42u, 1234u}) {
        const Bodies bodies = randomBodies(seed, 150, 12.0f);
        BroadPhase broadPhase;
        const auto got = run(broadPhase, bodies);
        const auto want = bruteForce(bodies);
        EXPECT_FALSE(want.empty()) << "seed " << seed << ": the test set should have overlaps";
        // Exact equality, including the (a, b) sort order.
        EXPECT_EQ(got, want) << "seed " << seed;
        for (const auto& p : got) {
            EXPECT_LT(p.first, p.second);
            EXPECT_TRUE(bodies.present[p.first] && bodies.present[p.second]);
            EXPECT_FALSE(bodies.isStatic[p.first] && bodies.isStatic[p.second]) << "static-static pair reported";
        }
    }
}

TEST(BroadPhase, AllStaticOverlappingBoxesGiveNoPairs) {
    Bodies bodies;
    for (int i = 0; i < 5; ++i) {
        bodies.aabbs.push_back(Aabb{vec3(0.0f), vec3(1.0f)});
        bodies.present.push_back(1);
        bodies.isStatic.push_back(1);
    }
    BroadPhase broadPhase;
    EXPECT_TRUE(run(broadPhase, bodies).empty());
    bodies.isStatic[3] = 0;  // one dynamic body overlaps the four static ones
    const auto pairs = run(broadPhase, bodies);
    const std::vector<std::pair<uint32_t, uint32_t>> want = {{0, 3}, {1, 3}, {2, 3}, {3, 4}};
    EXPECT_EQ(pairs, want);
}

TEST(BroadPhase, StableUnderRepeatedSmallMotions) {
    // Same object called every "step": the persistent order is repaired by the
    // insertion sort, and must keep giving exactly the brute-force answer.
    for (uint32_t seed : {5u, 6u, 7u}) {
        Bodies bodies = randomBodies(seed, 120, 10.0f);
        BroadPhase broadPhase;
        std::mt19937 rng(seed + 100);
        std::uniform_real_distribution<float> jitter(-0.15f, 0.15f);
        auto previous = run(broadPhase, bodies);
        EXPECT_EQ(previous, bruteForce(bodies));
        EXPECT_EQ(run(broadPhase, bodies), previous) << "same input, different output";
        for (int step = 0; step < 60; ++step) {
            for (size_t i = 0; i < bodies.aabbs.size(); ++i) {
                if (bodies.isStatic[i]) continue;
                const vec3 move(jitter(rng), jitter(rng), jitter(rng));
                bodies.aabbs[i].lower += move;
                bodies.aabbs[i].upper += move;
            }
            ASSERT_EQ(run(broadPhase, bodies), bruteForce(bodies)) << "seed " << seed << " step " << step;
        }
    }
}

TEST(BroadPhase, SwitchingSweepAxisStaysCorrect) {
    // Bodies spread along x, then along z: the sweep axis changes and the order is rebuilt.
    Bodies bodies = randomBodies(9, 80, 2.0f);
    BroadPhase broadPhase;
    for (Aabb& box : bodies.aabbs) {
        box.lower.x *= 10.0f;
        box.upper.x *= 10.0f;
    }
    EXPECT_EQ(run(broadPhase, bodies), bruteForce(bodies));
    for (Aabb& box : bodies.aabbs) {
        std::swap(box.lower.x, box.lower.z);
        std::swap(box.upper.x, box.upper.z);
        box.lower.z *= 0.05f;
        box.upper.z *= 0.05f;
        box.lower.y *= 20.0f;
        box.upper.y *= 20.0f;
    }
    EXPECT_EQ(run(broadPhase, bodies), bruteForce(bodies));
}

TEST(BroadPhase, AddingAndRemovingBodies) {
    Bodies bodies = randomBodies(11, 100, 8.0f);
    BroadPhase broadPhase;
    EXPECT_EQ(run(broadPhase, bodies), bruteForce(bodies));
    std::mt19937 rng(77);
    std::uniform_int_distribution<size_t> pick(0, bodies.aabbs.size() - 1);
    for (int round = 0; round < 40; ++round) {
        switch (round % 4) {
            case 0:  // remove one
                bodies.present[pick(rng)] = 0;
                break;
            case 1:  // add one into a free slot
                for (size_t i = 0; i < bodies.present.size(); ++i) {
                    if (!bodies.present[i]) {
                        bodies.present[i] = 1;
                        break;
                    }
                }
                break;
            case 2: {  // swap: one leaves, another arrives (same count, different set)
                const size_t out = pick(rng);
                for (size_t i = 0; i < bodies.present.size(); ++i) {
                    if (!bodies.present[i] && i != out) {
                        bodies.present[i] = 1;
                        break;
                    }
                }
                bodies.present[out] = 0;
                break;
            }
            default: {  // grow the slot array
                const vec3 centre(0.5f * round - 10.0f, 0.0f, 0.0f);
                bodies.aabbs.push_back(Aabb{centre - vec3(1.0f), centre + vec3(1.0f)});
                bodies.present.push_back(1);
                bodies.isStatic.push_back(0);
                pick = std::uniform_int_distribution<size_t>(0, bodies.aabbs.size() - 1);
                break;
            }
        }
        ASSERT_EQ(run(broadPhase, bodies), bruteForce(bodies)) << "round " << round;
    }
}

}  // namespace
}  // namespace impulse
