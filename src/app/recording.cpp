#include "app/recording.h"

#include "scene/scene_json.h"

#include <utility>

namespace impulse::app {

using namespace scene::json_io;

namespace {

constexpr const char* kFileKind = "recording files";

// ---------------------------------------------------------------- reading

uint64_t readStep(const json& j, const std::string& path) {
    if (!j.is_number_integer()) wrongType(path, "a whole number of steps", j);
    if (j.is_number_integer() && !j.is_number_unsigned() && j.get<json::number_integer_t>() < 0) {
        fail(path, "must be >= 0");
    }
    const uint64_t step = j.get<json::number_unsigned_t>();
    if (step > kMaxRecordingSteps) fail(path, "must be at most " + std::to_string(kMaxRecordingSteps));
    return step;
}

// A body handle as World hands it out: {"index": slot, "generation": its reuse count}.
BodyId readBodyId(const json& j, const std::string& path) {
    requireObject(j, path);
    checkKeys(j, path, {"index", "generation"});
    BodyId id;
    for (auto [key, field] : {std::pair{"index", &id.index}, std::pair{"generation", &id.generation}}) {
        const json& value = requireKey(j, key, path);
        const std::string at = join(path, key);
        if (!value.is_number_unsigned()) wrongType(at, "a whole number >= 0", value);
        if (value.get<json::number_unsigned_t>() > UINT32_MAX) fail(at, "must be at most " + std::to_string(UINT32_MAX));
        *field = static_cast<uint32_t>(value.get<json::number_unsigned_t>());
    }
    if (id.generation == 0) fail(join(path, "generation"), "must be >= 1 (0 is no body)");
    return id;
}

// A body definition as an edit gave it (BodyReading::Exact), checked by the body model's rules.
BodyDef readDef(const json& j, const std::string& path) {
    BodyDef def = readBody(j, path, 0, BodyReading::Exact);
    if (!j.contains("name")) fail(join(path, "name"), "required key is missing");
    if (Validation bad = validateBodyDef(def)) fail(bad->field.empty() ? path : join(path, bad->field), bad->rule);
    return def;
}

WorldSettings readWorld(const json& j, const std::string& path) {
    WorldSettings settings = readSettings(j, path, scene::kFormatVersion);
    if (Validation bad = validateSettings(settings)) fail(join(path, bad->field), bad->rule);
    return settings;
}

// {"frequency", "damping_ratio", "max_force"}: validateDragSettings names them "drag.<key>".
DragSettings readDrag(const json& j, const std::string& path) {
    requireObject(j, path);
    checkKeys(j, path, {"frequency", "damping_ratio", "max_force"});
    DragSettings drag;
    drag.frequency = readFloat(requireKey(j, "frequency", path), join(path, "frequency"));
    drag.dampingRatio = readFloat(requireKey(j, "damping_ratio", path), join(path, "damping_ratio"));
    drag.maxForceInWeights = readFloat(requireKey(j, "max_force", path), join(path, "max_force"));
    if (Validation bad = validateDragSettings(drag)) {
        fail(join(path, bad->field.substr(bad->field.find('.') + 1)), bad->rule);
    }
    return drag;
}

RunInput readInput(const json& j, const std::string& path) {
    requireObject(j, path);
    const std::string type = readString(requireKey(j, "type", path), join(path, "type"));
    const auto keys = [&](std::vector<const char*> more) {
        more.insert(more.begin(), {"step", "type"});
        checkKeys(j, path, more);
    };
    const auto at = [&](const char* key) -> const json& { return requireKey(j, key, path); };
    const auto where = [&](const char* key) { return join(path, key); };
    if (type == "set_body") {
        keys({"body", "def"});
        return Command{SetBody{readBodyId(at("body"), where("body")), readDef(at("def"), where("def"))}};
    }
    if (type == "set_world_settings") {
        keys({"world"});
        return Command{SetWorldSettings{readWorld(at("world"), where("world"))}};
    }
    if (type == "set_drag_settings") {
        keys({"drag"});
        return Command{SetDragSettings{readDrag(at("drag"), where("drag"))}};
    }
    if (type == "spawn_body") {
        keys({"def", "select"});
        return Command{SpawnBody{readDef(at("def"), where("def")), readBool(at("select"), where("select"))}};
    }
    if (type == "delete_body") {
        keys({"body"});
        return Command{DeleteBody{readBodyId(at("body"), where("body"))}};
    }
    if (type == "begin_drag") {
        keys({"body", "point"});
        return Command{BeginDrag{readBodyId(at("body"), where("body")), readVec3(at("point"), where("point"))}};
    }
    if (type == "end_drag") {
        keys({});
        return Command{EndDrag{}};
    }
    if (type == "undo") {
        keys({});
        return UndoInput{};
    }
    if (type == "redo") {
        keys({});
        return RedoInput{};
    }
    if (type == "drag_target") {
        keys({"target"});
        return DragTargetInput{readVec3(at("target"), where("target"))};
    }
    fail(where("type"), "unknown input type '" + type +
                            "' (expected set_body, set_world_settings, set_drag_settings, spawn_body, delete_body, "
                            "begin_drag, end_drag, undo, redo or drag_target)");
}

// The embedded scene, its paths under "scene".
scene::Scene readEmbeddedScene(const json& j) {
    try {
        return readScene(j);
    } catch (const Failure& f) {
        fail(f.path.empty() ? "scene" : join("scene", f.path), f.rule);
    }
}



// ---------------------------------------------------------------- writing

ordered_json bodyIdJson(BodyId id) { return ordered_json{{"index", id.index}, {"generation", id.generation}}; }

ordered_json dragJson(const DragSettings& drag) {
    return ordered_json{{"frequency", number(drag.frequency)},
                        {"damping_ratio", number(drag.dampingRatio)},
                        {"max_force", number(drag.maxForceInWeights)}};
}

struct InputJson {
    ordered_json& out;
    void operator()(const Command& command) const { std::visit(*this, command); }
    void operator()(const SetBody& c) const {
        out["type"] = "set_body";
        out["body"] = bodyIdJson(c.body);
        out["def"] = bodyJson(c.def, BodyReading::Exact);
    }
    void operator()(const SetWorldSettings& c) const {
        out["type"] = "set_world_settings";
        out["world"] = settingsJson(c.settings);
    }
    void operator()(const SetDragSettings& c) const {
        out["type"] = "set_drag_settings";
        out["drag"] = dragJson(c.settings);
    }
    void operator()(const SpawnBody& c) const {
        out["type"] = "spawn_body";
        out["def"] = bodyJson(c.def, BodyReading::Exact);
        out["select"] = c.selectIt;
    }
    void operator()(const DeleteBody& c) const {
        out["type"] = "delete_body";
        out["body"] = bodyIdJson(c.body);
    }
    void operator()(const BeginDrag& c) const {
        out["type"] = "begin_drag";
        out["body"] = bodyIdJson(c.body);
        out["point"] = array(c.point);
    }
    void operator()(const EndDrag&) const { out["type"] = "end_drag"; }
    // A recording holds one run: captureRecording refuses these before writing.
    void operator()(const LoadScene&) const { out["type"] = "load_scene"; }
    void operator()(const ResetScene&) const { out["type"] = "reset_scene"; }
    void operator()(const UndoInput&) const { out["type"] = "undo"; }
    void operator()(const RedoInput&) const { out["type"] = "redo"; }
    void operator()(const DragTargetInput& c) const {
        out["type"] = "drag_target";
        out["target"] = array(c.target);
    }
};

// ---------------------------------------------------------------- replaying

// "inputs[4]: body: no such body (it was removed)".
FieldError refusedInput(size_t i, const FieldError& refused) {
    return FieldError{"inputs[" + std::to_string(i) + "]", refused.field.empty() ? refused.rule : refused.message()};
}

constexpr const char* kOneRun = "a recording holds one run, from its scene's load: ";

Validation replayInput(Experiment& experiment, const RunInput& input) {
    if (const auto* command = std::get_if<Command>(&input)) {
        if (restartsWorld(*command)) return FieldError{"", std::string(kOneRun) + "a load or reset is not one of its inputs"};
        return experiment.apply(*command);
    }
    if (std::holds_alternative<UndoInput>(input)) {
        if (experiment.nextUndo() && restartsWorld(experiment.nextUndo()->command)) {
            return FieldError{"undo", std::string(kOneRun) + "this undo would take the load back"};
        }
        return experiment.undo();
    }
    if (std::holds_alternative<RedoInput>(input)) {
        if (experiment.nextRedo() && restartsWorld(experiment.nextRedo()->command)) {
            return FieldError{"redo", std::string(kOneRun) + "this redo would load another world"};
        }
        return experiment.redo();
    }
    // The run logs a target only while a drag is in progress.
    if (!experiment.world().drag().active) return FieldError{"target", "a drag target while nothing is being dragged"};
    experiment.setDragTarget(std::get<DragTargetInput>(input).target);
    return std::nullopt;
}

bool sameDragSettings(const DragSettings& a, const DragSettings& b) {
    return a.frequency == b.frequency && a.dampingRatio == b.dampingRatio && a.maxForceInWeights == b.maxForceInWeights;
}

}  // namespace

Recording readRecording(const json& root) {
    if (!root.is_object()) wrongType("", "a JSON object at the top level", root);
    checkKeys(root, "", {"format", "version", "end_step", "drag", "scene", "inputs"});
    requireFormat(root, kRecordingFormat, kRecordingVersion);
    Recording recording;
    recording.end = readStep(requireKey(root, "end_step", ""), "end_step");
    recording.dragSettings = readDrag(requireKey(root, "drag", ""), "drag");
    recording.scene = readEmbeddedScene(requireKey(root, "scene", ""));
    const json& inputs = requireKey(root, "inputs", "");
    if (!inputs.is_array()) wrongType("inputs", "an array", inputs);
    recording.inputs.reserve(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
        const std::string path = index("inputs", i);
        requireObject(inputs[i], path);
        const std::string stepPath = join(path, "step");
        const uint64_t step = readStep(requireKey(inputs[i], "step", path), stepPath);
        if (i > 0 && step < recording.inputs.back().step) {
            fail(stepPath, "must not be less than inputs[" + std::to_string(i - 1) + "].step (" +
                               std::to_string(recording.inputs.back().step) + ")");
        }
        if (step > recording.end) fail(stepPath, "must not be more than end_step (" + std::to_string(recording.end) + ")");
        recording.inputs.push_back(RecordedInput{step, readInput(inputs[i], path)});
    }
    return recording;
}

RecordingResult parseRecording(const std::string& text, const std::string& fileName) {
    return readDocument(text, fileName, kFileKind, readRecording);
}

RecordingResult loadRecordingFile(const std::string& path) {
    std::variant<std::string, scene::SceneError> text = readFileText(path, kFileKind);
    if (auto* error = std::get_if<scene::SceneError>(&text)) return std::move(*error);
    return parseRecording(std::get<std::string>(text), path);
}

OpenedFile loadSceneOrRecording(const std::string& path) {
    std::variant<std::string, scene::SceneError> text = readFileText(path, "scene and recording files");
    if (auto* error = std::get_if<scene::SceneError>(&text)) return std::move(*error);
    auto opened = readDocument(std::get<std::string>(text), path, kFileKind, [](const json& root) -> OpenedFile {
        if (root.is_object() && root.contains("format")) return readRecording(root);
        return readScene(root);
    });
    if (auto* error = std::get_if<scene::SceneError>(&opened)) return std::move(*error);
    return std::move(std::get<OpenedFile>(opened));
}

std::string toJson(const Recording& recording) {
    std::string out = "{\n  \"format\": \"" + std::string(kRecordingFormat) + "\",\n";
    out += "  \"version\": " + std::to_string(kRecordingVersion) + ",\n";
    out += "  \"end_step\": " + std::to_string(recording.end) + ",\n";
    out += "  \"drag\": ";
    writeInline(dragJson(recording.dragSettings), out);
    // The scene as its own writer lays it out, indented one level.
    out += ",\n  \"scene\": ";
    const std::string sceneText = scene::toJson(recording.scene);
    for (size_t i = 0; i + 1 < sceneText.size(); ++i) out += sceneText[i] == '\n' ? std::string("\n  ") : std::string(1, sceneText[i]);
    out += ",\n  \"inputs\": [";
    for (size_t i = 0; i < recording.inputs.size(); ++i) {
        ordered_json input = ordered_json::object();
        input["step"] = recording.inputs[i].step;
        std::visit(InputJson{input}, recording.inputs[i].input);
        out += i == 0 ? "\n    " : ",\n    ";
        writeInline(input, out);
    }
    out += recording.inputs.empty() ? "]\n}\n" : "\n  ]\n}\n";
    return out;
}

std::string saveRecordingFile(const Recording& recording, const std::string& path) {
    return saveTextFile(toJson(recording), path);
}

std::variant<Recording, std::string> captureRecording(const Experiment& experiment) {
    const Run& run = experiment.run();
    const EditBook& start = *run.startBook;
    // A fresh load or reset is the newest entry of the edit history, with nothing to redo
    // and the world at step 0; undoing or redoing a load brings back a world as it was.
    const bool startsAtLoad = run.start() == 0 && start.undone == 0 && !start.history.empty() &&
                              restartsWorld(start.history.back()->command);
    if (!startsAtLoad) {
        return std::string(
            "this run cannot be saved as a recording: it does not start at a scene's load or reset (it is a world "
            "brought back by an undo or redo, whose edits before the run a recording cannot hold); reset the scene "
            "and record the run again");
    }
    Recording recording;
    recording.scene = experiment.scene();
    recording.dragSettings = start.dragSettings;
    recording.end = run.end;
    if (recording.end > kMaxRecordingSteps) {
        return "this run cannot be saved as a recording: it is longer than " + std::to_string(kMaxRecordingSteps) +
               " steps";
    }
    recording.inputs.reserve(run.inputs.size());
    for (const LoggedInput& logged : run.inputs) {
        // A load or reset starts a new run, so a run never logs one; a file must not say otherwise.
        const auto* command = std::get_if<Command>(&logged.input);
        if (command && restartsWorld(*command)) return std::string("this run cannot be saved: it holds a load or reset");
        // The replay's own steps take the body out of the bounds again and remove it.
        const auto* deleted = command ? std::get_if<DeleteBody>(command) : nullptr;
        if (deleted && deleted->leftBounds) continue;
        recording.inputs.push_back(RecordedInput{logged.step, logged.input});
    }
    return recording;
}

Validation replayRecording(const Recording& recording, Experiment& experiment, const std::string& scenePath,
                           const std::function<bool(const World&)>& observe) {
    if (!sameDragSettings(experiment.dragSettings(), recording.dragSettings)) {
        if (Validation refused = experiment.apply(SetDragSettings{recording.dragSettings})) return refused;
    }
    if (Validation refused = experiment.apply(LoadScene{recording.scene, scenePath})) {
        return FieldError{"scene." + refused->field, refused->rule};
    }
    if (observe && !observe(experiment.world())) return std::nullopt;
    // Steps up to `step`; false when afterStep stopped the replay.
    const auto advanceTo = [&](uint64_t step) {
        while (experiment.world().stepCount() < step) {
            experiment.step();
            if (observe && !observe(experiment.world())) return false;
        }
        return true;
    };
    for (size_t i = 0; i < recording.inputs.size(); ++i) {
        const RecordedInput& input = recording.inputs[i];
        if (input.step < experiment.world().stepCount()) return refusedInput(i, FieldError{"step", "before the input ahead of it"});
        if (!advanceTo(input.step)) return std::nullopt;
        if (Validation refused = replayInput(experiment, input.input)) return refusedInput(i, *refused);
    }
    advanceTo(recording.end);
    return std::nullopt;
}

}  // namespace impulse::app
