#include "ui/plot.h"

#include "ui/edit.h"
#include "ui/widgets.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>

namespace impulse::ui {

std::optional<float> multiPlot(const char* id, const std::vector<std::pair<const char*, std::vector<float>>>& series,
                               const ImU32* colors, float height, int slots, std::optional<float> cursor) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x;
    const bool clicked = ImGui::InvisibleButton(id, ImVec2(width, height));
    widgets::noteLastItem(id);
    const ImVec2 p1(p0.x + width, p0.y + height);
    dl->AddRectFilled(p0, p1, IM_COL32(20, 24, 30, 200), 3.0f);
    const float step = width / static_cast<float>(std::max(slots, 2) - 1);
    std::optional<float> clickedSlot;
    if (clicked) clickedSlot = (ImGui::GetIO().MousePos.x - p0.x) / step;
    float lo = FLT_MAX, hi = -FLT_MAX;
    size_t count = 0;
    for (const auto& s : series) {
        for (float v : s.second) {
            if (!std::isfinite(v)) continue;
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        count = std::max(count, s.second.size());
    }
    if (count < 2 || lo > hi) return clickedSlot;
    // Series that never go below zero (distances, speeds, energies) keep zero as the floor.
    const bool nonNegative = lo >= 0.0f;
    if (hi - lo < 1e-6f) {
        hi += 0.5f;
        lo -= 0.5f;
    }
    const float pad = 0.08f * (hi - lo);
    lo -= pad;
    hi += pad;
    if (nonNegative) lo = std::max(lo, 0.0f);
    if (cursor && *cursor >= 0.0f && *cursor * step <= width) {
        const float x = std::round(p0.x + *cursor * step) + 0.5f;
        dl->AddLine(ImVec2(x, p0.y), ImVec2(x, p1.y), IM_COL32(255, 255, 255, 160), 1.0f);
    }
    // One polyline per run of finite samples: joined segments share their vertices,
    // which halves what software GL transforms for these ~1,500 tiny segments.
    std::vector<ImVec2> points;
    for (size_t k = 0; k < series.size(); ++k) {
        const std::vector<float>& v = series[k].second;
        for (size_t i = 0; i <= v.size(); ++i) {
            if (i < v.size() && std::isfinite(v[i])) {
                const float y = p1.y - height * (v[i] - lo) / (hi - lo);
                points.emplace_back(p0.x + step * static_cast<float>(i), y);
                continue;
            }
            if (points.size() >= 2) {
                dl->AddPolyline(points.data(), static_cast<int>(points.size()), colors[k], ImDrawFlags_None,
                                1.5f);
            }
            points.clear();
        }
    }
    // The range's ends at the left, the legend at the top right, or on the next line
    // where it would run into the top end's number (a narrow plot).
    const ImU32 labelColor = IM_COL32(170, 175, 185, 255);
    const float lineHeight = ImGui::GetTextLineHeight();
    char text[64];
    std::snprintf(text, sizeof text, "%.3g", static_cast<double>(hi));
    const ImVec2 top(p0.x + 3.0f, p0.y + 1.0f);
    dl->AddText(top, labelColor, text);
    const float topRight = top.x + ImGui::CalcTextSize(text).x;
    const std::string idText = id;
    widgets::noteRect((idText + " top").c_str(), top, ImVec2(topRight, top.y + lineHeight));
    std::snprintf(text, sizeof text, "%.3g", static_cast<double>(lo));
    dl->AddText(ImVec2(p0.x + 3.0f, p1.y - lineHeight - 1.0f), labelColor, text);
    constexpr float kLegendGap = 10.0f;
    float legendWidth = 0.0f;
    for (const auto& s : series) legendWidth += ImGui::CalcTextSize(s.first).x + kLegendGap;
    const float besideTop = p1.x - 6.0f - legendWidth + kLegendGap;
    const bool ownLine = besideTop < topRight + kLegendGap;
    const float legendLeft = ownLine ? std::max(besideTop, top.x) : besideTop;
    const float legendY = ownLine ? top.y + lineHeight : top.y;
    float x = legendLeft;
    for (size_t k = 0; k < series.size(); ++k) {
        dl->AddText(ImVec2(x, legendY), colors[k], series[k].first);
        x += ImGui::CalcTextSize(series[k].first).x + kLegendGap;
    }
    if (!series.empty()) widgets::noteRect((idText + " legend").c_str(), ImVec2(legendLeft, legendY),
                                           ImVec2(x - kLegendGap, legendY + lineHeight));
    return clickedSlot;
}

}  // namespace impulse::ui
