// What the scene fuzzer checks for one input, shared with the regression test
// (tests/robustness/test_fuzz_regressions.cpp) so that a kept crash input is
// replayed through exactly the same path in the normal suite.
//
// For any byte string the loader must either refuse it with a message that
// names the file and a rule, or return a scene that builds, steps, saves and
// loads again. The sanitizers catch memory errors and undefined behaviour; the
// checks below catch broken contracts and return what broke ("" when fine).
#pragma once

#include "physics/world.h"
#include "scene/scene.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <exception>
#include <string>
#include <variant>

namespace impulse::fuzz {

// Work allowed per input, in body-iterations: a legitimately heavy scene
// (64 substeps x 500 iterations x hundreds of bodies) must not read as a hang.
// Over budget the solver counts are cut to the defaults before stepping.
inline constexpr double kStepBudget = 4.0e6;
inline constexpr int kSteps = 3;

inline std::string checkSceneInput(const std::string& text) {
    const std::string fileName = "fuzz.json";
    scene::SceneResult result = scene::parseScene(text, fileName);
    if (const auto* error = std::get_if<scene::SceneError>(&result)) {
        if (error->rule.empty()) return "rejection without a rule: " + error->message();
        if (error->file != fileName || error->message().rfind(fileName + ": ", 0) != 0) {
            return "rejection does not name the file: " + error->message();
        }
        return "";
    }
    const scene::Scene& scene = std::get<scene::Scene>(result);

    // What loads must save and load back: the app saves what it loaded.
    const scene::SceneResult again = scene::parseScene(scene::toJson(scene), "saved.json");
    if (const auto* error = std::get_if<scene::SceneError>(&again)) {
        return "the saved text of a loaded scene is refused: " + error->message();
    }
    if (std::get<scene::Scene>(again).bodies.size() != scene.bodies.size()) return "save/load changed the body count";

    World world;
    try {
        world = scene::buildWorld(scene);
    } catch (const std::exception& e) {
        return std::string("buildWorld threw on a validated scene: ") + e.what();
    }
    if (static_cast<std::size_t>(world.bodyCount()) != scene.bodies.size()) return "buildWorld lost bodies";

    const double n = static_cast<double>(scene.bodies.size());
    const WorldSettings& s = world.settings();
    const double cost = s.passes * ((s.subSteps + s.positionIterations + 2) * n + 0.5 * n * n);
    if (cost > kStepBudget) {
        WorldSettings cheaper = s;
        cheaper.passes = 1;
        cheaper.subSteps = std::min(s.subSteps, 10);
        cheaper.positionIterations = std::min(s.positionIterations, 2);
        if (world.setSettings(cheaper)) return "setSettings refused a cheaper copy of valid settings";
        if (n * n > kStepBudget) return "";  // broadphase pairs alone are over budget
    }

    // Grab the first dynamic body and pull it up, so the drag is fuzzed too.
    for (BodyId id : world.bodyIds()) {
        if (world.body(id).isStatic) continue;
        const vec3 grab = world.body(id).position;
        if (world.beginDrag(id, grab)) return "beginDrag refused a live dynamic body at its centre";
        world.setDragTarget(grab + vec3(0.0f, 1.0f, 0.0f));
        break;
    }
    for (int i = 0; i < kSteps; ++i) {
        world.step();
        // The step guard promises a finite state after every step.
        if (const BodyId bad = world.firstNonFiniteBody()) {
            return "non-finite state after step " + std::to_string(i) + " in body '" + world.body(bad).name + "'";
        }
        const double energy = world.kineticEnergy() + world.potentialEnergy();
        if (!std::isfinite(energy)) return "non-finite energy after step " + std::to_string(i);
    }
    (void)world.contacts();
    (void)world.rayCast(vec3(0.0f, 100.0f, 0.0f), vec3(0.0f, -1.0f, 0.0f), 1000.0f);
    (void)scene::captureScene(world, "captured");
    return "";
}

}  // namespace impulse::fuzz
