// What the panels share of their look: the colours of secondary text, of a refusal and
// of a value that holds, and the hover help that every field and setting carries. ImGui only.
#pragma once

#include <imgui.h>

namespace impulse::ui {

/// Secondary text: units, notes, what a value means.
inline const ImVec4 kDimColor(0.65f, 0.68f, 0.72f, 1.0f);
/// A refused value or a failure, with its rule.
inline const ImVec4 kErrorColor(1.0f, 0.42f, 0.35f, 1.0f);
/// A value that holds (a physical tensor draft, a saved file).
inline const ImVec4 kOkColor(0.45f, 0.9f, 0.5f, 1.0f);

/// The last item's tooltip while it is hovered, not while it is dragged or typed into
/// (the tooltip would cover the value being changed).
inline void hoverHelp(const char* text, ImGuiHoveredFlags flags = 0) {
    if (ImGui::IsItemHovered(flags) && !ImGui::IsItemActive()) ImGui::SetTooltip("%s", text);
}

}  // namespace impulse::ui
