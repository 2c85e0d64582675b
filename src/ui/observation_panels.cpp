#include "ui/observation_panels.h"

#include "ui/plot.h"
#include "ui/style.h"
#include "ui/widgets.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace impulse::ui {

namespace {

const ImVec4 kSlideColor(1.0f, 0.7f, 0.3f, 1.0f);

// Most points a plotted series draws: the window's samples are thinned to these.
constexpr int kPlotPoints = 400;

const ImU32 kSeriesColors[] = {IM_COL32(255, 200, 80, 255),  IM_COL32(120, 200, 255, 255),
                               IM_COL32(140, 230, 140, 255), IM_COL32(230, 140, 230, 255),
                               IM_COL32(240, 240, 240, 255), IM_COL32(255, 130, 110, 255)};
constexpr size_t kSeriesColorCount = sizeof kSeriesColors / sizeof kSeriesColors[0];

}  // namespace

int tabBar(const char* id, std::initializer_list<const char*> labels, int select) {
    int shown = 0;
    if (!ImGui::BeginTabBar(id)) return shown;
    int index = 0;
    for (const char* label : labels) {
        const ImGuiTabItemFlags flags = index == select ? ImGuiTabItemFlags_SetSelected : ImGuiTabItemFlags_None;
        if (widgets::BeginTabItem(label, nullptr, flags)) {
            shown = index;
            ImGui::EndTabItem();
        }
        ++index;
    }
    ImGui::EndTabBar();
    return shown;
}

const app::ImpactEntry* ImpactLogTab::draw(const app::ImpactLog& log, uint64_t shownStep) {
    const std::deque<app::ImpactEntry>& entries = log.entries();
    ImGui::Text("%d impacts, newest first", static_cast<int>(entries.size()));
    hoverHelp("Each point that arrived faster than the impact speed (2 g dt, at most the\n"
              "restitution threshold): slower than the threshold it does not bounce (e 0),\n"
              "but its friction still acts under the impulse that stopped it.\n"
              "Measured beside configured: e = -v'_n / v_n against the e applied;\n"
              "|j_t| / j_n against mu (slid) or up to mu_s (stuck). Click a row to show its\n"
              "step on the timeline with the point picked in the Contacts tab. Rows after\n"
              "the step shown are dimmed.");
    const app::ImpactEntry* clicked = nullptr;
    // The pair stays at the left while the numbers scroll beside it; the configured e
    // and mu share the cells of what was measured against them.
    constexpr int kColumns = 7;
    const ImGuiTableFlags flags = ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("impacts", kColumns, flags, ImVec2(0.0f, ImGui::GetContentRegionAvail().y))) {
        return clicked;
    }
    ImGui::TableSetupScrollFreeze(1, 1);
    const char* headers[kColumns] = {"pair", "t (s)", "v_n -> v'_n", "e meas (set)", "slip -> slip'",
                                     "|j_t|/j_n (mu / mu_s)", "KE lost (J)"};
    for (const char* header : headers) ImGui::TableSetupColumn(header);
    ImGui::TableHeadersRow();
    scrollX_ = ImGui::GetScrollX();
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(entries.size()));
    while (clipper.Step()) {
        for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
            const size_t index = entries.size() - 1 - static_cast<size_t>(row);
            const app::ImpactEntry& e = entries[index];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            const bool later = e.step > shownStep;
            if (later) ImGui::PushStyleVar(ImGuiStyleVar_Alpha, 0.45f);
            // The row's number after ## keeps the rows' ids (and their report names) apart.
            const std::string pair = e.nameA + " / " + e.nameB + "##impact" + std::to_string(row);
            const bool isClicked = index == clicked_ && e.step == clickedStep_;
            if (widgets::Selectable(pair.c_str(), isClicked, ImGuiSelectableFlags_SpanAllColumns)) {
                clicked_ = index;
                clickedStep_ = e.step;
                clicked = &e;
            }
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("step %llu", static_cast<unsigned long long>(e.step));
            ImGui::TableNextColumn();
            ImGui::Text("%.3f", e.time);
            ImGui::TableNextColumn();
            ImGui::Text("%.3f -> %.3f", static_cast<double>(e.approachSpeed), static_cast<double>(e.leavingSpeed));
            ImGui::TableNextColumn();
            ImGui::Text("%.3f", static_cast<double>(e.measuredRestitution));
            ImGui::SameLine();
            ImGui::TextColored(kDimColor, "(%.3f)", static_cast<double>(e.restitution));
            ImGui::TableNextColumn();
            ImGui::Text("%.3f -> %.3f", static_cast<double>(e.slipBefore), static_cast<double>(e.slipAfter));
            ImGui::TableNextColumn();
            ImGui::TextColored(e.stuck ? kOkColor : kSlideColor, "%.3f %s", static_cast<double>(e.frictionRatio()),
                               e.stuck ? "stuck" : "slid");
            ImGui::SameLine();
            ImGui::TextColored(kDimColor, "(%.2f / %.2f)", static_cast<double>(e.friction),
                               static_cast<double>(e.staticFriction));
            ImGui::TableNextColumn();
            ImGui::Text("%.4g", e.energyLost);
            if (later) ImGui::PopStyleVar();
        }
    }
    ImGui::EndTable();
    return clicked;
}

