// The experiment's history on pile1000 (issue 21): what recording costs a step,
// and what showing a recorded step (Experiment::seek) costs once the history
// holds IMPULSE_HISTORY_MINUTES simulated minutes (5 by default; recording them
// takes a few minutes of the step's own time first).
//
//   BM_RecordingCost        one step of the settled pile as World::step and as
//                           Experiment::step (a keyframe every spacing() steps,
//                           the budget's count, the plotted series), alternating.
//   BM_Keyframe             taking and keeping one keyframe of the settled pile.
//   BM_Seek                 a seek to a pseudo-random step of the whole history
//                           (and the slowest of them, CPU time, as a counter).
//   BM_ScrubForward         a seek to the next step, from the one shown.
//   BM_TrailsCost           one step of the settled pile through Experiment::step with
//                           the view's trails off and on (BodyTrails::record), alternating.
//   BM_TrailsShown          the points a frame draws of every trail (BodyTrails::shownPoints)
//                           for a trail of the argument's seconds.
// The history's figures (keyframes, spacing, MiB, seconds) are printed as counters.
#include "app/experiment.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace {

using impulse::app::Experiment;

const std::string kPile = std::string(IMPULSE_SOURCE_DIR) + "/assets/scenes/bench/pile1000.json";

double historyMinutes() {
    const char* text = std::getenv("IMPULSE_HISTORY_MINUTES");
    return text ? std::atof(text) : 5.0;
}

Experiment& recorded() {
    static std::unique_ptr<Experiment> experiment;
    if (!experiment) {
        experiment = std::make_unique<Experiment>();
        if (const std::string error = experiment->open(kPile); !error.empty()) {
            std::fprintf(stderr, "impulse-bench-history: %s\n", error.c_str());
            std::exit(1);
        }
        const auto steps = uint64_t(historyMinutes() * 60.0 / experiment->world().settings().timestep);
        for (uint64_t i = 0; i < steps; ++i) experiment->step();
    }
    return *experiment;
}

double threadCpuMs() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return double(now.tv_sec) * 1e3 + double(now.tv_nsec) * 1e-6;
}

double median(std::vector<double> values) {
    std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
    return values[values.size() / 2];
}

// Each iteration steps `first` for a block of `block` steps, then `second` for as
// many: the medians over the iterations of their CPU time a step (ms). Both see the
// same load and the same cache turnover.
template <class First, class Second>
std::pair<double, double> alternatingBlocks(benchmark::State& state, uint64_t block, First first,
                                            Second second) {
    std::vector<double> firstMs, secondMs;
    for (auto _ : state) {
        const double start = threadCpuMs();
        for (uint64_t i = 0; i < block; ++i) first();
        const double middle = threadCpuMs();
        for (uint64_t i = 0; i < block; ++i) second();
        const double end = threadCpuMs();
        firstMs.push_back((middle - start) / double(block));
        secondMs.push_back((end - middle) / double(block));
    }
    return {median(firstMs), median(secondMs)};
}

// The settled pile steps on from the recorded run's end twice, in alternating
// blocks of one keyframe spacing: as a bare World, and as a copy of the experiment
// (sharing its keyframes) through Experiment::step, with all that recording adds
// (keyframes, the budget's count, the plots' and impact log's series). Both see
// the same load and the same cache turnover: the difference of their median blocks
// is recording's, not the machine's.
void BM_RecordingCost(benchmark::State& state) {
    Experiment experiment = recorded();
    impulse::World plain = experiment.world();
    const uint64_t block = experiment.runHistory().spacing();
    const auto [offMs, onMs] = alternatingBlocks(
        state, block, [&] { plain.step(); }, [&] { experiment.step(); });
    state.counters["step_ms"] = offMs;
    state.counters["recorded_step_ms"] = onMs;
    state.counters["cost_percent"] = 100.0 * (onMs / offMs - 1.0);
    state.counters["spacing"] = double(block);
}
// Each iteration is one block of each (a keyframe in every recorded block).
BENCHMARK(BM_RecordingCost)->Unit(benchmark::kMillisecond)->Iterations(60)->Repetitions(3);

// What a keyframe costs when one is due: taking it (kept against the history's
// latest full keyframe) and keeping it. Divided by spacing(), the recording's
// cost a step, with a smaller spread than BM_Step's difference.
void BM_Keyframe(benchmark::State& state) {
    impulse::World world = recorded().world();
    const impulse::app::RunHistory& recordedHistory = recorded().runHistory();
    world.step();
    for (auto _ : state) {
        impulse::app::RunHistory history = recordedHistory;
        history.keep(world, 0.0, false);
        benchmark::DoNotOptimize(history.bytes());
    }
    state.counters["spacing"] = double(recordedHistory.spacing());
}
BENCHMARK(BM_Keyframe)->Unit(benchmark::kMillisecond)->Iterations(40)->Repetitions(5);

