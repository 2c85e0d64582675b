#include "ui/panels.h"

#include "app/trails.h"
#include "physics/constants.h"

#include "ui/plot.h"
#include "ui/style.h"
#include "ui/widgets.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <utility>

namespace impulse::ui {

namespace {

const ImVec4 kNoticeColor(1.0f, 0.8f, 0.3f, 1.0f);  // the app works around a slow machine
const ImVec4 kSleepColor(0.55f, 0.7f, 1.0f, 1.0f);

std::string bodyLabel(const World& world, BodyId id) {
    if (!id || !world.isValid(id)) return "(none)";
    const Body& b = world.body(id);
    if (!b.name.empty()) return b.name;
    return "#" + std::to_string(id.index);
}

// The column panels stay where the layout puts them: docked panels cannot overlap, so
// the 3D pass's clear of the columns is their background in every layout (see Frame).
constexpr ImGuiWindowFlags kColumnPanel =
    ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse;

void placeWindow(const Rect& rect) {
    ImGui::SetNextWindowPos(ImVec2(rect.x, rect.y), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(rect.w, rect.h), ImGuiCond_Always);
}

// Undo or Redo: greyed when there is nothing to take back or apply again; the
// tooltip says what it would.
void historyButton(const char* label, const std::string& what, const char* keys, bool& pressed) {
    if (what.empty()) ImGui::BeginDisabled();
    if (widgets::Button(label)) pressed = true;
    if (what.empty()) {
        ImGui::EndDisabled();
    } else if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("%s: %s (%s)", label, what.c_str(), keys);
    }
}

/// Pushes the panel's field width: `width`, or less when the column is too narrow to show
/// it beside `longestLabel` (a narrow window): the fields give up width before the labels do.
void pushFieldWidth(float width, const char* longestLabel) {
    const float labelRoom = ImGui::CalcTextSize(longestLabel).x + ImGui::GetStyle().ItemInnerSpacing.x;
    ImGui::PushItemWidth(std::min(width, ImGui::GetContentRegionAvail().x - labelRoom));
}

void statusLine(const EditStatus& status) {
    if (!status.ok()) {
        ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);
        ImGui::TextWrapped("%s", status.error.c_str());
        ImGui::PopStyleColor();
    }
}

}  // namespace

Panels::Panels(std::string presetDir, std::string scenePath)
    : presetDir_(std::move(presetDir)), scenePath_(std::move(scenePath)) {
    refreshPresets();
}

void Panels::refreshPresets() { presets_ = listPresets(presetDir_); }

void Panels::setMessage(const std::string& message, bool isError, bool overView) {
    message_ = message;
    messageIsError_ = isError;
    messageOverView_ = overView || isError;
    ++messagesSet_;
    messageTime_ = ImGui::GetCurrentContext() ? ImGui::GetTime() : 0.0;
}

std::string shortMessage(const std::string& message) {
    // One line of the view's width: the first line, cut at a word near the limit.
    constexpr size_t kLimit = 110;
    std::string line = message.substr(0, message.find('\n'));
    if (line.size() <= kLimit) return line;
    size_t cut = line.rfind(' ', kLimit);
    if (cut == std::string::npos || cut < kLimit / 2) cut = kLimit;
    return line.substr(0, cut) + " ... (hover for all)";
}

const std::vector<std::pair<const char*, const char*>>& Panels::keyList() {
    static const std::vector<std::pair<const char*, const char*>> keys = {
        {"Left drag on a body", "grab it (release throws); paused: move it"},
        {"Left click", "select body / clear selection"},
        {"Gizmo arrow / ring", "move along / turn about a world axis"},
        {"Ctrl while dragging", "snap: 0.1 m grid, 15 degree steps"},
        {"Right drag", "orbit camera"},
        {"Middle drag, Shift+right drag", "pan camera"},
        {"Mouse wheel", "zoom"},
        {"F", "frame selection (all bodies if none)"},
        {"Tab", "hide / show the panels"},
        {"L", "camera follows the selected body (on / off)"},
        {"S", "single step (pauses)"},
        {"R", "reset scene"},
        {"B", "spawn a box where the mouse points"},
        {"N", "spawn a sphere where the mouse points"},
        {"T", "shoot a sphere from the camera"},
        {"Delete or X", "delete the selected body"},
        {"Ctrl+D", "duplicate the selected body"},
        {"Ctrl+Z", "undo the last edit"},
        {"Ctrl+Shift+Z or Ctrl+Y", "redo"},
        {"Ctrl+S", "save to the path field's file"},
        {"Ctrl+O", "type a path to open"},
        {"Space / Shift+Space", "run or pause / play backward"},
        {", and .", "step back / forward (held: 15 steps a second)"},
        {"Home / End", "show the run's first / last recorded step"},
        {"I / O", "set the loop's in / out point at the step shown"},
        {"C", "toggle contact points"},
        {"[ and ]", "slower / faster time"},
        {"F12", "save a screenshot"},
        {"V", "start / stop recording a video of the view"},
        {"H or F1", "show / hide this help"},
        {"Esc", "clear selection (or drop a move being dragged)"},
        {"Ctrl+Q", "quit (asks if there are unsaved edits)"},
    };
    return keys;
}

void Panels::draw(EditTarget& target, app::Observations& observations, const app::Experiment& experiment,
                  SimControls& sim, DebugView& view, const FrameInfo& frame, PanelRequests& requests,
                  bool columnsShown) {
    bodyEditor_.follow(target);
    paused_ = sim.paused;
    undoButtons_ = {target.nextUndo(), target.nextRedo()};
    // The momenta view turned on (a scene's show, --show) brings its tab forward; the
    // switch then follows the tab, so a saved scene keeps it only if it is in front.
    if (view.classroom.momentaDiagram && !momentaTabShown_) contactTabToShow_ = 4;
    const World& world = target.world();
    if (picked_.valid && (!world.isValid(picked_.a) || !world.isValid(picked_.b))) picked_ = ContactKey{};
    if (columnsShown) {
        sceneWindow(sim, frame, requests);
        worldWindow(target, view, frame, requests);
        statsWindow(world, frame, target.selected(), observations.plots, requests);
        plotWindow(world, target.selected(), observations.plots, requests);
        bodyWindow(target, requests);
        contactWindow(target, observations, experiment, requests);
    }
    view.classroom.momentaDiagram = momentaTabShown_;
    messageToast();
    helpWindow();
    confirmationPopup(requests);
}

void Panels::confirm(std::string question, std::string yesLabel, PanelRequests onYes) {
    onYes_ = std::move(onYes);
    onNo_.reset();
    question_.ask(std::move(question), std::move(yesLabel));
}

void Panels::ask(std::string question, std::string yesLabel, PanelRequests onYes, std::string noLabel,
                 PanelRequests onNo, std::string escapeNote) {
    onYes_ = std::move(onYes);
    onNo_ = std::move(onNo);
    question_.ask(std::move(question), std::move(yesLabel), std::move(noLabel), std::move(escapeNote));
}

