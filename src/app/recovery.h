// Autosave and recovery: the app's work written every few seconds to a recovery file
// in the user's state folder, offered back at the next start when the app ended
// without quitting (a crash, a kill, a power cut) and removed by a clean quit
// (docs/app.md, "Autosave and recovery"). The work is the run as a recording (its
// scene, every input, the step shown: a replay gives it back bit for bit, with its
// timeline and undo history), or, for a run a recording cannot hold, the world as it
// is as a scene. No GL, SDL or ImGui here.
#pragma once

#include "app/experiment.h"
#include "app/recording.h"
#include "scene/scene.h"

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

namespace impulse::app {

/// The value of a recovery file's "format" key.
inline constexpr const char* kRecoveryFormat = "impulse-lab-recovery";
inline constexpr int kRecoveryVersion = 1;

/// What a recovery file holds: the work, and what the offer to restore it says.
struct Recovery {
    std::string savedAt;    ///< UTC, "2026-11-26 08:10:03 UTC"
    std::string scenePath;  ///< the scene's file when saved, "" for none
    bool unsavedEdits = false;  ///< the experiment had edits not in a file
    std::optional<scene::SceneCamera> camera;  ///< the view's camera
    /// The run (replayed, then shown at shownStep), or else the world as it was.
    std::variant<Recording, scene::Scene> work;
    uint64_t shownStep = 0;  ///< of the run; 0 with a world
};

using RecoveryResult = std::variant<Recovery, scene::SceneError>;

/// The experiment's work as it is now: its run when a recording can hold it, else the
/// world as a scene. Copies what it needs (the scene and the input log), so the rest
/// (writing the JSON) can go on another thread. `savedAt` is the caller's clock.
Recovery captureRecovery(const Experiment& experiment, const std::optional<scene::SceneCamera>& camera,
                         std::string savedAt);

/// What changes when the work does (an edit, an undo or redo, a load, a step, a seek,
/// a branch): the app autosaves when it differs from the one last written. The camera
/// is not work: it is written with the work, never a reason to write.
struct WorkMark {
    uint64_t latestEdit = 0;  ///< serial of the newest history entry
    size_t redoCount = 0;
    size_t inputs = 0;
    uint64_t runStart = 0, runEnd = 0, shownStep = 0;
    uint64_t branches = 0;
    bool operator==(const WorkMark& o) const {
        return latestEdit == o.latestEdit && redoCount == o.redoCount && inputs == o.inputs && runStart == o.runStart &&
               runEnd == o.runEnd && shownStep == o.shownStep && branches == o.branches;
    }
    bool operator!=(const WorkMark& o) const { return !(*this == o); }
};
WorkMark workMark(const Experiment& experiment);

/// Puts the work into `experiment` (a fresh one: the app takes it in place of its own
/// only when this succeeds). The run is replayed with the scene's path and shown at its
/// step, bit for bit as it was; a world is loaded as a scene with no file (the scene's
/// file does not hold it). A run the replay refuses returns the input's path and rule.
Validation restoreRecovery(const Recovery& recovery, Experiment& experiment);

std::string toJson(const Recovery& recovery);
/// Parses and checks a recovery file's text; a refusal names the JSON path and rule.
RecoveryResult parseRecovery(const std::string& text, const std::string& fileName = "<memory>");
RecoveryResult loadRecoveryFile(const std::string& path);

/// One line for the offer: what and when ("default: a run of 412 steps with 3 inputs,
/// unsaved edits, saved 2026-11-26 08:10:03 UTC").
std::string describe(const Recovery& recovery);

/// The folder of recovery files: $IMPULSE_STATE_DIR when set, else
/// $XDG_STATE_HOME/impulse-lab (an absolute XDG_STATE_HOME), else
/// ~/.local/state/impulse-lab; "" when none of them is set.
std::string recoveryFolder();
/// This process's recovery file in `folder`: recovery-PID.json, so that two instances
/// never write over each other's work.
std::string recoveryFilePath(const std::string& folder, long pid);
/// The recovery files in `folder` left by processes that are gone (a live PID's file is
/// that process's own), newest first.
std::vector<std::string> orphanedRecoveryFiles(const std::string& folder);

/// The current UTC time as Recovery::savedAt says it.
std::string utcNow();

/// Writes recovery files on a thread of its own (at the lowest priority), so that the
/// frame that hands one over never waits for the JSON, the disk or fsync. Each write is
/// atomic: a temporary file, fsync, then a rename over the file (saveTextFile).
class RecoveryWriter {
public:
    explicit RecoveryWriter(std::string path);
    ~RecoveryWriter();
    RecoveryWriter(const RecoveryWriter&) = delete;
    RecoveryWriter& operator=(const RecoveryWriter&) = delete;

    const std::string& path() const { return path_; }
    /// Hands over the work to write; one still waiting is replaced (only the newest counts).
    void submit(Recovery recovery);
    /// The same, for the frame: false, with nothing handed over, when the writer's thread
    /// holds the lock just then (at nice 19 it may be descheduled while holding it, and
    /// the frame must not wait for that).
    bool trySubmit(Recovery& recovery);
    /// Waits until everything handed over is written; returns the last write's error or "".
    std::string flush();
    /// The error of a write that failed since the last call, "" when none.
    std::string takeError();
    /// Stops the thread after flush(), then removes the file (a clean quit: no work to recover).
    void removeFile();
    /// Writes so far (tests, the profile).
    uint64_t writes() const;

private:
    void serve();

    std::string path_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::optional<Recovery> pending_;
    bool writing_ = false;
    bool stopping_ = false;
    std::string error_, lastError_;
    uint64_t writes_ = 0;
    std::thread thread_;  // last: it starts once the members it uses exist
};

}  // namespace impulse::app
