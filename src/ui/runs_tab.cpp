#include "ui/runs_tab.h"

#include "ui/ghost_tint.h"

#include "ui/plot.h"
#include "ui/style.h"
#include "ui/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace impulse::ui {

namespace {

const ImVec4 kGhostColor(kGhostTint.r, kGhostTint.g, kGhostTint.b, 1.0f);
// Most points the divergence plot draws: the steps shown are thinned to these.
constexpr size_t kPlotPoints = 400;

std::string bodyName(const World& world, BodyId id) {
    return world.isValid(id) ? world.body(id).name : std::string("-");
}

// The worst distance (m) and angle (degrees) at each step of the series, the steps
// spread evenly and thinned to kPlotPoints slots (the larger value of each slot);
// steps not shown are gaps.
std::pair<std::vector<float>, std::vector<float>> worstOverSteps(const std::vector<app::Divergence>& series) {
    const uint64_t first = series.front().step, last = series.back().step;
    const uint64_t stride = std::max<uint64_t>(1, (last - first + kPlotPoints) / kPlotPoints);
    const size_t slots = static_cast<size_t>((last - first) / stride + 1);
    std::vector<float> distance(slots, std::numeric_limits<float>::quiet_NaN()), angle = distance;
    for (const app::Divergence& d : series) {
        const size_t slot = static_cast<size_t>((d.step - first) / stride);
        distance[slot] = std::isnan(distance[slot]) ? d.farthest.distance : std::max(distance[slot], d.farthest.distance);
        const float degrees = glm::degrees(d.mostTurned.angle);
        angle[slot] = std::isnan(angle[slot]) ? degrees : std::max(angle[slot], degrees);
    }
    return {std::move(distance), std::move(angle)};
}

}  // namespace

GhostRequest RunsTab::draw(const app::Experiment& experiment, float textScale) {
    GhostRequest request;
    const World& world = experiment.world();
    const double dt = static_cast<double>(world.settings().timestep);
    const std::vector<app::Run>& runs = experiment.previousRuns();
    const std::optional<size_t> ghost = experiment.ghost();
    ImGui::Text("this run: steps %llu-%llu, shown %llu (%.2f s)",
                static_cast<unsigned long long>(experiment.runStart()),
                static_cast<unsigned long long>(experiment.runEnd()),
                static_cast<unsigned long long>(experiment.shownStep()), experiment.simulatedTime());
    if (runs.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, kDimColor);
        ImGui::TextWrapped("No other run yet. Go back to an earlier step on the timeline and change anything "
                           "(a coefficient, a pose, a drag): the run goes on from there as a new one, and the "
                           "old one is kept as the ghost, drawn see-through beside it.");
        ImGui::PopStyleColor();
        return request;
    }

    // The kept runs, newest first; the radio buttons pick the ghost, or none.
    ImGui::TextColored(kDimColor, "kept runs (the last %d):", static_cast<int>(app::Experiment::kPreviousRunsKept));
    hoverHelp("Each run that a change at an earlier step replaced, newest first. 'left at' is the\n"
              "step where it and the current run go their own ways.");
    for (size_t k = runs.size(); k-- > 0;) {
        const app::Run& run = runs[k];
        ImGui::PushID(static_cast<int>(k));
        char label[96];
        const int back = static_cast<int>(runs.size() - k);
        std::snprintf(label, sizeof label, "%d run%s back: left at step %llu, steps %llu-%llu", back,
                      back == 1 ? "" : "s",
                      static_cast<unsigned long long>(run.leftAt), static_cast<unsigned long long>(run.start()),
                      static_cast<unsigned long long>(run.end));
        if (widgets::RadioButton(label, ghost == k)) {
            request.choose = true;
            request.ghost = k;
        }
        if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip("Show this run as the ghost. It and the current run go their own ways at\n"
                              "step %llu (t %.2f s at the current timestep).",
                              static_cast<unsigned long long>(run.leftAt), static_cast<double>(run.leftAt) * dt);
        }
        ImGui::PopID();
    }
    if (widgets::RadioButton("no ghost", !ghost)) request.choose = true;
    hoverHelp("Hide the ghost (the runs are still kept).");
    if (!ghost) return request;
    ImGui::SameLine();
    if (widgets::Button("make it the current run")) request.promote = true;
    hoverHelp("The ghost becomes the run shown and played (at the same step), and this run the ghost.");

    // How far apart: the worst body now, then every body, farthest first.
    const app::Divergence worst = experiment.worstDivergence();
    ImGui::TextColored(kGhostColor, "ghost");
    ImGui::SameLine();
    ImGui::Text("farthest: %s %.3f m", bodyName(world, worst.farthest.body).c_str(),
                static_cast<double>(worst.farthest.distance));
    ImGui::TextColored(kGhostColor, "ghost");
    ImGui::SameLine();
    ImGui::Text("most turned: %s %.1f deg", bodyName(world, worst.mostTurned.body).c_str(),
                static_cast<double>(glm::degrees(worst.mostTurned.angle)));
    hoverHelp("At the step shown, between each body and the same body in the ghost run: the distance\n"
              "between their centres of mass and the angle of the turn from one orientation to the other.");

    const std::vector<app::Divergence>& series = experiment.divergenceSeries();
    if (series.size() >= 2) {
        auto [distance, angle] = worstOverSteps(series);
        const int slots = static_cast<int>(distance.size());
        const float plotHeight = 44.0f * textScale;
        const ImU32 distanceColor = IM_COL32(255, 200, 80, 255), angleColor = IM_COL32(140, 230, 255, 255);
        multiPlot("##worst distance", {{"worst distance (m)", std::move(distance)}}, &distanceColor, plotHeight,
                  slots);
        multiPlot("##worst angle", {{"worst angle (deg)", std::move(angle)}}, &angleColor, plotHeight, slots);
        ImGui::TextColored(kDimColor, "steps %llu-%llu shown with this ghost",
                           static_cast<unsigned long long>(series.front().step),
                           static_cast<unsigned long long>(series.back().step));
    }

    std::vector<app::BodyDivergence> bodies = experiment.divergence();
    std::sort(bodies.begin(), bodies.end(), [](const app::BodyDivergence& a, const app::BodyDivergence& b) {
        return a.distance > b.distance;
    });
    const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                  ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("divergence", 3, flags, ImVec2(0.0f, ImGui::GetContentRegionAvail().y))) return request;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("body", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("distance (m)");
    ImGui::TableSetupColumn("angle (deg)");
    ImGui::TableHeadersRow();
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(bodies.size()));
    while (clipper.Step()) {
        for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
            const app::BodyDivergence& d = bodies[static_cast<size_t>(row)];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(bodyName(world, d.body).c_str());
            ImGui::TableNextColumn();
            ImGui::Text("%.4f", static_cast<double>(d.distance));
            ImGui::TableNextColumn();
            ImGui::Text("%.2f", static_cast<double>(glm::degrees(d.angle)));
        }
    }
    ImGui::EndTable();
    return request;
}

}  // namespace impulse::ui
