// Where the app finds its shaders and preset scenes, whatever the working directory.
#pragma once

#include <string>

namespace impulse::app {

struct DataPaths {
    std::string shaders;  ///< folder holding lit.vert etc.
    std::string scenes;   ///< assets/scenes
    std::string defaultScene() const { return scenes + "/default.json"; }
};

/// Looks in $IMPULSE_DATA_DIR, then beside the executable and its parents,
/// then in the source tree the app was built from. Returns "" or an error.
std::string findDataPaths(const std::string& executableDir, DataPaths& out);

/// Where V's videos go: the user's videos folder (XDG_VIDEOS_DIR from the environment or
/// from user-dirs.dirs in the XDG config folder, else ~/Videos) and in it impulse-lab;
/// the working folder (".") without a home.
std::string videosFolder();

/// `folder/stemN.extension` for the lowest N >= 1 that names no file yet, so that a
/// new screenshot or clip never overwrites one from an earlier run ("" is the working folder).
std::string firstFreeNumberedPath(const std::string& folder, const std::string& stem, const std::string& extension);

}  // namespace impulse::app
