// The physics thread team (physics/thread_team.h): every member runs the task, the
// barrier holds each member until all have reached it, shares split the items, and a
// world stepped by a team gives the bits it gives alone. Run under ThreadSanitizer by
// scripts/dev.sh test (IMPULSE_SANITIZE=thread), which would report a data race here.
#include "physics/thread_team.h"
#include "physics/world.h"

#include "physics_test_util.h"

#include <atomic>
#include <vector>

namespace impulse {
namespace {

using test::axisAngle;
using test::boxDef;
using test::sphereDef;

TEST(ThreadTeam, EveryMemberRunsTheTaskOncePerRun) {
    for (int size : {1, 2, 3}) {
        ThreadTeam team(size);
        ASSERT_EQ(team.size(), size);
        std::vector<int> runs(size_t(size), 0);  // each member writes only its own entry
        for (int run = 0; run < 50; ++run) team.run([&](int member) { ++runs[size_t(member)]; });
        for (int member = 0; member < size; ++member) EXPECT_EQ(runs[size_t(member)], 50) << "member " << member;
    }
}

// Each member writes its share of an array, meets the others at the barrier, then reads
// what every other member wrote before it: plain (non-atomic) memory, published by sync().
TEST(ThreadTeam, SyncPublishesEachMembersWritesToTheOthers) {
    ThreadTeam team(3);
    constexpr size_t kItems = 1000;
    std::vector<int> values(kItems, 0);
    std::vector<long> sums(3, 0);
    for (int round = 1; round <= 20; ++round) {
        team.run([&](int member) {
            const ThreadTeam::Share mine = team.share(kItems, member);
            for (size_t i = mine.begin; i < mine.end; ++i) values[i] = round;
            team.sync();
            long sum = 0;
            for (int v : values) sum += v;
            sums[size_t(member)] = sum;
            team.sync();  // nobody writes the next round's values while another still reads
        });
        for (int member = 0; member < 3; ++member) {
            EXPECT_EQ(sums[size_t(member)], long(kItems) * round) << "member " << member << ", round " << round;
        }
    }
}

TEST(ThreadTeam, SharesSplitTheItemsWithoutGapOrOverlap) {
    const ThreadTeam team(3);
    for (size_t count : {0u, 1u, 2u, 3u, 10u, 1001u}) {
        size_t next = 0;
        for (int member = 0; member < 3; ++member) {
            const ThreadTeam::Share share = team.share(count, member);
            EXPECT_EQ(share.begin, next) << count << " items, member " << member;
            EXPECT_LE(share.begin, share.end);
            next = share.end;
        }
        EXPECT_EQ(next, count);
    }
}

// A crowded pile (boxes with tilted user tensors, spheres, a drag) gives the
// same bits whatever the number of threads sharing the sweeps: each member
// takes batches of one colour at a time, and those commute. Also a refused count.
TEST(WorldStep, ThreadCountDoesNotChangeTheResult) {
    const auto run = [](int threads) {
        World world;
        BodyDef ground = boxDef("ground", vec3(0.0f, -0.5f, 0.0f), vec3(20.0f, 0.5f, 20.0f));
        ground.isStatic = true;
        world.createBody(ground);
        for (int i = 0; i < 300; ++i) {
            const vec3 at(float(i % 7) * 0.9f - 3.0f, 0.6f + float(i / 49) * 1.1f, float((i / 7) % 7) * 0.9f - 3.0f);
            BodyDef def = i % 3 == 0 ? sphereDef("s", at, 0.4f) : boxDef("b", at, vec3(0.4f, 0.3f, 0.45f));
            def.orientation = axisAngle(vec3(float(i % 5) + 0.5f, 1.0f, 0.3f), 0.1f * float(i));
            if (i % 4 == 1) def.inertia = mat3(0.2f, 0.02f, 0.0f, 0.02f, 0.25f, 0.01f, 0.0f, 0.01f, 0.22f);
            def.restitution = i % 2 == 0 ? 0.0f : 0.9f;
            world.createBody(def);
        }
        EXPECT_FALSE(world.setThreadCount(threads).has_value());
        const BodyId grabbed = world.bodyIds()[10];
        EXPECT_FALSE(world.beginDrag(grabbed, world.body(grabbed).position, DragSettings{}).has_value());
        world.setDragTarget(world.body(grabbed).position + vec3(0.0f, 2.0f, 1.0f));
        for (int step = 0; step < 120; ++step) world.step();
        return world;
    };
    const World one = run(1);
    for (int threads : {2, 3}) {
        const World many = run(threads);
        EXPECT_EQ(many.threadCount(), threads);
        EXPECT_TRUE(test::sameState(one, many)) << threads << " threads";
    }
    World world;
    const auto refused = world.setThreadCount(0);
    ASSERT_TRUE(refused.has_value());
    EXPECT_EQ(refused->field, "threads");
    EXPECT_EQ(world.threadCount(), 1);
}

}  // namespace
}  // namespace impulse
