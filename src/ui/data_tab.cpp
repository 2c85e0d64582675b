#include "ui/data_tab.h"

#include "ui/style.h"
#include "ui/widgets.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <cstdio>

namespace impulse::ui {

namespace {

/// The last impact at the step shown: the change of momentum and the energy bookkeeping.
void impactReadout(const app::ImpactBookkeeping& i, uint64_t shownStep) {
    const app::ImpactEntry& pair = i.first;
    ImGui::TextWrapped("last impact: %s - %s, step %llu (%llu steps ago)", pair.nameA.c_str(), pair.nameB.c_str(),
                static_cast<unsigned long long>(pair.step), static_cast<unsigned long long>(shownStep - pair.step));
    const glm::dvec3 dp = i.momentumChangeB();
    ImGui::TextWrapped("dp %s (%.3f, %.3f, %.3f), %s the opposite", pair.nameB.c_str(), dp.x, dp.y, dp.z,
                       pair.nameA.c_str());
    ImGui::TextWrapped("KE %.4f J before, %.4f J after: lost %.4f J (%.1f %%)", i.energyBefore, i.energyAfter, i.energyLost(),
                100.0 * i.lostFraction());
    ImGui::TextWrapped("model (1 - e^2) 1/2 m_n u^2: %.4f J (%.1f %%)", i.predictedLoss, 100.0 * i.predictedFraction());
    hoverHelp("Newton's restitution with the pair's e, each point's effective normal mass\n"
              "m_n = 1/k_n (for spheres meeting centrally, the reduced mass m_A m_B / (m_A + m_B))\n"
              "and its arrival speed u. Exact for one point without friction; friction takes\n"
              "more (the slip's energy), and with several points it is an estimate.");
    ImGui::TextColored(kDimColor, "e %.3f, arriving at %.3f m/s, %d point%s", static_cast<double>(pair.restitution),
                       static_cast<double>(pair.approachSpeed), i.points, i.points == 1 ? "" : "s");
}

}  // namespace

std::optional<TextExport> DataTab::takeExport() {
    std::optional<TextExport> out = std::move(export_);
    export_.reset();
    return out;
}

void DataTab::drawTable(EditTarget& target, FieldDraft& fields, std::vector<DataRow>& rows, float textScale) {
    constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_Sortable | ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY |
                                       ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                       ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingFixedFit;
    // Room below for the totals, the last impact and the buttons, but never fewer than
    // eight rows: in a short panel the rest scrolls.
    const float line = ImGui::GetFrameHeightWithSpacing();
    const float height = std::max(ImGui::GetContentRegionAvail().y - 12.0f * line, 9.0f * line);
    if (!ImGui::BeginTable("data", 8, kFlags, ImVec2(0.0f, height))) return;
    const float numberWidth = 62.0f * textScale, vectorWidth = 190.0f * textScale;
    const auto column = [](const char* name, float width, DataColumn id, ImGuiTableColumnFlags flags = 0) {
        ImGui::TableSetupColumn(name, flags | ImGuiTableColumnFlags_WidthFixed, width, static_cast<ImGuiID>(id));
    };
    column("name", 90.0f * textScale, DataColumn::name, ImGuiTableColumnFlags_NoHide);
    column("m (kg)", numberWidth, DataColumn::mass);
    column("e", numberWidth, DataColumn::restitution);
    column("mu", numberWidth, DataColumn::friction);
    column("position (m)", vectorWidth, DataColumn::position);
    column("velocity (m/s)", vectorWidth, DataColumn::velocity);
    column("p (kg m/s)", 170.0f * textScale, DataColumn::momentum);
    column("KE (J)", 70.0f * textScale, DataColumn::kineticEnergy);
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableHeadersRow();
    if (const ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs(); specs && specs->SpecsCount > 0) {
        const ImGuiTableColumnSortSpecs& s = specs->Specs[0];
        sortRows(rows, static_cast<DataColumn>(s.ColumnUserID), s.SortDirection == ImGuiSortDirection_Ascending);
    }
    const auto refused = [this](const std::string& error) {
        message_ = error.empty() ? "" : "refused: " + error;
        messageIsError_ = !error.empty();
    };
    for (const DataRow& r : rows) {
        ImGui::PushID(static_cast<int>(r.id.index));
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        if (widgets::Selectable(r.name.c_str(), target.selected() == r.id)) target.select(r.id);
        hoverHelp("Select this body (the Body panel and the labels in the view show it).");
        // The editable numbers: committed when the field is left, refused values named below.
        const auto number = [&](const char* label, float value, DataColumn id, const char* format) {
            ImGui::TableNextColumn();
            ImGui::SetNextItemWidth(-FLT_MIN);
            if (fields.edit(label, value, numericDrag(0.01f, format))) refused(editBodyNumber(target, r.id, id, value));
        };
        if (r.isStatic) {
            ImGui::TableNextColumn();
            ImGui::TextColored(kDimColor, "static");
        } else {
            number("##m", r.mass, DataColumn::mass, "%.3f");
        }
        number("##e", r.restitution, DataColumn::restitution, "%.2f");
        number("##mu", r.friction, DataColumn::friction, "%.2f");
        const auto vector = [&](const char* label, vec3 value, DataColumn id) {
            ImGui::TableNextColumn();
            ImGui::SetNextItemWidth(-FLT_MIN);
            if (fields.edit(label, value, numericDrag(0.01f, "%.2f"))) refused(editBodyVector(target, r.id, id, value));
        };
        vector("##position", r.position, DataColumn::position);
        if (r.isStatic) {
            ImGui::TableNextColumn();
            ImGui::TextColored(kDimColor, "-");
        } else {
            vector("##velocity", r.velocity, DataColumn::velocity);
        }
        ImGui::TableNextColumn();
        const glm::dvec3& p = r.motion.momentum;
        if (r.isStatic) {
            ImGui::TextColored(kDimColor, "-");
        } else {
            ImGui::Text("%.3f, %.3f, %.3f", p.x, p.y, p.z);
        }
        ImGui::TableNextColumn();
        ImGui::Text("%.4f", r.motion.kineticEnergy);
        ImGui::PopID();
    }
    ImGui::EndTable();
}

void DataTab::draw(EditTarget& target, FieldDraft& fields, const app::ImpactBookkeepingLog& impacts, float textScale) {
    const World& world = target.world();
    const app::SystemMotion system = app::systemMotion(world);
    std::vector<DataRow> rows = dataRows(world, system);
    // The outcome of the last edit or export, above the table: a short panel scrolls
    // its foot out of sight.
    if (!message_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, messageIsError_ ? kErrorColor : kOkColor);
        ImGui::TextWrapped("%s", message_.c_str());
        ImGui::PopStyleColor();
    }
    drawTable(target, fields, rows, textScale);

