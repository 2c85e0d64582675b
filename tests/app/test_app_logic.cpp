// The app's window-free parts: command line, step clock, camera math, preset listing,
// what Auto cuts of the shadows.
#include "app/auto_shadows.h"
#include "app/options.h"
#include "app/paths.h"
#include "app/sim_clock.h"
#include "app/spawn_placement.h"
#include "render/camera.h"
#include "render/debug_draw.h"
#include "ui/edit.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <unistd.h>

using namespace impulse;

TEST(Options, ParsesEveryFlag) {
    const char* argv[] = {"impulse-lab", "scene.json", "--frames", "12", "--screenshot", "a.png",
                          "--save-on-exit", "b.json", "--size", "800x600", "--paused"};
    app::AppOptions o;
    EXPECT_EQ(app::parseOptions(11, argv, o), "");
    EXPECT_EQ(o.scene, "scene.json");
    EXPECT_EQ(o.frames, 12);
    EXPECT_EQ(o.screenshot, "a.png");
    EXPECT_EQ(o.saveOnExit, "b.json");
    EXPECT_EQ(o.width, 800);
    EXPECT_EQ(o.height, 600);
    EXPECT_TRUE(o.paused);
}

TEST(Options, RejectsBadArguments) {
    auto parse = [](std::vector<const char*> args) {
        args.insert(args.begin(), "impulse-lab");
        app::AppOptions o;
        return app::parseOptions(static_cast<int>(args.size()), args.data(), o);
    };
    EXPECT_NE(parse({"--frames"}), "");
    EXPECT_NE(parse({"--frames", "ten"}), "");
    EXPECT_NE(parse({"--frames", "-3"}), "");
    EXPECT_NE(parse({"--size", "800"}), "");
    EXPECT_NE(parse({"--size", "10x10"}), "");
    EXPECT_NE(parse({"--bogus"}), "");
    EXPECT_NE(parse({"a.json", "b.json"}), "");
    EXPECT_EQ(parse({}), "");
}

namespace {
// Records one judging window of frames that each took `ms`, with a few far slower ones
// (a scheduler hiccup: under half the window, so the median ignores them).
void recordWindow(app::RenderBudget& budget, double ms) {
    for (size_t frame = 0; frame < app::RenderBudget::kWindowFrames; ++frame) {
        budget.record(frame % 5 == 0 ? 3.0 * ms : ms);
    }
}
constexpr double kBudgetMs = 15.0;
}  // namespace

TEST(RenderBudget, CutsNothingWhileTheFramesFit) {
    app::RenderBudget budget(kBudgetMs);
    for (int window = 0; window < 20; ++window) recordWindow(budget, 14.9);
    EXPECT_EQ(budget.cut(), 0);
}

TEST(RenderBudget, CutsAfterTwoLateWindowsOrOneClearlyLate) {
    app::RenderBudget budget(kBudgetMs);
    recordWindow(budget, 16.4);  // 9% over: the host's drift?
    EXPECT_EQ(budget.cut(), 0);
    recordWindow(budget, 14.0);
    recordWindow(budget, 16.4);
    EXPECT_EQ(budget.cut(), 0) << "not two in a row";
    recordWindow(budget, 16.4);
    EXPECT_EQ(budget.cut(), 1);
    recordWindow(budget, 16.4);
    EXPECT_EQ(budget.cut(), 1) << "the count starts again at each cut";
    recordWindow(budget, 16.6);  // 11% over
    EXPECT_EQ(budget.cut(), 2);
}

TEST(RenderBudget, CutsOneStepPerLateWindowAndNoMore) {
    app::RenderBudget budget(kBudgetMs);
    for (size_t frame = 0; frame + 1 < app::RenderBudget::kWindowFrames; ++frame) budget.record(20.0);
    EXPECT_EQ(budget.cut(), 0) << "judged only once a window is complete";
    budget.record(20.0);
    EXPECT_EQ(budget.cut(), 1);
    recordWindow(budget, 18.0);  // the first step saved 2 ms: not enough
    EXPECT_EQ(budget.cut(), 2);
    for (int window = 0; window < 5; ++window) recordWindow(budget, 16.0);
    EXPECT_EQ(budget.cut(), app::RenderBudget::kMaxCut) << "nothing more to cut";
}

