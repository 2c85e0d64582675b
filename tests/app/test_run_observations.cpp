// Each run owns its observations: after a promotion, a rewind, a branch and a
// replayed recording, the impact log, the strongest impacts (the Momenta tab),
// the plotted samples and the trails are exactly those of a fresh replay of the
// run shown, bit for bit.
#include "app/experiment.h"
#include "app/recording.h"
#include "physics/physics_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <variant>
#include <vector>

using namespace impulse;
using namespace impulse::app;

namespace {

const std::string kScene = std::string(IMPULSE_SOURCE_DIR) + "/assets/scenes/default.json";

using test::sameBits;

struct PlottedQuantity {
    const char* body;
    BodyQuantity quantity;
};
const std::vector<PlottedQuantity> kPlotted = {{"tower3", BodyQuantity::PositionY},
                                               {"pyramid2_0", BodyQuantity::Speed}};

/// What the panels are set to show, in any experiment that has just loaded the scene.
void observeLikeTheView(Experiment& experiment) {
    for (const PlottedQuantity& p : kPlotted) {
        ASSERT_FALSE(experiment.observations().plots.add(experiment.world(), experiment.world().findBody(p.body),
                                                         p.quantity));
    }
    experiment.observations().trails.setRecording(true);
}

void run(Experiment& experiment, int steps) {
    for (int i = 0; i < steps; ++i) experiment.step();
}

/// A ball thrown at the tower at the step shown (the T key's shot).
void shoot(Experiment& experiment) {
    BodyDef ball;
    ball.name = "shot_" + std::to_string(experiment.shownStep());
    ball.shape = Shape::sphere(0.3f);
    ball.mass = 5.0f;
    ball.position = vec3(2.0f, 2.0f, 4.0f);
    ball.linearVelocity = vec3(0.0f, 1.0f, -12.0f);
    ASSERT_FALSE(experiment.apply(SpawnBody{ball}));
}

void expectSameObservations(const Observations& shown, const Observations& fresh) {
    const auto& impacts = shown.impacts.entries();
    const auto& freshImpacts = fresh.impacts.entries();
    ASSERT_EQ(impacts.size(), freshImpacts.size()) << "impact log";
    for (size_t i = 0; i < impacts.size(); ++i) {
        SCOPED_TRACE("impact " + std::to_string(i));
        EXPECT_EQ(impacts[i].step, freshImpacts[i].step);
        EXPECT_EQ(impacts[i].nameA, freshImpacts[i].nameA);
        EXPECT_EQ(impacts[i].nameB, freshImpacts[i].nameB);
        EXPECT_EQ(impacts[i].featureId, freshImpacts[i].featureId);
        EXPECT_TRUE(sameBits(impacts[i].approachSpeed, freshImpacts[i].approachSpeed));
        EXPECT_TRUE(sameBits(impacts[i].normalImpulse, freshImpacts[i].normalImpulse));
    }
    const auto& strongest = shown.strongestImpacts.entries();
    const auto& freshStrongest = fresh.strongestImpacts.entries();
    ASSERT_EQ(strongest.size(), freshStrongest.size()) << "strongest impacts (Momenta tab)";
    for (size_t i = 0; i < strongest.size(); ++i) {
        SCOPED_TRACE("strongest impact " + std::to_string(i));
        EXPECT_EQ(strongest[i].first.step, freshStrongest[i].first.step);
        EXPECT_EQ(strongest[i].first.nameA, freshStrongest[i].first.nameA);
        EXPECT_EQ(strongest[i].first.nameB, freshStrongest[i].first.nameB);
        EXPECT_EQ(strongest[i].points, freshStrongest[i].points);
        EXPECT_TRUE(sameBits(strongest[i].impulseOnB, freshStrongest[i].impulseOnB));
        EXPECT_EQ(strongest[i].bodiesBefore.size(), freshStrongest[i].bodiesBefore.size());
        EXPECT_EQ(strongest[i].bodiesAfter.size(), freshStrongest[i].bodiesAfter.size());
    }
    ASSERT_EQ(shown.plots.steps(), fresh.plots.steps()) << "plot samples";
    ASSERT_EQ(shown.plots.series().size(), fresh.plots.series().size());
    for (size_t s = 0; s < shown.plots.series().size(); ++s) {
        const PlotSeries& a = shown.plots.series()[s];
        const PlotSeries& b = fresh.plots.series()[s];
        EXPECT_EQ(a.label(), b.label());
        ASSERT_EQ(a.values.size(), b.values.size());
        for (size_t k = 0; k < a.values.size(); ++k) {
            ASSERT_TRUE(sameBits(a.values[k], b.values[k]) || (std::isnan(a.values[k]) && std::isnan(b.values[k])))
                << a.label() << " at sample " << k;
        }
    }
    ASSERT_EQ(shown.trails.holds(fresh.trails.lastStep()), true) << "trails";
    EXPECT_EQ(shown.trails.firstStep(), fresh.trails.firstStep());
    EXPECT_EQ(shown.trails.lastStep(), fresh.trails.lastStep());
    ASSERT_EQ(shown.trails.trails().size(), fresh.trails.trails().size());
    for (size_t i = 0; i < shown.trails.trails().size(); ++i) {
        const BodyTrail& a = shown.trails.trails()[i];
        const BodyTrail& b = fresh.trails.trails()[i];
        SCOPED_TRACE("trail " + std::to_string(i));
        EXPECT_EQ(a.body.index, b.body.index);
        EXPECT_EQ(a.firstStep, b.firstStep);
        ASSERT_EQ(a.points.size(), b.points.size());
        for (size_t k = 0; k < a.points.size(); ++k) {
            ASSERT_TRUE(sameBits(a.points[k].centre, b.points[k].centre) && sameBits(a.points[k].mark, b.points[k].mark))
                << "point " << k;
        }
        EXPECT_EQ(a.moves.size(), b.moves.size());
    }
}

/// The run shown, replayed from its recording into a new experiment that observes
/// it as the view does, compared with what the experiment shows.
void expectObservationsOfAFreshReplay(const Experiment& experiment) {
    std::variant<Recording, std::string> captured = captureRecording(experiment);
    ASSERT_TRUE(std::holds_alternative<Recording>(captured)) << std::get<std::string>(captured);
    Experiment fresh;
    bool loaded = true;
    const Validation refused =
        replayRecording(std::get<Recording>(captured), fresh, "", [&](const World&) {
            if (loaded) observeLikeTheView(fresh);
            loaded = false;
            return true;
        });
    ASSERT_FALSE(refused) << refused->message();
    ASSERT_EQ(fresh.runEnd(), experiment.runEnd());
    ASSERT_NO_FATAL_FAILURE(expectSameObservations(experiment.observations(), fresh.observations()));
}

struct RunObservations : ::testing::Test {
    Experiment experiment;

