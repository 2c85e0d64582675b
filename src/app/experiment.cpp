#include "app/experiment.h"

#include <utility>

namespace impulse::app {

namespace {

FieldError noSuchBody() { return FieldError{"body", "no such body (it was removed)"}; }

}  // namespace

Validation validateScene(const scene::Scene& scene) {
    if (const Validation bad = validateSettings(scene.settings)) return FieldError{"world." + bad->field, bad->rule};
    for (size_t i = 0; i < scene.bodies.size(); ++i) {
        if (const Validation bad = validateBodyDef(scene.bodies[i])) {
            return FieldError{"bodies[" + std::to_string(i) + "]." + bad->field, bad->rule};
        }
    }
    return std::nullopt;
}

Validation Experiment::apply(Command command) {
    const uint64_t step = world_.stepCount();
    Replaced before;
    before.selection = selected_;
    const Validation refused =
        std::visit([&](const auto& c) { return applyCommand(c, before); }, static_cast<const Command&>(command));
    if (refused) return refused;
    history_.push_back(AppliedEdit{std::move(command), std::move(before), step});
    return std::nullopt;
}

Validation Experiment::applyCommand(const SetBody& c, Replaced& before) {
    if (!world_.isValid(c.body)) return noSuchBody();
    BodyDef previous = world_.bodyDef(c.body);
    if (Validation refused = world_.updateBody(c.body, c.def)) return refused;
    before.body = std::move(previous);
    return std::nullopt;
}

Validation Experiment::applyCommand(const SetWorldSettings& c, Replaced& before) {
    const WorldSettings previous = world_.settings();
    if (Validation refused = world_.setSettings(c.settings)) return refused;
    before.settings = previous;
    return std::nullopt;
}

Validation Experiment::applyCommand(const SetDragSettings& c, Replaced& before) {
    if (Validation refused = validateDragSettings(c.settings)) return refused;
    before.dragSettings = dragSettings_;
    dragSettings_ = c.settings;
    if (world_.drag().active) world_.setDragSettings(c.settings);  // the grab in progress feels it at once
    return std::nullopt;
}

Validation Experiment::applyCommand(const SpawnBody& c, Replaced& before) {
    FieldError error;
    const BodyId id = world_.createBody(c.def, &error);
    if (!id) return error;
    before.created = id;
    if (c.selectIt) selected_ = id;
    return std::nullopt;
}

Validation Experiment::applyCommand(const DeleteBody& c, Replaced& before) {
    if (!world_.isValid(c.body)) return noSuchBody();
    before.body = world_.bodyDef(c.body);
    before.drag = world_.drag();
    world_.removeBody(c.body);
    if (selected_ == c.body) selected_ = BodyId{};
    return std::nullopt;
}

Validation Experiment::applyCommand(const BeginDrag& c, Replaced& before) {
    const DragState previous = world_.drag();
    if (Validation refused = world_.beginDrag(c.body, c.point, dragSettings_)) return refused;
    before.drag = previous;
    return std::nullopt;
}

Validation Experiment::applyCommand(const EndDrag&, Replaced& before) {
    // The drag also ends when its body is deleted or made static, or the world replaced.
    if (!world_.drag().active) return FieldError{"drag", "nothing is being dragged"};
    before.drag = world_.drag();
    world_.endDrag();
    return std::nullopt;
}

Validation Experiment::applyCommand(const LoadScene& c, Replaced& before) {
    if (Validation refused = validateScene(c.scene)) return refused;
    restart(before, c.scene, c.path);
    return std::nullopt;
}

Validation Experiment::applyCommand(const ResetScene&, Replaced& before) {
    restart(before, scene_, scenePath_);
    return std::nullopt;
}

void Experiment::restart(Replaced& before, scene::Scene scene, std::string path) {
    // The old world is moved, not copied, into the record: it is replaced anyway.
    before.experiment = std::make_shared<const ExperimentState>(
        ExperimentState{std::move(world_), std::move(scene_), std::move(scenePath_), simulatedTime_});
    scene_ = std::move(scene);
    scenePath_ = std::move(path);
    world_ = scene::buildWorld(scene_);
    world_.setDragSettings(dragSettings_);
    selected_ = BodyId{};
    simulatedTime_ = 0.0;
}

std::string Experiment::open(const std::string& path) {
    scene::SceneResult result = scene::loadSceneFile(path);
    if (const auto* bad = std::get_if<scene::SceneError>(&result)) return bad->message();
    if (const Validation refused = apply(LoadScene{std::move(std::get<scene::Scene>(result)), path})) {
        return path + ": " + refused->message();
    }
    return "";
}

std::string Experiment::save(const std::string& path) const {
    return scene::saveSceneFile(scene::captureScene(world_, scene_.name), path);
}

void Experiment::step() {
    world_.step();
    simulatedTime_ += world_.settings().timestep;
}

void Experiment::select(BodyId id) { selected_ = world_.isValid(id) ? id : BodyId{}; }

}  // namespace impulse::app
