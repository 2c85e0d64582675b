#include "app/settings.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace impulse::app {

namespace fs = std::filesystem;

namespace {

constexpr const char* kLeftKey = "left_column_width";
constexpr const char* kRightKey = "right_column_width";
constexpr const char* kShadowsKey = "shadows";

}  // namespace

std::string layoutSettingsPath() {
    // The XDG base directory rule: an empty or relative XDG_CONFIG_HOME is ignored.
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    if (xdg && xdg[0] == '/') return (fs::path(xdg) / "impulse-lab" / "layout.ini").string();
    const char* home = std::getenv("HOME");
    if (home && home[0] != '\0') return (fs::path(home) / ".config" / "impulse-lab" / "layout.ini").string();
    return "";
}

std::string loadSettings(const std::string& path, AppSettings& settings) {
    std::error_code ec;
    if (!fs::exists(path, ec)) return "";
    std::ifstream in(path);
    if (!in) return "cannot read '" + path + "': " + std::strerror(errno);
    AppSettings read = settings;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (line.empty() || line[0] == '#') continue;
        const std::string where = path + ":" + std::to_string(number) + ": ";
        std::istringstream fields(line);
        std::string key, equals, value, more;
        if (!(fields >> key >> equals >> value) || equals != "=" || (fields >> more)) {
            return where + "expected 'key = value', got '" + line + "'";
        }
        if (key == kLeftKey || key == kRightKey) {
            char* end = nullptr;
            const double width = std::strtod(value.c_str(), &end);
            if (end == value.c_str() || *end != '\0' || !std::isfinite(width)) {
                return where + key + " takes a number of pixels, got '" + value + "'";
            }
            (key == kLeftKey ? read.columns.left : read.columns.right) = static_cast<float>(width);
        } else if (key == kShadowsKey) {
            if (!parseShadowMode(value, read.shadows)) return where + "shadows takes auto, on or off, got '" + value + "'";
        } else {
            return where + "unknown key '" + key + "'";
        }
    }
    settings = read;
    return "";
}

std::string saveSettings(const std::string& path, const AppSettings& settings) {
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    if (ec) return "cannot create '" + fs::path(path).parent_path().string() + "': " + ec.message();
    std::ofstream out(path, std::ios::trunc);
    out << "# impulse-lab: the panel columns' widths at text scale 1 (pixels at 1280x720)\n"
        << kLeftKey << " = " << settings.columns.left << "\n"
        << kRightKey << " = " << settings.columns.right << "\n"
        << "# World > Render > shadows: auto, on or off\n"
        << kShadowsKey << " = " << shadowModeName(settings.shadows) << "\n";
    out.flush();
    if (!out) return "cannot write '" + path + "': " + std::strerror(errno);
    return "";
}

}  // namespace impulse::app