    ImGui::Text("total p (%.4f, %.4f, %.4f) kg m/s", system.momentum.x, system.momentum.y, system.momentum.z);
    hoverHelp("Sum of m v over the dynamic bodies.");
    const glm::dvec3& l = system.angularMomentum;
    ImGui::Text("total L (%.4f, %.4f, %.4f) kg m^2/s", l.x, l.y, l.z);
    hoverHelp("About the dynamic bodies' centre of mass: sum of (x - c) x m v + I w.");
    ImGui::TextWrapped("total KE %.4f J (%zu dynamic bodies, %.3f kg)", system.kineticEnergy, system.bodies, system.mass);
    ImGui::TextWrapped("centre of mass (%.3f, %.3f, %.3f) m, v (%.3f, %.3f, %.3f) m/s", system.centre.x, system.centre.y,
                system.centre.z, system.velocity.x, system.velocity.y, system.velocity.z);
    ImGui::Separator();
    if (const app::ImpactBookkeeping* impact = impacts.latestAtOrBefore(world.stepCount())) {
        impactReadout(*impact, world.stepCount());
    } else {
        ImGui::TextColored(kDimColor, "no impact yet in this run");
    }
    ImGui::Separator();

    if (widgets::Button("copy CSV")) {
        ImGui::SetClipboardText(dataCsv(rows, system).c_str());
        message_ = "copied " + std::to_string(rows.size()) + " rows and the totals";
        messageIsError_ = false;
    }
    hoverHelp("The table as shown (its sort order), with the totals, to the clipboard.");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - 90.0f * textScale);
    widgets::InputText("##data csv", &csvPath_);
    hoverHelp("File for 'export CSV' (asks before replacing one).");
    ImGui::SameLine();
    if (widgets::Button("export CSV")) export_ = TextExport{csvPath_, dataCsv(rows, system)};
}

}  // namespace impulse::ui
