// Grid broadphase (physics/broad_phase.h) against brute force.
#include "physics/broad_phase.h"

#include "physics_test_util.h"

#include <algorithm>
#include <cmath>
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
            EXPECT_FALSE(bodies.isStatic[p.first] && bodies.isStatic[p.second])
                << "static-static pair reported";
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
    // Same object called every "step", reusing its scratch buffers: it must keep
    // giving exactly the brute-force answer.
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

TEST(BroadPhase, RestingBodiesReuseTheFatPairs) {
    // Motions within the fat margin (a resting pile's creep, here up to 2 cm in
    // all) keep the grid; each call must still give exactly the brute-force
    // answer of its own AABBs, including pairs that come apart and together.
    Bodies bodies = randomBodies(21, 150, 8.0f);
    BroadPhase broadPhase;
    ASSERT_EQ(run(broadPhase, bodies), bruteForce(bodies));
    ASSERT_EQ(broadPhase.gridBuilds(), 1u);
    const std::vector<Aabb> start = bodies.aabbs;
    std::mt19937 rng(22);
    const float reach = 0.4f * BroadPhase::kFatMargin;
    std::uniform_real_distribution<float> offset(-reach, reach);
    size_t changes = 0;
    auto previous = bruteForce(bodies);
    for (int step = 0; step < 50; ++step) {
        for (size_t i = 0; i < bodies.aabbs.size(); ++i) {
            if (bodies.isStatic[i]) continue;
            const vec3 move(offset(rng), offset(rng), offset(rng));
            bodies.aabbs[i] = Aabb{start[i].lower + move, start[i].upper + move};
        }
        const auto want = bruteForce(bodies);
        changes += want != previous;
        previous = want;
        ASSERT_EQ(run(broadPhase, bodies), want) << "step " << step;
    }
    EXPECT_EQ(broadPhase.gridBuilds(), 1u) << "no AABB left its fat AABB";
    EXPECT_GT(changes, 10u) << "the motions should make and break some overlaps";
}

size_t presentCount(const Bodies& bodies) {
    return size_t(std::count(bodies.present.begin(), bodies.present.end(), uint8_t(1)));
}

// Bodies that jump out of their fat AABBs a few at a time, static ones too:
// their pairs come from the kept grid's cells, and from direct tests among the
// stale bodies, until more than maxStaleBodies have moved since the grid was
// built. Every call must give exactly the brute-force answer.
void checkMoversThroughTheKeptGrid(uint32_t seed, int count, size_t mostMoversPerCall) {
    Bodies bodies = randomBodies(seed, count, 8.0f);
    BroadPhase broadPhase;
    ASSERT_EQ(run(broadPhase, bodies), bruteForce(bodies));
    std::vector<uint32_t> present;
    for (uint32_t i = 0; i < bodies.aabbs.size(); ++i) {
        if (bodies.present[i]) present.push_back(i);
    }
    const size_t limit = BroadPhase::maxStaleBodies(present.size());
    std::mt19937 rng(seed + 1);
    std::uniform_int_distribution<size_t> pick(0, present.size() - 1);
    std::uniform_int_distribution<size_t> howMany(1, mostMoversPerCall);
    std::uniform_real_distribution<float> jump(0.5f, 3.0f);  // always out of the fat AABB
    std::uniform_int_distribution<int> percent(0, 99);
    std::vector<uint8_t> stale(bodies.aabbs.size(), 0);
    size_t staleCount = 0;
    uint64_t builds = 1, reuses = 0;
    for (int step = 0; step < 80; ++step) {
        std::vector<uint8_t> moves(bodies.aabbs.size(), 0);
        size_t newlyStale = 0;
        for (size_t k = howMany(rng); k > 0; --k) {
            const uint32_t i = present[pick(rng)];
            Aabb& box = bodies.aabbs[i];
            const float sign = percent(rng) < 50 ? -1.0f : 1.0f;
            const vec3 move(sign * jump(rng), jump(rng) - 1.75f, jump(rng) - 1.75f);
            box.lower += move;
            box.upper += move;
            // Now and then a mover becomes too big for the grid's cells.
            if (percent(rng) < 5) box.upper += vec3(30.0f, 0.0f, 0.0f);
            if (!moves[i] && !stale[i]) ++newlyStale;
            moves[i] = 1;
        }
        ASSERT_EQ(run(broadPhase, bodies), bruteForce(bodies)) << "seed " << seed << " step " << step;
        if (staleCount + newlyStale > limit) {
            ++builds;
            std::fill(stale.begin(), stale.end(), 0);
            staleCount = 0;
        } else {
            ++reuses;
            for (size_t i = 0; i < moves.size(); ++i) {
                if (moves[i] && !stale[i]) stale[i] = 1, ++staleCount;
            }
        }
        ASSERT_EQ(broadPhase.gridBuilds(), builds) << "seed " << seed << " step " << step;
    }
    EXPECT_GE(builds, 3u) << "the test should reach the stale limit a few times";
    EXPECT_GE(reuses, 40u) << "most calls should reuse the grid";
}