// Cut at 20 -> 18 -> 12 ms: the steps saved 2 and 6 ms. A step comes back once the frame
// plus what the step cost fits into 90% of the budget (13.5 ms).
TEST(RenderBudget, RestoresAStepOnlyWhenWhatItCostFits) {
    app::RenderBudget budget(kBudgetMs);
    recordWindow(budget, 20.0);
    recordWindow(budget, 18.0);
    recordWindow(budget, 12.0);
    ASSERT_EQ(budget.cut(), 2);
    for (int window = 0; window < 10; ++window) recordWindow(budget, 8.0);  // 8 + 6 > 13.5
    EXPECT_EQ(budget.cut(), 2) << "restoring would overrun: the frame stays as it is";
    recordWindow(budget, 7.0);  // the load fell (a pile came to rest): 7 + 6 fits
    EXPECT_EQ(budget.cut(), 1);
    recordWindow(budget, 12.0);  // measures the restored step: 5 ms
    EXPECT_EQ(budget.cut(), 1) << "waits a window before the next step";
    recordWindow(budget, 12.0);  // 12 + 2 > 13.5
    recordWindow(budget, 11.0);
    EXPECT_EQ(budget.cut(), 0);
}

// A restore that overruns is cut again (a little late: after two windows), and its
// measured cost (what the frame grew by) keeps it cut until the load has fallen by a
// tenth of the budget more, or a probe comes (after twice the first wait, as this
// restore overran).
TEST(RenderBudget, ARestoreThatOverrunsIsCutAgainUntilTheLoadFalls) {
    app::RenderBudget budget(kBudgetMs);
    recordWindow(budget, 20.0);
    recordWindow(budget, 10.0);  // the step saved 10 ms
    ASSERT_EQ(budget.cut(), 1);
    recordWindow(budget, 3.0);   // 3 + 10 fits into 13.5
    ASSERT_EQ(budget.cut(), 0);
    recordWindow(budget, 16.0);  // it cost 13 ms this time (the load rose meanwhile)
    ASSERT_EQ(budget.cut(), 0) << "a little late: one more window";
    recordWindow(budget, 16.0);
    ASSERT_EQ(budget.cut(), 1);
    recordWindow(budget, 3.0);   // cutting it saved 13 ms again
    for (int window = 0; window < 20; ++window) recordWindow(budget, 1.0);  // 1 + 13 > 13.5
    EXPECT_EQ(budget.cut(), 1) << "no flicker while the load stays where the try failed (no probe for 40)";
    recordWindow(budget, 0.5);
    EXPECT_EQ(budget.cut(), 0);
}

// Cutting measured 15 ms, more than the step costs once the load has settled (the
// measurement was taken while it rose): without probes the step would never come back.
TEST(RenderBudget, ProbesAStepThatSeemsTooDearAndWaitsLongerAfterEachOverrun) {
    app::RenderBudget budget(kBudgetMs);
    recordWindow(budget, 20.0);
    recordWindow(budget, 5.0);  // measures 15 ms
    ASSERT_EQ(budget.cut(), 1);
    const auto windowsUntilRestored = [&](double ms) {
        int windows = 1;  // the one that measured the cut
        for (; budget.cut() == 1 && windows < 1000; ++windows) recordWindow(budget, ms);
        return windows;
    };
    EXPECT_EQ(windowsUntilRestored(10.0), app::RenderBudget::kFirstProbeWindows);  // 10 + 15 > 13.5
    recordWindow(budget, 18.0);  // the probe overran
    ASSERT_EQ(budget.cut(), 1);
    recordWindow(budget, 10.0);  // cutting saved 8 ms at this load
    EXPECT_EQ(windowsUntilRestored(10.0), 2 * app::RenderBudget::kFirstProbeWindows);  // 10 + 8 > 13.5
    for (int window = 0; window < app::RenderBudget::kHeldWindows; ++window) {
        recordWindow(budget, 12.0);  // this one held
    }
    EXPECT_EQ(budget.cut(), 0);
    recordWindow(budget, 16.0);
    recordWindow(budget, 16.0);
    ASSERT_EQ(budget.cut(), 1);
    recordWindow(budget, 12.0);  // 4 ms
    EXPECT_EQ(windowsUntilRestored(12.0), app::RenderBudget::kFirstProbeWindows) << "back to the first wait";
    recordWindow(budget, 14.0);
    EXPECT_EQ(budget.cut(), 0);
}