void Panels::confirmationPopup(PanelRequests& requests) {
    // The popup is modal: nothing else asked for anything this frame.
    switch (question_.draw()) {
        case QuestionPopup::Answer::yes:
            requests = onYes_;
            requests.confirmed = true;
            break;
        case QuestionPopup::Answer::no:
            if (onNo_) requests = *onNo_;
            break;
        case QuestionPopup::Answer::none:
            break;
    }
}

void Panels::sceneWindow(SimControls& sim, const FrameInfo& frame, PanelRequests& requests) {
    placeWindow(layout_.scene);
    if (!ImGui::Begin("Scene", nullptr, kColumnPanel)) {
        ImGui::End();
        return;
    }
    if (widgets::Button(sim.paused ? "Run" : "Pause", ImVec2(60.0f * layout_.textScale, 0.0f))) sim.paused = !sim.paused;
    ImGui::SameLine();
    if (widgets::Button("Step")) {
        sim.paused = true;
        sim.stepOnce = true;
    }
    ImGui::SameLine();
    if (widgets::Button("Reset")) requests.reset = true;
    ImGui::SameLine();
    ImGui::TextColored(kDimColor, "t = %.2f s", static_cast<double>(frame.simTime));
    ImGui::SetNextItemWidth(150.0f * layout_.textScale);
    ImGui::SliderFloat("time scale", &sim.timeScale, 0.05f, 2.0f, "%.2fx", ImGuiSliderFlags_Logarithmic);
    ImGui::SetNextItemWidth(150.0f * layout_.textScale);
    ImGui::SliderInt("max steps/frame", &sim.maxStepsPerFrame, 1, 16);

    if (widgets::Button("Box")) requests.spawnBox = true;
    ImGui::SameLine();
    if (widgets::Button("Sphere")) requests.spawnSphere = true;
    ImGui::SameLine();
    if (widgets::Button("Shoot")) requests.shoot = true;
    ImGui::SameLine();
    if (widgets::Button("Screenshot")) requests.screenshot = true;
    ImGui::SameLine();
    if (video_.recording) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.75f, 0.18f, 0.15f, 1.0f));
    if (widgets::Button(video_.recording ? "Stop" : "Video")) requests.toggleVideo = true;
    if (video_.recording) ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("%s", video_.recording
                                    ? "Stop recording (V); with ffmpeg installed the frames then become an MP4."
                                    : "Record the view (V): a PNG for every 1/60 s of simulated time, so the clip\n"
                                      "plays smoothly however slowly the frames are drawn. Each recording goes\n"
                                      "into a new impulse-lab-video-N folder in your videos folder (~/Videos/\n"
                                      "impulse-lab), and into impulse-lab-video-N.mp4 when ffmpeg is on PATH.");
    }
    if (video_.recording) {
        ImGui::TextColored(kErrorColor, "recording video: %d frames, %.2f s", video_.frames,
                           static_cast<double>(video_.frames) / app::VideoRecorder::kFramesPerSecond);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("into %s", video_.folder.c_str());
    } else if (!video_.message.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, video_.isError ? kErrorColor : kDimColor);
        ImGui::TextWrapped("video: %s", video_.message.c_str());
        ImGui::PopStyleColor();
    }

    ImGui::Separator();
    // The presets and the scene's note share the panel's one list box, so the panel
    // keeps its height; a scene with a note (a classroom preset) opens on it.
    const bool noteShown = tabBar("scene tabs", {"Presets", "Note"}, openNoteTab_ ? 1 : -1) == 1;
    openNoteTab_ = false;
    // A child of its own per tab: the note opens at its top, not scrolled as far as the list was.
    if (ImGui::BeginChild(noteShown ? "note" : "presets", ImVec2(0, 80.0f * layout_.textScale), true)) {
        noteScrollY_ = noteShown ? ImGui::GetScrollY() : -1.0f;
        if (noteShown) {
            if (sceneNote_.empty()) {
                ImGui::PushStyleColor(ImGuiCol_Text, kDimColor);
                ImGui::TextWrapped("This scene has no note (a scene file's \"note\" key).");
                ImGui::PopStyleColor();
            } else {
                ImGui::TextWrapped("%s", sceneNote_.c_str());
            }
        } else {
            for (const std::string& p : presets_) {
                if (widgets::Selectable(p.c_str(), scenePath_ == presetDir_ + "/" + p)) {
                    requests.open = presetDir_ + "/" + p;
                }
                hoverHelp(("in " + presetDir_).c_str());
            }
            if (presets_.empty()) ImGui::TextColored(kDimColor, "no .json files found in %s", presetDir_.c_str());
        }
    }
    ImGui::EndChild();
    ImGui::SetNextItemWidth(-1.0f);
    if (focusPath_) {
        ImGui::SetKeyboardFocusHere();
        focusPath_ = false;
    }
    // Enter in the path opens it, as the Open button does (Ctrl+O then a path then Enter).
    if (widgets::InputText("##path", &scenePath_, ImGuiInputTextFlags_EnterReturnsTrue)) requests.open = scenePath_;
    if (widgets::Button("Open")) requests.open = scenePath_;
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("Open the scene or recording file at the path above (Ctrl+O goes to the path, Enter opens it)");
    }
    ImGui::SameLine();
    if (widgets::Button("Save")) requests.save = scenePath_;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Save the world to the path above (Ctrl+S)");
    ImGui::SameLine();
    if (widgets::Button("Save run")) requests.saveRecording = scenePath_;
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("Save the run since the scene's load or reset (its scene and every drag, edit, spawn,\n"
                          "deletion, undo and redo at its step) as a recording to the path above; Open replays it");
    }
    ImGui::SameLine();
    if (widgets::Button("Rescan")) refreshPresets();
    ImGui::SameLine();
    historyButton("Undo", undoButtons_.first, "Ctrl+Z", requests.undo);
    ImGui::SameLine();
    historyButton("Redo", undoButtons_.second, "Ctrl+Shift+Z, Ctrl+Y", requests.redo);
    if (!message_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, messageIsError_ ? kErrorColor : kOkColor);
        ImGui::TextWrapped("%s", shortMessage(message_).c_str());
        ImGui::PopStyleColor();
        if (ImGui::IsItemHovered() && shortMessage(message_) != message_) ImGui::SetTooltip("%s", message_.c_str());
    }
    ImGui::End();
}