TEST(BroadPhase, MoversGetTheirPairsFromTheKeptGrid) {
    // 150 slots, ~127 present: the limit is kMaxStaleWithoutGrid.
    checkMoversThroughTheKeptGrid(23, 150, 4);
    // 2,000 slots: the limit is a share of the bodies (~106), and a call may move more than 32.
    checkMoversThroughTheKeptGrid(24, 2000, 40);
}

TEST(BroadPhase, AMovingLargeBodyIsReportedOnce) {
    // A dynamic plank too big for the grid's cells, moving each call, with small
    // bodies jumping onto it: once it has moved it is stale, and its pairs with
    // the other movers must come from one test, not also from the large list.
    Bodies bodies = randomBodies(31, 150, 8.0f);
    bodies.aabbs[0] = Aabb{vec3(-40.0f, -0.5f, -3.0f), vec3(40.0f, 0.5f, 3.0f)};  // hundreds of cells
    bodies.present[0] = 1;
    bodies.isStatic[0] = 0;
    std::vector<uint32_t> small;
    for (uint32_t i = 1; i < bodies.aabbs.size(); ++i) {
        if (bodies.present[i]) small.push_back(i);
    }
    BroadPhase broadPhase;
    ASSERT_EQ(run(broadPhase, bodies), bruteForce(bodies));
    size_t next = 0;
    for (int step = 0; step < 10; ++step) {
        const vec3 drift(0.0f, 0.2f, 0.3f);
        bodies.aabbs[0].lower += drift;
        bodies.aabbs[0].upper += drift;
        for (int k = 0; k < 3; ++k) {  // onto the plank's top edge, at x = -15, -12, ...
            const Aabb& plank = bodies.aabbs[0];
            const vec3 centre(-15.0f + 3.0f * float(next % 10), plank.upper.y, plank.lower.z);
            bodies.aabbs[small[next++]] = Aabb{centre - vec3(0.4f), centre + vec3(0.4f)};
        }
        ASSERT_EQ(run(broadPhase, bodies), bruteForce(bodies)) << "step " << step;
    }
    EXPECT_EQ(broadPhase.gridBuilds(), 1u) << "31 stale bodies at most: within the limit";
}

TEST(BroadPhase, ManyMoversOrAChangedSetBuildTheGrid) {
    Bodies bodies = randomBodies(25, 100, 8.0f);
    std::vector<size_t> dynamic;
    for (size_t i = 0; i < bodies.aabbs.size(); ++i) {
        if (bodies.present[i] && !bodies.isStatic[i]) dynamic.push_back(i);
    }
    const size_t limit = BroadPhase::maxStaleBodies(presentCount(bodies));
    ASSERT_GT(dynamic.size(), limit);
    BroadPhase broadPhase;
    run(broadPhase, bodies);
    const vec3 past(1.01f * BroadPhase::kFatMargin, 0.0f, 0.0f);
    for (size_t k = 0; k <= limit; ++k) bodies.aabbs[dynamic[k]].upper += past;
    EXPECT_EQ(run(broadPhase, bodies), bruteForce(bodies));
    EXPECT_EQ(broadPhase.gridBuilds(), 2u) << "one mover more than maxStaleBodies";
    const size_t body = dynamic[0];
    bodies.isStatic[body] = 1;
    EXPECT_EQ(run(broadPhase, bodies), bruteForce(bodies));
    EXPECT_EQ(broadPhase.gridBuilds(), 3u);
    bodies.present[body] = 0;
    EXPECT_EQ(run(broadPhase, bodies), bruteForce(bodies));
    EXPECT_EQ(broadPhase.gridBuilds(), 4u);
    bodies.aabbs[body] = Aabb{vec3(NAN), vec3(NAN)};  // a free slot's stale box does not count
    EXPECT_EQ(run(broadPhase, bodies), bruteForce(bodies));
    EXPECT_EQ(broadPhase.gridBuilds(), 4u);
    bodies.present[body] = 1;  // back, with a NaN box: a new grid, and no pairs of it
    EXPECT_EQ(run(broadPhase, bodies), bruteForce(bodies));
    EXPECT_EQ(broadPhase.gridBuilds(), 5u);
    const auto got = run(broadPhase, bodies);  // now a mover (NaN is never inside): no grid
    EXPECT_EQ(got, bruteForce(bodies));
    EXPECT_EQ(broadPhase.gridBuilds(), 5u);
    for (const auto& p : got) EXPECT_TRUE(p.first != body && p.second != body);
}

