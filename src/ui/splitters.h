// The columns' inner edges as handles: dragging one widens or narrows its column.
#pragma once

#include "ui/layout.h"

namespace impulse::ui {

/// Draws a handle along each column's inner margin (an invisible window the width of
/// the margin, so the view's pixels stay the 3D pass's) and applies a drag on it to
/// `widths`. Returns true while a handle is held or hovered.
bool columnSplitters(const Layout& layout, ColumnWidths& widths);

}  // namespace impulse::ui