void Panels::messageToast() {
    // The Scene panel's line may be below the fold: the message also shows over the view,
    // an error until the next message, any other for a few seconds.
    constexpr double kNoticeSeconds = 6.0;
    toastRect_ = ImVec4(0, 0, 0, 0);
    if (message_.empty() || !messageOverView_ ||
        (!messageIsError_ && ImGui::GetTime() - messageTime_ > kNoticeSeconds)) {
        return;
    }
    const float margin = 8.0f * layout_.textScale;
    // At the view's foot: its top holds the status bar.
    ImGui::SetNextWindowPos(ImVec2(layout_.view.x + layout_.view.w / 2, layout_.view.bottom() - margin),
                            ImGuiCond_Always, ImVec2(0.5f, 1.0f));
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(std::max(200.0f, layout_.view.w - 2 * margin), FLT_MAX));
    ImGui::SetNextWindowBgAlpha(0.85f);
    constexpr ImGuiWindowFlags kToast = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                        ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                        ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
    if (ImGui::Begin("##message", nullptr, kToast)) {
        const std::string shown = shortMessage(message_);
        ImGui::PushStyleColor(ImGuiCol_Text, messageIsError_ ? kErrorColor : kOkColor);
        ImGui::TextUnformatted(shown.c_str());
        ImGui::PopStyleColor();
        if (ImGui::IsWindowHovered()) {
            ImGui::SetTooltip("%s", shown != message_ ? message_.c_str() : "also in the Scene panel");
        }
        const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
        toastRect_ = ImVec4(pos.x, pos.y, size.x, size.y);
    }
    ImGui::End();
}

void Panels::worldWindow(EditTarget& target, DebugView& view, const FrameInfo& frame, PanelRequests& requests) {
    const World& world = target.world();
    placeWindow(layout_.world);
    if (!ImGui::Begin("World", nullptr, kColumnPanel)) {
        ImGui::End();
        return;
    }
    WorldSettings s = world.settings();
    bool changed = false;
    pushFieldWidth(140.0f * layout_.textScale, "restitution threshold");
    changed |= fields_.edit("gravity", s.gravity, numericDrag(0.05f, "%.2f"));
    hoverHelp("Acceleration of every dynamic body, m/s^2 (y is up).");
    float stepMs = s.timestep * 1000.0f;
    if (fields_.edit("timestep (ms)", stepMs, numericDrag(0.05f))) {
        s.timestep = stepMs / 1000.0f;
        changed = true;
    }
    hoverHelp("Simulated time of one step. Shorter steps are more accurate and cost more per second.");
    changed |= fields_.edit("passes", s.passes, numericDrag(0.05f));
    hoverHelp("Passes per step, each finding contacts afresh and solving them over a part of the step\n"
              "(more are taken while a body spins fast).");
    changed |= fields_.edit("sub-steps", s.subSteps, numericDrag(0.1f));
    hoverHelp("Sub-steps per pass: each applies gravity, solves the contacts' impulses and moves the\n"
              "bodies. More hold tall stacks more stiffly.");
    changed |= fields_.edit("position iterations", s.positionIterations, numericDrag(0.1f));
    hoverHelp("Passes that move overlapping bodies apart (positions only, no velocity), for overlaps\n"
              "the sub-steps left.");
    changed |= fields_.edit("restitution threshold", s.restitutionThreshold, numericDrag(0.01f, "%.2f m/s"));
    hoverHelp("An impact bounces (leaves at e times its arrival speed) only if it arrives faster than\n"
              "this; slower ones just stop, so resting bodies do not jitter.");
    changed |= widgets::Checkbox("warm starting", &s.warmStarting);
    hoverHelp("Start each contact point's impulse from its value in the last step (matched by which\n"
              "faces or edges touch): resting stacks settle in fewer iterations.");
    changed |= widgets::Checkbox("sleeping", &s.sleeping);
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("Bodies resting together for the sleep time stop being stepped (drawn greyed)\n"
                          "until an awake body touches them, the mouse grabs one or an edit changes one.");
    }
    changed |= fields_.edit("sleep speed", s.sleepSpeed, numericDrag(0.001f, "%.3f m/s"));
    hoverHelp("A body counts as resting while no point of it moves faster than this.");
    changed |= fields_.edit("sleep time", s.sleepTime, numericDrag(0.01f, "%.2f s"));
    hoverHelp("How long a group of touching bodies must rest before it sleeps.");
    const char* restitutionRules[] = {"max", "min", "average", "multiply"};
    int r = static_cast<int>(s.restitutionCombine);
    if (widgets::Combo("restitution combine", &r, restitutionRules, 4)) {
        s.restitutionCombine = static_cast<RestitutionCombine>(r);
        changed = true;
    }
    hoverHelp("How a contact's e comes from the two bodies' e: max, min, average or their product.\n"
              "The Body panel shows the result for the selected body's contacts.");
    const char* frictionRules[] = {"geometric", "average", "min", "max"};
    int f = static_cast<int>(s.frictionCombine);
    if (widgets::Combo("friction combine", &f, frictionRules, 4)) {
        s.frictionCombine = static_cast<FrictionCombine>(f);
        changed = true;
    }
    hoverHelp("How a contact's mu and mu_s come from the two bodies' values: geometric mean\n"
              "sqrt(a b), average, min or max. The Body panel shows the result.");
    if (changed) applySettings(target, s, worldStatus_);
    statusLine(worldStatus_);

    if (ImGui::CollapsingHeader("Mouse drag", ImGuiTreeNodeFlags_DefaultOpen)) {
        DragSettings d = target.dragSettings();
        bool dragChanged = false;
        dragChanged |= fields_.edit("frequency (Hz)", d.frequency, numericDrag(0.05f, "%.2f"));
        hoverHelp("Stiffness of the spring that pulls the grabbed point toward the cursor.");
        dragChanged |= fields_.edit("damping ratio", d.dampingRatio, numericDrag(0.01f, "%.2f"));
        hoverHelp("Damping of that spring: 1 is critical (no overshoot), less swings.");
        dragChanged |= fields_.edit("max force (x weight)", d.maxForceInWeights, numericDrag(0.5f, "%.1f"));
        hoverHelp("Cap on the spring's force, in multiples of the body's weight m|g|.");
        if (dragChanged) {
            const Validation refused = target.setDragSettings(d);
            dragStatus_.error = refused ? "refused: " + refused->message() : "";
        }
        statusLine(dragStatus_);
        const DragState& ds = world.drag();
        if (ds.active) {
            ImGui::Text("dragging %s: |F| = %.1f N", bodyLabel(world, ds.body).c_str(),
                        static_cast<double>(glm::length(ds.force)));
        } else {
            ImGui::TextColored(kDimColor, "not dragging (left-drag a body)");
        }
    }
    if (ImGui::CollapsingHeader("Debug layer", ImGuiTreeNodeFlags_DefaultOpen)) {
        widgets::Checkbox("contacts", &view.contacts);
        ImGui::SameLine(110);
        widgets::Checkbox("normals", &view.normals);
        ImGui::SameLine(200);
        widgets::Checkbox("impulses", &view.impulses);
        widgets::Checkbox("AABBs", &view.aabbs);
        ImGui::SameLine(110);
        widgets::Checkbox("COM", &view.centreOfMass);
        ImGui::SameLine(200);
        widgets::Checkbox("principal axes", &view.principalAxes);
        widgets::Checkbox("follow selected body (L)", &view.followSelected);
        ImGui::DragFloat("impulse scale (m/Ns)", &view.impulseScale, 0.01f, 0.001f, 100.0f, "%.3f");
    }
    if (ImGui::CollapsingHeader("Classroom vectors", ImGuiTreeNodeFlags_DefaultOpen)) {
        app::ClassroomView& c = view.classroom;
        // Each vector beside its scale (metres of arrow per unit), the scales lined up
        // after the longest switch at any text scale.
        const float scaleX = ImGui::GetCursorPosX() + ImGui::GetFrameHeight() +
                             ImGui::CalcTextSize("ang. momentum L").x + 3.0f * ImGui::GetStyle().ItemInnerSpacing.x;
        const auto vector = [scaleX](const char* label, bool& on, const char* scaleLabel, float& scale,
                                     const char* help) {
            widgets::Checkbox(label, &on);
            hoverHelp(help);
            ImGui::SameLine(scaleX);
            ImGui::SetNextItemWidth(-FLT_MIN);
            ImGui::DragFloat(scaleLabel, &scale, 0.005f, 0.001f, 10.0f, "%.3f m per unit");
        };
        vector("velocity v", c.velocity, "##v scale", c.velocityScale, "Each dynamic body's velocity (m/s).");
        vector("momentum p", c.momentum, "##p scale", c.momentumScale,
               "Each dynamic body's momentum m v (kg m/s). The impact's dp arrows use the same scale.");
        vector("ang. velocity w", c.angularVelocity, "##w scale", c.angularVelocityScale,
               "Each dynamic body's angular velocity (rad/s, world frame).");
        vector("ang. momentum L", c.angularMomentum, "##L scale", c.angularMomentumScale,
               "Each dynamic body's angular momentum I w about its own centre of mass\n"
               "(kg m^2/s, world frame).");
        widgets::Checkbox("impact dp", &c.impactMomentum);
        hoverHelp("The change of momentum of both bodies of the last impact (the step's strongest),\n"
                  "equal and opposite, for a second of simulated time after it.");
        widgets::Checkbox("system centre of mass", &c.systemCentre);
        hoverHelp("The dynamic bodies' centre of mass, with its velocity at the velocity scale.");
        widgets::Checkbox("trails", &c.trails);
        hoverHelp(
            "The path of each dynamic body's centre of mass over the last seconds\n"
            "of simulated time, fading with age; from the run's record, so a rewind\n"
            "shows the path up to the step shown. Recorded only while shown.");
        ImGui::SameLine(scaleX);
        ImGui::SetNextItemWidth(-FLT_MIN);
        ImGui::SliderFloat("##trail length", &c.trailSeconds, 0.1f, float(app::BodyTrails::kMaxSeconds),
                           "%.1f s long", ImGuiSliderFlags_AlwaysClamp);
        widgets::Checkbox("marked points", &c.markedPoints);
        hoverHelp(
            "The path of a point fixed on each dynamic body's surface (a box's\n"
            "corner), so its spin shows; the point is drawn as a dot.");
        ImGui::PushStyleColor(ImGuiCol_Text, kDimColor);
        ImGui::TextWrapped("values: the selected body's, by the arrow tips");
        ImGui::PopStyleColor();
    }
    if (ImGui::CollapsingHeader("Render", ImGuiTreeNodeFlags_DefaultOpen)) {
        int shadows = static_cast<int>(view.shadows);
        const char* shadowModes[] = {"Auto", "On", "Off"};
        if (widgets::Combo("shadows", &shadows, shadowModes, 3)) view.shadows = static_cast<app::ShadowMode>(shadows);
        hoverHelp("Auto cuts shadows only on the software tier, while the 3D pass (the rasteriser's\n"
                  "time, not the physics) runs over its budget; On and Off are what they say.\n"
                  "Saved with the app's settings.");
        // Auto first, named with the tier GL_RENDERER implies.
        const std::string autoTier = std::string("auto (") + render::tierName(frame.rendererTier) + ")";
        const char* tierChoices[] = {autoTier.c_str(), "software", "standard"};
        int tier = frame.tierChoice ? 1 + static_cast<int>(*frame.tierChoice) : 0;
        if (widgets::Combo("render tier", &tier, tierChoices, 3)) {
            requests.renderTier = tier == 0 ? render::TierChoice{} : render::TierChoice{static_cast<render::RenderTier>(tier - 1)};
        }
        hoverHelp("Standard (GPUs): 4x MSAA, a 2048 shadow map, vsync, GL timer queries.\n"
                  "Software (llvmpipe, softpipe, SwiftShader): no MSAA, a 768 shadow map, and\n"
                  "Auto shadows. --render-tier picks one at start.");
        if (!frame.tierNote.empty()) ImGui::TextWrapped("%s", frame.tierNote.c_str());
    }
    ImGui::PopItemWidth();
    ImGui::End();
}

