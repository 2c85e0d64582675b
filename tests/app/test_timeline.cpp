// The timeline's arithmetic (app/timeline.h): the strip's mapping between x and
// steps, playback forward, backward and within a loop, and a held step key's repeats.
#include "app/timeline.h"

#include <gtest/gtest.h>

#include <initializer_list>

using namespace impulse::app;

TEST(Timeline, StripMapsStepsToXAndBack) {
    const StepScale scale{100, 600, 50.0f, 1000.0f};  // 2 px a step
    EXPECT_FLOAT_EQ(scale.xOf(100), 50.0f);
    EXPECT_FLOAT_EQ(scale.xOf(600), 1050.0f);
    EXPECT_FLOAT_EQ(scale.xOf(350), 550.0f);
    EXPECT_FLOAT_EQ(scale.xOf(5), 50.0f) << "steps outside the range sit at its ends";
    EXPECT_FLOAT_EQ(scale.xOf(9000), 1050.0f);
    EXPECT_EQ(scale.stepAt(550.0f), 350u);
    EXPECT_EQ(scale.stepAt(550.9f), 350u) << "the nearest step";
    EXPECT_EQ(scale.stepAt(551.1f), 351u);
    EXPECT_EQ(scale.stepAt(-20.0f), 100u) << "left of the strip: its first step";
    EXPECT_EQ(scale.stepAt(5000.0f), 600u);
    for (uint64_t step = 100; step <= 600; step += 7) EXPECT_EQ(scale.stepAt(scale.xOf(step)), step);
    // More steps than pixels: still the first and last at the ends.
    const StepScale dense{0, 18000, 0.0f, 700.0f};
    EXPECT_EQ(dense.stepAt(0.0f), 0u);
    EXPECT_EQ(dense.stepAt(700.0f), 18000u);
    EXPECT_EQ(dense.stepAt(350.0f), 9000u);
    // A run of one step: everything maps to it.
    const StepScale single{40, 40, 0.0f, 700.0f};
    EXPECT_EQ(single.stepAt(500.0f), 40u);
    EXPECT_FLOAT_EQ(single.xOf(40), 0.0f);
}

TEST(Timeline, LoopPointsInEitherOrder) {
    ASSERT_TRUE(loopBetween(80, 20));
    EXPECT_EQ(loopBetween(80, 20)->in, 20u);
    EXPECT_EQ(loopBetween(80, 20)->out, 80u);
    EXPECT_EQ(loopBetween(20, 80)->in, 20u);
    EXPECT_FALSE(loopBetween(30, 30)) << "a loop needs two steps";
}

TEST(Timeline, PlayingForwardGoesOnPastTheRecordedEnd) {
    EXPECT_EQ(nextPlayStep(10, PlayDirection::forward, 0, 500, std::nullopt).step, 11u);
    const PlayStep onward = nextPlayStep(500, PlayDirection::forward, 0, 500, std::nullopt);
    EXPECT_EQ(onward.step, 501u);
    EXPECT_FALSE(onward.stop);
}

TEST(Timeline, PlayingBackwardStopsAtTheRunsStart) {
    uint64_t shown = 105;
    int steps = 0;
    PlayStep next;
    do {
        next = nextPlayStep(shown, PlayDirection::backward, 100, 105, std::nullopt);
        EXPECT_EQ(next.step, shown - 1);
        shown = next.step;
        ++steps;
    } while (!next.stop && steps < 100);
    EXPECT_EQ(shown, 100u);
    EXPECT_EQ(steps, 5) << "it stops on reaching the start, not one step later";
    const PlayStep atStart = nextPlayStep(100, PlayDirection::backward, 100, 105, std::nullopt);
    EXPECT_EQ(atStart.step, 100u);
    EXPECT_TRUE(atStart.stop);
}

