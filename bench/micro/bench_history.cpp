// The experiment's history on pile1000 (issue 21): what recording costs a step,
// and what showing a recorded step (Experiment::seek) costs once the history
// holds IMPULSE_HISTORY_MINUTES simulated minutes (5 by default; recording them
// takes a few minutes of the step's own time first).
//
//   BM_Step/recording:0|1  one step of the settled pile, without and with what
//                          Experiment::step adds to it (RunHistory::stepped: a
//                          keyframe every spacing() steps).
//   BM_Seek                 a seek to a pseudo-random step of the whole history.
// The history's figures (keyframes, spacing, MiB, seconds) are printed as counters.
#include "app/experiment.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

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

void BM_Step(benchmark::State& state) {
    const bool recording = state.range(0) != 0;
    const impulse::World& settled = recorded().world();
    // Each repetition steps the same settled pile; keyframes go to a history of their own.
    impulse::World world = settled;
    impulse::app::RunHistory history;
    double time = 0.0;
    for (auto _ : state) {
        world.step();
        if (recording) history.stepped(world, time);
    }
}
BENCHMARK(BM_Step)->ArgName("recording")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(120)->Repetitions(5);

void BM_Seek(benchmark::State& state) {
    Experiment& experiment = recorded();
    const uint64_t end = experiment.runEnd();
    uint64_t next = 1;
    for (auto _ : state) {
        next = (next * 2654435761u + 12345u) % (end + 1);
        experiment.seek(next);
    }
    const impulse::app::RunHistory& history = experiment.runHistory();
    state.counters["keyframes"] = double(history.keyframes().size());
    state.counters["spacing"] = double(history.spacing());
    state.counters["MiB"] = double(history.bytes()) / double(1 << 20);
    state.counters["seconds"] = double(end) * experiment.world().settings().timestep;
    experiment.seek(end);
}
BENCHMARK(BM_Seek)->Unit(benchmark::kMillisecond)->Iterations(20)->Repetitions(5);

}  // namespace
