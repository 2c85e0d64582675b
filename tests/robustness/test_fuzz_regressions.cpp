// Replays every input the scene fuzzer ever kept (fuzz/regressions/) and its
// hand-made seeds (fuzz/seeds/) through the fuzzer's own checks
// (fuzz/scene_input_check.h): each must be refused cleanly or load, build,
// step and save. The same for the recording fuzzer (fuzz/recording_regressions/,
// fuzz/recording_input_check.h), plus every cut and many byte flips of the
// shipped recordings. Under the sanitizer build this also catches the memory
// error or undefined behaviour that made the fuzzer keep the file.
#include "../../fuzz/recording_input_check.h"
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

std::string fileText(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void replay(const fs::path& folder, std::string (*check)(const std::string&) = fuzz::checkSceneInput) {
    for (const fs::path& file : inputsIn(folder)) EXPECT_EQ(check(fileText(file)), "") << file;
}

TEST(FuzzRegressions, EveryKeptCrashInputIsHandled) {
    replay(fs::path(IMPULSE_SOURCE_DIR) / "fuzz" / "regressions");
}

TEST(FuzzRegressions, EverySeedIsHandled) {
    const std::vector<fs::path> seeds = inputsIn(fs::path(IMPULSE_SOURCE_DIR) / "fuzz" / "seeds");
    EXPECT_GE(seeds.size(), 5u);
    replay(fs::path(IMPULSE_SOURCE_DIR) / "fuzz" / "seeds");
}

TEST(FuzzRegressions, EveryKeptRecordingInputIsHandled) {
    replay(fs::path(IMPULSE_SOURCE_DIR) / "fuzz" / "recording_regressions", fuzz::checkRecordingInput);
}

TEST(FuzzRegressions, EveryShippedRecordingIsHandled) {
    const std::vector<fs::path> shipped = inputsIn(fs::path(IMPULSE_SOURCE_DIR) / "assets" / "recordings");
    EXPECT_GE(shipped.size(), 3u);
    replay(fs::path(IMPULSE_SOURCE_DIR) / "assets" / "recordings", fuzz::checkRecordingInput);
}

// A recording cut anywhere, or with a byte changed, is refused with a path and a rule
// or read and replayed (a changed digit may still make a valid file).
TEST(MalformedRecordings, CutsAndByteFlipsOfAShippedOneAreHandled) {
    const std::string text = fileText(fs::path(IMPULSE_SOURCE_DIR) / "assets" / "recordings" / "newtons_cradle.json");
    ASSERT_FALSE(text.empty());
    for (size_t cut = 0; cut < text.size(); cut += 7) {
        EXPECT_EQ(fuzz::checkRecordingInput(text.substr(0, cut)), "") << "cut at " << cut;
    }
    const char replacements[] = {'0', '9', '-', '"', '}', ']', ',', 'x', '.', 'e'};
    uint32_t state = 12345u;  // a fixed linear congruential sequence: the same flips every run
    for (int flip = 0; flip < 400; ++flip) {
        state = state * 1664525u + 1013904223u;
        std::string changed = text;
        changed[(state >> 8) % changed.size()] = replacements[(state >> 4) % sizeof replacements];
        EXPECT_EQ(fuzz::checkRecordingInput(changed), "") << "flip " << flip;
    }
}

}  // namespace
}  // namespace impulse
