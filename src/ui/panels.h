// The Dear ImGui panels: Scene, World, Body inspector, Contact inspector,
// Stats and Help. They edit the world only through an EditTarget (ui/edit.h),
// which validates and records every edit, and ask the app for everything else
// through PanelRequests.
#pragma once

#include "app/auto_shadows.h"
#include "app/classroom_view.h"
#include "app/video.h"
#include "physics/world.h"
#include "render/render_tier.h"
#include "ui/data_tab.h"
#include "ui/edit.h"
#include "ui/field_draft.h"
#include "ui/momenta_tab.h"
#include "ui/observation_panels.h"
#include "ui/pair_coefficients.h"
#include "ui/question.h"
#include "ui/runs_tab.h"
#include "ui/layout.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace impulse::ui {

/// Simulation clock controls owned by the app, shown in the Scene panel.
struct SimControls {
    bool paused = false;
    bool stepOnce = false;      ///< set by the panel, consumed by the app
    float timeScale = 1.0f;     ///< slow motion < 1
    int maxStepsPerFrame = 4;   ///< cap so a slow frame cannot spiral
};

/// What the debug layer draws.
struct DebugView {
    bool contacts = false;
    bool normals = false;
    bool impulses = false;
    bool aabbs = false;
    bool centreOfMass = false;
    bool principalAxes = false;
    float impulseScale = 0.5f;   ///< m of arrow per N s
    app::ClassroomView classroom;  ///< velocity, momentum, spin and impact vectors, the system's centre
    app::ShadowMode shadows = app::ShadowMode::automatic;  ///< see app/auto_shadows.h
    bool followSelected = false;  ///< the camera's target follows the selected body
};

/// Actions the panels ask the app to perform after drawing.
struct PanelRequests {
    std::string open;  ///< scene file to load
    std::string save;  ///< scene file to write
    std::string saveRecording;  ///< recording file to write with the run
    std::string exportRun;      ///< CSV file to write the whole run to (impulse-sim's columns)
    std::string exportPlots;    ///< CSV file to write the plotted series to
    std::optional<TextExport> exportData;  ///< the Data tab's table to write as CSV
    bool reset = false;
    bool spawnBox = false, spawnSphere = false, shoot = false;
    bool deleteSelection = false;
    bool duplicateSelection = false;
    bool frameSelection = false;
    bool screenshot = false;
    bool toggleVideo = false;  ///< start or stop recording the view (V)
    bool undo = false, redo = false;
    /// Show this step of the run (the timeline, a plot or an impact-log row was clicked).
    std::optional<uint64_t> seek;
    bool quit = false;  ///< Ctrl+Q or the window closed
    GhostRequest ghost;  ///< the Runs tab's choice of ghost, or its promotion
    std::optional<render::TierChoice> renderTier;  ///< the World panel's render tier was changed
    /// The user said yes to the question these requests raised (see Panels::confirm).
    bool confirmed = false;
    /// The answer to the offer of a recovery file at the start: true Restore, false Discard.
    std::optional<bool> restoreRecovery;
};

/// Frame timings shown in the Stats panel (ms, smoothed over ~10 frames). The app waits
/// for the GL work of the 3D pass (a fence) and of the panels (glFinish), so render and
/// UI include the rasteriser's time, not just the CPU's time to submit the draws. The
/// panels are submitted while the 3D pass rasterises: that part counts as render. The
/// world steps before the frame is drawn, on the same thread.
struct FrameInfo {
    float frameMs = 0.0f;    ///< wall time from one frame's start to the next (includes the 60 Hz cap)
    bool waitedForInput = false;  ///< paused and idle: the frame began after waiting for input
    float stepMs = 0.0f;     ///< mean wall time of one World::step this frame
    int stepsThisFrame = 0;
    float physicsMs = 0.0f;  ///< all World::step calls of the frame
    float renderMs = 0.0f;   ///< draw lists + 3D pass (software tier: until the GL work is done)
    float render3dMs = 0.0f;  ///< the 3D pass's GL work (FrameTimes::render3d)
    float uiGlMs = 0.0f;      ///< the panels' GL work by a timer query (standard tier)
    bool timerQueries = false;  ///< the GL times come from timer queries: the frame never waits for them
    float uiMs = 0.0f;       ///< panels' ImGui calls + what is left of their GL drawing after the 3D pass
    float presentMs = 0.0f;  ///< buffer swap (and screenshots)
    float simTime = 0.0f;    ///< simulated seconds since load
    std::string shadows;     ///< which shadows are drawn and why (describeShadows)
    bool shadowsCut = false;  ///< Auto has cut some: the line is a notice
    std::string glRenderer;  ///< GL_RENDERER: llvmpipe is software GL
    render::RenderTier renderTier = render::RenderTier::software;  ///< drawn with
    render::RenderTier rendererTier = render::RenderTier::software;  ///< what GL_RENDERER implies
    render::TierChoice tierChoice;  ///< the user's (flag or World panel); none: GL_RENDERER's
    int msaaSamples = 0;            ///< of the default framebuffer, as drawn
    std::string tierNote;           ///< what a tier change could not apply (MSAA needs a restart)
};

