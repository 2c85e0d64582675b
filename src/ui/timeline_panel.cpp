#include "ui/timeline_panel.h"

#include "ui/ghost_tint.h"
#include "ui/panels.h"
#include "ui/style.h"
#include "ui/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace impulse::ui {

namespace {

const ImU32 kStripColor = IM_COL32(28, 32, 40, 255);
const ImU32 kRecordedColor = IM_COL32(52, 62, 80, 255);
const ImU32 kKeyframeColor = IM_COL32(120, 128, 140, 255);
const ImU32 kInputColor = IM_COL32(255, 170, 60, 255);
const ImU32 kImpactColor = IM_COL32(90, 200, 255, 255);
const ImU32 kLoopColor = IM_COL32(120, 220, 120, 60);
const ImU32 kLoopEdgeColor = IM_COL32(120, 220, 120, 255);
const ImU32 kCursorColor = IM_COL32(255, 255, 255, 255);
const ImU32 kGhostColor = ImGui::ColorConvertFloat4ToU32(ImVec4(kGhostTint.r, kGhostTint.g, kGhostTint.b, 1.0f));

// Marks within this many pixels of the mouse are named in the strip's tooltip.
constexpr float kHoverReach = 3.0f;
constexpr int kMostNamed = 8;

double mib(size_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

// A button that reports being held (pressed this frame or still down).
bool heldButton(const char* label, const char* help) {
    widgets::Button(label);
    const bool held = ImGui::IsItemActive();
    hoverHelp(help);
    return held;
}

}  // namespace

void TimelinePanel::draw(const app::Experiment& experiment, const Rect& rect, float textScale, SimControls& sim,
                         TimelineControls& controls, TimelineRequests& requests, PanelRequests& panelRequests) {
    ImGui::SetNextWindowPos(ImVec2(rect.x, rect.y), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(rect.w, rect.h), ImGuiCond_Always);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(6.0f * textScale, 5.0f * textScale));
    const bool open = ImGui::Begin("Timeline", nullptr,
                                   ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                       ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    ImGui::PopStyleVar();
    if (!open) {
        ImGui::End();
        return;
    }
    const uint64_t start = experiment.runStart(), end = experiment.runEnd(), shown = experiment.shownStep();
    const bool playingBack = !sim.paused && controls.backward, playingOn = !sim.paused && !controls.backward;

    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(3.0f * textScale, 3.0f * textScale));
    if (widgets::Button("|<")) panelRequests.seek = start;
    hoverHelp("Jump to the run's first step (Home)");
    ImGui::SameLine();
    requests.stepBackHeld = heldButton("<", "One step back (,); held: 15 steps a second");
    ImGui::SameLine();
    if (playingBack ? widgets::Button("||##back") : widgets::ArrowButton("##playback", ImGuiDir_Left)) {
        sim.paused = playingBack;
        controls.backward = true;
    }
    hoverHelp(playingBack ? "Pause (Space)" : "Play backward (Shift+Space)");
    ImGui::SameLine();
    if (playingOn ? widgets::Button("||##on") : widgets::ArrowButton("##play", ImGuiDir_Right)) {
        sim.paused = playingOn;
        controls.backward = false;
    }
    hoverHelp(playingOn ? "Pause (Space)" : "Play (Space): replays the recorded run, then runs on and records");
    ImGui::SameLine();
    requests.stepForwardHeld = heldButton(">", "One step forward (.); held: 15 steps a second");
    ImGui::SameLine();
    if (widgets::Button(">|")) panelRequests.seek = end;
    hoverHelp("Jump to the run's last recorded step (End)");
    ImGui::SameLine(0.0f, 10.0f * textScale);
    if (widgets::Button("in")) controls.loopIn = shown;
    hoverHelp("Set the loop's in point at this step (I)");
    ImGui::SameLine();
    if (widgets::Button("out")) controls.loopOut = shown;
    hoverHelp("Set the loop's out point at this step (O)");
    const std::optional<app::LoopRange> loop = controls.loop();
    if (controls.loopIn || controls.loopOut) {
        ImGui::SameLine();
        if (widgets::Button("x")) controls.loopIn = controls.loopOut = std::nullopt;
        if (ImGui::IsItemHovered()) {
            if (loop) {
                ImGui::SetTooltip("Looping steps %llu to %llu: click to stop looping",
                                  static_cast<unsigned long long>(loop->in), static_cast<unsigned long long>(loop->out));
            } else {
                ImGui::SetTooltip("Set both points, at different steps, to loop; click to clear them");
            }
        }
    }
    ImGui::SameLine(0.0f, 10.0f * textScale);
    ImGui::Text("%.3f s  step %llu/%llu", experiment.simulatedTime(), static_cast<unsigned long long>(shown),
                static_cast<unsigned long long>(end));
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("The step shown of the run's recorded steps %llu to %llu%s",
                          static_cast<unsigned long long>(start), static_cast<unsigned long long>(end),
                          shown < end ? ".\nAn edit here continues the run from this step as a new one;\n"
                                        "the run it replaces stays as the ghost."
                                      : "");
    }
    // The history's size: a button that opens its budget.
    const app::RunHistory& history = experiment.runHistory();
    const double seconds = static_cast<double>(end - start) * static_cast<double>(experiment.world().settings().timestep);
    char label[96];
    std::snprintf(label, sizeof label, "%.1f s of history, %.0f MiB###history", seconds,
                  mib(experiment.historyBytes()));
    ImGui::SameLine(0.0f, 10.0f * textScale);
    if (widgets::SmallButton(label)) {
        budgetMiB_ = static_cast<int>(history.budget() >> 20);
        budgetError_.clear();
        ImGui::OpenPopup("history budget");
    }
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("Keyframes %zu, one every %llu steps at most; budget %.0f MiB. Click to change the budget.",
                          history.keyframes().size(), static_cast<unsigned long long>(history.spacing()),
                          mib(history.budget()));
    }
    historyPopup(experiment, requests);
    ImGui::PopStyleVar();

    const app::StepScale scale{start, end, ImGui::GetCursorScreenPos().x, ImGui::GetContentRegionAvail().x};
    drawStrip(experiment, scale, controls, std::max(ImGui::GetContentRegionAvail().y, 8.0f), panelRequests);
    ImGui::End();
}

