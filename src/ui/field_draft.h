// Edits that apply on commit. While a field is being typed into or dragged, its
// value lives here, not in the world: typing 1.5 into e never applies 1 first, and a
// drag does not add a history entry per frame. The edit is handed over once, when
// the field is left (Enter, Tab, a click elsewhere, releasing the drag). Every
// numeric field of the panels (body values, inertia entries, world and drag
// settings) goes through FieldDraft::edit.
#pragma once

#include "physics/math.h"

#include <imgui.h>

#include <array>
#include <cstring>
#include <map>
#include <string>
#include <type_traits>

namespace impulse::ui {

class FieldDraft {
public:
    /// Draws `widget(label, value)` (an ImGui item that edits `value` and returns whether
    /// it changed it) on the value in force, or on the draft while the field is active.
    /// Returns true on the frame the edit is committed with a value other than the one
    /// in force, which is then in `value`; the caller applies it. Otherwise `value` is
    /// what the field shows. Only one field is active at a time, so one draft is enough.
    template <class T, class Widget>
    bool edit(const char* label, T& value, Widget&& widget) {
        static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(Bytes), "the draft holds T by value");
        const T inForce = value;
        const ImGuiID id = ImGui::GetID(label);  // the id the widget gives itself
        const int frame = ImGui::GetFrameCount();
        // A field not drawn last frame was left without a commit (its panel or body went away).
        if (id == active_ && drawnFrame_ < frame - 1) active_ = 0;
        if (id == active_) {
            std::memcpy(&value, draft_.data(), sizeof(T));
            drawnFrame_ = frame;
        }
        const bool changed = widget(label, value);
        // A hidden label ("##I[0][1]") is reported by its name without the "##"; a field
        // scrolled out of its panel is not reported (a click there would miss it).
        const char* name = std::strncmp(label, "##", 2) == 0 ? label + 2 : label;
        if (name[0] != '\0' && ImGui::IsItemVisible()) {
            const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
            drawn_[name] = ImVec4(min.x, min.y, max.x - min.x, max.y - min.y);
        } else if (name[0] != '\0') {
            drawn_.erase(name);
        }
        // Kept on the frame of a change too: Enter deactivates the field in the same frame.
        if (changed || ImGui::IsItemActive()) {
            active_ = id;
            drawnFrame_ = frame;
            std::memcpy(draft_.data(), &value, sizeof(T));
        }
        if (!ImGui::IsItemDeactivated() || id != active_) return false;
        active_ = 0;
        const bool committed = ImGui::IsItemDeactivatedAfterEdit();
        if (!committed || std::memcmp(&value, &inForce, sizeof(T)) == 0) {
            value = inForce;
            return false;
        }
        return true;
    }

    /// Where each labelled field was last drawn (window pixels: x, y, width, height, the
    /// label included), for the layout report that tells test scripts where to click.
    const std::map<std::string, ImVec4>& drawnFields() const { return drawn_; }

private:
    std::map<std::string, ImVec4> drawn_;
    using Bytes = std::array<unsigned char, 64>;  // a vec3 or a float is the most a field holds
    ImGuiID active_ = 0;
    int drawnFrame_ = 0;
    Bytes draft_{};
};

/// The widget of a numeric field, for FieldDraft::edit: a drag that also takes typed
/// values (double-click or Ctrl+click), for a float, a vec3 or an int.
inline auto numericDrag(float speed, const char* format = "%.3f") {
    return [speed, format](const char* label, auto& value) {
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, vec3>) {
            return ImGui::DragFloat3(label, &value.x, speed, 0.0f, 0.0f, format);
        } else if constexpr (std::is_same_v<T, int>) {
            return ImGui::DragInt(label, &value, speed);
        } else {
            return ImGui::DragFloat(label, &value, speed, 0.0f, 0.0f, format);
        }
    };
}

}  // namespace impulse::ui