// A load right at the budget, whatever is cut (one window at 13 ms, two at 16, over and
// over): cutting seems to save 3 ms, never enough to restore on the estimate; the probes
// that restore a step overrun at once, and come ever more rarely.
TEST(RenderBudget, ALoadAtTheBudgetChangesThePictureEverMoreRarely) {
    app::RenderBudget budget(kBudgetMs);
    std::vector<int> restoredAt;
    for (int window = 0; window < 1000; ++window) {
        const int cut = budget.cut();
        recordWindow(budget, window % 3 == 0 ? 13.0 : 16.0);
        if (budget.cut() < cut) restoredAt.push_back(window);
    }
    ASSERT_GE(restoredAt.size(), 4u) << "it keeps probing";
    EXPECT_LE(restoredAt.size(), 10u);
    for (size_t i = 2; i < restoredAt.size(); ++i) {
        EXPECT_GE(restoredAt[i] - restoredAt[i - 1], restoredAt[i - 1] - restoredAt[i - 2]) << "restore " << i;
    }
    EXPECT_GE(restoredAt.back() - restoredAt[restoredAt.size() - 2], app::RenderBudget::kMaxWaitWindows - 1);
}

TEST(RenderBudget, ResetForgetsTheCutAndTheLongerWaits) {
    app::RenderBudget budget(kBudgetMs);
    recordWindow(budget, 20.0);
    recordWindow(budget, 10.0);
    recordWindow(budget, 3.0);  // restored
    recordWindow(budget, 17.0);  // and cut again at once: the waits double
    ASSERT_EQ(budget.cut(), 1);
    budget.reset();
    EXPECT_EQ(budget.cut(), 0);
    recordWindow(budget, 20.0);
    recordWindow(budget, 5.0);  // measures 15 ms: only a probe brings it back
    int windows = 1;
    for (; budget.cut() == 1 && windows < 1000; ++windows) recordWindow(budget, 10.0);
    EXPECT_EQ(windows, app::RenderBudget::kFirstProbeWindows) << "the first wait again";
}

namespace {
const render::TierSettings kSoftware = render::tierSettings(render::RenderTier::software);
const render::TierSettings kStandard = render::tierSettings(render::RenderTier::standard);

// A frame whose 3D pass took `render3d` ms, with everything else as given.
app::FrameTimes frameWith(double render3d, double physics = 0.5, double ui = 2.0) {
    app::FrameTimes t;
    t.render3d = render3d;
    t.render = render3d + 0.5;
    t.physics = physics;
    t.ui = ui;
    t.busy = t.render + t.physics + t.ui + 1.0;
    t.frame = std::max(t.busy, 1000.0 / 60.0);
    return t;
}

// Records `windows` judging windows of the same frame.
void recordWindows(app::AutoShadows& shadows, int windows, const app::FrameTimes& t,
                   app::ShadowMode mode = app::ShadowMode::automatic, const render::TierSettings& tier = kSoftware) {
    for (size_t i = 0; i < static_cast<size_t>(windows) * app::RenderBudget::kWindowFrames; ++i) {
        shadows.record(t, mode, tier);
    }
}
}  // namespace

TEST(AutoShadows, CutsOnTheSoftwareTierWhileTheThreeDPassRunsOverItsBudget) {
    app::AutoShadows shadows;
    const double over = 1.5 * app::AutoShadows::kRenderBudgetMs;
    for (size_t i = 0; i + 1 < app::RenderBudget::kWindowFrames; ++i) shadows.record(frameWith(over), app::ShadowMode::automatic, kSoftware);
    EXPECT_EQ(shadows.cut(app::ShadowMode::automatic, kSoftware), app::ShadowCut::none) << "a window is not complete";
    shadows.record(frameWith(over), app::ShadowMode::automatic, kSoftware);
    EXPECT_EQ(shadows.cut(app::ShadowMode::automatic, kSoftware), app::ShadowCut::onBodies);
    recordWindows(shadows, 1, frameWith(over));
    EXPECT_EQ(shadows.cut(app::ShadowMode::automatic, kSoftware), app::ShadowCut::all);
    // The load falls (a pile came to rest): the shadows come back, one step at a time.
    recordWindows(shadows, 30, frameWith(0.2 * app::AutoShadows::kRenderBudgetMs));
    EXPECT_EQ(shadows.cut(app::ShadowMode::automatic, kSoftware), app::ShadowCut::none);
}

