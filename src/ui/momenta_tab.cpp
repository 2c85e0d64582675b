#include "ui/momenta_tab.h"

#include "ui/style.h"
#include "ui/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace impulse::ui {

namespace {

const ImVec4 kNoteColor(1.0f, 0.75f, 0.35f, 1.0f);
constexpr ImU32 kBoxColor = IM_COL32(22, 24, 30, 255);
constexpr ImU32 kAxisColor = IM_COL32(90, 95, 105, 255);
constexpr ImU32 kTotalColor = IM_COL32(245, 245, 245, 255);
constexpr ImU32 kLabelColor = IM_COL32(220, 222, 228, 255);

/// A body's colour, the same in both diagrams and from frame to frame: hues a golden
/// angle apart by handle index, so neighbours in body order differ.
ImU32 bodyColor(BodyId body) {
    const float hue = std::fmod(0.08f + 0.618034f * static_cast<float>(body.index), 1.0f);
    return ImColor::HSV(hue, 0.6f, 1.0f);
}

void arrow(ImDrawList* draw, ImVec2 from, ImVec2 to, ImU32 color, float thickness, float head) {
    const float dx = to.x - from.x, dy = to.y - from.y, length = std::sqrt(dx * dx + dy * dy);
    if (length < 0.5f) return;
    const float ux = dx / length, uy = dy / length;
    // A head no longer than half the arrow, so a short one still shows its shaft.
    const float h = std::min(head, 0.5f * length);
    const ImVec2 base(to.x - ux * h, to.y - uy * h);
    draw->AddLine(from, base, color, thickness);
    draw->AddTriangleFilled(to, ImVec2(base.x - uy * 0.5f * h, base.y + ux * 0.5f * h),
                            ImVec2(base.x + uy * 0.5f * h, base.y - ux * 0.5f * h), color);
}

struct Box {
    ImVec2 min, max;
};

bool overlaps(const Box& a, const Box& b) {
    return a.min.x < b.max.x && b.min.x < a.max.x && a.min.y < b.max.y && b.min.y < a.max.y;
}

/// Arrows along one line (a head-on impact) would lie on top of each other: then each
/// body's arrow, and the total after them, gets a row of its own across the line, and
/// this is the step from one row to the next in pixels; zero when the arrows span a plane.
ImVec2 rowStep(const app::MomentaDiagram& diagram, const app::PlaneAxes& axes, const app::DiagramScale& scale,
               ImVec2 size, float margin, float textScale) {
    const glm::dvec2 along = app::commonLine(diagram, axes, scale, 2.0);
    if (along == glm::dvec2(0.0)) return ImVec2(0.0f, 0.0f);
    // Rows go down the screen across a line that is more across than up, else rightwards.
    const bool acrossIsDown = std::fabs(along.x) >= std::fabs(along.y);
    const size_t rows = diagram.after.arrows.size() + 1;
    const float room = (acrossIsDown ? size.y : size.x) - 2.0f * margin;
    // A label's height apart, so that a label above a row keeps clear of the row above.
    const float gap = std::min(ImGui::GetTextLineHeight() + 6.0f * textScale, room / static_cast<float>(rows));
    return acrossIsDown ? ImVec2(0.0f, gap) : ImVec2(gap, 0.0f);
}

/// One chain in the box at `corner`: axes through the origin with their names, the
/// arrows tip to tail in the bodies' colours labelled with name and magnitude where
/// they are long enough and the label covers no other, the total in white; on rows
/// `step` apart (rowStep) joined by thin lines, when they lie on one line.
void drawChain(const app::MomentaChain& chain, const char* title, const app::PlaneAxes& axes,
               const app::DiagramScale& scale, ImVec2 step, ImVec2 corner, ImVec2 size, float textScale) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 end(corner.x + size.x, corner.y + size.y);
    draw->AddRectFilled(corner, end, kBoxColor);
    draw->PushClipRect(corner, end, true);
    const ImVec2 origin(corner.x + static_cast<float>(scale.origin.x), corner.y + static_cast<float>(scale.origin.y));
    // Row k of the chain's arrows and the total (the last), centred on the line.
    const float middleRow = 0.5f * static_cast<float>(chain.arrows.size());
    const auto at = [&](const glm::dvec3& v, size_t row) {
        const glm::dvec2 p = app::projectOnPlane(v, axes) * scale.pixelsPerUnit;
        const float across = static_cast<float>(row) - middleRow;
        return ImVec2(origin.x + static_cast<float>(p.x) + across * step.x,
                      origin.y - static_cast<float>(p.y) + across * step.y);
    };
    draw->AddLine(ImVec2(corner.x, origin.y), ImVec2(end.x, origin.y), kAxisColor);
    draw->AddLine(ImVec2(origin.x, corner.y), ImVec2(origin.x, end.y), kAxisColor);
    const char* axisNames = "xyz";
    const float pad = 3.0f * textScale, line = ImGui::GetTextLineHeight();
    char text[96];
    std::snprintf(text, sizeof text, "+%c", axisNames[axes.right]);
    draw->AddText(ImVec2(end.x - ImGui::CalcTextSize(text).x - pad, origin.y + 1.0f), kAxisColor, text);
    // The vertical axis's positive end: up for y, down for z seen from above.
    std::snprintf(text, sizeof text, "+%c", axisNames[axes.up]);
    draw->AddText(ImVec2(origin.x + pad, axes.upSign > 0.0 ? corner.y + line + pad : end.y - line - pad), kAxisColor, text);
    draw->AddText(ImVec2(corner.x + pad, corner.y + pad), kLabelColor, title);

