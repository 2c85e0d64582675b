#include "app/experiment.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace impulse::app {

namespace {

FieldError noSuchBody() { return FieldError{"body", "no such body (it was removed)"}; }

bool sameValue(const Shape& a, const Shape& b) {
    return a.type == b.type && a.radius == b.radius && a.halfExtents == b.halfExtents;
}
template <class T>
bool sameValue(const T& a, const T& b) {
    return a == b;
}

// Calls visit(label, member) for every field of a body definition, so that the
// field-wise undo and the description of an edit cannot miss one.
template <class Visit>
void forEachBodyField(Visit&& visit) {
    visit("name", &BodyDef::name);
    visit("shape", &BodyDef::shape);
    visit("static", &BodyDef::isStatic);
    visit("mass", &BodyDef::mass);
    visit("position", &BodyDef::position);
    visit("orientation", &BodyDef::orientation);
    visit("velocity", &BodyDef::linearVelocity);
    visit("angular velocity", &BodyDef::angularVelocity);
    visit("e", &BodyDef::restitution);
    visit("mu", &BodyDef::friction);
    visit("mu_s", &BodyDef::staticFriction);
    visit("inertia", &BodyDef::inertia);
}

// `current` with every field that differs between `from` and `to` set to `to`'s value:
// an edit's change carried onto the body as it is now (which may have moved since).
BodyDef carryChange(BodyDef current, const BodyDef& from, const BodyDef& to) {
    forEachBodyField([&](const char*, auto member) {
        if (!sameValue(from.*member, to.*member)) current.*member = to.*member;
    });
    return current;
}

std::string changedFields(const BodyDef& from, const BodyDef& to) {
    std::string list;
    forEachBodyField([&](const char* label, auto member) {
        if (!sameValue(from.*member, to.*member)) list += (list.empty() ? "" : ", ") + std::string(label);
    });
    return list.empty() ? "no change" : list;
}

// The body a command names, if it names one.
BodyId* commandBody(Command& command) {
    if (auto* c = std::get_if<SetBody>(&command)) return &c->body;
    if (auto* c = std::get_if<DeleteBody>(&command)) return &c->body;
    if (auto* c = std::get_if<BeginDrag>(&command)) return &c->body;
    return nullptr;
}

// An empty experiment (before the first load) is nothing to go back to.
bool replacedNothing(const AppliedEdit& edit) {
    const ExperimentState* before = edit.before.experiment.get();
    return before && before->world.bodyCount() == 0 && before->scene.bodies.empty() && before->scenePath.empty();
}

}  // namespace

bool restartsWorld(const Command& command) {
    return std::holds_alternative<LoadScene>(command) || std::holds_alternative<ResetScene>(command);
}

bool isUndoable(const Command& command) {
    return !std::holds_alternative<BeginDrag>(command) && !std::holds_alternative<EndDrag>(command);
}

std::string describe(const AppliedEdit& edit) {
    struct Describe {
        const Replaced& before;
        std::string operator()(const SetBody& c) const {
            const std::string name = c.def.name.empty() ? "body" : c.def.name;
            return name + ": " + (before.body ? changedFields(*before.body, c.def) : "values");
        }
        std::string operator()(const SetWorldSettings&) const { return "world settings"; }
        std::string operator()(const SetDragSettings&) const { return "mouse drag settings"; }
        std::string operator()(const SpawnBody& c) const { return "spawn " + c.def.name; }
        std::string operator()(const DeleteBody&) const {
            return "delete " + (before.body ? before.body->name : std::string("body"));
        }
        std::string operator()(const BeginDrag&) const { return "grab"; }
        std::string operator()(const EndDrag&) const { return "release"; }
        std::string operator()(const LoadScene& c) const {
            return "load " + (c.path.empty() ? c.scene.name : c.path);
        }
        std::string operator()(const ResetScene&) const { return "reset"; }
    };
    return std::visit(Describe{edit.before}, edit.command);
}