TEST(Timeline, LoopWrapsBothWays) {
    const std::optional<LoopRange> loop = LoopRange{20, 23};
    // From `shown`, each step goes to the next of `expected` and never stops.
    const auto play = [&](uint64_t shown, PlayDirection direction, std::initializer_list<uint64_t> expected) {
        for (uint64_t step : expected) {
            const PlayStep next = nextPlayStep(shown, direction, 0, 60, loop);
            EXPECT_EQ(next.step, step);
            EXPECT_FALSE(next.stop);
            shown = next.step;
        }
    };
    play(20, PlayDirection::forward, {21, 22, 23, 20, 21, 22, 23, 20});
    // Never stops inside a loop, even one at the run's start.
    play(23, PlayDirection::backward, {22, 21, 20, 23, 22, 21, 20, 23});
    const std::optional<LoopRange> atStart = LoopRange{0, 2};
    EXPECT_EQ(nextPlayStep(0, PlayDirection::backward, 0, 60, atStart).step, 2u);
    EXPECT_FALSE(nextPlayStep(0, PlayDirection::backward, 0, 60, atStart).stop);
    // Started outside the loop: into it, at the end playing goes from.
    EXPECT_EQ(nextPlayStep(5, PlayDirection::forward, 0, 60, loop).step, 20u);
    EXPECT_EQ(nextPlayStep(50, PlayDirection::forward, 0, 60, loop).step, 20u);
    EXPECT_EQ(nextPlayStep(5, PlayDirection::backward, 0, 60, loop).step, 23u);
    EXPECT_EQ(nextPlayStep(50, PlayDirection::backward, 0, 60, loop).step, 23u);
}

TEST(Timeline, LoopBeyondARunCutShortIsPlayedIntoNotSoughtTo) {
    // A branch at step 10 left the run recorded to step 10, short of the loop 20-23.
    const std::optional<LoopRange> loop = LoopRange{20, 23};
    EXPECT_EQ(nextPlayStep(10, PlayDirection::forward, 0, 10, loop).step, 11u) << "records on toward the loop";
    const PlayStep back = nextPlayStep(10, PlayDirection::backward, 0, 10, loop);
    EXPECT_EQ(back.step, 9u) << "no loop to wrap to behind the recorded end";
    // Recorded into the loop but not to its out point: the loop wraps at the recorded end.
    EXPECT_EQ(nextPlayStep(20, PlayDirection::backward, 0, 21, loop).step, 21u);
    EXPECT_EQ(nextPlayStep(5, PlayDirection::forward, 0, 21, loop).step, 20u);
}

TEST(Timeline, HeldStepRepeatsAtItsOwnRateNotPerFrame) {
    HoldRepeat hold;
    EXPECT_EQ(hold.update(true, 10.0), 1) << "the press steps at once";
    // Held through the delay at 60 frames a second: nothing more.
    int during = 0;
    for (double t = 10.0 + 1.0 / 60.0; t < 10.0 + HoldRepeat::kDelay - 1e-9; t += 1.0 / 60.0) during += hold.update(true, t);
    EXPECT_EQ(during, 0);
    // One more second held: kRate steps (give or take the one at the delay's end),
    // not 60, whether the frames come at 60 or at 10 a second.
    int second = 0;
    for (int f = 0; f <= 60; ++f) second += hold.update(true, 10.0 + HoldRepeat::kDelay + f / 60.0);
    EXPECT_NEAR(second, HoldRepeat::kRate + 1.0, 1.0);
    HoldRepeat slow;
    slow.update(true, 0.0);
    int slowSteps = 0;
    for (int f = 1; f <= 14; ++f) slowSteps += slow.update(true, f / 10.0);  // to 1.4 s
    EXPECT_NEAR(slowSteps, HoldRepeat::kRate * (1.4 - HoldRepeat::kDelay) + 1.0, 1.0);
    // Released and pressed again: one step at once, then the delay again.
    EXPECT_EQ(slow.update(false, 1.5), 0);
    EXPECT_EQ(slow.update(true, 1.6), 1);
    EXPECT_EQ(slow.update(true, 1.7), 0);
}

TEST(Timeline, HistoryBudgetIsTakenInRangeAndARefusalNamesTheFieldAndRange) {
    size_t bytes = 7;
    EXPECT_FALSE(historyBudgetBytes(256, bytes));
    EXPECT_EQ(bytes, size_t(256) << 20);
    EXPECT_FALSE(historyBudgetBytes(kMinHistoryBudgetMiB, bytes));
    EXPECT_FALSE(historyBudgetBytes(kMaxHistoryBudgetMiB, bytes));
    EXPECT_EQ(bytes, size_t(kMaxHistoryBudgetMiB) << 20);
    for (long long bad : {0LL, -5LL, kMinHistoryBudgetMiB - 1, kMaxHistoryBudgetMiB + 1}) {
        size_t kept = 42;
        const impulse::Validation refused = historyBudgetBytes(bad, kept);
        ASSERT_TRUE(refused) << bad;
        EXPECT_EQ(refused->field, "history budget");
        EXPECT_NE(refused->message().find("16 to 65536 MiB"), std::string::npos) << refused->message();
        EXPECT_EQ(kept, 42u) << "a refusal changes nothing";
    }
}