void Panels::bodyWindow(EditTarget& target, PanelRequests& requests) {
    const World& world = target.world();
    placeWindow(layout_.body);
    if (!ImGui::Begin("Body", nullptr, kColumnPanel)) {
        ImGui::End();
        return;
    }
    const BodyId id = target.selected();
    if (!id) {
        ImGui::TextColored(kDimColor, "Click a body to inspect it.");
        ImGui::End();
        return;
    }
    if (draftBody_ != id) {
        draftBody_ = id;
        inertiaDraftDirty_ = false;
    }
    if (!inertiaDraftDirty_) bodyEditor_.resetDraft(target);

    const Body& body = world.body(id);
    BodyDef def = world.bodyDef(id);
    ImGui::Text("%s", bodyLabel(world, id).c_str());
    ImGui::SameLine();
    ImGui::TextColored(kDimColor, "(index %u)", id.index);
    ImGui::SameLine(ImGui::GetWindowWidth() - 150.0f * layout_.textScale);
    if (widgets::SmallButton("Frame")) requests.frameSelection = true;
    ImGui::SameLine();
    if (widgets::SmallButton("Delete")) requests.deleteSelection = true;
    statusLine(bodyEditor_.status());  // at the top: visible whichever field was refused
    // The fields are this body's: a draft typed for one body never lands on another.
    ImGui::PushID(static_cast<int>(id.index));
    ImGui::PushID(static_cast<int>(id.generation));

    pushFieldWidth(170.0f * layout_.textScale, "orientation (deg)");
    bool isStatic = def.isStatic;
    if (widgets::Checkbox("static", &isStatic)) bodyEditor_.setStatic(target, isStatic);
    if (body.asleep) {
        ImGui::SameLine();
        ImGui::TextColored(kSleepColor, "asleep");
        if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip("Resting: not stepped until touched, grabbed or edited.");
        }
    }

    int shapeType = def.shape.type == ShapeType::Sphere ? 1 : 0;
    const char* shapeNames[] = {"box", "sphere"};
    if (widgets::Combo("shape", &shapeType, shapeNames, 2)) {
        Shape s = def.shape;
        s.type = shapeType == 1 ? ShapeType::Sphere : ShapeType::Box;
        bodyEditor_.setShape(target, s);
    }
    if (def.shape.type == ShapeType::Box) {
        vec3 h = def.shape.halfExtents;
        if (fields_.edit("half extents (m)", h, numericDrag(0.01f))) {
            Shape s = def.shape;
            s.halfExtents = h;
            bodyEditor_.setShape(target, s);
        }
    } else {
        float radius = def.shape.radius;
        if (fields_.edit("radius (m)", radius, numericDrag(0.01f))) {
            Shape s = def.shape;
            s.radius = radius;
            bodyEditor_.setShape(target, s);
        }
    }
    if (!def.isStatic) {
        float mass = def.mass;
        if (fields_.edit("mass (kg)", mass, numericDrag(0.02f))) bodyEditor_.setMass(target, mass);
    }
    float e = def.restitution;
    if (fields_.edit("restitution e", e, numericDrag(0.005f))) bodyEditor_.setRestitution(target, e);
    hoverHelp("Newton's restitution, 0..1: after an impact the bodies separate at e times their\n"
              "approach speed along the normal (0: no bounce, 1: no loss). A contact uses the pair's e,\n"
              "combined with the other body's by the world's rule: see 'Contacts use' below.");
    float mu = def.friction;
    if (fields_.edit("friction mu", mu, numericDrag(0.005f))) bodyEditor_.setFriction(target, mu);
    hoverHelp("Kinetic (sliding) Coulomb friction: while a contact slips, the friction impulse is\n"
              "mu times the normal impulse, against the slip. Combined with the other body's mu.");
    bool hasStatic = def.staticFriction.has_value();
    if (widgets::Checkbox("##mus", &hasStatic)) {
        bodyEditor_.setStaticFriction(target, hasStatic ? std::max(def.friction, body.staticFriction) : -1.0f);
    }
    ImGui::SameLine();
    float mus = body.staticFriction;
    ImGui::SetNextItemWidth(143.0f * layout_.textScale);
    if (!hasStatic) ImGui::BeginDisabled();
    if (fields_.edit("static mu_s", mus, numericDrag(0.005f))) bodyEditor_.setStaticFriction(target, mus);
    if (!hasStatic) ImGui::EndDisabled();
    const char* staticHelp = "Static friction, >= mu: a contact sticks while the impulse that stops its slip is at\n"
                             "most mu_s times the normal impulse; beyond that it slides with mu. Untick the box\n"
                             "to make mu_s follow mu. Combined with the other body's mu_s.";
    hoverHelp(staticHelp, ImGuiHoveredFlags_AllowWhenDisabled);
    effectiveCoefficients(world, id);

    vec3 p = def.position;
    if (fields_.edit("position (m)", p, numericDrag(0.01f, "%.2f"))) bodyEditor_.setPosition(target, p);
    hoverHelp("Centre of mass, m (y is up). The gizmo's arrows in the view move the selected body\n"
              "along x, y and z (Ctrl: on a 0.1 m grid); paused, dragging a body moves it too.\n"
              "A body moved into another is pushed out of it by the next steps.");
    vec3 angles = worldAxisAnglesDegrees(def.orientation);
    if (fields_.edit("orientation (deg)", angles, numericDrag(0.5f, "%.1f"))) {
        bodyEditor_.setOrientation(target, orientationFromWorldAxisAngles(angles));
    }
    hoverHelp("Turns about the world's fixed axes, in degrees: about x first, then about y, then\n"
              "about z (not yaw/pitch/roll of the body's own axes). The gizmo's rings turn the body\n"
              "about one world axis (Ctrl: in 15 degree steps).");
    if (!def.isStatic) {
        vec3 v = def.linearVelocity;
        if (fields_.edit("velocity (m/s)", v, numericDrag(0.02f, "%.2f"))) bodyEditor_.setLinearVelocity(target, v);
        vec3 w = def.angularVelocity;
        if (fields_.edit("ang. vel. (rad/s)", w, numericDrag(0.02f, "%.2f"))) bodyEditor_.setAngularVelocity(target, w);
    }
    ImGui::PopItemWidth();

    if (!def.isStatic && ImGui::CollapsingHeader("Inertia tensor (body frame, kg m^2)", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::TextColored(kDimColor, "%s", body.inertiaOverridden ? "overridden by the user" : "derived from shape and mass");
        mat3& draft = bodyEditor_.inertiaDraft();
        // Rows of the matrix on screen; GLM stores columns, so entry (row, col) is draft[col][row].
        for (int row = 0; row < 3; ++row) {
            for (int col = 0; col < 3; ++col) {
                ImGui::SetNextItemWidth(96.0f * layout_.textScale);
                const auto typed = [](const char* label, float& v) {
                    return ImGui::InputFloat(label, &v, 0.0f, 0.0f, "%.4f");
                };
                // A copy: the field types into its own draft, so the entry changes (and its
                // mirror follows) only on commit, whichever entry was typed before.
                float entry = draft[col][row];
                const std::string label = "##I[" + std::to_string(row) + "][" + std::to_string(col) + "]";
                if (fields_.edit(label.c_str(), entry, typed)) {
                    draft[col][row] = entry;
                    inertiaDraftDirty_ = true;
                    bodyEditor_.mirrorDraftEntry(col, row);
                }
                if (col < 2) ImGui::SameLine();
            }
        }
        const InertiaReport report = analyseInertia(draft);
        if (widgets::Button("Apply tensor")) {
            if (bodyEditor_.applyInertiaDraft(target)) inertiaDraftDirty_ = false;
        }
        ImGui::SameLine();
        if (widgets::Button("Derive from shape")) {
            if (bodyEditor_.useDerivedInertia(target)) inertiaDraftDirty_ = false;
        }
        ImGui::SameLine();
        if (widgets::Button("Revert")) {
            bodyEditor_.resetDraft(target);
            inertiaDraftDirty_ = false;
        }
        // The verdict's lines are reserved whether it shows or not: when its length changed, the
        // panel's content height did, and a panel scrolled to the bottom moved the grid under the cursor.
        const float verdictTop = ImGui::GetCursorPosY();
        if (inertiaDraftDirty_) {
            if (report.problem.empty()) {
                ImGui::TextColored(kOkColor, "draft is physical: press Apply");
            } else {
                ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);
                ImGui::TextWrapped("draft not physical: %s", report.problem.c_str());
                ImGui::PopStyleColor();
            }
        }
        constexpr float kVerdictLines = 3.0f;
        const float verdictUsed = ImGui::GetCursorPosY() - verdictTop;
        const float verdictRoom = kVerdictLines * ImGui::GetTextLineHeightWithSpacing();
        if (verdictUsed < verdictRoom) {
            ImGui::Dummy(ImVec2(0.0f, verdictRoom - verdictUsed - ImGui::GetStyle().ItemSpacing.y));
        }
        ImGui::Text("principal moments  %.4f  %.4f  %.4f", static_cast<double>(report.moments.x),
                    static_cast<double>(report.moments.y), static_cast<double>(report.moments.z));
        for (int k = 0; k < 3; ++k) {
            const vec3 a = report.axes[k];
            ImGui::TextColored(kDimColor, "axis %d  (% .3f, % .3f, % .3f)", k + 1, static_cast<double>(a.x),
                               static_cast<double>(a.y), static_cast<double>(a.z));
        }
    }
    ImGui::PopID();
    ImGui::PopID();
    ImGui::End();
}

