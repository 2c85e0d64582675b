#include "app/experiment.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace impulse::app {

namespace {

FieldError noSuchBody() { return FieldError{"body", "no such body (it was removed)"}; }

}  // namespace

Validation Experiment::applyNow(Command command) {
    const uint64_t step = world_.stepCount();
    Replaced before;
    before.selection = selected_;
    const Validation refused =
        std::visit([&](const auto& c) { return applyCommand(c, before); }, static_cast<const Command&>(command));
    if (refused) return refused;
    edits_.record(std::move(command), std::move(before), step);
    return std::nullopt;
}

Validation Experiment::undoNow() {
    const std::optional<size_t> i = edits_.undoIndex();
    if (!i) return FieldError{"undo", "nothing to undo"};
    if (Validation refused = revert(edits_.own(*i))) return refused;
    edits_.undid(*i);
    return std::nullopt;
}

Validation Experiment::redoNow() {
    const std::optional<size_t> i = edits_.redoIndex();
    if (!i) return FieldError{"redo", "nothing to redo"};
    if (Validation refused = reapply(edits_.own(*i))) return refused;
    edits_.redid(*i);
    return std::nullopt;
}

Validation Experiment::revert(AppliedEdit& edit) {
    Replaced& before = edit.before;
    Command& command = edit.command;
    if (auto* set = std::get_if<SetBody>(&command)) {
        if (Validation refused = carryBodyChange(set->body, set->def, *before.body)) return refused;
    } else if (std::holds_alternative<SetWorldSettings>(command)) {
        if (Validation refused = world_.setSettings(*before.settings)) return refused;
    } else if (std::holds_alternative<SetDragSettings>(command)) {
        useDragSettings(*before.dragSettings);
    } else if (std::holds_alternative<SpawnBody>(command)) {
        if (!world_.removeBody(before.created)) return noSuchBody();
    } else if (auto* deleted = std::get_if<DeleteBody>(&command)) {
        // World hands out the freed slots last-freed first, and undo goes in reverse
        // order: the body comes back at its old index, so in its old place in the solve.
        FieldError error;
        const BodyId back = world_.createBody(*before.body, &error);
        if (!back) return error;
        renameBody(deleted->body, back);
    } else if (restartsWorld(command)) {
        swapExperiment(*before.experiment);
    }
    select(before.selection);
    return std::nullopt;
}

Validation Experiment::reapply(AppliedEdit& edit) {
    Replaced& before = edit.before;
    Command& command = edit.command;
    if (auto* set = std::get_if<SetBody>(&command)) {
        if (Validation refused = carryBodyChange(set->body, *before.body, set->def)) return refused;
    } else if (auto* settings = std::get_if<SetWorldSettings>(&command)) {
        if (Validation refused = world_.setSettings(settings->settings)) return refused;
    } else if (auto* drag = std::get_if<SetDragSettings>(&command)) {
        useDragSettings(drag->settings);
    } else if (auto* spawn = std::get_if<SpawnBody>(&command)) {
        FieldError error;
        const BodyId again = world_.createBody(spawn->def, &error);
        if (!again) return error;
        renameBody(before.created, again);
        if (spawn->selectIt) selected_ = again;
    } else if (auto* deleted = std::get_if<DeleteBody>(&command)) {
        if (!world_.isValid(deleted->body)) return noSuchBody();
        before.body = world_.bodyDef(deleted->body);  // an undo after this brings it back as it is now
        world_.removeBody(deleted->body);
        if (selected_ == deleted->body) selected_ = BodyId{};
    } else if (restartsWorld(command)) {
        swapExperiment(*before.experiment);
        selected_ = BodyId{};
    }
    return std::nullopt;
}

void Experiment::swapExperiment(ExperimentState& kept) {
    std::swap(world_, kept.world);
    std::swap(scene_, kept.scene);
    std::swap(scenePath_, kept.scenePath);
    std::swap(simulatedTime_, kept.simulatedTime);
    world_.setDragSettings(dragSettings_);
}

void Experiment::renameBody(BodyId from, BodyId to) {
    edits_.renameBody(from, to);
    if (selected_ == from) selected_ = to;
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
    useDragSettings(c.settings);
    return std::nullopt;
}

void Experiment::useDragSettings(const DragSettings& settings) {
    dragSettings_ = settings;
    if (world_.drag().active) world_.setDragSettings(settings);  // the grab in progress feels it at once
}

Validation Experiment::carryBodyChange(BodyId id, const BodyDef& from, const BodyDef& to) {
    if (!world_.isValid(id)) return noSuchBody();
    return world_.updateBody(id, carryChange(world_.bodyDef(id), from, to));
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
    if (Validation refused = scene::validateScene(c.scene)) return refused;
    restart(before, c.scene, c.path);
    return std::nullopt;
}

Validation Experiment::applyCommand(const ResetScene&, Replaced& before) {
    restart(before, scene_, scenePath_);
    return std::nullopt;
}

