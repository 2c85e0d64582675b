// Where the panels and the 3D view go in a window of a given size: two side
// columns of stacked panels, and the view as the rectangle between them. The
// columns' widths are the user's (dragged at their inner edges, remembered
// between runs) in units of the text scale, so they keep their content as the
// window and the text grow. Pure arithmetic: no ImGui, testable alone.
#pragma once

namespace impulse::ui {

/// A rectangle in window pixels (logical, origin top left).
struct Rect {
    float x = 0.0f, y = 0.0f, w = 0.0f, h = 0.0f;
    float right() const { return x + w; }
    float bottom() const { return y + h; }
    bool contains(float px, float py) const { return px >= x && px < right() && py >= y && py < bottom(); }
};

/// The columns' widths at text scale 1 (window pixels divided by the text scale).
struct ColumnWidths {
    float left = 330.0f;
    float right = 350.0f;
};

/// Narrowest a column may be dragged, at text scale 1.
inline constexpr float kMinColumnWidth = 200.0f;
/// Widest a column may be dragged, at text scale 1.
inline constexpr float kMaxColumnWidth = 700.0f;
/// The columns together (with their margins) take at most this share of the window's
/// width: the view keeps the rest however narrow the window.
inline constexpr float kMaxColumnsShare = 0.6f;
/// Gap between the panels, and between the panels and the window's edges (window pixels).
inline constexpr float kPanelMargin = 8.0f;
/// The timeline strip's height under the view at text scale 1: a row of buttons and
/// readouts, and the scrubber under it.
inline constexpr float kTimelineHeight = 58.0f;

struct Layout {
    float textScale = 1.0f;  ///< the font and the style's sizes are this many times ImGui's defaults
    Rect window;
    Rect leftColumn, rightColumn;  ///< the strips the panels sit in, margins included
    Rect view;                     ///< the 3D view: between the columns, above the timeline
    Rect timeline;                 ///< the timeline strip: between the columns, under the view
    Rect scene, world, stats;      ///< the left column's panels, top to bottom
    Rect body, contacts;           ///< the right column's
};

/// The text scale for a window: 1 up to 1280x720, then in quarter steps with the
/// smaller of the two ratios (1.5 at 1920x1080, 3 at 3840x2160), so text is readable
/// on large windows and the columns still leave the view its share on wide ones.
float textScaleFor(int width, int height);

/// The layout of a `width` x `height` window with columns of the given widths (clamped
/// to [kMinColumnWidth, kMaxColumnWidth], then narrowed together to kMaxColumnsShare).
/// With the columns hidden (Tab: a demo on a projector) they are empty strips at the
/// window's edges, and the view and the timeline take the whole width.
Layout computeLayout(int width, int height, const ColumnWidths& widths, bool columnsShown = true);

/// `widths` clamped to what a column may be.
ColumnWidths clampWidths(const ColumnWidths& widths);

}  // namespace impulse::ui
