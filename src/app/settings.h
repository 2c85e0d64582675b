// The user's layout remembered between runs: the panel columns' widths, in a small
// file under $XDG_CONFIG_HOME/impulse-lab/ (or ~/.config/impulse-lab/), never in the
// working directory.
#pragma once

#include "ui/layout.h"

#include <string>

namespace impulse::app {

/// The settings file's path, or "" when neither XDG_CONFIG_HOME nor HOME is set.
std::string layoutSettingsPath();

/// Reads the widths from `path` into `widths`. A missing file is no error (the defaults
/// stay); an unreadable or malformed one returns the reason and leaves `widths` as it was.
std::string loadColumnWidths(const std::string& path, ui::ColumnWidths& widths);

/// Writes the widths to `path`, creating its folder; returns "" or the reason it failed.
std::string saveColumnWidths(const std::string& path, const ui::ColumnWidths& widths);

}  // namespace impulse::app