// The complaint that made Auto: a physics-heavy scene rendering in 1.2 ms had its
// shadows cut because the frame as a whole ran late. Cutting shadows cannot shorten the
// steps, the panels or the wait for the display: only the 3D pass counts.
TEST(AutoShadows, PhysicsPanelsAndSlowFramesNeverCut) {
    app::AutoShadows shadows;
    recordWindows(shadows, 40, frameWith(1.2, /*physics=*/45.0, /*ui=*/20.0));
    EXPECT_EQ(shadows.cut(app::ShadowMode::automatic, kSoftware), app::ShadowCut::none);
    // Unknown 3D pass times (a timer query not read yet) are no evidence either way.
    recordWindows(shadows, 10, frameWith(-1.0, 45.0, 20.0));
    EXPECT_EQ(shadows.cut(app::ShadowMode::automatic, kSoftware), app::ShadowCut::none);
}

TEST(AutoShadows, NeverCutsOnTheStandardTierAndOnAndOffAreWhatTheySay) {
    app::AutoShadows shadows;
    const app::FrameTimes slow = frameWith(3.0 * app::AutoShadows::kRenderBudgetMs);
    recordWindows(shadows, 10, slow, app::ShadowMode::automatic, kStandard);
    EXPECT_EQ(shadows.cut(app::ShadowMode::automatic, kStandard), app::ShadowCut::none);
    recordWindows(shadows, 10, slow, app::ShadowMode::on, kSoftware);
    EXPECT_EQ(shadows.cut(app::ShadowMode::on, kSoftware), app::ShadowCut::none);
    EXPECT_EQ(shadows.cut(app::ShadowMode::automatic, kSoftware), app::ShadowCut::none) << "On measured nothing for Auto";
    EXPECT_EQ(shadows.cut(app::ShadowMode::off, kSoftware), app::ShadowCut::all);
    EXPECT_EQ(shadows.cut(app::ShadowMode::off, kStandard), app::ShadowCut::all);
}

TEST(AutoShadows, LeavingAutoOrANewSceneStartsAgainWithFullShadows) {
    app::AutoShadows shadows;
    const app::FrameTimes slow = frameWith(2.0 * app::AutoShadows::kRenderBudgetMs);
    recordWindows(shadows, 2, slow);
    ASSERT_EQ(shadows.cut(app::ShadowMode::automatic, kSoftware), app::ShadowCut::all);
    shadows.record(slow, app::ShadowMode::on, kSoftware);
    EXPECT_EQ(shadows.cut(app::ShadowMode::automatic, kSoftware), app::ShadowCut::none);
    recordWindows(shadows, 2, slow);
    ASSERT_EQ(shadows.cut(app::ShadowMode::automatic, kSoftware), app::ShadowCut::all);
    shadows.reset();
    EXPECT_EQ(shadows.cut(app::ShadowMode::automatic, kSoftware), app::ShadowCut::none);
}

TEST(AutoShadows, StatsSaysWhichShadowsAndWhy) {
    using app::describeShadows;
    EXPECT_EQ(describeShadows(app::ShadowMode::off, kSoftware, app::ShadowCut::all, 4.0), "shadows off (set to Off)");
    EXPECT_EQ(describeShadows(app::ShadowMode::on, kSoftware, app::ShadowCut::none, 30.0), "shadows on (set to On)");
    EXPECT_EQ(describeShadows(app::ShadowMode::automatic, kStandard, app::ShadowCut::none, 30.0),
              "shadows on (Auto: standard tier)");
    EXPECT_EQ(describeShadows(app::ShadowMode::automatic, kSoftware, app::ShadowCut::none, 6.25),
              "shadows on (Auto: 3D pass 6.2 ms)");
    EXPECT_EQ(describeShadows(app::ShadowMode::automatic, kSoftware, app::ShadowCut::onBodies, 9.0),
              "bodies unshadowed: 3D pass over 13 ms");
    EXPECT_EQ(describeShadows(app::ShadowMode::automatic, kSoftware, app::ShadowCut::all, 9.0),
              "shadows off by Auto: 3D pass over 13 ms");
    for (const auto& [text, mode] : {std::pair{"auto", app::ShadowMode::automatic}, std::pair{"on", app::ShadowMode::on},
                                     std::pair{"off", app::ShadowMode::off}}) {
        app::ShadowMode parsed = app::ShadowMode::on;
        EXPECT_TRUE(app::parseShadowMode(text, parsed));
        EXPECT_EQ(parsed, mode);
        EXPECT_STREQ(app::shadowModeName(mode), text);
    }
    app::ShadowMode parsed = app::ShadowMode::on;
    EXPECT_FALSE(app::parseShadowMode("Auto", parsed));
    EXPECT_FALSE(app::parseShadowMode("", parsed));
}

