// The ghost run's tint: a colour none of the bodies' palette is near, shared by the
// ghost bodies drawn see-through (app/frame.cpp) and the panels that point at the ghost.
#pragma once

namespace impulse::ui {

struct Tint {
    float r, g, b;
};
inline constexpr Tint kGhostTint{0.55f, 1.0f, 0.95f};

}  // namespace impulse::ui