void Panels::effectiveCoefficients(const World& world, BodyId id) {
    // What the solver uses is the pair's value, not the one typed above: list each partner's.
    const std::vector<ContactPointInfo>* stale = nextStep_.replacingStale(world, paused_);
    std::vector<BodyId> partners = stale ? std::vector<BodyId>{} : contactPartners(contactsOf(world, id).points, id);
    const char* heading = "Contacts use (touching now):";
    if (partners.empty() && paused_) {
        // Paused, nothing touched in the last step (or no step yet, or an edit since it):
        // what the next step will touch.
        partners = contactPartners(stale ? *stale : nextStep_.of(world), id);
        heading = "Contacts use (next step):";
    }
    if (!partners.empty()) {
        lastPartner_ = partners.front();
        lastPartnerOf_ = id;
    } else if (lastPartnerOf_ == id && world.isValid(lastPartner_)) {
        heading = "Contacts use (last touched):";
        partners.push_back(lastPartner_);
    } else if (const BodyId below = bodyBelow(world, id)) {
        heading = "Contacts use (what lies below):";
        partners.push_back(below);
    }
    contactsUse_ = heading;
    for (size_t k = 0; k < partners.size(); ++k) contactsUse_ += (k ? ", " : " ") + bodyLabel(world, partners[k]);
    if (partners.empty()) {
        contactsUse_ = "Contacts use: nothing touched yet";
        ImGui::TextColored(kDimColor, "%s", contactsUse_.c_str());
        return;
    }
    ImGui::TextColored(kDimColor, "%s", heading);
    hoverHelp("A contact's e, mu and mu_s combine this body's values with the other body's by the\n"
              "World panel's combine rules; these are the values the solver uses (this body's first).");
    // Sleeping piles touch dozens of bodies: the first few say enough.
    constexpr size_t kPartnersShown = 4;
    for (size_t k = 0; k < std::min(partners.size(), kPartnersShown); ++k) {
        const PairCoefficients pair = combinePair(world, id, partners[k]);
        ImGui::Text("with %s", bodyLabel(world, pair.partner).c_str());
        ImGui::SameLine();
        ImGui::TextColored(kDimColor, " %s", pair.restitutionText.c_str());
        ImGui::TextColored(kDimColor, "  %s", pair.frictionText.c_str());
        ImGui::TextColored(kDimColor, "  %s", pair.staticFrictionText.c_str());
    }
    if (partners.size() > kPartnersShown) {
        ImGui::TextColored(kDimColor, "and %d more", static_cast<int>(partners.size() - kPartnersShown));
    }
}

