// The desktop app: the SDL window and GL context, Dear ImGui, and the
// fixed-timestep loop that ties the parts together each frame: events to the
// input, the panels (editing the experiment through ExperimentEdits), the
// requests of keys and buttons, the steps, the frame's drawing, timings and the
// render tier, all on the one thread.
//
// Where a feature goes: a change to the world is an experiment command
// (experiment.h); mouse and view keys are input.h; what the 3D view draws is
// frame.h; a panel is ui/panels.h; the loop and app-wide keys are here.
#pragma once

#include "app/experiment.h"
#include "app/experiment_edits.h"
#include "app/frame.h"
#include "app/auto_shadows.h"
#include "app/input.h"
#include "app/options.h"
#include "app/paths.h"
#include "app/recovery.h"
#include "app/settings.h"
#include "app/sim_clock.h"
#include "app/timeline.h"
#include "app/run_csv.h"
#include "app/video.h"
#include "ui/layout.h"
#include "ui/panels.h"
#include "ui/timeline_panel.h"
#include "render/gpu_timer.h"

#include <SDL.h>

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace impulse::app {

class App {
public:
    App(AppOptions options, DataPaths paths);
    ~App();
    App(const App&) = delete;
    App& operator=(const App&) = delete;

    /// Opens the window and runs until closed or --frames is reached. Returns the exit code.
    int run();

private:
    bool openWindow();
    void closeWindow();
    /// The SDL window and its current GL context with `samples` MSAA samples (0: none),
    /// or without when the context refuses them (said on stdout); false when there is none.
    bool createGlWindow(int samples);
    void destroyGlWindow();
    /// Draws with the tier `choice` names (none: the one GL_RENDERER implies) from the
    /// next frame on; what the window cannot change (MSAA) is said in the World panel.
    void applyTier(render::TierChoice choice);
    /// Loads a scene file, or replays a recording (then shown paused at the run's start);
    /// on success the view starts afresh on it. `note` says what was opened, or why not.
    bool openScene(const std::string& path, std::string& note);
    /// After a scene load or reset: the views of the old world are dropped.
    void sceneRestarted();
    /// After a scene load: the camera takes the scene's own, or frames the new scene, and
    /// the title names it.
    void sceneLoaded();
    /// The camera as the scene file gives it, or framing all bodies when it gives none.
    void startCamera();
    /// The view's camera as a scene file holds it.
    scene::SceneCamera sceneCamera() const;
    /// Puts the view's camera where a scene file (or a recovery file) says.
    void useCamera(const scene::SceneCamera& camera);

    /// Autosave: decides whether it is on and where (IMPULSE_STATE_DIR, XDG_STATE_HOME,
    /// HOME; off for --frames runs unless IMPULSE_STATE_DIR is set), and reads the
    /// newest recovery file of a session that ended without quitting, to offer. "" or
    /// why the settings are refused.
    std::string startAutosave();
    /// Asks whether to restore the recovery file read at the start (a modal: Restore, Discard).
    void offerRecovery();
    /// Hands the work to the recovery writer when it changed and the interval has passed
    /// since the last one (the capture is cheap; the writing is the writer's thread's).
    void autosaveIfDue();
    /// The offer's answer: restore the work (the experiment is replaced only if the
    /// replay succeeds) or discard the file.
    void answerRecovery(bool restore);

    /// This frame's layout from the window's size; rebuilds the font and the style's
    /// sizes when the text scale changes.
    void layOut();
    void applyTextScale(float scale);
    /// Nothing moves and nothing is held: the loop may wait for input instead of drawing.
    bool idle() const;
    /// IMPULSE_LAYOUT_JSON: the panels', widgets' and the view's rectangles, what the app
    /// shows (paused, step, selection, the Scene panel's message...), the camera and where
    /// each body is, as JSON (for tests, and for finding widgets). Written whole or not at
    /// all (renamed over the last), at exit and, with IMPULSE_LAYOUT_LIVE=1, every frame.
    void writeLayout(const std::string& path) const;

    void handleEvent(const SDL_Event& event, ui::PanelRequests& requests);
    /// The keys that are not the 3D view's (see Input::handleKey).
    void handleKey(const SDL_KeyboardEvent& key, ui::PanelRequests& requests);
    /// Runs the steps this frame is due, forward or (playing backward) back through the
    /// recorded run, wrapping within the loop; returns the wall time spent (ms).
    double simulate(double frameSeconds);
    /// The timeline's requests and held step keys and buttons: seeks, the steps forward
    /// they ask of simulate(), the history budget; says when an input branched the run.
    void applyTimeline(const ui::TimelineRequests& requests);
    /// What the panels' buttons and the keys asked for this frame; true to quit now.
    bool processRequests(const ui::PanelRequests& requests);
    /// Undo (or redo) the latest edit and say so in the Scene panel.
    void undoOrRedo(bool undo);
    /// Writes the world (or, asRecording, the run: see captureRecording) to `path`, asking
    /// first if that replaces a file other than the scene's own (for a recording: other
    /// than the recording last saved).
    void save(const std::string& path, bool confirmed, bool asRecording);
    /// Whether writing `path` waits for the user: it exists, was not the last file of
    /// its kind written (`lastWritten`) and is not `confirmed`; then asks whether to
    /// replace it with `replacement`, handing `again` back on yes.
    bool asksBeforeReplacing(const std::string& path, const std::string& lastWritten, bool confirmed,
                             const std::string& replacement, const ui::PanelRequests& again);
    /// The window's title: the scene's name, and whether there are unsaved edits.
    /// Writes the Data tab's CSV, asking first if that replaces a file.
    void exportData(const ui::TextExport& table, bool confirmed);
    void updateTitle();
    /// After an undoable load or reset that replaced unsaved edits: how to get them back.
    /// The bodies the last steps removed for leaving the world's bounds, in the message line.
    void reportBodiesLeftBounds();
    std::string undoHint(bool hadUnsavedEdits) const;
    /// The serial of the edit Ctrl+Z would undo (0: none).
    uint64_t latestEditSerial() const;
    /// Says what the latest edit did, unless it (or anything this frame) set a message.
    void reportEdit(uint64_t messagesBefore);
    /// Applies a command and shows a refusal in the Scene panel, prefixed with `what`.
    void applyOrReport(Command command, const char* what);

    void showTimes(const FrameTimes& times);
    static void printProfile(const std::vector<FrameTimes>& history, size_t warmUpFrames);
    void saveScreenshotNow(const std::string& path);
    /// Starts recording the view (into --record-video's folder, else the working
    /// directory) or stops the recording, and says so in the Scene panel.
    void toggleVideo();
    /// While recording: the view as this frame drew it (before the panels) is the next video frame.
    void recordVideoFrame();

    AppOptions options_;
    DataPaths paths_;
    SDL_Window* window_ = nullptr;
    SDL_GLContext context_ = nullptr;

    Experiment experiment_;
    ExperimentEdits edits_{experiment_};  // the panels' way to the experiment
    Input input_;
    Frame frame_;
    FixedStepClock clock_;
    VideoRecorder video_;
    RunCsvExport runCsv_;  // the Plots tab's "export run", written on its own thread
    // While recording, each frame steps a video frame of simulated time instead of the
    // wall time (VideoFrameClock); set for the frame before its steps start.
    VideoFrameClock videoClock_{VideoRecorder::kFramesPerSecond};
    bool videoFrame_ = false;

    ui::Panels panels_;
    ui::TimelinePanel timelinePanel_;
    ui::TimelineControls timeline_;
    ui::SimControls sim_;
    ui::DebugView view_;
    ui::FrameInfo frameInfo_;
    AutoShadows autoShadows_;  // Shadows: Auto's cuts on the software tier
    render::GpuTimer gpuTimer_;  // the standard tier's GL times
    render::RenderTier rendererTier_ = render::RenderTier::software;  // what GL_RENDERER implies
    int msaaSamples_ = 0;  // of the window's default framebuffer
    bool vsync_ = false;   // the swap waits for the display: the loop does not cap its rate
    /// For the layout report: each window Auto judged (its 3D pass median, ms, and the
    /// cut after it), and the frames drawn with each cut.
    struct JudgedWindow {
        double medianMs;
        ShadowCut cutAfter;
    };
    std::vector<JudgedWindow> judgedWindows_;
    std::array<int, 3> framesByCut_{};
    ui::ColumnWidths columnWidths_;  // as the user dragged them; saved on exit when changed
    bool columnsShown_ = true;       // Tab hides the panels' columns: the view takes the window
    std::string settingsPath_;
    ui::Layout layout_;
    float textScale_ = 1.0f;         // what the font atlas and the style were built for
    float statusBarBottom_ = 0.0f;   // the overlay's status bar, last frame (window pixels)
    int framesSinceInput_ = 0;       // input wakes the loop; a few frames then settle ImGui
    std::string title_;      // as last set on the window
    std::string layoutReport_;   // IMPULSE_LAYOUT_JSON, empty when not set
    bool liveLayout_ = false;    // IMPULSE_LAYOUT_LIVE=1: the report is rewritten every frame
    std::string savedPath_;  // the file last saved to: saving there again does not ask
    std::string savedRecordingPath_;  // the recording last saved: saving the run there again does not ask
    std::string exportedPlotsPath_, exportedRunPath_, exportedDataPath_;  // the CSV files last written: writing there again does not ask
    // The step keys (, .): down since a press, or pressed and let go within this frame.
    bool stepBackKey_ = false, stepForwardKey_ = false;
    bool stepBackPressed_ = false, stepForwardPressed_ = false;
    HoldRepeat stepBackRepeat_, stepForwardRepeat_;
    int stepsForward_ = 0;   // asked of simulate() by the step key or button (paused)
    uint64_t branchesSeen_ = 0;  // Experiment::branchCount() when last said
    uint64_t reportedEditSerial_ = 0;  // the latest edit when its message was last settled (reportEdit)
    // Autosave (recovery.h): this process's recovery file; null when off.
    std::unique_ptr<RecoveryWriter> autosave_;
    double autosaveSeconds_ = 5.0;         // the interval (IMPULSE_AUTOSAVE_SECONDS)
    Uint64 lastAutosave_ = 0;              // SDL performance counter at the last check that wrote
    std::optional<WorkMark> workAtStart_;  // the work as the start left it: nothing to keep yet
    std::optional<WorkMark> autosaved_;    // the work last handed to the writer
    std::vector<double> autosaveCaptureMs_;  // the frame's part of each autosave (IMPULSE_PROFILE)
    std::string offeredPath_;              // the recovery file offered at the start
    std::optional<Recovery> offered_;
};

}  // namespace impulse::app
