// Whole steps and the velocity solver, on the bench scenes loaded through the
// scene API (assets/scenes/bench/).
//
// Every repetition starts from the same snapshot and takes the same fixed number
// of steps, so repetitions measure identical work and their spread is noise:
//   pyramid20: 60 steps after 60 warm-up steps (contacts cached, stack at rest);
//   pile1000:  60 steps after letting the pile fall and settle for 180 steps (3 s).
//
// Solver cost: BM_Step_Pile1000/sub_steps:N runs the same steps with
// 1, 10 and 20 velocity iterations; (t20 - t10) / 10 is the cost of one solver
// iteration in situ, and t1 is roughly everything but the iterations. This uses
// only World's public API, so it survives changes of the solver's internals
// (contact_solver.h is being reworked).
#include "physics/world.h"
#include "scene/scene.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <variant>

namespace {

using impulse::World;

constexpr int kMeasuredSteps = 60;

World loadWorld(const std::string& name) {
    const std::string path = std::string(IMPULSE_SOURCE_DIR) + "/assets/scenes/bench/" + name + ".json";
    impulse::scene::SceneResult result = impulse::scene::loadSceneFile(path);
    if (const auto* error = std::get_if<impulse::scene::SceneError>(&result)) {
        std::fprintf(stderr, "impulse-bench: %s\n", error->message().c_str());
        std::exit(1);
    }
    return impulse::scene::buildWorld(std::get<impulse::scene::Scene>(result));
}

// The scene after `warmupSteps` steps, computed once per process.
const World& snapshot(const std::string& name, int warmupSteps) {
    static std::map<std::string, World> cache;
    const std::string key = name + "@" + std::to_string(warmupSteps);
    auto found = cache.find(key);
    if (found == cache.end()) {
        World world = loadWorld(name);
        for (int i = 0; i < warmupSteps; ++i) world.step();
        found = cache.emplace(key, std::move(world)).first;
    }
    return found->second;
}

void runSteps(benchmark::State& state, const World& start, int subSteps) {
    World world = start;
    if (subSteps > 0) {
        impulse::WorldSettings settings = world.settings();
        settings.subSteps = subSteps;
        world.setSettings(settings);
    }
    for (auto _ : state) world.step();
    state.counters["bodies"] = world.bodyCount();
    state.counters["contact_points"] = world.stats().contactPoints;
}

void BM_Step_Pyramid20(benchmark::State& state) {
    runSteps(state, snapshot("pyramid20", 60), 0);
}
BENCHMARK(BM_Step_Pyramid20)->Iterations(kMeasuredSteps)->Unit(benchmark::kMillisecond);

void BM_Step_Pile1000(benchmark::State& state) {
    runSteps(state, snapshot("pile1000", 180), static_cast<int>(state.range(0)));
}
BENCHMARK(BM_Step_Pile1000)
    ->ArgName("sub_steps")
    ->Arg(1)
    ->Arg(10)
    ->Arg(20)
    ->Iterations(kMeasuredSteps)
    ->Unit(benchmark::kMillisecond);

// pile1000 (settled, as above) with one 5 cm pebble spinning at 390 rad/s:
// where:0 in the air 30 m from the pile (it touches nothing in the 60 steps),
// where:1 dropped into the top of the pile. Compare with
// BM_Step_Pile1000/sub_steps:10 (the same settings): a spinner's extra passes
// are paid by its pass group (docs/physics.md, "Fast spin").
void BM_Step_Pile1000_Spinner(benchmark::State& state) {
    World world = snapshot("pile1000", 180);
    impulse::BodyDef pebble;
    pebble.name = "pebble";
    pebble.shape = impulse::Shape::box(impulse::vec3(0.025f));
    pebble.mass = 0.1f;
    pebble.position = state.range(0) == 0 ? impulse::vec3(30.0f, 50.0f, 30.0f) : impulse::vec3(0.0f, 3.0f, 0.0f);
    pebble.angularVelocity = impulse::vec3(390.0f, 0.0f, 0.0f);
    world.createBody(pebble);
    int mostInExtraPasses = 0;
    for (auto _ : state) {
        world.step();
        mostInExtraPasses = std::max(mostInExtraPasses, world.stats().bodiesInExtraPasses);
    }
    state.counters["most_bodies_in_extra_passes"] = mostInExtraPasses;
}
BENCHMARK(BM_Step_Pile1000_Spinner)
    ->ArgName("where")
    ->Arg(0)
    ->Arg(1)
    ->Iterations(kMeasuredSteps)
    ->Unit(benchmark::kMillisecond);

}  // namespace