    std::vector<Box> labels{Box{corner, ImVec2(corner.x + ImGui::CalcTextSize(title).x + 2.0f * pad, corner.y + line + pad)}};
    const auto label = [&](ImVec2 near, const char* what, ImU32 color) {
        const ImVec2 extent = ImGui::CalcTextSize(what);
        // Beside the point, above or below, right, left or centred: the first place inside
        // the box that covers no other label; none, no label (the tooltip lists them all).
        for (const ImVec2 offset : {ImVec2(pad, -extent.y - pad), ImVec2(pad, pad), ImVec2(-extent.x - pad, -extent.y - pad),
                                    ImVec2(-extent.x - pad, pad), ImVec2(-0.5f * extent.x, -extent.y - pad),
                                    ImVec2(-0.5f * extent.x, pad)}) {
            const Box box{ImVec2(near.x + offset.x, near.y + offset.y),
                          ImVec2(near.x + offset.x + extent.x, near.y + offset.y + extent.y)};
            const bool inside = box.min.x >= corner.x && box.min.y >= corner.y && box.max.x <= end.x && box.max.y <= end.y;
            if (inside && std::none_of(labels.begin(), labels.end(), [&](const Box& b) { return overlaps(b, box); })) {
                draw->AddText(box.min, color, what);
                labels.push_back(box);
                return;
            }
        }
    };
    const float thickness = 2.0f * textScale, head = 8.0f * textScale;
    const size_t totalRow = chain.arrows.size();
    const bool stacked = step.x != 0.0f || step.y != 0.0f;
    if (stacked) {
        // Each tip joined to the next row's tail, and the total's ends to the chain's.
        for (size_t k = 0; k + 1 < chain.arrows.size(); ++k) {
            draw->AddLine(at(chain.arrows[k].tip, k), at(chain.arrows[k + 1].tail, k + 1), kAxisColor);
        }
        if (!chain.arrows.empty()) {
            draw->AddLine(at(glm::dvec3(0.0), 0), at(glm::dvec3(0.0), totalRow), kAxisColor);
            draw->AddLine(at(chain.total, totalRow - 1), at(chain.total, totalRow), kAxisColor);
        }
    }
    arrow(draw, at(glm::dvec3(0.0), totalRow), at(chain.total, totalRow), kTotalColor, thickness + textScale, head);
    for (size_t k = 0; k < chain.arrows.size(); ++k) {
        arrow(draw, at(chain.arrows[k].tail, k), at(chain.arrows[k].tip, k), bodyColor(chain.arrows[k].body), thickness,
              head);
    }
    std::snprintf(text, sizeof text, "total %.3g", glm::length(chain.total));
    label(at(chain.total, totalRow), text, kTotalColor);
    for (size_t k = 0; k < chain.arrows.size(); ++k) {
        const app::MomentumArrow& a = chain.arrows[k];
        const ImVec2 from = at(a.tail, k), to = at(a.tip, k);
        if (std::hypot(to.x - from.x, to.y - from.y) < 24.0f * textScale) continue;  // too short to name
        std::snprintf(text, sizeof text, "%s %.3g", a.name.c_str(), glm::length(a.value()));
        label(ImVec2(0.5f * (from.x + to.x), 0.5f * (from.y + to.y)), text, bodyColor(a.body));
    }
    draw->PopClipRect();
}