void Panels::pickImpact(const app::ImpactEntry& impact, PanelRequests& requests) {
    picked_ = ContactKey{impact.bodyA, impact.bodyB, impact.featureId, true, impact.point};
    contactTabToShow_ = 0;
    requests.seek = impact.step;
}

void Panels::contactWindow(EditTarget& target, const app::Observations& observations, const app::Experiment& experiment,
                           PanelRequests& requests) {
    const World& world = target.world();
    const BodyId selected = target.selected();
    placeWindow(layout_.contacts);
    if (!ImGui::Begin("Contact inspector", nullptr, kColumnPanel)) {
        ImGui::End();
        return;
    }
    // A new ghost (a change at an earlier step) shows the Runs tab, with the divergence.
    const bool hasGhost = experiment.ghost().has_value();
    if (hasGhost && !hadGhost_) contactTabToShow_ = 2;
    hadGhost_ = hasGhost;
    const int tab = tabBar("contact tabs", {"Contacts", "Impact log", "Runs", "Data", "Momenta"}, contactTabToShow_);
    contactTabToShow_ = -1;
    momentaTabShown_ = tab == 4;
    if (tab == 4) {
        momentaTab_.draw(world, selected, observations.strongestImpacts, layout_.textScale);
        ImGui::End();
        return;
    }
    if (tab == 3) {
        dataTab_.draw(target, fields_, observations.strongestImpacts, layout_.textScale);
        requests.exportData = dataTab_.takeExport();
        ImGui::End();
        return;
    }
    if (tab == 2) {
        requests.ghost = runsTab_.draw(experiment, layout_.textScale);
        ImGui::End();
        return;
    }
    if (tab == 1) {
        if (const app::ImpactEntry* clicked = impactLogTab_.draw(observations.impacts, world.stepCount())) {
            pickImpact(*clicked, requests);
        }
        ImGui::End();
        return;
    }
    // A pile has thousands of contacts: only the rows in view are copied out of the
    // world and laid out; the selected body's list holds just its indices.
    const size_t total = world.contactPointCount();
    const bool selectedOnly = contactsOfSelectionOnly_ && selected;
    const std::vector<size_t> selectedRows = selectedOnly ? world.contactIndicesOf(selected) : std::vector<size_t>{};
    const size_t rowCount = selectedOnly ? selectedRows.size() : total;
    if (rowCount == total) {
        ImGui::Text("%d points", static_cast<int>(total));
    } else {
        ImGui::Text("%d of %d points", static_cast<int>(rowCount), static_cast<int>(total));
    }
    ImGui::SameLine();
    widgets::Checkbox("only selected body", &contactsOfSelectionOnly_);

    int pickedIndex = trackContact(world, picked_);
    if (ImGui::BeginTable("contacts", 5,
                          ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                              ImGuiTableFlags_SizingStretchProp,
                          ImVec2(0.0f, 84.0f * layout_.textScale))) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn("A");
        ImGui::TableSetupColumn("B");
        ImGui::TableSetupColumn("j_n");
        ImGui::TableSetupColumn("v.n");
        ImGui::TableSetupColumn("state");
        ImGui::TableHeadersRow();
        ImGuiListClipper clipper;
        clipper.Begin(static_cast<int>(rowCount));
        while (clipper.Step()) {
            for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
                const size_t i = selectedOnly ? selectedRows[static_cast<size_t>(row)] : static_cast<size_t>(row);
                const ContactPointInfo c = world.contactPoint(i);
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::PushID(static_cast<int>(i));
                const bool isPicked = static_cast<int>(i) == pickedIndex;
                const bool clicked =
                    ImGui::Selectable(bodyLabel(world, c.bodyA).c_str(), isPicked, ImGuiSelectableFlags_SpanAllColumns);
                widgets::noteLastItem(("contact row " + std::to_string(row)).c_str());  // by row: names repeat
                if (clicked) {
                    picked_ = ContactKey{c.bodyA, c.bodyB, c.featureId, true, c.point};
                    pickedIndex = static_cast<int>(i);
                }
                ImGui::PopID();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(bodyLabel(world, c.bodyB).c_str());
                ImGui::TableNextColumn();
                ImGui::Text("%.3f", static_cast<double>(c.normalImpulse));
                ImGui::TableNextColumn();
                ImGui::Text("%.2f", static_cast<double>(c.normalVelocityBefore));
                ImGui::TableNextColumn();
                ImGui::TextColored(c.sticking ? kOkColor : ImVec4(1.0f, 0.7f, 0.3f, 1.0f), "%s",
                                   c.sticking ? "stick" : "slip");
            }
        }
        ImGui::EndTable();
    }

    if (pickedIndex < 0) {
        ImGui::TextColored(kDimColor, picked_.valid ? "The picked contact has ended." : "Pick a row to see its impulse terms.");
        ImGui::End();
        return;
    }
    const ContactPointInfo c = world.contactPoint(static_cast<size_t>(pickedIndex));
    ImGui::Text("%s -> %s", bodyLabel(world, c.bodyA).c_str(), bodyLabel(world, c.bodyB).c_str());
    if (c.warmStarted) {
        ImGui::SameLine();
        ImGui::TextColored(kDimColor, "(continues last step's point)");
        hoverHelp("The same faces or edges touch as in the last step, so this point's impulses\n"
                  "started from the last step's (warm starting).");
    }
    // The impact's own impulses (the step totals below add the resting solve's), on top where it shows.
    if (c.impactNormalImpulse > 0.0f) {
        const ImVec4 color = c.impactSticking ? kOkColor : ImVec4(1.0f, 0.7f, 0.3f, 1.0f);
        ImGui::TextColored(color, "IMPACT j_n %.4f  |j_t| %.4f N s", static_cast<double>(c.impactNormalImpulse),
                           static_cast<double>(glm::length(c.impactFrictionImpulse)));
        ImGui::TextColored(color, "%s", c.impactSticking ? "  friction sticks: |j_t| <= mu_s j_n"
                                                         : "  friction slides: |j_t| = mu j_n");
    }
    ImGui::TextColored(kDimColor, "j = -(v_rel.n - target) / k_n");
    ImGui::TextColored(kDimColor, "k_n = 1/m_A + 1/m_B + ang_A + ang_B");
    ImGui::TextColored(kDimColor, "ang_X = n.[(I_X^-1 (r_X x n)) x r_X]");
    const float kn = c.normalMass > 0.0f ? 1.0f / c.normalMass : 0.0f;
    if (ImGui::BeginTable("terms", 4, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) {
        auto cell = [](const char* label, const char* fmt, double value) {
            ImGui::TableNextColumn();
            ImGui::TextColored(kDimColor, "%s", label);
            ImGui::TableNextColumn();
            ImGui::Text(fmt, value);
        };
        cell("v_rel.n", "%.4f", static_cast<double>(c.normalVelocityBefore));
        cell("after", "%.4f", static_cast<double>(c.normalVelocityAfter));
        cell("target", "%.4f", static_cast<double>(c.targetNormalVelocity));
        cell("sep. (m)", "%.4f", static_cast<double>(c.separation));
        cell("1/m_A", "%.4f", static_cast<double>(c.inverseMassA));
        cell("1/m_B", "%.4f", static_cast<double>(c.inverseMassB));
        cell("ang_A", "%.4f", static_cast<double>(c.angularTermA));
        cell("ang_B", "%.4f", static_cast<double>(c.angularTermB));
        cell("k_n", "%.4f", static_cast<double>(kn));
        cell("1/k_n (kg)", "%.4f", static_cast<double>(c.normalMass));
        cell("j_n (N s)", "%.5f", static_cast<double>(c.normalImpulse));
        hoverHelp("Normal impulse of the whole step at this point.");
        // The step's impulse over its duration: what a force gauge under the point would read on average.
        cell("j_n/dt (N)", "%.3f", static_cast<double>(c.normalImpulse / world.settings().timestep));
        cell("|j_t| (N s)", "%.5f", static_cast<double>(glm::length(c.frictionImpulse)));
        cell("|j_t|/dt (N)", "%.3f", static_cast<double>(glm::length(c.frictionImpulse) / world.settings().timestep));
        cell("mu j_n", "%.5f", static_cast<double>(c.frictionBound));
        cell("e", "%.3f", static_cast<double>(c.restitution));
        hoverHelp("The pair's restitution: both bodies' e combined by the world's rule.");
        cell("mu", "%.3f", static_cast<double>(c.friction));
        hoverHelp("The pair's kinetic friction (while slipping): both bodies' mu combined by the world's rule.");
        cell("mu_s", "%.3f", static_cast<double>(c.staticFriction));
        hoverHelp("The pair's static friction (to stick): both bodies' mu_s combined by the world's rule.");
        ImGui::EndTable();
    }
    ImGui::TextColored(c.sticking ? kOkColor : ImVec4(1.0f, 0.7f, 0.3f, 1.0f), "%s",
                       c.sticking ? "STICKS: |j_t| < mu j_n (inside the cone)"
                                  : "SLIPS: |j_t| = mu j_n (on the cone)");
    ImGui::End();
}