/// A message cut to one line of the view (the first line, at most ~110 characters).
std::string shortMessage(const std::string& message);

class Panels {
public:
    Panels(std::string presetDir, std::string scenePath);

    /// Draws every panel for this frame; their edits go to `target`. The impact log and
    /// the plots show `observations`; the Plots tab adds and removes its series. The Runs
    /// tab shows `experiment`'s kept runs and ghost. With the columns hidden only the help
    /// and a question asked (quit with unsaved edits?) are drawn.
    void draw(EditTarget& target, app::Observations& observations, const app::Experiment& experiment,
              SimControls& sim, DebugView& view, const FrameInfo& frame, PanelRequests& requests,
              bool columnsShown);

    ContactKey& pickedContact() { return picked_; }
    const ContactKey& pickedContact() const { return picked_; }
    bool helpShown() const { return showHelp_; }
    /// The Scene panel's message line (setMessage).
    const std::string& message() const { return message_; }
    bool messageIsError() const { return messageIsError_; }
    /// Where the message was drawn over the view this frame (x, y, w, h), zeros if not.
    const ImVec4& messageToastRect() const { return toastRect_; }
    /// The Body panel's inertia tensor as typed (column-major) and its refusal, if any.
    const mat3& inertiaDraft() const { return bodyEditor_.inertiaDraft(); }
    const std::string& bodyError() const { return bodyEditor_.status().error; }
    /// How far the Note tab is scrolled (px; -1 while the Presets tab is in front).
    float noteScrollY() const { return noteScrollY_; }
    /// The next step's contacts, shared with the view's contact points.
    NextStepContacts& nextStepContacts() { return nextStep_; }
    /// How far the Impact log's table was last scrolled sideways (pixels).
    float impactLogScrollX() const { return impactLogTab_.scrollX(); }
    /// The Stats tab's first line (frame time, or "paused" while waiting for input).
    const std::string& statsFrameLine() const { return statsFrameLine_; }
    /// The Body panel's "Contacts use" heading with the partners it lists.
    const std::string& contactsUse() const { return contactsUse_; }
    /// Where each labelled numeric field was last drawn (see FieldDraft::drawnFields).
    const std::map<std::string, ImVec4>& drawnFields() const { return fields_.drawnFields(); }
    StatsHistory& stats() { return stats_; }
    /// The video recorder's state, shown in the Scene panel under its button.
    void setVideoStatus(app::VideoStatus status) { video_ = std::move(status); }
    /// Result of the last open/save, shown in the Scene panel.
    /// `overView`: also shown over the view for a few seconds (errors stay there until
    /// the next message).
    void setMessage(const std::string& message, bool isError, bool overView = true);
    /// How many messages were set so far: a caller tells whether an action set one.
    uint64_t messagesSet() const { return messagesSet_; }
    /// The Plots tab's line under its export buttons.
    void setExportMessage(const std::string& message, bool isError) { plotsTab_.setMessage(message, isError); }
    /// The Data tab's line under its buttons.
    void setDataMessage(const std::string& message, bool isError) { dataTab_.setMessage(message, isError); }
    /// The loaded scene's note, in the Scene panel's Note tab; a scene with a note opens on it.
    void setSceneNote(const std::string& note) {
        sceneNote_ = note;
        openNoteTab_ = !note.empty();
    }
    /// Path shown in the Scene panel's text field.
    void setScenePath(const std::string& path) { scenePath_ = path; }
    const std::string& scenePathField() const { return scenePath_; }
    /// Puts the keyboard in the path field next frame (Ctrl+O).
    void focusPathField() { focusPath_ = true; }
    /// Asks `question` in a modal popup; "yes" hands `onYes` back (confirmed) from a later draw().
    void confirm(std::string question, std::string yesLabel, PanelRequests onYes);
    /// The same with a second answer: `noLabel` hands `onNo` back; Esc answers neither
    /// (`escapeNote` says what that means).
    void ask(std::string question, std::string yesLabel, PanelRequests onYes, std::string noLabel, PanelRequests onNo,
             std::string escapeNote);
    void toggleHelp() { showHelp_ = !showHelp_; }
    /// Where the panels go this frame (the app computes it from the window size).
    void setLayout(const Layout& layout) { layout_ = layout; }
    void refreshPresets();