TEST(Options, ShadowsFlagTakesAutoOnOrOffAndSaysSoOtherwise) {
    auto parse = [](std::vector<const char*> args, app::AppOptions& o) {
        args.insert(args.begin(), "impulse-lab");
        return app::parseOptions(static_cast<int>(args.size()), args.data(), o);
    };
    app::AppOptions o;
    EXPECT_FALSE(o.shadows.has_value());
    EXPECT_EQ(parse({"--shadows", "off"}, o), "");
    EXPECT_EQ(o.shadows, app::ShadowMode::off);
    const std::string error = parse({"--shadows", "sometimes"}, o);
    EXPECT_EQ(error, "--shadows: 'sometimes' is not a setting (auto, on or off)");
    EXPECT_EQ(parse({"--shadows"}, o), "--shadows: missing (auto, on or off)");
}

TEST(Options, ShowTurnsOnTheNamedClassroomViewsAndNamesAnUnknownOne) {
    auto parse = [](std::vector<const char*> args, app::AppOptions& o) {
        args.insert(args.begin(), "impulse-lab");
        return app::parseOptions(static_cast<int>(args.size()), args.data(), o);
    };
    app::AppOptions o;
    EXPECT_EQ(parse({"--show", "momentum,impact-momentum,centre-of-mass", "--select", "cue"}, o), "");
    using scene::ShownView;
    EXPECT_EQ(o.show, (std::vector<ShownView>{ShownView::Momentum, ShownView::ImpactMomentum, ShownView::SystemCentre}));
    EXPECT_EQ(o.select, "cue");
    app::AppOptions all;
    EXPECT_EQ(parse({"--show", "velocity,angular-velocity,angular-momentum,velocity"}, all), "");
    EXPECT_EQ(all.show, (std::vector<ShownView>{ShownView::Velocity, ShownView::AngularVelocity,
                                                ShownView::AngularMomentum}));
    EXPECT_FALSE(app::AppOptions{}.show.has_value()) << "without --show the scene's views are used";
    app::AppOptions paths;
    EXPECT_EQ(parse({"--show", "marked-points,trails"}, paths), "");
    app::ClassroomView trailsView;
    trailsView.showOnly(*paths.show);
    EXPECT_TRUE(trailsView.trails && trailsView.markedPoints);
    EXPECT_FALSE(trailsView.velocity);

    // A ClassroomView turns on exactly the listed views and lists them back.
    app::ClassroomView view;
    view.velocity = true;
    view.showOnly(*o.show);
    EXPECT_FALSE(view.velocity);
    EXPECT_TRUE(view.momentum && view.impactMomentum && view.systemCentre);
    EXPECT_EQ(view.shown(), *o.show);
    app::AppOptions diagram;
    EXPECT_EQ(parse({"--show", "momenta"}, diagram), "");
    EXPECT_EQ(diagram.show, (std::vector<ShownView>{ShownView::MomentaDiagram}));
    view.showOnly(*diagram.show);
    EXPECT_TRUE(view.momentaDiagram && !view.momentum);

    app::AppOptions bad;
    EXPECT_EQ(parse({"--show", "momentum,spin"}, bad),
              "--show: 'spin' is not a view (velocity, momentum, angular-velocity, angular-momentum, "
              "impact-momentum, centre-of-mass, momenta, trails, marked-points)");
    EXPECT_EQ(parse({"--show"}, bad),
              "--show needs a list of views (velocity, momentum, angular-velocity, angular-momentum, "
              "impact-momentum, centre-of-mass, momenta, trails, marked-points)");
    EXPECT_EQ(parse({"--select"}, bad), "--select needs a body's name");
}

