// The Stats panel's rolling plots, drawn with ImGui's draw list.
#pragma once

#include "ui/edit.h"

#include <imgui.h>

#include <optional>
#include <utility>
#include <vector>

namespace impulse::ui {

/// Several named series of up to `slots` samples, spread over the width, in one frame of
/// the given height, with a shared vertical range (its ends written inside) and a legend
/// (top right, on a line of its own where the range's top number leaves no room).
/// The layout report has the plot under `id`, the number and the legend under
/// "`id` top" and "`id` legend".
/// Non-finite samples leave gaps. A `cursor` slot (the step shown) is drawn as a line.
/// Returns the slot clicked this frame (fractional), if any.
std::optional<float> multiPlot(const char* id, const std::vector<std::pair<const char*, std::vector<float>>>& series,
                               const ImU32* colors, float height, int slots = StatsHistory::kCapacity,
                               std::optional<float> cursor = std::nullopt);

}  // namespace impulse::ui