std::optional<PlotsTab::Export> PlotsTab::takeExport() {
    std::optional<Export> path = std::move(export_);
    export_.reset();
    return path;
}

std::optional<uint64_t> PlotsTab::draw(const World& world, BodyId selected, app::PlotSamples& plots,
                                       uint64_t shownStep, float textScale) {
    std::optional<uint64_t> seek;
    // Add: a quantity of the body picked here, the selection unless another is chosen.
    if (selected != lastSelected_) body_ = lastSelected_ = selected;
    if (!world.isValid(body_)) body_ = BodyId{};
    const auto name = [&](BodyId id) { return id ? world.body(id).name : std::string("(pick a body)"); };
    ImGui::SetNextItemWidth(110.0f * textScale);
    if (widgets::BeginCombo("##body", name(body_).c_str())) {
        for (const BodyId id : world.bodyIds()) {
            ImGui::PushID(static_cast<int>(id.index));
            if (widgets::Selectable(name(id).c_str(), id == body_)) body_ = id;
            ImGui::PopID();
        }
        ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(130.0f * textScale);
    widgets::Combo("##quantity", &quantity_, [](void*, int i, const char** text) {
        *text = app::quantityLabel(static_cast<app::BodyQuantity>(i));
        return true;
    }, nullptr, app::kBodyQuantityCount);
    ImGui::SameLine();
    const bool hasBody = world.isValid(body_);
    if (!hasBody) ImGui::BeginDisabled();
    if (widgets::Button("plot it")) {
        const Validation refused = plots.add(world, body_, static_cast<app::BodyQuantity>(quantity_));
        message_ = refused ? refused->message() : "";
        messageIsError_ = refused.has_value();
    }
    if (!hasBody) ImGui::EndDisabled();
    hoverHelp(hasBody ? "Plots this quantity of the body against time, from the next step on."
                      : "Pick a body (or click one in the view) to plot its quantities.");
    // A drag field, not a slider: a slider's grab covers its text in a narrow column.
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("back into the tab").x -
                            ImGui::GetStyle().FramePadding.x * 2.0f - ImGui::GetStyle().ItemSpacing.x);
    ImGui::DragFloat("##window", &windowSeconds_, 0.2f, 1.0f, 120.0f, "last %.0f s",
                     ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
    hoverHelp("How many seconds the plot spans: drag sideways, or Ctrl+click and type.");
    ImGui::SameLine();
    if (widgets::Button(inOwnWindow_ ? "back into the tab" : "own window")) inOwnWindow_ = !inOwnWindow_;
    hoverHelp(inOwnWindow_ ? "Put the plot back into the Stats panel's Plots tab."
                           : "Show the plot in a window of its own over the view, large; drag its corner to resize it.");

    // The series, each with its colour and a button that removes it.
    const std::vector<app::PlotSeries>& series = plots.series();
    for (size_t k = 0; k < series.size(); ++k) {
        ImGui::PushID(static_cast<int>(k));
        if (k > 0) ImGui::SameLine();
        if (widgets::SmallButton("x")) {
            plots.remove(k);
            ImGui::PopID();
            break;
        }
        hoverHelp("Stop plotting this series.");
        ImGui::SameLine(0.0f, 2.0f);
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kSeriesColors[k % kSeriesColorCount]), "%s",
                           series[k].label().c_str());
        widgets::noteLastItem(("series " + std::to_string(k)).c_str());
        ImGui::PopID();
    }

    // The window's samples, thinned to kPlotPoints.
    const std::deque<double>& times = plots.times();
    // Room below the plot: its time range, the export row and its message.
    const float below = ImGui::GetTextLineHeightWithSpacing() * (message_.empty() ? 1.0f : 2.0f) +
                        ImGui::GetFrameHeightWithSpacing();
    // Never shorter than a few lines of text: in a short panel the rest scrolls.
    const float plotHeight = std::max(6.0f * ImGui::GetTextLineHeightWithSpacing(), ImGui::GetContentRegionAvail().y - below);
    if (series.empty() || times.empty()) {
        ImGui::TextColored(kDimColor, series.empty() ? "Pick a body and a quantity, press 'plot it'."
                                                     : "Run or step the simulation to sample.");
    } else {
        // The window ends at the newest sample, unless the step shown is earlier than that
        // reaches: then it is centred there.
        const std::deque<uint64_t>& steps = plots.steps();
        const size_t shownIndex = std::min(
            static_cast<size_t>(std::lower_bound(steps.begin(), steps.end(), shownStep) - steps.begin()),
            steps.size() - 1);
        const double window = static_cast<double>(windowSeconds_);
        double end = times.back();
        if (times[shownIndex] < end - window) end = times[shownIndex] + 0.5 * window;
        const size_t first =
            static_cast<size_t>(std::lower_bound(times.begin(), times.end(), end - window) - times.begin());
        const size_t last =
            static_cast<size_t>(std::upper_bound(times.begin(), times.end(), end) - times.begin());
        const size_t count = last - first;
        const size_t stride = std::max<size_t>(1, (count + kPlotPoints - 1) / kPlotPoints);
        std::vector<std::string> labels;
        std::vector<std::pair<const char*, std::vector<float>>> shown;
        std::vector<ImU32> colors;
        for (size_t k = 0; k < series.size(); ++k) labels.push_back(series[k].label());
        for (size_t k = 0; k < series.size(); ++k) {
            std::vector<float> values;
            for (size_t i = first; i < last; i += stride) values.push_back(series[k].values[i]);
            shown.emplace_back(labels[k].c_str(), std::move(values));
            colors.push_back(kSeriesColors[k % kSeriesColorCount]);
        }
        // The whole window's width in points, so that a window not yet filled starts at the left.
        const double windowSamples = window / static_cast<double>(world.settings().timestep);
        const int slots = std::max(static_cast<int>(std::ceil(windowSamples / static_cast<double>(stride))),
                                   static_cast<int>(shown[0].second.size()));
        // A slot is `stride` samples from `first`: the shown step's, and a clicked one's step.
        std::optional<float> cursor;
        if (shownIndex >= first && shownIndex < last && steps[shownIndex] == shownStep) {
            cursor = static_cast<float>(shownIndex - first) / static_cast<float>(stride);
        }
        if (const std::optional<float> clicked = multiPlot("##plots", shown, colors.data(), plotHeight, slots, cursor)) {
            const double sample = std::round(static_cast<double>(*clicked) * static_cast<double>(stride));
            seek = steps[std::min(first + static_cast<size_t>(std::max(sample, 0.0)), last - 1)];
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Click to show that step (the white line is the step shown).");
        ImGui::TextColored(kDimColor, "t %.2f s .. %.2f s", times[first], times[last - 1]);
    }

    // Export: every sample kept, not just the window; or every body at every step of the run.
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - 170.0f * textScale);
    widgets::InputText("##csv", &csvPath_);
    hoverHelp("File to write to: the plotted series (every sample kept, not only the window), or the whole run.");
    ImGui::SameLine();
    if (widgets::Button("export CSV")) export_ = Export{csvPath_, false};
    hoverHelp("The plotted series, one column each.");
    ImGui::SameLine();
    if (widgets::Button("export run")) export_ = Export{csvPath_, true};
    hoverHelp("Every body at every step of the run, in impulse-sim's CSV columns\n"
              "(step,time,body,px..wz: the rows of impulse-sim --replay of the run).");
    if (!message_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, messageIsError_ ? kErrorColor : kOkColor);
        ImGui::TextWrapped("%s", message_.c_str());
        ImGui::PopStyleColor();
    }
    return seek;
}

}  // namespace impulse::ui