TEST(FixedStepClock, SpendsWholeStepsAndKeepsTheRemainder) {
    app::FixedStepClock clock;
    const double dt = 1.0 / 60.0;
    EXPECT_EQ(clock.advance(0.5 * dt, dt, 1.0, 4, false, false).steps, 0);
    EXPECT_NEAR(clock.alpha(), 0.5, 1e-9);
    EXPECT_EQ(clock.advance(dt, dt, 1.0, 4, false, false).steps, 1);
    EXPECT_NEAR(clock.alpha(), 0.5, 1e-9);
    // Slow motion: a quarter of the time is banked.
    app::FixedStepClock slow;
    int steps = 0;
    for (int i = 0; i < 40; ++i) steps += slow.advance(dt, dt, 0.25, 4, false, false).steps;
    EXPECT_EQ(steps, 10);
}

TEST(FixedStepClock, CapsStepsPerFrameAndDropsTheSurplus) {
    app::FixedStepClock clock;
    const double dt = 0.01;
    const app::FixedStepClock::Plan plan = clock.advance(0.2, dt, 1.0, 3, false, false);
    EXPECT_EQ(plan.steps, 3);
    EXPECT_TRUE(plan.dropped);
    EXPECT_LT(clock.alpha(), 1.0);
    EXPECT_EQ(clock.advance(0.0, dt, 1.0, 3, false, false).steps, 0);  // no spiral: nothing owed
}

TEST(FixedStepClock, PauseAndSingleStep) {
    app::FixedStepClock clock;
    EXPECT_EQ(clock.advance(1.0, 0.01, 1.0, 4, true, false).steps, 0);
    EXPECT_EQ(clock.advance(1.0, 0.01, 1.0, 4, true, true).steps, 1);
    EXPECT_EQ(clock.advance(0.0, 0.01, 1.0, 4, false, false).steps, 0);  // pausing banked nothing
}

TEST(OrbitCamera, CentreRayLooksAtTheTargetAndProjectionRoundTrips) {
    render::OrbitCamera cam;
    cam.target = glm::vec3(1.0f, 2.0f, 3.0f);
    const render::Ray r = cam.rayThroughPixel(639.5f, 359.5f, 1280.0f, 720.0f);
    EXPECT_NEAR(glm::dot(r.direction, cam.forward()), 1.0f, 1e-5f);
    EXPECT_NEAR(glm::length(r.origin + r.direction * cam.distance - cam.target), 0.0f, 1e-3f);

    const glm::vec3 p(1.5f, 2.5f, 2.0f);
    const glm::vec4 s = cam.project(p, 1280.0f, 720.0f);
    ASSERT_GT(s.w, 0.0f);
    const render::Ray back = cam.rayThroughPixel(s.x - 0.5f, s.y - 0.5f, 1280.0f, 720.0f);
    const glm::vec3 toP = glm::normalize(p - back.origin);
    EXPECT_NEAR(glm::dot(toP, back.direction), 1.0f, 1e-5f);
}

TEST(OrbitCamera, FrameFitsTheSphereAndPitchIsClamped) {
    render::OrbitCamera cam;
    cam.frame(glm::vec3(0.0f), 5.0f, 16.0f / 9.0f);
    // Every point of the sphere projects inside the viewport.
    for (const glm::vec3 d : {glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 1), glm::vec3(-1, 0, 0),
                              glm::vec3(0, -1, 0), glm::vec3(0, 0, -1)}) {
        const glm::vec4 s = cam.project(d * 5.0f, 1280.0f, 720.0f);
        EXPECT_GE(s.x, 0.0f);
        EXPECT_LE(s.x, 1280.0f);
        EXPECT_GE(s.y, 0.0f);
        EXPECT_LE(s.y, 720.0f);
    }
    cam.orbit(0.0f, 10.0f);
    EXPECT_LT(cam.pitch, 1.571f);
    glm::vec3 hit;
    EXPECT_TRUE(render::intersectPlane(cam.rayThroughPixel(640, 360, 1280, 720), glm::vec3(0), glm::vec3(0, 1, 0), hit));
}

