// What the recording fuzzer checks for one input, shared with the regression test
// (tests/robustness/test_fuzz_regressions.cpp), as scene_input_check.h is for scenes.
//
// For any byte string the recording reader must either refuse it with a message
// that names the file and a rule, or return a recording whose text reads back to
// the same text and whose replay (cut to a few steps) ends in a finite world or
// stops at an input with that input's JSON path.
#pragma once

#include "app/recording.h"
#include "scene_input_check.h"

#include <string>
#include <variant>

namespace impulse::fuzz {

// Steps replayed per input at most: a file may ask for millions.
inline constexpr uint64_t kReplaySteps = 8;

inline std::string checkRecordingInput(const std::string& text) {
    const std::string fileName = "fuzz.json";
    app::RecordingResult result = app::parseRecording(text, fileName);
    if (const auto* error = std::get_if<scene::SceneError>(&result)) {
        if (error->rule.empty()) return "rejection without a rule: " + error->message();
        if (error->message().rfind(fileName + ": ", 0) != 0) return "rejection does not name the file: " + error->message();
        return "";
    }
    app::Recording recording = std::get<app::Recording>(result);
    const std::string saved = app::toJson(recording);
    const app::RecordingResult again = app::parseRecording(saved, "saved.json");
    if (const auto* error = std::get_if<scene::SceneError>(&again)) {
        return "the saved text of a read recording is refused: " + error->message();
    }
    if (app::toJson(std::get<app::Recording>(again)) != saved) return "save/read changed the recording";

    // A costly scene is the scene fuzzer's business; the replay is cut to a few steps.
    const double n = static_cast<double>(recording.scene.bodies.size());
    const WorldSettings& s = recording.scene.settings;
    if (s.passes * ((s.subSteps + s.positionIterations + 2) * n + 0.5 * n * n) > kStepBudget) return "";
    recording.end = std::min(recording.end, kReplaySteps);
    while (!recording.inputs.empty() && recording.inputs.back().step > recording.end) recording.inputs.pop_back();
    app::Experiment experiment;
    if (const Validation refused = app::replayRecording(recording, experiment, "")) {
        const std::string where = refused->field;
        if (refused->rule.empty()) return "replay refusal without a rule: " + refused->message();
        if (where.rfind("inputs[", 0) != 0 && where.rfind("scene.", 0) != 0 && where.rfind("drag.", 0) != 0) {
            return "replay refusal without the input's path: " + refused->message();
        }
        return "";
    }
    if (const BodyId bad = experiment.world().firstNonFiniteBody()) {
        return "non-finite state after the replay in body '" + experiment.world().body(bad).name + "'";
    }
    return "";
}

}  // namespace impulse::fuzz
