#include "ui/splitters.h"

#include <imgui.h>

namespace impulse::ui {

namespace {

// One handle over the margin strip at `x`; a drag moves the edge by `sign` * mouse dx.
bool splitter(const char* id, float x, const Layout& layout, float sign, float& width) {
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoBackground |
                                   ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
    ImGui::SetNextWindowPos(ImVec2(x, 0.0f), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(kPanelMargin, layout.window.h), ImGuiCond_Always);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0.0f, 0.0f));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1.0f, 1.0f));
    ImGui::Begin(id, nullptr, flags);
    ImGui::InvisibleButton("edge", ImVec2(kPanelMargin, layout.window.h));
    const bool held = ImGui::IsItemActive(), hovered = ImGui::IsItemHovered();
    if (held) width += sign * ImGui::GetIO().MouseDelta.x / layout.textScale;
    if (held || hovered) {
        ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
        const ImVec2 top = ImGui::GetItemRectMin(), bottom = ImGui::GetItemRectMax();
        const float mid = 0.5f * (top.x + bottom.x);
        ImGui::GetWindowDrawList()->AddLine(ImVec2(mid, top.y), ImVec2(mid, bottom.y),
                                            ImGui::GetColorU32(held ? ImGuiCol_SeparatorActive : ImGuiCol_SeparatorHovered),
                                            2.0f);
    }
    ImGui::End();
    ImGui::PopStyleVar(2);
    return held || hovered;
}

}  // namespace

bool columnSplitters(const Layout& layout, ColumnWidths& widths) {
    // The handles sit in the margin on the view's side of each column's panels.
    const bool left = splitter("##left column edge", layout.leftColumn.right() - kPanelMargin, layout, 1.0f, widths.left);
    const bool right = splitter("##right column edge", layout.rightColumn.x, layout, -1.0f, widths.right);
    widths = clampWidths(widths);
    return left || right;
}

}  // namespace impulse::ui
