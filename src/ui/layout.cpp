#include "ui/layout.h"

#include <algorithm>
#include <cmath>

namespace impulse::ui {

namespace {

// The panels' heights at 1280x720 (text scale 1), in window pixels: every column keeps
// these proportions at any height. The left column's panels share its height less the
// two gaps between them; the right column's, less one.
constexpr float kSceneHeight = 276.0f, kWorldHeight = 216.0f, kStatsHeight = 196.0f;
constexpr float kBodyHeight = 372.0f, kContactsHeight = 324.0f;
constexpr float kReferenceWidth = 1280.0f, kReferenceHeight = 720.0f;

// Splits `column` (margins included) into panels with the given relative heights.
template <size_t N>
void stack(const Rect& column, const float (&shares)[N], Rect* (&&out)[N]) {
    const float x = column.x + kPanelMargin, w = column.w - 2.0f * kPanelMargin;
    const float usable = column.h - 2.0f * kPanelMargin - static_cast<float>(N - 1) * kPanelMargin;
    float total = 0.0f;
    for (float s : shares) total += s;
    float y = column.y + kPanelMargin;
    for (size_t i = 0; i < N; ++i) {
        // Whole pixels, the last panel taking what rounding left, so the gaps stay even.
        const float h = i + 1 == N ? column.bottom() - kPanelMargin - y : std::round(usable * shares[i] / total);
        *out[i] = Rect{x, y, w, std::max(h, 0.0f)};
        y += h + kPanelMargin;
    }
}

}  // namespace

float textScaleFor(int width, int height) {
    const float ratio = std::min(static_cast<float>(width) / kReferenceWidth,
                                 static_cast<float>(height) / kReferenceHeight);
    return std::max(1.0f, std::floor(ratio * 4.0f) / 4.0f);
}

ColumnWidths clampWidths(const ColumnWidths& widths) {
    const auto clampOne = [](float w) {
        return std::isfinite(w) ? std::clamp(w, kMinColumnWidth, kMaxColumnWidth) : kMinColumnWidth;
    };
    return ColumnWidths{clampOne(widths.left), clampOne(widths.right)};
}

Layout computeLayout(int width, int height, const ColumnWidths& widths, bool columnsShown) {
    Layout layout;
    const float W = static_cast<float>(std::max(width, 1)), H = static_cast<float>(std::max(height, 1));
    layout.window = Rect{0.0f, 0.0f, W, H};
    layout.textScale = textScaleFor(width, height);
    const ColumnWidths clamped = clampWidths(widths);
    float left = std::round(clamped.left * layout.textScale);
    float right = std::round(clamped.right * layout.textScale);
    // Narrow both columns alike when together they would take more than their share.
    const float room = kMaxColumnsShare * W - 4.0f * kPanelMargin;
    if (left + right > room) {
        const float shrink = std::max(room, 0.0f) / (left + right);
        left = std::floor(left * shrink);
        right = std::floor(right * shrink);
    }
    layout.leftColumn = Rect{0.0f, 0.0f, columnsShown ? left + 2.0f * kPanelMargin : 0.0f, H};
    layout.rightColumn = columnsShown ? Rect{W - right - 2.0f * kPanelMargin, 0.0f, right + 2.0f * kPanelMargin, H}
                                      : Rect{W, 0.0f, 0.0f, H};
    const float between = layout.rightColumn.x - layout.leftColumn.right();
    // The timeline never takes more than a third of a short window's height.
    const float timelineHeight = std::min(std::round(kTimelineHeight * layout.textScale), std::floor(H / 3.0f));
    layout.view = Rect{layout.leftColumn.right(), 0.0f, between, H - timelineHeight};
    layout.timeline = Rect{layout.leftColumn.right(), layout.view.bottom(), between, timelineHeight};
    if (!columnsShown) return layout;  // no panels: their rectangles stay empty
    stack(layout.leftColumn, {kSceneHeight, kWorldHeight, kStatsHeight},
          {&layout.scene, &layout.world, &layout.stats});
    stack(layout.rightColumn, {kBodyHeight, kContactsHeight}, {&layout.body, &layout.contacts});
    return layout;
}

}  // namespace impulse::ui
