#include "ui/widgets.h"

#include <imgui_internal.h>
#include <imgui_stdlib.h>

namespace impulse::ui::widgets {

namespace {

// One map for the one ImGui context the app draws with (ImGui's state is global too).
std::map<std::string, ImVec4>& drawnWidgets() {
    static std::map<std::string, ImVec4> widgets;
    return widgets;
}

template <typename Result>
Result noted(const char* label, Result result) {
    noteLastItem(label);
    return result;
}

}  // namespace

void beginFrame() { drawnWidgets().clear(); }

const std::map<std::string, ImVec4>& drawn() { return drawnWidgets(); }

void noteLastItem(const char* label) {
    if (!ImGui::IsItemVisible()) return;  // scrolled out of its window, or clipped
    noteRect(label, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
}

void noteRect(const char* label, const ImVec2& min, const ImVec2& max) {
    const std::string window = ImGui::GetCurrentWindow()->RootWindow->Name;
    drawnWidgets()[window + "/" + label] = ImVec4(min.x, min.y, max.x - min.x, max.y - min.y);
}

bool Button(const char* label, const ImVec2& size) { return noted(label, ImGui::Button(label, size)); }
bool SmallButton(const char* label) { return noted(label, ImGui::SmallButton(label)); }
bool ArrowButton(const char* id, ImGuiDir dir) { return noted(id, ImGui::ArrowButton(id, dir)); }
bool Checkbox(const char* label, bool* value) { return noted(label, ImGui::Checkbox(label, value)); }
bool RadioButton(const char* label, bool active) { return noted(label, ImGui::RadioButton(label, active)); }
bool Selectable(const char* label, bool selected, ImGuiSelectableFlags flags) {
    return noted(label, ImGui::Selectable(label, selected, flags));
}
bool BeginTabItem(const char* label, bool* open, ImGuiTabItemFlags flags) {
    // The tab itself, not its contents: noted before they are drawn.
    const bool shown = ImGui::BeginTabItem(label, open, flags);
    noteLastItem(label);
    return shown;
}
bool BeginCombo(const char* label, const char* preview) {
    const bool open = ImGui::BeginCombo(label, preview);
    if (!open) noteLastItem(label);  // open, ImGui's last item is in its popup
    return open;
}
bool Combo(const char* label, int* current, const char* const items[], int count) {
    return noted(label, ImGui::Combo(label, current, items, count));
}
bool Combo(const char* label, int* current, bool (*itemText)(void* data, int index, const char** text), void* data,
           int count) {
    return noted(label, ImGui::Combo(label, current, itemText, data, count));
}
bool InputText(const char* label, std::string* text, ImGuiInputTextFlags flags) {
    return noted(label, ImGui::InputText(label, text, flags));
}

}  // namespace impulse::ui::widgets