void Panels::plotsContent(const World& world, BodyId selected, app::PlotSamples& plots, PanelRequests& requests) {
    if (const std::optional<uint64_t> step = plotsTab_.draw(world, selected, plots, world.stepCount(), layout_.textScale)) {
        requests.seek = step;
    }
    if (std::optional<PlotsTab::Export> file = plotsTab_.takeExport()) {
        (file->wholeRun ? requests.exportRun : requests.exportPlots) = std::move(file->path);
    }
}

void Panels::plotWindow(const World& world, BodyId selected, app::PlotSamples& plots, PanelRequests& requests) {
    if (!plotsTab_.inOwnWindow()) return;
    // Over most of the view when it opens; it moves and resizes like any window.
    const Rect& v = layout_.view;
    ImGui::SetNextWindowPos(ImVec2(v.x + 0.04f * v.w, v.y + 0.06f * v.h), ImGuiCond_Appearing);
    ImGui::SetNextWindowSize(ImVec2(0.92f * v.w, 0.72f * v.h), ImGuiCond_Appearing);
    ImGui::SetNextWindowBgAlpha(1.0f);  // opaque: the scene and the gizmo do not show through the curves
    bool open = true;
    if (ImGui::Begin("Plot", &open, ImGuiWindowFlags_NoCollapse)) plotsContent(world, selected, plots, requests);
    ImGui::End();
    if (!open) plotsTab_.setInOwnWindow(false);
}