/// The two chains' values per body, for the box's tooltip.
void valuesTooltip(const app::MomentaDiagram& d, const char* unit) {
    ImGui::BeginTooltip();
    ImGui::Text("%s: before -> after", unit);
    // The chains hold the same bodies in the same order (before may be unrecorded).
    for (size_t i = 0; i < d.after.arrows.size(); ++i) {
        const glm::dvec3 b = i < d.before.arrows.size() ? d.before.arrows[i].value() : glm::dvec3(0.0);
        const glm::dvec3 a = d.after.arrows[i].value();
        ImGui::TextColored(ImColor(bodyColor(d.after.arrows[i].body)), "%s (%.3f, %.3f, %.3f) -> (%.3f, %.3f, %.3f)",
                           d.after.arrows[i].name.c_str(), b.x, b.y, b.z, a.x, a.y, a.z);
    }
    ImGui::EndTooltip();
}

}  // namespace

void MomentaTab::draw(const World& world, BodyId selected, const app::ImpactBookkeepingLog& impacts, float textScale) {
    const app::ImpactBookkeeping* impact = impacts.latestAtOrBefore(world.stepCount());
    const bool linear = quantity_ == app::MomentaQuantity::Linear;
    if (widgets::RadioButton("p", linear)) quantity_ = app::MomentaQuantity::Linear;
    hoverHelp("Momentum m v of each body, kg m/s.");
    ImGui::SameLine();
    if (widgets::RadioButton("L", !linear)) quantity_ = app::MomentaQuantity::Angular;
    hoverHelp("Angular momentum about the shown bodies' centre of mass c, kg m^2/s:\n"
              "(x - c) x m v + I w for each body; they add up to the system's.");
    static const char* const kBodies[] = {"all dynamic", "impact's pair", "selected body"};
    static const char* const kPlanes[] = {"auto", "x-z", "x-y", "z-y"};
    int bodies = static_cast<int>(bodies_);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(110.0f * textScale);
    if (widgets::Combo("##bodies", &bodies, kBodies, 3)) bodies_ = static_cast<Bodies>(bodies);
    hoverHelp("Which bodies the diagram adds up.");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(60.0f * textScale);
    widgets::Combo("plane", &plane_, kPlanes, 4);
    hoverHelp("The coordinate plane the arrows are drawn in. auto: the one without the axis\n"
              "along which the arrows have least, so nothing a class compares is hidden\n"
              "edge-on; a worksheet's p_x, p_y, p_z read the same in every view.");

    std::vector<BodyId> shown;
    if (bodies_ == Bodies::ImpactPair && impact) shown = {impact->first.bodyA, impact->first.bodyB};
    if (bodies_ == Bodies::Selected && world.isValid(selected)) shown = {selected};
    const app::MomentaDiagram diagram = app::momentaDiagram(world, impact, shown, quantity_);
    const app::PlaneAxes axes =
        app::planeAxes(plane_ == 0 ? app::readablePlane(diagram) : static_cast<app::MomentaPlane>(plane_ - 1));
    const char* unit = linear ? "kg m/s" : "kg m^2/s";

    if (impact) {
        ImGui::TextWrapped("impact %s - %s at step %llu (%llu ago)", impact->first.nameA.c_str(),
                           impact->first.nameB.c_str(), static_cast<unsigned long long>(impact->first.step),
                           static_cast<unsigned long long>(world.stepCount() - impact->first.step));
    } else {
        ImGui::TextColored(kDimColor, "no impact yet: the momenta now, in both");
    }
    if (bodies_ == Bodies::Selected && !world.isValid(selected)) ImGui::TextColored(kNoteColor, "nothing selected: all bodies");
    if (diagram.after.arrows.empty()) {
        ImGui::TextColored(kDimColor, "no dynamic body to show");
        return;
    }

    // Two boxes side by side at one scale; under them the plane, the bar and the totals.
    const float line = ImGui::GetTextLineHeightWithSpacing(), gap = 6.0f * textScale;
    const ImVec2 room = ImGui::GetContentRegionAvail();
    const float boxWidth = std::max((room.x - gap) * 0.5f, 40.0f);
    const float boxHeight = std::clamp(room.y - 5.0f * line, 80.0f * textScale, boxWidth * 1.2f);
    const float margin = 14.0f * textScale;
    const app::DiagramScale scale = app::fitDiagram(diagram, axes, boxWidth, boxHeight, margin);
    const ImVec2 size(boxWidth, boxHeight);
    const ImVec2 step = rowStep(diagram, axes, scale, size, margin, textScale);
    const ImVec2 corner = ImGui::GetCursorScreenPos();
    const char* beforeTitle = !impact ? "now" : diagram.before.arrows.empty() ? "before: not recorded" : "just before";
    drawChain(diagram.before, beforeTitle, axes, scale, step, corner, size, textScale);
    drawChain(diagram.after, impact ? "just after" : "now", axes, scale, step, ImVec2(corner.x + boxWidth + gap, corner.y),
              size, textScale);
    ImGui::Dummy(ImVec2(2.0f * boxWidth + gap, boxHeight));
    widgets::noteLastItem("momenta diagram");
    if (ImGui::IsItemHovered()) valuesTooltip(diagram, unit);

    // The scale bar, drawn, then what it is worth and the plane.
    const ImVec2 bar = ImGui::GetCursorScreenPos();
    const float barY = bar.y + 0.5f * ImGui::GetTextLineHeight(), barEnd = bar.x + static_cast<float>(scale.barPixels);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddLine(ImVec2(bar.x, barY), ImVec2(barEnd, barY), kTotalColor, 2.0f);
    draw->AddLine(ImVec2(bar.x, barY - 3.0f), ImVec2(bar.x, barY + 3.0f), kTotalColor, 2.0f);
    draw->AddLine(ImVec2(barEnd, barY - 3.0f), ImVec2(barEnd, barY + 3.0f), kTotalColor, 2.0f);
    ImGui::Dummy(ImVec2(static_cast<float>(scale.barPixels), ImGui::GetTextLineHeight()));
    ImGui::SameLine();
    ImGui::TextWrapped("= %g %s; plane %s %s", scale.barValue, unit, axes.name, axes.seenFrom);

    const char* symbol = linear ? "p" : "L";
    const glm::dvec3 b = diagram.before.total, a = diagram.after.total;
    if (!diagram.before.arrows.empty()) ImGui::Text("total %s before (%.4f, %.4f, %.4f)", symbol, b.x, b.y, b.z);
    hoverHelp("Just before and just after are the bodies as they were at the steps before\n"
              "and after the impact (recorded as the run went). Their totals differ by what\n"
              "acted in that one step besides the bodies' impacts with each other: gravity\n"
              "(m g dt), the floor's push and friction, a static body (a cushion) or a body\n"
              "not shown.");
    ImGui::Text("total %s after  (%.4f, %.4f, %.4f) %s", symbol, a.x, a.y, a.z, unit);
    if (!linear) {
        ImGui::TextColored(kDimColor, "about c = (%.3f, %.3f, %.3f) m", diagram.centre.x, diagram.centre.y,
                           diagram.centre.z);
    }
    if (diagram.bodiesLeftOut > 0) {
        ImGui::TextColored(kNoteColor, "%zu bodies left out: an impact keeps at most %zu", diagram.bodiesLeftOut,
                           app::kMomentaBodiesKept);
    }
}

}  // namespace impulse::ui