    /// Key list shown in the Help panel (also used by the README).
    static const std::vector<std::pair<const char*, const char*>>& keyList();

private:
    void sceneWindow(SimControls& sim, const FrameInfo& frame, PanelRequests& requests);
    void worldWindow(EditTarget& target, DebugView& view, const FrameInfo& frame, PanelRequests& requests);
    void bodyWindow(EditTarget& target, PanelRequests& requests);
    /// The pair coefficients of the selected body's contacts (or of its last or likely partner).
    void effectiveCoefficients(const World& world, BodyId id);
    /// The Contacts, Impact log, Runs, Data and Momenta tabs.
    void contactWindow(EditTarget& target, const app::Observations& observations, const app::Experiment& experiment,
                       PanelRequests& requests);
    /// A clicked impact-log row: the timeline shows the entry's step, with its point
    /// picked in the Contacts tab.
    void pickImpact(const app::ImpactEntry& impact, PanelRequests& requests);
    /// The Plots tab's controls and plot, in the tab or in the Plot window.
    void plotsContent(const World& world, BodyId selected, app::PlotSamples& plots, PanelRequests& requests);
    /// The plot in a window of its own over the view, while the tab's "own window" is on.
    void plotWindow(const World& world, BodyId selected, app::PlotSamples& plots, PanelRequests& requests);
    void statsWindow(const World& world, const FrameInfo& frame, BodyId selected, app::PlotSamples& plots,
                     PanelRequests& requests);
    void helpWindow();
    /// The message over the top of the view, where the user is looking.
    void messageToast();
    void confirmationPopup(PanelRequests& requests);

    Layout layout_;
    std::string presetDir_;
    std::vector<std::string> presets_;
    std::string scenePath_;
    std::string sceneNote_;
    bool openNoteTab_ = false;  // select the Note tab at the next draw
    std::string message_;
    bool messageIsError_ = false;
    double messageTime_ = 0.0;  ///< ImGui::GetTime() when it was set
    bool messageOverView_ = true;
    uint64_t messagesSet_ = 0;
    ImVec4 toastRect_{0, 0, 0, 0};  ///< where messageToast drew it (x, y, w, h), or zeros
    app::VideoStatus video_;
    bool showHelp_ = false;
    bool focusPath_ = false;
    std::pair<std::string, std::string> undoButtons_;  // what undo and redo would do, from the last draw
    QuestionPopup question_;
    PanelRequests onYes_;  // what a yes to question_ asks for
    std::optional<PanelRequests> onNo_;  // and a no, when it asks for anything

    FieldDraft fields_;  // the value of the field being edited, until it is committed
    BodyEditor bodyEditor_;
    bool inertiaDraftDirty_ = false;
    BodyId draftBody_;
    EditStatus worldStatus_;
    EditStatus dragStatus_;
    ContactKey picked_;
    bool contactsOfSelectionOnly_ = false;
    bool paused_ = false;  ///< as of this draw
    NextStepContacts nextStep_;  ///< what "Contacts use" and the view's contact points read paused
    float noteScrollY_ = -1.0f;  ///< the Note tab's scroll as last drawn (-1: the Presets tab is in front)
    std::string statsFrameLine_;  ///< the Stats tab's frame line as last drawn
    std::string contactsUse_;  ///< the Body panel's "Contacts use" line, partners named
    BodyId lastPartner_;    ///< the last body lastPartnerOf_ touched
    BodyId lastPartnerOf_;
    StatsHistory stats_;
    ImpactLogTab impactLogTab_;
    PlotsTab plotsTab_;
    DataTab dataTab_;
    MomentaTab momentaTab_;
    bool momentaTabShown_ = false;  ///< the Momenta tab was in front last frame
    RunsTab runsTab_;
    bool hadGhost_ = false;  ///< a ghost was shown last frame: a new one brings the Runs tab forward
    int contactTabToShow_ = -1;  ///< the Contact inspector's tab to bring forward next frame, -1: none
};

}  // namespace impulse::ui
