// The project's own docs stand alone: users get the README, docs/ and the sources, not
// the team's notes, so none of them may send a reader to a file the project lacks; and
// the README's package list names every library package the set-up script installs.
#include "app/file_text.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const fs::path kSource = IMPULSE_SOURCE_DIR;

std::vector<fs::path> projectTexts() {
    std::vector<fs::path> texts{kSource / "README.md"};
    for (const char* dir : {"docs", "src", "tests", "tools", "scripts", "bench", "fuzz", "assets"}) {
        for (const auto& entry : fs::recursive_directory_iterator(kSource / dir)) {
            const std::string ext = entry.path().extension().string();
            if (entry.is_regular_file() && (ext == ".md" || ext == ".h" || ext == ".cpp" || ext == ".sh" || ext == ".txt" ||
                                            ext == ".py" || ext == ".json")) {
                texts.push_back(entry.path());
            }
        }
    }
    return texts;
}

}  // namespace

TEST(DocsStandAlone, NoProjectFileCitesTheTeamsNotes) {
    const std::regex cited(R"(shared/|DESIGN\.md)");
    for (const fs::path& path : projectTexts()) {
        if (path.filename() == "test_docs_stand_alone.cpp") continue;  // the rule's own pattern
        std::istringstream lines(fileText(path.string()));
        std::string line;
        for (int number = 1; std::getline(lines, line); ++number) {
            EXPECT_FALSE(std::regex_search(line, cited)) << path.string() << ":" << number << ": " << line;
        }
    }
}

TEST(DocsStandAlone, ReadmeListsEveryLibraryPackageTheSetUpInstalls) {
    const std::string script = fileText((kSource / "scripts/dev.sh").string());
    std::smatch list;
    ASSERT_TRUE(std::regex_search(script, list, std::regex(R"(\npackages=\(([^)]*)\))")));
    const std::string readme = fileText((kSource / "README.md").string());
    std::istringstream names(list[1].str());
    std::string name;
    int checked = 0;
    while (names >> name) {
        // The build tools are summed up as such; the README names the rest one by one.
        if (name == "build-essential" || name == "cmake" || name == "ninja-build" || name == "pkg-config" ||
            name == "python3") {
            continue;
        }
        const std::regex word("(^|[\\s`(])" + std::regex_replace(name, std::regex(R"([+.])"), R"(\$&)") + "([\\s`),]|$)");
        EXPECT_TRUE(std::regex_search(readme, word)) << "README's package list lacks " << name;
        ++checked;
    }
    EXPECT_GE(checked, 10);
}
