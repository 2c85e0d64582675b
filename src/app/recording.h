// Recording files: one run of an experiment as JSON, beside the scene format
// (docs/app.md, "Recording files"). A recording is the scene the run started
// from (at its load or reset), the mouse drag's settings then, every input of
// the run with its step (Experiment::runInputs()) and the run's last step.
// Replaying it drives an Experiment through the same calls the run made, so
// the same build gives the same world, bit for bit. No GL, SDL or ImGui here.
#pragma once

#include "app/experiment.h"
#include "scene/scene.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

namespace impulse::app {

/// The value of the file's "format" key, which tells a recording from a scene file.
inline constexpr const char* kRecordingFormat = "impulse-lab-recording";
/// The version written and the only one read so far.
inline constexpr int kRecordingVersion = 1;
/// Latest step a recording may reach (about 46 hours at 60 Hz, impulse-sim's --steps limit).
inline constexpr uint64_t kMaxRecordingSteps = 10'000'000;

/// One input of the run at the step it took effect (see LoggedInput).
struct RecordedInput {
    uint64_t step = 0;
    RunInput input;
};

struct Recording {
    scene::Scene scene;          ///< the run's start: this scene, just loaded (step 0)
    DragSettings dragSettings;   ///< the mouse drag's settings at the start
    std::vector<RecordedInput> inputs;  ///< ascending step, in the order they were given
    uint64_t end = 0;            ///< the run's last step
};

using RecordingResult = std::variant<Recording, scene::SceneError>;

/// Parses and checks JSON text; a refusal names the JSON path and the rule
/// ("inputs[3].step: must not be less than inputs[2].step").
RecordingResult parseRecording(const std::string& text, const std::string& fileName = "<memory>");
RecordingResult loadRecordingFile(const std::string& path);
/// The recording in a parsed JSON object, for files that embed one (the recovery file);
/// throws scene::json_io::Failure with the path within that object.
Recording readRecording(const nlohmann::json& root);

/// What the app's Open reads: a recording when the top-level object has a "format"
/// key, else a scene file.
using OpenedFile = std::variant<scene::Scene, Recording, scene::SceneError>;
OpenedFile loadSceneOrRecording(const std::string& path);

/// The JSON text of a recording; parseRecording gives back the same values, bit for bit.
std::string toJson(const Recording& recording);
/// Writes it as saveSceneFile does (never a truncated file); an error message or "".
std::string saveRecordingFile(const Recording& recording, const std::string& path);

/// The experiment's current run as a recording, or why it cannot be one: a run
/// that does not start at a scene's load or reset (one brought back by undoing
/// or redoing a load) depends on edits made before it, which a recording has not.
std::variant<Recording, std::string> captureRecording(const Experiment& experiment);

/// Replays the run into `experiment`: the drag settings (as an edit, when they differ),
/// the scene (LoadScene with `scenePath`, "" for none), then each input at its step,
/// stepping to the end. `observe` (may be empty) sees the world as loaded (before step
/// 0's inputs) and after every step, and stops the replay by returning false. An input the experiment refuses, or one that a
/// single run cannot hold (an undo of the load), stops it with the input's path and rule.
Validation replayRecording(const Recording& recording, Experiment& experiment, const std::string& scenePath,
                           const std::function<bool(const World&)>& observe = {});

}  // namespace impulse::app
