#include "app/paths.h"

#include <cstdlib>
#include <filesystem>
#include <vector>

namespace impulse::app {

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