TEST(BroadPhase, ChangingLayoutStaysCorrect) {
    // Bodies spread along x, then along z and y with other sizes: the same object
    // must adapt its cells to the new layout.
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

void addBody(Bodies& bodies, const vec3& lower, const vec3& upper, bool isStatic, bool present = true) {
    bodies.aabbs.push_back(Aabb{lower, upper});
    bodies.present.push_back(present ? 1 : 0);
    bodies.isStatic.push_back(isStatic ? 1 : 0);
}

void expectBruteForce(const Bodies& bodies, const char* what) {
    BroadPhase broadPhase;
    const auto want = bruteForce(bodies);
    EXPECT_FALSE(want.empty()) << what << ": the test set should have overlaps";
    EXPECT_EQ(run(broadPhase, bodies), want) << what;
}

TEST(BroadPhase, LargeAndSmallBodiesMatchBruteForce) {
    // A pen as in the bench piles: a 100 m static ground and four walls, with
    // small boxes resting on the ground and against the walls, and a big dynamic
    // slab that covers many cells.
    Bodies bodies = randomBodies(21, 400, 9.0f);
    for (Aabb& box : bodies.aabbs) {  // lift the random boxes so some touch the ground at y = 0
        const float lift = -box.lower.y - 0.5f;
        box.lower.y += lift;
        box.upper.y += lift;
    }
    addBody(bodies, vec3(-50.0f, -1.0f, -50.0f), vec3(50.0f, 0.0f, 50.0f), true);
    addBody(bodies, vec3(-11.0f, 0.0f, -11.0f), vec3(-10.0f, 5.0f, 11.0f), true);
    addBody(bodies, vec3(10.0f, 0.0f, -11.0f), vec3(11.0f, 5.0f, 11.0f), true);
    addBody(bodies, vec3(-11.0f, 0.0f, -11.0f), vec3(11.0f, 5.0f, -10.0f), true);
    addBody(bodies, vec3(-11.0f, 0.0f, 10.0f), vec3(11.0f, 5.0f, 11.0f), true);
    addBody(bodies, vec3(-6.0f, 0.5f, -6.0f), vec3(6.0f, 1.0f, 6.0f), false);
    expectBruteForce(bodies, "pen");
}

TEST(BroadPhase, LargeBodyLookingUpItsCellsMatchesBruteForce) {
    // Many small bodies and two bodies too big for the grid but covering a few
    // hundred cells (cells are about 2.8 m here): looking up their cells is
    // cheaper than testing every body.
    Bodies bodies = randomBodies(22, 3000, 25.0f);
    addBody(bodies, vec3(-8.0f, -8.0f, -5.0f), vec3(8.0f, 8.0f, 5.0f), false);
    addBody(bodies, vec3(2.0f, -3.0f, -3.0f), vec3(22.0f, 3.0f, 3.0f), true);
    expectBruteForce(bodies, "mid-size bodies");
}

TEST(BroadPhase, BodiesOnCellBoundariesAreReportedOnce) {
    // Unit boxes whose faces, edges and corners touch exactly on integer
    // coordinates: the cells are about one unit, so every contact lies on a cell
    // boundary, and touching counts as overlapping (Aabb::overlaps uses <=).
    Bodies bodies;
    for (int x = 0; x < 6; ++x) {
        for (int y = 0; y < 3; ++y) {
            for (int z = 0; z < 6; ++z) {
                const vec3 lower(static_cast<float>(x), static_cast<float>(y), static_cast<float>(z));
                addBody(bodies, lower, lower + vec3(1.0f), (x + y + z) % 5 == 0);
            }
        }
    }
    // Boxes straddling the boundaries: half-unit offsets, and one a hair past a boundary.
    addBody(bodies, vec3(1.5f, 0.5f, 1.5f), vec3(2.5f, 1.5f, 2.5f), false);
    addBody(bodies, vec3(3.5f, 2.5f, 0.5f), vec3(4.5f, 3.5f, 1.5f), false);
    addBody(bodies, vec3(std::nextafter(2.0f, 3.0f), 3.0f, 3.0f), vec3(3.0f, 4.0f, 4.0f), false);
    expectBruteForce(bodies, "lattice");
    // The same lattice shifted off the origin, so boundaries fall on other floats.
    for (Aabb& box : bodies.aabbs) {
        box.lower -= vec3(7.25f);
        box.upper -= vec3(7.25f);
    }
    expectBruteForce(bodies, "shifted lattice");
}

TEST(BroadPhase, VeryDifferentSizesInOneScene) {
    // 1 cm plates, 1 m boxes and 10 m boxes, a third of each: whatever cell size
    // the percentile picks, some bodies are far smaller or far bigger than a cell.
    std::mt19937 rng(31);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    Bodies bodies;
    for (int i = 0; i < 600; ++i) {
        const float scale = i % 3 == 0 ? 0.01f : (i % 3 == 1 ? 1.0f : 10.0f);
        const vec3 centre = 20.0f * vec3(unit(rng), unit(rng), unit(rng));
        vec3 half = 0.5f * scale * vec3(0.5f + unit(rng), 0.5f + unit(rng), 0.5f + unit(rng));
        if (i % 3 == 0) half = vec3(0.4f, 0.005f, 0.3f);  // thin plate
        addBody(bodies, centre - half, centre + half, unit(rng) < 0.2f);
    }
    expectBruteForce(bodies, "mixed sizes");
}

TEST(BroadPhase, FarAwayTinyAndHugeBodies) {
    Bodies bodies;
    // A cluster of 1 mm bodies 1e6 m from the origin (float spacing there is 6 cm,
    // so they share bounds), a cluster near the origin, and absurdly large boxes.
    const vec3 far(1.0e6f, -1.0e6f, 5.0e5f);
    for (int i = 0; i < 20; ++i) {
        const vec3 centre =
            far + vec3(0.1f * static_cast<float>(i % 5), 0.0f, 0.1f * static_cast<float>(i / 5));
        addBody(bodies, centre - vec3(0.0005f), centre + vec3(0.0005f), false);
    }
    for (int i = 0; i < 30; ++i) {
        const vec3 centre(0.3f * static_cast<float>(i % 6), 0.0f, 0.3f * static_cast<float>(i / 6));
        addBody(bodies, centre - vec3(0.2f), centre + vec3(0.2f), i % 4 == 0);
    }
    addBody(bodies, vec3(-1.0e30f), vec3(1.0e30f), true);  // overlaps everything
    addBody(bodies, vec3(-1.0e7f, -1.0f, -1.0e7f), vec3(1.0e7f, 0.0f, 1.0e7f), false);
    addBody(bodies, vec3(-1.0e6f), vec3(-1.0e6f), false);  // a point
    expectBruteForce(bodies, "far, tiny and huge");
}

TEST(BroadPhase, FreeSlotsAreIgnored) {
    // Free slots hold stale AABBs that overlap everything around them, including
    // a stale ground; none of them may appear in a pair.
    Bodies bodies = randomBodies(41, 200, 6.0f);
    addBody(bodies, vec3(-100.0f, -1.0f, -100.0f), vec3(100.0f, 10.0f, 100.0f), false, false);
    addBody(bodies, vec3(-3.0f), vec3(3.0f), false, false);
    addBody(bodies, vec3(NAN), vec3(NAN), false, false);
    for (size_t i = 0; i < bodies.present.size(); i += 3) bodies.present[i] = 0;
    BroadPhase broadPhase;
    const auto got = run(broadPhase, bodies);
    EXPECT_EQ(got, bruteForce(bodies));
    for (const auto& p : got) EXPECT_TRUE(bodies.present[p.first] && bodies.present[p.second]);
    // Every slot free: nothing to report.
    std::fill(bodies.present.begin(), bodies.present.end(), 0);
    EXPECT_TRUE(run(broadPhase, bodies).empty());
}

}  // namespace
}  // namespace impulse
