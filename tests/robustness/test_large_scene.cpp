// Very large scene files: 100k bodies (the limit) load; one more is refused
// with the limit in the message; and no file within the 64 MiB size limit can
// make the loader run out of memory. Files are generated to a temporary folder.
#include "robustness_util.h"
#include "scene/scene.h"

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace impulse::scene {
namespace {

namespace fs = std::filesystem;

// Memory of this process from /proc/self/status (MiB): "VmRSS" now, "VmHWM" the peak.
double statusMiB(const char* key) {
    std::ifstream status("/proc/self/status");
    std::string line;
    const std::string prefix = std::string(key) + ":";
    while (std::getline(status, line)) {
        if (line.rfind(prefix, 0) == 0) return std::stod(line.substr(prefix.size())) / 1024.0;  // kB
    }
    return 0.0;
}

// What loading one file cost, measured in a forked child so that each load's
// peak is its own (the child starts with the parent's pages and its own peak).
struct LoadCost {
    bool loaded = false;
    double peakGrowthMiB = 0.0;
    double seconds = 0.0;
    std::string message;  // the error, or "<n> bodies"
};

template <typename Work>
LoadCost measureInChild(Work work) {
    int fds[2];
    if (pipe(fds) != 0) return LoadCost{false, -1.0, 0.0, "pipe failed"};
    const pid_t child = fork();
    if (child == 0) {
        close(fds[0]);
        const double before = statusMiB("VmRSS");
        const auto start = std::chrono::steady_clock::now();
        LoadCost cost = work();
        cost.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        cost.peakGrowthMiB = statusMiB("VmHWM") - before;
        const std::string text = std::to_string(cost.loaded) + "\n" + std::to_string(cost.peakGrowthMiB) + "\n" +
                                 std::to_string(cost.seconds) + "\n" + cost.message;
        const ssize_t written = write(fds[1], text.data(), text.size());
        (void)written;
        _exit(0);
    }
    close(fds[1]);
    std::string text;
    char buffer[4096];
    for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<size_t>(n));
    close(fds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    LoadCost cost;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        cost.message = "the child died (status " + std::to_string(status) + ")";
        cost.peakGrowthMiB = -1.0;
        return cost;
    }
    std::istringstream in(text);
    std::string line;
    std::getline(in, line);
    cost.loaded = line == "1";
    std::getline(in, line);
    cost.peakGrowthMiB = std::stod(line);
    std::getline(in, line);
    cost.seconds = std::stod(line);
    std::getline(in, cost.message);
    return cost;
}

LoadCost loadFile(const fs::path& path, bool buildAndStep) {
    return measureInChild([&] {
        LoadCost cost;
        const SceneResult result = loadSceneFile(path.string());
        if (const auto* error = std::get_if<SceneError>(&result)) {
            cost.message = error->message();
            return cost;
        }
        const Scene& scene = std::get<Scene>(result);
        cost.loaded = true;
        cost.message = std::to_string(scene.bodies.size()) + " bodies";
        if (buildAndStep) {
            World world = buildWorld(scene);
            world.step();
            cost.message += ", built (" + std::to_string(world.bodyCount()) + ") and stepped, " +
                            std::to_string(world.recoveryCount()) + " recoveries";
        }
        return cost;
    });
}

// Sanitizer builds spend about 3x the memory; the bound below is for them.
#if defined(__SANITIZE_ADDRESS__)
constexpr double kMemoryScale = 3.0;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr double kMemoryScale = 3.0;
#else
constexpr double kMemoryScale = 1.0;
#endif
#else
constexpr double kMemoryScale = 1.0;
#endif

class TempDir {
public:
    TempDir() {
        path_ = fs::temp_directory_path() / ("impulse-robust-" + std::to_string(::getpid()));
        fs::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ignored;
        fs::remove_all(path_, ignored);
    }
    fs::path file(const std::string& name) const { return path_ / name; }

private:
    fs::path path_;
};

// `count` boxes on a 1 m grid (no contacts), one line each.
void writeBodies(const fs::path& path, std::size_t count) {
    std::ofstream out(path, std::ios::binary);
    out << "{\"version\": 1, \"name\": \"large\", \"bodies\": [\n";
    for (std::size_t i = 0; i < count; ++i) {
        out << (i == 0 ? "" : ",\n") << "{\"name\": \"b" << i
            << "\", \"shape\": {\"type\": \"box\", \"half_extents\": [0.25, 0.25, 0.25]}, \"mass\": 1, \"position\": ["
            << (i % 100) << ", " << 1 + (i / 10000) << ", " << (i / 100) % 100 << "]}";
    }
    out << "\n]}\n";
}

// Bound: the largest scene's text is ~11 MiB; its document, definitions and
// world may take 1 GiB (about 3 GiB under ASan). A run-away (a copy per body,
// quadratic growth) breaks it. Measured (Release): ~0.7 s and ~140 MiB.
TEST(LargeScene, HundredThousandBodiesLoadWithinBoundedMemory) {
    TempDir dir;
    const fs::path path = dir.file("100k.json");
    writeBodies(path, kMaxBodies);
    const LoadCost cost = loadFile(path, true);
    EXPECT_TRUE(cost.loaded) << cost.message;
    EXPECT_EQ(cost.message, "100000 bodies, built (100000) and stepped, 0 recoveries");
    EXPECT_GE(cost.peakGrowthMiB, 0.0) << cost.message;
    EXPECT_LT(cost.peakGrowthMiB, 1024.0 * kMemoryScale);
    std::printf("100k bodies (%.1f MiB file): load + build + 1 step %.2f s, peak memory +%.0f MiB\n",
                fs::file_size(path) / 1048576.0, cost.seconds, cost.peakGrowthMiB);
}

TEST(LargeScene, OneBodyOverTheLimitIsRefusedWithTheLimit) {
    TempDir dir;
    const fs::path path = dir.file("100k_plus_1.json");
    writeBodies(path, kMaxBodies + 1);
    const LoadCost cost = loadFile(path, false);
    EXPECT_FALSE(cost.loaded);
    EXPECT_EQ(cost.message.rfind(path.string() + ": bodies: ", 0), 0u) << cost.message;
    EXPECT_NE(cost.message.find("limit of 100000"), std::string::npos) << cost.message;
    EXPECT_GE(cost.peakGrowthMiB, 0.0) << cost.message;
    EXPECT_LT(cost.peakGrowthMiB, 1024.0 * kMemoryScale);
    std::printf("100001 bodies: %.2f s, +%.0f MiB: %s\n", cost.seconds, cost.peakGrowthMiB, cost.message.c_str());
}

// Files just under the 64 MiB size limit made of the cheapest values: each is
// refused with a message naming the file, within the same memory bound. Before
// the loader counted values while parsing, 64 MiB of "{}," in "bodies" built a
// 22-million-object document: 2.2 GiB and 6.6 s before the body limit was checked.
struct Flood {
    const char* what;
    std::string head, item, tail;
};

TEST(LargeScene, FilesOfTinyValuesUpToTheSizeLimitAreRefusedWithinBoundedMemory) {
    const Flood floods[] = {
        {"empty bodies", R"({"version": 1, "bodies": [)", "{},", "{}]}"},
        {"numbers in a position",
         R"({"version": 1, "bodies": [{"shape": {"type": "sphere", "radius": 1}, "position": [)", "0,", "0]}]}"},
        {"empty arrays in a name", R"({"version": 1, "name": [)", "[],", "[]]}"},
        {"nested small arrays", R"({"version": 1, "name": [)", "[[0,0],[0,0]],", "[]]}"},
        {"keys in an object", R"({"version": 1, "world": {)", "", "}}"},
    };
    TempDir dir;
    for (const Flood& flood : floods) {
        const fs::path path = dir.file("flood.json");
        {
            std::string text = flood.head;
            const std::size_t target = kMaxFileBytes - 64;
            if (flood.item.empty()) {
                // Unique short keys: "k0":0,"k1":0,...
                for (std::size_t i = 0; text.size() < target; ++i) {
                    text += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":0";
                }
            } else {
                while (text.size() + flood.item.size() < target) text += flood.item;
            }
            text += flood.tail;
            std::ofstream out(path, std::ios::binary);
            out << text;
        }
        const LoadCost cost = loadFile(path, false);
        EXPECT_FALSE(cost.loaded) << flood.what;
        EXPECT_EQ(cost.message.rfind(path.string() + ": ", 0), 0u) << flood.what << ": " << cost.message;
        EXPECT_GE(cost.peakGrowthMiB, 0.0) << flood.what << ": " << cost.message;
        EXPECT_LT(cost.peakGrowthMiB, 1024.0 * kMemoryScale) << flood.what;
        std::printf("%s (%.1f MiB): refused in %.2f s, peak memory +%.0f MiB: %s\n", flood.what,
                    fs::file_size(path) / 1048576.0, cost.seconds, cost.peakGrowthMiB,
                    cost.message.substr(path.string().size(), 110).c_str());
    }
}

}  // namespace
}  // namespace impulse::scene