    void SetUp() override {
        ASSERT_EQ(experiment.open(kScene), "");
        ASSERT_NO_FATAL_FAILURE(observeLikeTheView(experiment));
        run(experiment, 300);  // 5 s: the balls land on the tower and the pyramid
        ASSERT_GT(experiment.observations().impacts.entries().size(), 0u);
    }

    /// The steps: back to step 59, a shot at the tower, 3 s more.
    void branchWithAShot() {
        experiment.seek(59);
        ASSERT_NO_FATAL_FAILURE(shoot(experiment));
        run(experiment, 180);
        ASSERT_EQ(experiment.ghost(), std::optional<size_t>(0));
    }
};

TEST_F(RunObservations, ARecordedRunAndItsRewindShowItsOwnObservations) {
    ASSERT_NO_FATAL_FAILURE(expectObservationsOfAFreshReplay(experiment));
    experiment.seek(60);
    ASSERT_NO_FATAL_FAILURE(expectObservationsOfAFreshReplay(experiment));
    run(experiment, 120);  // played again: nothing new, nothing lost
    ASSERT_NO_FATAL_FAILURE(expectObservationsOfAFreshReplay(experiment));
}

TEST_F(RunObservations, ABranchShowsItsOwnObservations) {
    ASSERT_NO_FATAL_FAILURE(branchWithAShot());
    ASSERT_NO_FATAL_FAILURE(expectObservationsOfAFreshReplay(experiment));
}

TEST_F(RunObservations, APromotedRunShowsItsOwnObservationsAndKeepsThemAsItPlays) {
    const size_t firstRunImpacts = experiment.observations().impacts.entries().size();
    ASSERT_NO_FATAL_FAILURE(branchWithAShot());
    experiment.promoteGhost();
    EXPECT_EQ(experiment.runEnd(), 300u);
    EXPECT_EQ(experiment.observations().impacts.entries().size(), firstRunImpacts);
    for (const ImpactEntry& e : experiment.observations().impacts.entries()) {
        ASSERT_EQ(e.nameA.rfind("shot_", 0), std::string::npos) << "the branch's shot is not in this run";
        ASSERT_EQ(e.nameB.rfind("shot_", 0), std::string::npos) << "the branch's shot is not in this run";
    }
    ASSERT_NO_FATAL_FAILURE(expectObservationsOfAFreshReplay(experiment));
    // Rewound and played to its end and past it.
    experiment.seek(30);
    run(experiment, 300);
    EXPECT_EQ(experiment.runEnd(), 330u);
    ASSERT_NO_FATAL_FAILURE(expectObservationsOfAFreshReplay(experiment));
    // The branch, promoted back, is its own again too.
    experiment.promoteGhost();
    ASSERT_NO_FATAL_FAILURE(expectObservationsOfAFreshReplay(experiment));
}

TEST_F(RunObservations, ABranchOfAPromotedRunShowsItsOwnObservations) {
    ASSERT_NO_FATAL_FAILURE(branchWithAShot());
    experiment.promoteGhost();
    experiment.seek(150);
    ASSERT_NO_FATAL_FAILURE(shoot(experiment));
    run(experiment, 100);
    ASSERT_NO_FATAL_FAILURE(expectObservationsOfAFreshReplay(experiment));
}

TEST_F(RunObservations, AReplayedRecordingShowsOnlyItsOwnObservations) {
    ASSERT_NO_FATAL_FAILURE(branchWithAShot());
    std::variant<Recording, std::string> captured = captureRecording(experiment);
    ASSERT_TRUE(std::holds_alternative<Recording>(captured));
    experiment.promoteGhost();
    // Played into the experiment that holds both runs (its plotted series follow the
    // bodies of the same names into the loaded world): the branch's run alone is shown.
    ASSERT_FALSE(replayRecording(std::get<Recording>(captured), experiment, kScene));
    EXPECT_TRUE(experiment.previousRuns().empty());
    ASSERT_NO_FATAL_FAILURE(expectObservationsOfAFreshReplay(experiment));
}

}  // namespace
