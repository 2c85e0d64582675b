// The panels' clickable widgets: Dear ImGui's, each also noted where it was drawn
// this frame, under "Window/label" (the root window's name and the label as given),
// for the layout report (App::writeLayout), from which test scripts find what to
// click instead of fixed pixel positions. Same signatures as ImGui's.
#pragma once

#include <imgui.h>

#include <map>
#include <string>

namespace impulse::ui::widgets {

/// Forgets the widgets of the last frame: call once a frame, after ImGui::NewFrame.
void beginFrame();
/// Window/label -> (x, y, w, h) in window pixels, of the widgets drawn and visible this frame.
const std::map<std::string, ImVec4>& drawn();
/// Notes ImGui's last item under `label` (for widgets drawn by other means).
void noteLastItem(const char* label);
/// Notes a rectangle drawn in the current window (text on a draw list) under `label`.
void noteRect(const char* label, const ImVec2& min, const ImVec2& max);

bool Button(const char* label, const ImVec2& size = ImVec2(0, 0));
bool SmallButton(const char* label);
bool ArrowButton(const char* id, ImGuiDir dir);
bool Checkbox(const char* label, bool* value);
bool RadioButton(const char* label, bool active);
bool Selectable(const char* label, bool selected = false, ImGuiSelectableFlags flags = 0);
bool BeginTabItem(const char* label, bool* open = nullptr, ImGuiTabItemFlags flags = 0);
bool BeginCombo(const char* label, const char* preview);
bool Combo(const char* label, int* current, const char* const items[], int count);
bool Combo(const char* label, int* current, bool (*itemText)(void* data, int index, const char** text), void* data,
           int count);
bool InputText(const char* label, std::string* text, ImGuiInputTextFlags flags = 0);

}  // namespace impulse::ui::widgets