void TimelinePanel::historyPopup(const app::Experiment& experiment, TimelineRequests& requests) {
    if (!ImGui::BeginPopup("history budget")) return;
    ImGui::Text("Every step of the run is kept: keyframes, and the steps between them run again.");
    ImGui::Text("The budget bounds the history's memory (keyframes, inputs, previous runs);");
    ImGui::Text("when full, every other keyframe goes.");
    ImGui::SetNextItemWidth(120.0f);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();  // type the budget at once
    const bool entered = ImGui::InputInt("history budget (MiB)", &budgetMiB_, 16, 256,
                                         ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if (widgets::Button("Apply") || entered) {
        size_t bytes = 0;
        if (const Validation refused = app::historyBudgetBytes(budgetMiB_, bytes)) {
            budgetError_ = refused->message() + " (kept " +
                           std::to_string(experiment.runHistory().budget() >> 20) + " MiB)";
        } else {
            requests.historyBudget = bytes;
            budgetError_.clear();
            ImGui::CloseCurrentPopup();
        }
    }
    if (!budgetError_.empty()) ImGui::TextColored(kErrorColor, "%s", budgetError_.c_str());
    ImGui::EndPopup();
}

void TimelinePanel::drawStrip(const app::Experiment& experiment, const app::StepScale& scale,
                              const TimelineControls& controls, float height, PanelRequests& requests) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const ImVec2 p1(p0.x + scale.width, p0.y + height);
    strip_ = Rect{p0.x, p0.y, scale.width, height};
    ImGui::InvisibleButton("##strip", ImVec2(std::max(scale.width, 1.0f), height));
    const bool hovered = ImGui::IsItemHovered(), held = ImGui::IsItemActive();
    dl->AddRectFilled(p0, p1, kStripColor, 3.0f);
    // The recorded range fills the strip: [runStart, runEnd].
    dl->AddRectFilled(ImVec2(p0.x, p0.y + 2.0f), ImVec2(p1.x, p1.y - 2.0f), kRecordedColor, 2.0f);
    const auto x = [&](uint64_t step) { return std::round(scale.xOf(step)); };
    if (const std::optional<app::LoopRange> loop = controls.loop()) {
        dl->AddRectFilled(ImVec2(x(loop->in), p0.y), ImVec2(x(loop->out) + 1.0f, p1.y), kLoopColor);
    }
    for (const std::optional<uint64_t>& point : {controls.loopIn, controls.loopOut}) {
        if (point) dl->AddLine(ImVec2(x(*point) + 0.5f, p0.y), ImVec2(x(*point) + 0.5f, p1.y), kLoopEdgeColor, 1.0f);
    }
    // Each mark once per pixel column: a long run has more steps than the strip has pixels.
    const auto ticks = [&](auto steps, float top, float bottom, ImU32 color, float thickness) {
        float last = -1.0f;
        for (uint64_t step : steps) {
            const float px = x(step) + 0.5f;
            if (px == last) continue;
            last = px;
            dl->AddLine(ImVec2(px, top), ImVec2(px, bottom), color, thickness);
        }
    };
    const float h = height;
    // The ghost's steps along the top edge, from where this run left it (as far as this run goes).
    const app::Run* ghost = experiment.ghost() ? &experiment.previousRuns()[*experiment.ghost()] : nullptr;
    if (ghost) {
        dl->AddRectFilled(ImVec2(x(ghost->start()), p0.y), ImVec2(x(ghost->end) + 1.0f, p0.y + 3.0f), kGhostColor);
        dl->AddLine(ImVec2(x(ghost->leftAt) + 0.5f, p0.y), ImVec2(x(ghost->leftAt) + 0.5f, p1.y), kGhostColor, 1.0f);
    }
    std::vector<uint64_t> keyframes, inputs, impacts;
    for (const app::RunHistory::Keyframe& k : experiment.runHistory().keyframes()) keyframes.push_back(k.world->stepCount());
    for (const app::LoggedInput& in : experiment.runInputs()) {
        if (!std::holds_alternative<app::DragTargetInput>(in.input)) inputs.push_back(in.step);
    }
    for (const app::ImpactEntry& e : experiment.observations().impacts.entries()) impacts.push_back(e.step);
    ticks(keyframes, p1.y - 0.3f * h, p1.y - 2.0f, kKeyframeColor, 1.0f);
    ticks(impacts, p0.y + 0.3f * h, p1.y - 0.3f * h, kImpactColor, 1.0f);
    ticks(inputs, p0.y + 1.0f, p0.y + 0.45f * h, kInputColor, 2.0f);
    const float cursor = x(experiment.shownStep()) + 0.5f;
    dl->AddLine(ImVec2(cursor, p0.y), ImVec2(cursor, p1.y), kCursorColor, 2.0f);
    dl->AddTriangleFilled(ImVec2(cursor - 4.0f, p0.y), ImVec2(cursor + 4.0f, p0.y), ImVec2(cursor, p0.y + 5.0f),
                          kCursorColor);

    const float mouseX = ImGui::GetIO().MousePos.x;
    if (held) {
        const uint64_t step = scale.stepAt(mouseX);
        if (step != scrubbedTo_) requests.seek = step;
        scrubbedTo_ = step;
    } else {
        scrubbedTo_ = std::nullopt;
    }
    if (!hovered || held) return;
    // Tooltip: the step under the mouse, and the marks within reach of it.
    const uint64_t step = scale.stepAt(mouseX);
    const double dt = static_cast<double>(experiment.world().settings().timestep);
    ImGui::BeginTooltip();
    ImGui::Text("step %llu (t ~ %.3f s): click or drag to show it", static_cast<unsigned long long>(step),
                static_cast<double>(step) * dt);
    int named = 0;
    const auto near = [&](uint64_t s) { return std::fabs(scale.xOf(s) - mouseX) <= kHoverReach; };
    for (const app::LoggedInput& in : experiment.runInputs()) {
        if (std::holds_alternative<app::DragTargetInput>(in.input) || !near(in.step)) continue;
        if (named++ < kMostNamed) {
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kInputColor), "step %llu: %s",
                               static_cast<unsigned long long>(in.step), app::describe(in).c_str());
        }
    }
    for (const app::ImpactEntry& e : experiment.observations().impacts.entries()) {
        if (!near(e.step)) continue;
        if (named++ < kMostNamed) {
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kImpactColor), "step %llu: impact %s / %s at %.2f m/s",
                               static_cast<unsigned long long>(e.step), e.nameA.c_str(), e.nameB.c_str(),
                               static_cast<double>(e.approachSpeed));
        }
    }
    if (named > kMostNamed) ImGui::TextColored(kDimColor, "and %d more", named - kMostNamed);
    ImGui::TextColored(kDimColor, "orange: inputs (edits, drags, undo), blue: impacts, grey: keyframes");
    if (ghost) {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kGhostColor),
                           "cyan: the ghost's steps %llu-%llu; it went its own way at step %llu",
                           static_cast<unsigned long long>(ghost->start()), static_cast<unsigned long long>(ghost->end),
                           static_cast<unsigned long long>(ghost->leftAt));
    }
    ImGui::EndTooltip();
}

}  // namespace impulse::ui
