// The user's settings remembered between runs: the panel columns' widths and the
// Shadows setting, in a small file under $XDG_CONFIG_HOME/impulse-lab/ (or
// ~/.config/impulse-lab/), never in the working directory.
#pragma once

#include "app/auto_shadows.h"
#include "ui/layout.h"

#include <string>

namespace impulse::app {

/// The settings file's path, or "" when neither XDG_CONFIG_HOME nor HOME is set.
std::string layoutSettingsPath();

struct AppSettings {
    ui::ColumnWidths columns;
    ShadowMode shadows = ShadowMode::automatic;
    bool operator==(const AppSettings& o) const {
        return columns.left == o.columns.left && columns.right == o.columns.right && shadows == o.shadows;
    }
};

/// Reads the settings from `path` into `settings`. A missing file is no error (the
/// defaults stay); an unreadable or malformed one returns the reason (the line, the key
/// and what it takes) and leaves `settings` as they were.
std::string loadSettings(const std::string& path, AppSettings& settings);

/// Writes the settings to `path`, creating its folder; returns "" or the reason it failed.
std::string saveSettings(const std::string& path, const AppSettings& settings);

}  // namespace impulse::app
