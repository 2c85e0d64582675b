#include "ui/plot.h"

#include "ui/edit.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>

namespace impulse::ui {

std::optional<float> multiPlot(const char* id, const std::vector<std::pair<const char*, std::vector<float>>>& series,
                               const ImU32* colors, float height, int slots, std::optional<float> cursor) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x;
    const bool clicked = ImGui::InvisibleButton(id, ImVec2(width, height));
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
    char text[64];
    std::snprintf(text, sizeof text, "%.3g", static_cast<double>(hi));
    dl->AddText(ImVec2(p0.x + 3, p0.y + 1), IM_COL32(170, 175, 185, 255), text);
    std::snprintf(text, sizeof text, "%.3g", static_cast<double>(lo));
    dl->AddText(ImVec2(p0.x + 3, p1.y - 15), IM_COL32(170, 175, 185, 255), text);
    float x = p1.x - 6.0f;
    for (size_t k = series.size(); k-- > 0;) {
        const float w = ImGui::CalcTextSize(series[k].first).x;
        x -= w;
        dl->AddText(ImVec2(x, p0.y + 1), colors[k], series[k].first);
        x -= 10.0f;
    }
    return clickedSlot;
}

}  // namespace impulse::ui
