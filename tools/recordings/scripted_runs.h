// The runs shipped in assets/recordings/, played through an Experiment with the
// commands the app issues for a user's mouse and panel actions (a grab at a point
// of the body, the cursor's target every frame, a release, a Body panel edit, the
// Box button over the floor). impulse-make-recordings writes them; the tests play
// them again and compare with the committed files.
#pragma once

#include "app/experiment.h"

#include <functional>
#include <string>
#include <vector>

namespace impulse::tools {

struct ScriptedRun {
    std::string file;   ///< in assets/recordings/
    std::string scene;  ///< the preset it starts from, in assets/scenes/
    /// Called before every step with the experiment at that step; false ends the run
    /// there (with `error` set if an input was refused).
    std::function<bool(app::Experiment&, std::string& error)> beforeStep;
};

/// A tuned throw, a Newton's cradle, a pile.
std::vector<ScriptedRun> scriptedRuns();

/// Opens the run's scene (from `sourceDir`/assets/scenes) in `experiment` and plays it to
/// its end. Returns the error, or "".
std::string play(const ScriptedRun& run, const std::string& sourceDir, app::Experiment& experiment);

}  // namespace impulse::tools