void Experiment::restart(Replaced& before, scene::Scene scene, std::string path) {
    // The old world is moved, not copied, into the record: it is replaced anyway.
    before.experiment = std::make_shared<ExperimentState>(
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

std::string Experiment::save(const std::string& path, const std::optional<scene::SceneCamera>& camera,
                             const std::optional<std::vector<scene::ShownView>>& show) const {
    scene::Scene scene = sceneNow();
    scene.camera = camera;
    scene.show = show;
    return scene::saveSceneFile(scene, path);
}

scene::Scene Experiment::sceneNow() const {
    scene::Scene scene = scene::captureScene(world_, scene_.name);
    scene.note = scene_.note;
    return scene;
}

Validation Experiment::apply(Command command) { return input(std::move(command)); }
Validation Experiment::undo() { return input(UndoInput{}); }
Validation Experiment::redo() { return input(RedoInput{}); }

EditBook Experiment::currentBook() const { return edits_.book(dragSettings_); }

void Experiment::useBook(const EditBook& book) {
    edits_.use(book);
    useDragSettings(book.dragSettings);
}

void Experiment::branchAt(uint64_t step) {
    runs_.branchAt(step);
    setGhost(runs_.previousRuns().size() - 1);
}

Validation Experiment::input(RunInput input) {
    // An input at an earlier step continues the run from there: the edit history
    // it meets is the one the run had then, and the old run becomes the ghost.
    const bool inThePast = shownStep() < runEnd();
    std::optional<EditBook> present;
    if (inThePast) {
        present = currentBook();
        useBook(runs_.bookAt(shownStep()));
    }
    bool restarts = false;
    Validation refused;
    if (auto* command = std::get_if<Command>(&input)) {
        restarts = restartsWorld(*command);
        refused = applyNow(*command);
    } else if (std::holds_alternative<UndoInput>(input)) {
        restarts = nextUndo() && restartsWorld(nextUndo()->command);
        refused = undoNow();
    } else if (std::holds_alternative<RedoInput>(input)) {
        restarts = nextRedo() && restartsWorld(nextRedo()->command);
        refused = redoNow();
    }
    if (refused) {
        if (present) useBook(*present);
        return refused;
    }
    if (restarts) {
        startRun();
        return std::nullopt;
    }
    if (inThePast) branchAt(shownStep());
    runs_.pin(world_, simulatedTime_);
    runs_.log(shownStep(), std::move(input), std::make_shared<const EditBook>(currentBook()));
    observations().trails.noteMoves(world_);
    followGhost();
    return std::nullopt;
}

void Experiment::setDragTarget(const vec3& target) {
    // Only a change is an input: the app sets the cursor's target every frame.
    if (!world_.drag().active || !isFinite(target) || world_.drag().target == target) return;
    if (shownStep() < runEnd()) {
        useBook(runs_.bookAt(shownStep()));
        branchAt(shownStep());
    }
    world_.setDragTarget(target);
    runs_.log(shownStep(), DragTargetInput{target}, nullptr);
    followGhost();
}

void Experiment::startRun() {
    runs_.start(world_, simulatedTime_, std::make_shared<const EditBook>(currentBook()));
    setGhost(std::nullopt);
}

void Experiment::step() {
    Observations& observed = observations();
    if (shownStep() < runEnd()) {
        observed.trails.noteMoves(world_);  // the run's edits at this step, played again
        replayStep(run(), world_, simulatedTime_);
        // The trails may not hold the recorded steps: turned on while a past step was shown.
        observed.trails.record(world_, simulatedTime_);
    } else {
        observed.beforeStep(world_);
        world_.step();
        simulatedTime_ += world_.settings().timestep;
        runs_.grew(world_, simulatedTime_);
        observed.record(world_, simulatedTime_);
        removeBodiesOutsideBounds();
    }
    followGhost();
}

void Experiment::removeBodiesOutsideBounds() {
    for (BodyId id : world_.bodiesOutsideBounds()) {
        BodyLeftBounds left{world_.body(id).name, world_.stepCount(), world_.body(id).position};
        if (!apply(DeleteBody{id, true})) bodiesLeftBounds_.push_back(std::move(left));
    }
}

void Experiment::seek(uint64_t step) {
    seekRun(run(), world_, simulatedTime_, step, true);
    if (!world_.isValid(selected_)) selected_ = BodyId{};
    followGhost();
}

void Experiment::setGhost(std::optional<size_t> index) { ghost_.show(index, runs_.previousRuns(), world_); }

void Experiment::promoteGhost() {
    const std::optional<size_t> ghost = ghost_.index();
    if (!ghost) return;
    runs_.promote(*ghost);
    seekRun(run(), world_, simulatedTime_, shownStep(), false);  // the world shown is the other run's
    if (!world_.isValid(selected_)) selected_ = BodyId{};
    // The edit history goes with the run: the one it had at the step shown.
    useBook(runs_.bookAt(shownStep()));
    setGhost(ghost);
}

void Experiment::select(BodyId id) { selected_ = world_.isValid(id) ? id : BodyId{}; }

}  // namespace impulse::app
