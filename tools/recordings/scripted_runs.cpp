#include "recordings/scripted_runs.h"

#include "app/spawn_placement.h"

#include <optional>

namespace impulse::tools {

using namespace impulse::app;

namespace {

// An input the experiment refuses is a broken script: the run stops there and says so.
bool applied(Experiment& experiment, Command command, std::string& error) {
    if (const Validation refused = experiment.apply(std::move(command))) error = refused->message();
    return error.empty();
}

// The top box of the default scene's pyramid, grabbed 0.2 m off its centre once it
// has settled, swung up and across for 0.75 s (the cursor's target moves every
// frame), its e and mu tuned in the Body panel while held, then let go: a throw.
ScriptedRun tunedThrow() {
    return {"tuned_throw.json", "default.json", [](Experiment& experiment, std::string& error) {
                const World& world = experiment.world();
                const BodyId box = world.findBody("pyramid2_0");
                const uint64_t step = world.stepCount();
                constexpr uint64_t grab = 60, tune = 80, release = 105;
                if (step == grab) {
                    const vec3 point = world.body(box).position + vec3(0.2f, 0.1f, 0.0f);
                    if (!applied(experiment, BeginDrag{box, point}, error)) return false;
                }
                if (step > grab && step <= release) {
                    // The cursor's path: up, then across toward +x +z, faster at the end.
                    const float t = float(step - grab) / float(release - grab);
                    experiment.setDragTarget(vec3(3.7f + 1.8f * t * t, 2.2f + 1.5f * t, 2.0f + 1.0f * t * t));
                }
                if (step == tune) {
                    BodyDef def = world.bodyDef(box);
                    def.restitution = 0.8f;
                    def.friction = 0.3f;
                    if (!applied(experiment, SetBody{box, def}, error)) return false;
                }
                if (step == release && !applied(experiment, EndDrag{}, error)) return false;
                return step < 600;
            }};
}

// The cradle preset with the striker's speed typed as 3 m/s (it was 2) before the
// first step; 1.5 s: the striker stops and the last ball leaves at 3 m/s.
ScriptedRun cradle() {
    return {"newtons_cradle.json", "newtons_cradle.json", [](Experiment& experiment, std::string& error) {
                const World& world = experiment.world();
                if (world.stepCount() == 0) {
                    const BodyId striker = world.findBody("striker");
                    BodyDef def = world.bodyDef(striker);
                    def.linearVelocity = vec3(3.0f, 0.0f, 0.0f);
                    if (!applied(experiment, SetBody{striker, def}, error)) return false;
                }
                return world.stepCount() < 360;
            }};
}

// Twelve boxes from the Box button, one every 0.5 s, the mouse over the floor of the
// default scene around (0, 0, 6), a little elsewhere each time (a 3 x 3 pattern of
// 0.45 m, half a box): each starts above the floor there, clear of the boxes already
// falling (spawnPositionAt), lands half on those below and tumbles. 15 s in all.
ScriptedRun pile() {
    return {"pile.json", "default.json", [](Experiment& experiment, std::string& error) {
                const World& world = experiment.world();
                const uint64_t step = world.stepCount();
                constexpr uint64_t every = 30, count = 12;
                if (step % every == 0 && step < every * count) {
                    const int n = int(step / every);
                    BodyDef box;
                    box.shape = Shape::box(vec3(0.5f));
                    box.name = "box" + std::to_string(n + 1);
                    // The mouse ray: straight down onto the floor, as from a camera above.
                    const vec3 origin(0.45f * float(n % 3 - 1), 20.0f, 6.0f + 0.45f * float((n / 3) % 3 - 1));
                    const std::optional<RayHit> hit = world.rayCast(origin, vec3(0.0f, -1.0f, 0.0f), 100.0f);
                    if (!hit) {
                        error = "the mouse ray missed the floor";
                        return false;
                    }
                    box.position = spawnPositionAt(world, box.shape, hit->point, hit->normal);
                    if (!applied(experiment, SpawnBody{box, true}, error)) return false;
                }
                return step < 900;
            }};
}

}  // namespace

std::vector<ScriptedRun> scriptedRuns() { return {tunedThrow(), cradle(), pile()}; }

std::string play(const ScriptedRun& run, const std::string& sourceDir, Experiment& experiment) {
    if (std::string error = experiment.open(sourceDir + "/assets/scenes/" + run.scene); !error.empty()) return error;
    std::string error;
    while (run.beforeStep(experiment, error)) experiment.step();
    return error.empty() ? "" : run.file + " at step " + std::to_string(experiment.world().stepCount()) + ": " + error;
}

}  // namespace impulse::tools