void BM_Seek(benchmark::State& state) {
    Experiment& experiment = recorded();
    const uint64_t end = experiment.runEnd();
    uint64_t next = uint64_t(state.range(0));
    double slowest = 0.0;
    for (auto _ : state) {
        next = (next * 2654435761u + 12345u) % (end + 1);
        const double start = threadCpuMs();
        experiment.seek(next);
        slowest = std::max(slowest, threadCpuMs() - start);
    }
    const impulse::app::RunHistory& history = experiment.runHistory();
    size_t full = 0;
    for (const auto& keyframe : history.keyframes()) full += keyframe.world->base() ? 0 : 1;
    state.counters["slowest_cpu_ms"] = slowest;
    state.counters["keyframes"] = double(history.keyframes().size());
    state.counters["full"] = double(full);
    state.counters["spacing"] = double(history.spacing());
    state.counters["MiB"] = double(experiment.historyBytes()) / double(1 << 20);
    state.counters["seconds"] = double(end) * experiment.world().settings().timestep;
    experiment.seek(end);
}
// Each repetition seeks to 40 other pseudo-random steps (the argument seeds them).
BENCHMARK(BM_Seek)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(40)->Repetitions(5);

// Scrubbing forward a step at a time from the middle of the history: each seek goes
// on from the step shown (one step's cost) instead of from the keyframe before it.
void BM_ScrubForward(benchmark::State& state) {
    Experiment& experiment = recorded();
    experiment.seek(experiment.runEnd() / 2 + 1);
    for (auto _ : state) experiment.seek(experiment.shownStep() + 1);
    experiment.seek(experiment.runEnd());
}
BENCHMARK(BM_ScrubForward)->Unit(benchmark::kMillisecond)->Iterations(48)->Repetitions(5);

// Two copies of the recorded experiment step on in alternating blocks, one with the
// trails recording (filled to their longest first, so that every step also drops its
// oldest points), one without: the difference of their median blocks is the trails'.
void BM_TrailsCost(benchmark::State& state) {
    Experiment off = recorded();
    Experiment on = recorded();
    on.observations().trails.setRecording(true);
    const auto full = uint64_t(impulse::app::BodyTrails::kMaxSeconds / on.world().settings().timestep) + 1;
    for (uint64_t i = 0; i < full; ++i) on.step();
    for (uint64_t i = 0; i < full; ++i) off.step();
    const auto [offMs, onMs] = alternatingBlocks(
        state, 24, [&] { off.step(); }, [&] { on.step(); });
    size_t points = 0, bodies = 0;
    for (const impulse::app::BodyTrail& trail : on.observations().trails.trails()) {
        points += trail.points.size();
        bodies += trail.points.empty() ? 0 : 1;
    }
    state.counters["step_ms"] = offMs;
    state.counters["trails_step_ms"] = onMs;
    state.counters["cost_percent"] = 100.0 * (onMs / offMs - 1.0);
    state.counters["bodies"] = double(bodies);
    state.counters["MiB"] = double(points * sizeof(impulse::app::TrailPoint)) / double(1 << 20);
}
BENCHMARK(BM_TrailsCost)->Unit(benchmark::kMillisecond)->Iterations(60)->Repetitions(3);

void BM_TrailsShown(benchmark::State& state) {
    Experiment experiment = recorded();
    impulse::app::BodyTrails& trails = experiment.observations().trails;
    trails.setRecording(true);
    const auto full =
        uint64_t(impulse::app::BodyTrails::kMaxSeconds / experiment.world().settings().timestep) + 1;
    for (uint64_t i = 0; i < full; ++i) experiment.step();
    std::vector<impulse::app::ShownTrailPoint> points;
    for (auto _ : state) {
        points.clear();
        for (const impulse::app::BodyTrail& trail : trails.trails()) {
            trails.shownPoints(trail, experiment.shownStep(), double(state.range(0)), false, points);
        }
        benchmark::DoNotOptimize(points.data());
    }
    state.counters["points"] = double(points.size());
}
BENCHMARK(BM_TrailsShown)->Arg(2)->Arg(10)->Unit(benchmark::kMillisecond)->Iterations(40)->Repetitions(5);

}  // namespace
