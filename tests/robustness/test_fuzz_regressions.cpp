// Replays every input the scene fuzzer ever kept (fuzz/regressions/) and its
// hand-made seeds (fuzz/seeds/) through the fuzzer's own checks
// (fuzz/scene_input_check.h): each must be refused cleanly or load, build,
// step and save. Under the sanitizer build this also catches the memory error
// or undefined behaviour that made the fuzzer keep the file.
#include "../../fuzz/scene_input_check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace impulse {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> inputsIn(const fs::path& folder) {
    std::vector<fs::path> files;
    if (!fs::is_directory(folder)) return files;
    for (const auto& entry : fs::directory_iterator(folder)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && name != "README.md" && name != ".gitkeep") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

void replay(const fs::path& folder) {
    for (const fs::path& file : inputsIn(folder)) {
        std::ifstream in(file, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        EXPECT_EQ(fuzz::checkSceneInput(text.str()), "") << file;
    }
}

TEST(FuzzRegressions, EveryKeptCrashInputIsHandled) {
    replay(fs::path(IMPULSE_SOURCE_DIR) / "fuzz" / "regressions");
}

TEST(FuzzRegressions, EverySeedIsHandled) {
    const std::vector<fs::path> seeds = inputsIn(fs::path(IMPULSE_SOURCE_DIR) / "fuzz" / "seeds");
    EXPECT_GE(seeds.size(), 5u);
    replay(fs::path(IMPULSE_SOURCE_DIR) / "fuzz" / "seeds");
}

}  // namespace
}  // namespace impulse