std::string describe(const LoggedInput& input) {
    if (std::holds_alternative<DragTargetInput>(input.input) || !input.book) return "drag target";
    // The book holds the history as the input left it: a command or redo made the
    // entry before the undone ones, an undo undid the first of them.
    const EditHistory& history = input.book->history;
    const size_t undone = input.book->undone;
    const bool undo = std::holds_alternative<UndoInput>(input.input);
    const size_t index = history.size() - undone - (undo ? 0 : 1);
    const std::string what = index < history.size() ? describe(*history[index]) : std::string("edit");
    if (undo) return "undo " + what;
    if (std::holds_alternative<RedoInput>(input.input)) return "redo " + what;
    return what;
}

Validation Experiment::applyNow(Command command) {
    const uint64_t step = world_.stepCount();
    Replaced before;
    before.selection = selected_;
    const Validation refused =
        std::visit([&](const auto& c) { return applyCommand(c, before); }, static_cast<const Command&>(command));
    if (refused) return refused;
    AppliedEdit entry{std::move(command), std::move(before), step, nextSerial_++};
    if (isUndoable(entry.command)) {
        // A new edit forks from the undone ones: they can no longer be redone.
        history_.erase(history_.end() - static_cast<std::ptrdiff_t>(undone_), history_.end());
        undone_ = 0;
        const bool wasSaved = !hasUnsavedEdits();
        const bool loaded = std::holds_alternative<LoadScene>(entry.command);
        const bool resetSaved = std::holds_alternative<ResetScene>(entry.command) && wasSaved;
        history_.push_back(std::make_shared<AppliedEdit>(std::move(entry)));
        if (loaded || resetSaved) markSaved();  // the world is a file's again
    } else {
        // Not an edit: recorded where it happened, leaving what can be redone.
        history_.insert(history_.end() - static_cast<std::ptrdiff_t>(undone_), std::make_shared<AppliedEdit>(std::move(entry)));
    }
    trimHistory();
    return std::nullopt;
}

void Experiment::trimHistory() {
    const auto keepsExperiment = [](const std::shared_ptr<AppliedEdit>& e) { return e->before.experiment != nullptr; };
    size_t kept = static_cast<size_t>(std::count_if(history_.begin(), history_.end(), keepsExperiment));
    size_t drop = 0;
    const size_t inForce = history_.size() - undone_;
    while (drop < inForce && (history_.size() - drop > kHistoryLimit || kept > kExperimentsKeptLimit)) {
        if (keepsExperiment(history_[drop])) --kept;
        ++drop;
    }
    history_.erase(history_.begin(), history_.begin() + static_cast<std::ptrdiff_t>(drop));
}

std::optional<size_t> Experiment::undoIndex() const {
    for (size_t i = history_.size() - undone_; i-- > 0;) {
        if (!isUndoable(history_[i]->command)) continue;
        if (replacedNothing(*history_[i])) return std::nullopt;
        return i;
    }
    return std::nullopt;
}

std::optional<size_t> Experiment::redoIndex() const {
    for (size_t i = history_.size() - undone_; i < history_.size(); ++i) {
        if (isUndoable(history_[i]->command)) return i;
    }
    return std::nullopt;
}

const AppliedEdit* Experiment::nextUndo() const {
    const std::optional<size_t> i = undoIndex();
    return i ? history_[*i].get() : nullptr;
}

const AppliedEdit* Experiment::nextRedo() const {
    const std::optional<size_t> i = redoIndex();
    return i ? history_[*i].get() : nullptr;
}

uint64_t Experiment::latestEditInForce() const {
    for (size_t i = history_.size() - undone_; i-- > 0;) {
        if (isUndoable(history_[i]->command)) return history_[i]->serial;
    }
    return 0;
}

Validation Experiment::undoNow() {
    const std::optional<size_t> i = undoIndex();
    if (!i) return FieldError{"undo", "nothing to undo"};
    if (Validation refused = revert(ownEntry(*i))) return refused;
    undone_ = history_.size() - *i;
    return std::nullopt;
}

Validation Experiment::redoNow() {
    const std::optional<size_t> i = redoIndex();
    if (!i) return FieldError{"redo", "nothing to redo"};
    if (Validation refused = reapply(ownEntry(*i))) return refused;
    undone_ = history_.size() - *i - 1;
    return std::nullopt;
}

