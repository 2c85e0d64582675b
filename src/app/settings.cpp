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

}  // namespace

std::string layoutSettingsPath() {
    // The XDG base directory rule: an empty or relative XDG_CONFIG_HOME is ignored.
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    if (xdg && xdg[0] == '/') return (fs::path(xdg) / "impulse-lab" / "layout.ini").string();
    const char* home = std::getenv("HOME");
    if (home && home[0] != '\0') return (fs::path(home) / ".config" / "impulse-lab" / "layout.ini").string();
    return "";
}

std::string loadColumnWidths(const std::string& path, ui::ColumnWidths& widths) {
    std::error_code ec;
    if (!fs::exists(path, ec)) return "";
    std::ifstream in(path);
    if (!in) return "cannot read '" + path + "': " + std::strerror(errno);
    ui::ColumnWidths read = widths;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream fields(line);
        std::string key, equals;
        double value = 0.0;
        if (!(fields >> key >> equals >> value) || equals != "=" || !std::isfinite(value)) {
            return path + ":" + std::to_string(number) + ": expected 'key = number', got '" + line + "'";
        }
        if (key == kLeftKey) {
            read.left = static_cast<float>(value);
        } else if (key == kRightKey) {
            read.right = static_cast<float>(value);
        } else {
            return path + ":" + std::to_string(number) + ": unknown key '" + key + "'";
        }
    }
    widths = read;
    return "";
}

std::string saveColumnWidths(const std::string& path, const ui::ColumnWidths& widths) {
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    if (ec) return "cannot create '" + fs::path(path).parent_path().string() + "': " + ec.message();
    std::ofstream out(path, std::ios::trunc);
    out << "# impulse-lab: the panel columns' widths at text scale 1 (pixels at 1280x720)\n"
        << kLeftKey << " = " << widths.left << "\n"
        << kRightKey << " = " << widths.right << "\n";
    out.flush();
    if (!out) return "cannot write '" + path + "': " + std::strerror(errno);
    return "";
}

}  // namespace impulse::app
