#include "app/paths.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace impulse::app {

namespace {

// XDG_VIDEOS_DIR as xdg-user-dirs writes it: XDG_VIDEOS_DIR="$HOME/Videos", or "".
std::string userDirsVideos(const std::string& home) {
    const char* config = std::getenv("XDG_CONFIG_HOME");
    const std::filesystem::path dirs = (config && config[0] == '/') ? std::filesystem::path(config) / "user-dirs.dirs"
                                                                    : std::filesystem::path(home) / ".config" / "user-dirs.dirs";
    std::ifstream in(dirs);
    const std::string key = "XDG_VIDEOS_DIR=\"";
    for (std::string line; std::getline(in, line);) {
        if (line.compare(0, key.size(), key) != 0 || line.back() != '"') continue;
        std::string value = line.substr(key.size(), line.size() - key.size() - 1);
        if (value.compare(0, 5, "$HOME") == 0) value = home + value.substr(5);
        if (!value.empty() && value[0] == '/') return value;
    }
    return "";
}

}  // namespace

std::string videosFolder() {
    const char* home = std::getenv("HOME");
    const char* videos = std::getenv("XDG_VIDEOS_DIR");
    std::string folder;
    if (videos && videos[0] == '/') {
        folder = videos;
    } else if (home && home[0] == '/') {
        folder = userDirsVideos(home);
        if (folder.empty()) folder = (std::filesystem::path(home) / "Videos").string();
    } else {
        return ".";
    }
    return (std::filesystem::path(folder) / "impulse-lab").string();
}

std::string findDataPaths(const std::string& executableDir, DataPaths& out) {
    namespace fs = std::filesystem;
    std::vector<fs::path> roots;
    if (const char* env = std::getenv("IMPULSE_DATA_DIR")) roots.emplace_back(env);
    if (!executableDir.empty()) {
        fs::path p = fs::path(executableDir);
        for (int up = 0; up < 4 && !p.empty(); ++up) {
            roots.push_back(p);
            if (p == p.parent_path()) break;
            p = p.parent_path();
        }
    }
#ifdef IMPULSE_SOURCE_DIR
    roots.emplace_back(IMPULSE_SOURCE_DIR);
#endif
    std::error_code ec;
    for (const fs::path& root : roots) {
        if (fs::exists(root / "shaders" / "lit.vert", ec)) {
            out.shaders = (root / "shaders").lexically_normal().string();
            out.scenes = (root / "assets" / "scenes").lexically_normal().string();
            return "";
        }
    }
    std::string tried;
    for (const fs::path& root : roots) tried += "\n  " + root.string();
    return "cannot find the shaders folder (shaders/lit.vert); looked in:" + tried +
           "\nset IMPULSE_DATA_DIR to the folder holding shaders/ and assets/";
}

std::string firstFreeNumberedPath(const std::string& folder, const std::string& stem, const std::string& extension) {
    namespace fs = std::filesystem;
    std::error_code ec;
    for (unsigned long n = 1;; ++n) {
        const fs::path candidate = fs::path(folder) / (stem + std::to_string(n) + extension);
        if (!fs::exists(candidate, ec)) return candidate.string();  // an unreadable folder: the save says why
    }
}

}  // namespace impulse::app