AppliedEdit& Experiment::ownEntry(size_t i) {
    if (history_[i].use_count() > 1) history_[i] = std::make_shared<AppliedEdit>(*history_[i]);
    return *history_[i];
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
    const auto rename = [&](BodyId& id) {
        if (id == from) id = to;
    };
    const auto renameIn = [&](AppliedEdit& e) {
        rename(e.before.selection);
        rename(e.before.created);
        if (e.before.drag) rename(e.before.drag->body);
        if (BodyId* named = commandBody(e.command)) rename(*named);
    };
    // Only the entries about the world in force: those since the last load or reset
    // before the cursor, up to the next one after it (whose selection before is ours).
    // Handles of other worlds may have the same value and must stay as they are.
    const size_t cursor = history_.size() - undone_;
    size_t first = cursor;
    while (first > 0 && !restartsWorld(history_[first - 1]->command)) --first;
    size_t end = cursor;
    while (end < history_.size() && !restartsWorld(history_[end]->command)) ++end;
    for (size_t i = first; i < end; ++i) renameIn(ownEntry(i));
    if (end < history_.size()) rename(ownEntry(end).before.selection);
    rename(selected_);
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

EditBook Experiment::currentBook() const { return EditBook{history_, undone_, savedSerial_, dragSettings_}; }

void Experiment::useBook(const EditBook& book) {
    history_ = book.history;
    undone_ = book.undone;
    savedSerial_ = book.savedSerial;
    useDragSettings(book.dragSettings);
}

const EditBook& Experiment::bookAt(uint64_t step) const {
    for (size_t i = run_.inputs.size(); i-- > 0;) {
        if (run_.inputs[i].step <= step && run_.inputs[i].book) return *run_.inputs[i].book;
    }
    return *run_.startBook;
}

namespace {

/// The drag targets logged at `step` after its last other input, applied to `world`:
/// what came before that input is in the keyframe it pinned.
void applyDragTargetsAt(const Run& run, World& world, uint64_t step) {
    const auto byStep = [](const LoggedInput& a, const LoggedInput& b) { return a.step < b.step; };
    const LoggedInput key{step, DragTargetInput{}, nullptr};
    auto [first, last] = std::equal_range(run.inputs.begin(), run.inputs.end(), key, byStep);
    for (auto it = first; it != last; ++it) {
        if (!std::holds_alternative<DragTargetInput>(it->input)) first = it + 1;
    }
    for (auto it = first; it != last; ++it) world.setDragTarget(std::get<DragTargetInput>(it->input).target);
}

/// What a logged input holds: its entry, and its book's list of edit-history entries.
size_t loggedBytes(const LoggedInput& input) {
    if (!input.book) return sizeof(LoggedInput);
    return sizeof(LoggedInput) + sizeof(EditBook) + input.book->history.size() * sizeof(EditHistory::value_type);
}

/// The recorded run's next step: its edits come from the keyframes they pinned.
void replayStep(const Run& run, World& world, double& simulatedTime) {
    world.step();
    simulatedTime += world.settings().timestep;
    const uint64_t step = world.stepCount();
    const RunHistory::Keyframe& keyframe = *run.keyframes.atOrBefore(step);
    if (keyframe.pinned && keyframe.world->stepCount() == step) {
        world.restore(*keyframe.world);
        simulatedTime = keyframe.simulatedTime;
    }
    applyDragTargetsAt(run, world, step);
}

/// `world` as the run had it at `step` (within the run): the keyframe before it and the steps since.
/// `worldShowsRun`: `world` is the run's at its step already; when that lies between the
/// keyframe and `step` (scrubbing forward), the steps go on from it instead.
void seekRun(const Run& run, World& world, double& simulatedTime, uint64_t step, bool worldShowsRun) {
    step = std::clamp(step, run.start(), run.end);
    const RunHistory::Keyframe* at = run.keyframes.atOrBefore(step);
    // A keyframe without its step's contact reports shows that step only once run to.
    if (at->world->stepCount() == step && !at->world->hasLastStepReports()) at = run.keyframes.atOrBefore(step - 1);
    const RunHistory::Keyframe& keyframe = *at;
    if (!worldShowsRun || world.stepCount() < keyframe.world->stepCount() || world.stepCount() > step) {
        world.restore(*keyframe.world);
        simulatedTime = keyframe.simulatedTime;
        applyDragTargetsAt(run, world, world.stepCount());
    }
    while (world.stepCount() < step) replayStep(run, world, simulatedTime);
}

/// The angle of the rotation that takes orientation a to b, rad.
float angleBetween(const quat& a, const quat& b) {
    return 2.0f * std::acos(std::min(1.0f, std::fabs(glm::dot(a, b))));
}

/// The step at which two runs of one world go their own ways: that of the first input
/// one of them logged and the other did not (the same inputs make the same steps).
uint64_t partingStep(const Run& a, const Run& b) {
    size_t shared = 0;
    while (shared < a.inputs.size() && shared < b.inputs.size() &&
           a.inputs[shared].serial == b.inputs[shared].serial) {
        ++shared;
    }
    uint64_t step = std::min(a.end, b.end);
    if (shared < a.inputs.size()) step = std::min(step, a.inputs[shared].step);
    if (shared < b.inputs.size()) step = std::min(step, b.inputs[shared].step);
    return step;
}

}  // namespace

void Experiment::branchAt(uint64_t step) {
    previousRuns_.push_back(run_);  // the keyframes' snapshots are shared, not copied
    if (previousRuns_.size() > kPreviousRunsKept) previousRuns_.erase(previousRuns_.begin());
    while (!run_.inputs.empty() && run_.inputs.back().step > step) {
        run_.inputBytes -= loggedBytes(run_.inputs.back());
        run_.inputs.pop_back();
    }
    run_.keyframes.dropAfter(step);
    observations_.forgetAfter(step);
    run_.end = step;
    for (Run& run : previousRuns_) run.leftAt = partingStep(run, run_);
    ++branchCount_;
    setGhost(previousRuns_.size() - 1);
    fitHistoryToBudget();
}

void Experiment::logInput(RunInput input, std::shared_ptr<const EditBook> book) {
    run_.inputs.push_back(LoggedInput{shownStep(), std::move(input), std::move(book), inputsLogged_++});
    run_.inputBytes += loggedBytes(run_.inputs.back());
    fitHistoryToBudget();
}

size_t Experiment::countHistoryBytes() const {
    std::vector<const RunHistory*> histories{&run_.keyframes};
    size_t inputs = run_.inputBytes;
    for (const Run& run : previousRuns_) {
        histories.push_back(&run.keyframes);
        inputs += run.inputBytes;
    }
    return RunHistory::bytesOf(histories) + inputs;
}

void Experiment::setHistoryBudget(size_t bytes) {
    historyBudget_ = bytes;
    fitHistoryToBudget();
}

void Experiment::fitHistoryToBudget() {
    for (Run& run : previousRuns_) run.keyframes.setBudget(historyBudget_ / (2 * kPreviousRunsKept));
    run_.keyframes.setBudget(historyBudget_);
    // A keyframe the run drops may stay in a previous run: then it is held elsewhere.
    while (true) {
        const size_t before = run_.keyframes.bytes();
        historyBytes_ = countHistoryBytes();
        run_.keyframes.setHeldElsewhere(historyBytes_ - before);
        if (run_.keyframes.bytes() == before) return;
    }
}

Validation Experiment::input(RunInput input) {
    // An input at an earlier step continues the run from there: the edit history
    // it meets is the one the run had then, and the old run becomes the ghost.
    const bool inThePast = shownStep() < run_.end;
    std::optional<EditBook> present;
    if (inThePast) {
        present = currentBook();
        useBook(bookAt(shownStep()));
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
    run_.keyframes.keep(world_, simulatedTime_, true);
    logInput(std::move(input), std::make_shared<const EditBook>(currentBook()));
    observations_.trails.noteMoves(world_);
    followGhost();
    return std::nullopt;
}

void Experiment::setDragTarget(const vec3& target) {
    // Only a change is an input: the app sets the cursor's target every frame.
    if (!world_.drag().active || !isFinite(target) || world_.drag().target == target) return;
    if (shownStep() < run_.end) {
        useBook(bookAt(shownStep()));
        branchAt(shownStep());
    }
    world_.setDragTarget(target);
    logInput(DragTargetInput{target}, nullptr);
    followGhost();
}

void Experiment::startRun() {
    run_ = Run{};
    run_.keyframes.keep(world_, simulatedTime_, true);
    run_.end = world_.stepCount();
    run_.startBook = std::make_shared<const EditBook>(currentBook());
    previousRuns_.clear();  // runs of another world
    setGhost(std::nullopt);
    fitHistoryToBudget();
    observations_.restart(world_);
}

void Experiment::step() {
    if (shownStep() < run_.end) {
        observations_.trails.noteMoves(world_);  // the run's edits at this step, played again
        replayStep(run_, world_, simulatedTime_);
        // The trails may not hold the recorded steps: turned on while a past step was shown.
        observations_.trails.record(world_, simulatedTime_);
    } else {
        observations_.beforeStep(world_);
        world_.step();
        simulatedTime_ += world_.settings().timestep;
        run_.end = world_.stepCount();
        const size_t bytesBefore = run_.keyframes.bytes();
        switch (run_.keyframes.stepped(world_, simulatedTime_)) {
            case RunHistory::Kept::added:
                // Held by this run alone, and it fits the budget (RunHistory::keep thins
                // against the same bytes held elsewhere): no need to count every run again.
                historyBytes_ += run_.keyframes.bytes() - bytesBefore;
                break;
            case RunHistory::Kept::addedAndThinned:
                fitHistoryToBudget();
                break;
            case RunHistory::Kept::none:
                break;
        }
        observations_.record(world_, simulatedTime_);
    }
    followGhost();
}

void Experiment::seek(uint64_t step) {
    seekRun(run_, world_, simulatedTime_, step, true);
    if (!world_.isValid(selected_)) selected_ = BodyId{};
    followGhost();
}

void Experiment::setGhost(std::optional<size_t> index) {
    ghost_ = index && *index < previousRuns_.size() ? index : std::nullopt;
    ghostFollowing_ = false;
    divergenceSeries_.clear();
    followGhost();
}

void Experiment::promoteGhost() {
    if (!ghost_) return;
    std::swap(run_, previousRuns_[*ghost_]);
    for (Run& run : previousRuns_) run.leftAt = partingStep(run, run_);
    // The trails' points after the step the two part at are the other run's.
    observations_.trails.forgetAfter(previousRuns_[*ghost_].leftAt);
    fitHistoryToBudget();
    seekRun(run_, world_, simulatedTime_, shownStep(), false);  // the world shown is the other run's
    observations_.trails.noteMoves(world_);
    if (!world_.isValid(selected_)) selected_ = BodyId{};
    // The edit history goes with the run: the one it had at the step shown.
    useBook(bookAt(shownStep()));
    setGhost(ghost_);
}

void Experiment::followGhost() {
    if (!ghost_) return;
    const Run& ghost = previousRuns_[*ghost_];
    const uint64_t step = std::clamp(shownStep(), ghost.start(), ghost.end);
    // Playing forward, the ghost takes one step with the run instead of a seek.
    if (ghostFollowing_ && ghostWorld_.stepCount() + 1 == step) {
        replayStep(ghost, ghostWorld_, ghostTime_);
    } else if (!ghostFollowing_ || ghostWorld_.stepCount() != step) {
        seekRun(ghost, ghostWorld_, ghostTime_, step, ghostFollowing_);
    }
    ghostFollowing_ = true;
    if (divergenceSeries_.empty() || divergenceSeries_.back().step < shownStep()) {
        divergenceSeries_.push_back(worstDivergence());
    }
}

std::vector<BodyDivergence> Experiment::divergence() const {
    std::vector<BodyDivergence> result;
    if (!ghost_) return result;
    for (BodyId id : world_.bodyIds()) {
        if (!ghostWorld_.isValid(id)) continue;
        const Body& now = world_.body(id);
        const Body& then = ghostWorld_.body(id);
        result.push_back(BodyDivergence{id, glm::length(now.position - then.position),
                                        angleBetween(now.orientation, then.orientation)});
    }
    return result;
}

Divergence Experiment::worstDivergence() const {
    Divergence worst;
    worst.step = shownStep();
    for (const BodyDivergence& body : divergence()) {
        if (body.distance > worst.farthest.distance) worst.farthest = body;
        if (body.angle > worst.mostTurned.angle) worst.mostTurned = body;
    }
    return worst;
}

void Experiment::select(BodyId id) { selected_ = world_.isValid(id) ? id : BodyId{}; }

}  // namespace impulse::app