TEST(DebugDraw, ArrowsAndBoxesAreLinePairs) {
    render::DebugDraw d;
    d.arrow(glm::vec3(0), glm::vec3(1, 0, 0), glm::vec4(1));
    d.aabb(glm::vec3(0), glm::vec3(1), glm::vec4(1));
    d.point(glm::vec3(0), glm::vec4(1));
    EXPECT_EQ(d.lines.size() % 2, 0u);
    EXPECT_EQ(d.lines.size(), (5u + 12u) * 2u);
    EXPECT_EQ(d.points.size(), 1u);
    d.clear();
    d.orientedBox(glm::vec3(0), glm::mat3(1.0f), glm::vec3(1), glm::vec4(1));
    EXPECT_EQ(d.lines.size(), 24u);
}

TEST(Presets, ListsJsonFilesInSubfoldersSorted) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("impulse_presets_" + std::to_string(::getpid()));
    fs::create_directories(dir / "sub");
    std::ofstream(dir / "b.json") << "{}";
    std::ofstream(dir / "a.json") << "{}";
    std::ofstream(dir / "notes.txt") << "x";
    std::ofstream(dir / "sub" / "c.json") << "{}";
    const std::vector<std::string> list = ui::listPresets(dir.string());
    EXPECT_EQ(list, (std::vector<std::string>{"a.json", "b.json", "sub/c.json"}));
    fs::remove_all(dir);
    EXPECT_TRUE(ui::listPresets((dir / "missing").string()).empty());
}

TEST(Presets, TheShippedFolderHasTheDefaultScene) {
    const std::vector<std::string> list = ui::listPresets(std::string(IMPULSE_SOURCE_DIR) + "/assets/scenes");
    EXPECT_NE(std::find(list.begin(), list.end(), "default.json"), list.end());
}

TEST(DataPaths, FoundFromAnyWorkingDirectory) {
    app::DataPaths paths;
    ASSERT_EQ(app::findDataPaths("/nonexistent/bin", paths), "");
    EXPECT_TRUE(std::filesystem::exists(paths.shaders + "/lit.frag"));
    EXPECT_TRUE(std::filesystem::exists(paths.defaultScene()));
}

// F12 after a restart: the numbering goes on past the files already there, and fills a
// gap left by a deleted one, so no earlier screenshot is overwritten.
TEST(DataPaths, NumberedPathsNeverNameAnExistingFile) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("impulse_numbered_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const auto next = [&] { return app::firstFreeNumberedPath(dir.string(), "impulse-lab-", ".png"); };
    EXPECT_EQ(next(), (dir / "impulse-lab-1.png").string());
    for (const char* name : {"impulse-lab-1.png", "impulse-lab-2.png", "impulse-lab-4.png"}) std::ofstream(dir / name) << "x";
    EXPECT_EQ(next(), (dir / "impulse-lab-3.png").string());
    std::ofstream(dir / "impulse-lab-3.png") << "x";
    EXPECT_EQ(next(), (dir / "impulse-lab-5.png").string());
    fs::remove_all(dir);
}

// N pointed at a kerb's inner face low down: the sphere used to start 0.35 m up with a
// 0.5 m radius, inside the ground. Now it is lifted clear of every box it would overlap.
TEST(SpawnPlacement, ASphereSpawnedAtAKerbsFaceStartsClearOfTheGround) {
    World world;
    BodyDef ground;
    ground.isStatic = true;
    ground.shape = Shape::box(vec3(20.0f, 0.5f, 20.0f));
    ground.position = vec3(0.0f, -0.5f, 0.0f);
    BodyDef kerb = ground;
    kerb.shape = Shape::box(vec3(0.2f, 0.3f, 20.0f));
    kerb.position = vec3(19.8f, 0.3f, 0.0f);
    ASSERT_TRUE(world.createBody(ground) && world.createBody(kerb));
    const Shape ball = Shape::sphere(0.5f);
    const vec3 p = app::spawnPositionAt(world, ball, vec3(19.6f, 0.1f, 0.0f), vec3(-1.0f, 0.0f, 0.0f));
    EXPECT_GE(p.y - 0.5f, 0.0f);          // above the ground's top
    EXPECT_LE(p.x + 0.5f, 19.6f);         // and off the kerb's face
    EXPECT_LT(p.y, 0.6f);                 // lifted no further than it must
    // Where nothing is in the way it is left where the surface put it.
    const vec3 open = app::spawnPositionAt(world, ball, vec3(0.0f), vec3(0.0f, 1.0f, 0.0f));
    EXPECT_EQ(open, vec3(0.0f, 1.125f, 0.0f));
}