void Panels::statsWindow(const World& world, const FrameInfo& frame, BodyId selected, app::PlotSamples& plots,
                         PanelRequests& requests) {
    placeWindow(layout_.stats);
    if (!ImGui::Begin("Stats", nullptr, kColumnPanel)) {
        ImGui::End();
        return;
    }
    if (tabBar("stats tabs", {"Stats", "Plots"}) == 1) {
        if (plotsTab_.inOwnWindow()) {
            ImGui::TextColored(kDimColor, "The plot is in its own window.");
            if (widgets::Button("back into this tab")) plotsTab_.setInOwnWindow(false);
        } else {
            plotsContent(world, selected, plots, requests);
        }
        ImGui::End();
        return;
    }
    const StatsHistory::Sample& s = stats_.latest();
    const StepStats& st = world.stats();
    // Waiting for input, the time between frames is the wait, not a frame rate.
    char frameLine[96];
    if (frame.waitedForInput) {
        std::snprintf(frameLine, sizeof frameLine, "paused  swap %.1f ms", static_cast<double>(frame.presentMs));
    } else {
        std::snprintf(frameLine, sizeof frameLine, "frame %.1f ms (%.0f fps)  swap %.1f ms",
                      static_cast<double>(frame.frameMs),
                      frame.frameMs > 0.0f ? 1000.0 / static_cast<double>(frame.frameMs) : 0.0,
                      static_cast<double>(frame.presentMs));
    }
    statsFrameLine_ = frameLine;
    ImGui::TextUnformatted(frameLine);
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("Per frame, smoothed. Render and UI include the wait for the GL work.\n"
                          "One physics step: %.2f ms", static_cast<double>(frame.stepMs));
    }
    if (frame.timerQueries) {
        // The CPU's times, and the GL's own by timer queries (a few frames late): the
        // frame does not wait for the GPU.
        ImGui::Text("render %.1f (GL %.1f)  UI %.1f (GL %.1f) ms", static_cast<double>(frame.renderMs),
                    static_cast<double>(frame.render3dMs), static_cast<double>(frame.uiMs),
                    static_cast<double>(frame.uiGlMs));
    } else {
        ImGui::Text("render %.1f  UI %.1f ms", static_cast<double>(frame.renderMs), static_cast<double>(frame.uiMs));
    }
    if (!frame.glRenderer.empty()) {
        ImGui::TextDisabled("GL: %s", frame.glRenderer.c_str());
        if (frame.msaaSamples > 0) {
            ImGui::Text("%s tier, %dx MSAA (%s)", render::tierName(frame.renderTier), frame.msaaSamples,
                        frame.tierChoice ? "chosen" : "GL_RENDERER");
        } else {
            ImGui::Text("%s tier (%s)", render::tierName(frame.renderTier), frame.tierChoice ? "chosen" : "GL_RENDERER");
        }
        if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip("The render tier: chosen with --render-tier or in World > Render, else from\n"
                              "GL_RENDERER (llvmpipe, softpipe, SwiftShader: software; else standard).");
        }
    }
    ImGui::Text("physics %.1f ms (x%d)", static_cast<double>(frame.physicsMs), frame.stepsThisFrame);
    if (!frame.shadows.empty()) {
        if (frame.shadowsCut) {
            ImGui::TextColored(kNoticeColor, "%s", frame.shadows.c_str());
        } else {
            ImGui::TextUnformatted(frame.shadows.c_str());
        }
        if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip("World > Render > shadows: On, Off or Auto. Auto cuts them only on the\n"
                              "software tier, while the 3D pass (the rasteriser's time, not physics)\n"
                              "runs over its %.0f ms budget: bodies stop receiving shadows, then they\n"
                              "go off. 3D pass now: %.1f ms.",
                              app::AutoShadows::kRenderBudgetMs, static_cast<double>(frame.render3dMs));
        }
    }
    // Two lines: with a thousand bodies one line was wider than the panel.
    if (world.settings().sleeping || st.sleepingBodies > 0) {
        ImGui::Text("bodies %d (%d asleep)  pairs %d", world.bodyCount(), st.sleepingBodies,
                    st.candidatePairs);
    } else {
        ImGui::Text("bodies %d  pairs %d", world.bodyCount(), st.candidatePairs);
    }
    ImGui::Text("manifolds %d  contact points %d", st.manifolds, st.contactPoints);
    if (st.bodiesInExtraPasses > 0) {
        ImGui::Text("fast spin: %d bodies take %d passes", st.bodiesInExtraPasses, st.mostPasses);
        if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip("A body turning more than 0.5 rad a pass, or whose corners a spin gained in a pass\n"
                              "swings 4 cm past the contacts found for it, and what it may reach in the step,\n"
                              "take more collide-and-solve passes than the world's (docs/physics.md, Fast spin).");
        }
    }
    if (world.spinClampCount() > 0) {
        ImGui::TextColored(kNoticeColor, "spin clamped: %d bodies this step, %llu in all", st.spinClampedBodies,
                           static_cast<unsigned long long>(world.spinClampCount()));
        if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip("A body's spin is held to %.0f m/s at its farthest point from its centre;\n"
                              "'in all' counts the bodies clamped, step by step, since the scene started.",
                              static_cast<double>(kMaxSurfaceSpeed));
        }
    }
    if (st.sleepingContactPoints > 0) {
        // The Contact inspector lists these too: say why they are not counted above.
        ImGui::Text("kept asleep, unsolved: %d contact points", st.sleepingContactPoints);
    }
    ImGui::Text("E = KE %.2f + PE %.2f = %.2f J", static_cast<double>(s.kinetic), static_cast<double>(s.potential),
                static_cast<double>(s.total));
    ImGui::Text("|p| %.3f kg m/s  |L| %.3f kg m^2/s", static_cast<double>(s.linearMomentum),
                static_cast<double>(s.angularMomentum));
    const float avail = ImGui::GetContentRegionAvail().y;
    const float h = std::max(30.0f, (avail - 6.0f) * 0.5f);
    const ImU32 energyColors[] = {IM_COL32(255, 200, 80, 255), IM_COL32(120, 200, 255, 255),
                                  IM_COL32(240, 240, 240, 255)};
    multiPlot("energy",
              {{"KE", stats_.series(&StatsHistory::Sample::kinetic)},
               {"PE", stats_.series(&StatsHistory::Sample::potential)},
               {"E", stats_.series(&StatsHistory::Sample::total)}},
              energyColors, h);
    const ImU32 momentumColors[] = {IM_COL32(140, 230, 140, 255), IM_COL32(230, 140, 230, 255)};
    multiPlot("momentum",
              {{"|p|", stats_.series(&StatsHistory::Sample::linearMomentum)},
               {"|L|", stats_.series(&StatsHistory::Sample::angularMomentum)}},
              momentumColors, h);
    ImGui::End();
}

void Panels::helpWindow() {
    if (!showHelp_) return;
    const Rect& view = layout_.view;
    ImGui::SetNextWindowPos(ImVec2(view.x + 0.5f * view.w, view.y + 0.5f * view.h), ImGuiCond_Appearing,
                            ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(560.0f * layout_.textScale, 0.0f), ImGuiCond_Appearing);
    // Help may be moved over the columns: it draws its own background, in order, so
    // the panels under it do not show through (the columns' clear is behind them all).
    ImGui::SetNextWindowBgAlpha(1.0f);
    if (ImGui::Begin("Help", &showHelp_)) {
        if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg)) {
            ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed, 220.0f * layout_.textScale);
            ImGui::TableSetupColumn("action", ImGuiTableColumnFlags_WidthStretch);
            for (const auto& [key, action] : keyList()) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.5f, 1.0f), "%s", key);
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(action);
            }
            ImGui::EndTable();
        }
        ImGui::TextWrapped("Click a row of the Contact inspector to see every term of the impulse formula live.");
    }
    ImGui::End();
}

}  // namespace impulse::ui
