#include "app/recovery.h"

#include "scene/scene_json.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <regex>
#include <utility>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace impulse::app {

namespace fs = std::filesystem;
using namespace scene::json_io;

namespace {

constexpr const char* kFileKind = "recovery files";

// `text` (a whole JSON document) as the value of a key one level in: every line after
// the first indented by two spaces, the final newline left out.
void appendIndented(const std::string& text, std::string& out) {
    for (size_t i = 0; i + 1 < text.size(); ++i) out += text[i] == '\n' ? std::string("\n  ") : std::string(1, text[i]);
}

uint64_t readShownStep(const json& j) {
    if (!j.is_number_unsigned()) wrongType("shown_step", "a step (an integer >= 0)", j);
    return j.get<json::number_unsigned_t>();
}

Recovery readRecovery(const json& root) {
    if (!root.is_object()) wrongType("", "a JSON object at the top level", root);
    checkKeys(root, "", {"format", "version", "saved_at", "scene_path", "unsaved_edits", "camera", "shown_step", "run",
                         "world"});
    requireFormat(root, kRecoveryFormat, kRecoveryVersion);
    Recovery recovery;
    recovery.savedAt = readString(requireKey(root, "saved_at", ""), "saved_at");
    recovery.scenePath = readString(requireKey(root, "scene_path", ""), "scene_path");
    recovery.unsavedEdits = readBool(requireKey(root, "unsaved_edits", ""), "unsaved_edits");
    if (root.contains("camera")) recovery.camera = readCamera(root.at("camera"), "camera");
    if (root.contains("run") == root.contains("world")) fail("", "must hold either \"run\" or \"world\"");
    if (root.contains("world")) {
        if (root.contains("shown_step")) fail("shown_step", "belongs with \"run\", not \"world\"");
        try {
            recovery.work = readScene(root.at("world"));
        } catch (const Failure& f) {
            fail(f.path.empty() ? "world" : join("world", f.path), f.rule);
        }
        return recovery;
    }
    Recording run;
    try {
        run = readRecording(root.at("run"));
    } catch (const Failure& f) {
        fail(f.path.empty() ? "run" : join("run", f.path), f.rule);
    }
    recovery.shownStep = readShownStep(requireKey(root, "shown_step", ""));
    if (recovery.shownStep > run.end) {
        fail("shown_step", "must not be more than the run's end_step (" + std::to_string(run.end) + ")");
    }
    recovery.work = std::move(run);
    return recovery;
}

bool processIsAlive(long pid) {
#ifdef __linux__
    // Signal 0 checks only that the process exists; EPERM: it does, under another user.
    return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
#else
    (void)pid;
    return true;  // no way to tell: never offer another instance's file
#endif
}

}  // namespace

Recovery captureRecovery(const Experiment& experiment, const std::optional<scene::SceneCamera>& camera,
                         std::string savedAt) {
    Recovery recovery;
    recovery.savedAt = std::move(savedAt);
    recovery.scenePath = experiment.scenePath();
    recovery.unsavedEdits = experiment.hasUnsavedEdits();
    recovery.camera = camera;
    std::variant<Recording, std::string> run = captureRecording(experiment);
    if (auto* recording = std::get_if<Recording>(&run)) {
        recovery.work = std::move(*recording);
        recovery.shownStep = experiment.shownStep();
    } else {
        // A world brought back by an undo of a load: its run depends on edits before it.
        recovery.work = experiment.sceneNow();
    }
    return recovery;
}

WorkMark workMark(const Experiment& experiment) {
    WorkMark mark;
    mark.latestEdit = experiment.history().empty() ? 0 : experiment.history().back()->serial;
    mark.redoCount = experiment.redoCount();
    mark.inputs = experiment.runInputs().size();
    mark.runStart = experiment.runStart();
    mark.runEnd = experiment.runEnd();
    mark.shownStep = experiment.shownStep();
    mark.branches = experiment.branchCount();
    return mark;
}

Validation restoreRecovery(const Recovery& recovery, Experiment& experiment) {
    if (const auto* world = std::get_if<scene::Scene>(&recovery.work)) return experiment.apply(LoadScene{*world, ""});
    if (Validation refused = replayRecording(std::get<Recording>(recovery.work), experiment, recovery.scenePath)) {
        return FieldError{"run." + refused->field, refused->rule};
    }
    experiment.seek(recovery.shownStep);
    return std::nullopt;
}

std::string toJson(const Recovery& recovery) {
    std::string out = "{\n  \"format\": \"" + std::string(kRecoveryFormat) + "\",\n";
    out += "  \"version\": " + std::to_string(kRecoveryVersion) + ",\n";
    out += "  \"saved_at\": " + ordered_json(recovery.savedAt).dump() + ",\n";
    out += "  \"scene_path\": " + ordered_json(recovery.scenePath).dump() + ",\n";
    out += std::string("  \"unsaved_edits\": ") + (recovery.unsavedEdits ? "true" : "false") + ",\n";
    if (recovery.camera) {
        out += "  \"camera\": ";
        writeInline(cameraJson(*recovery.camera), out);
        out += ",\n";
    }
    if (const auto* run = std::get_if<Recording>(&recovery.work)) {
        out += "  \"shown_step\": " + std::to_string(recovery.shownStep) + ",\n  \"run\": ";
        appendIndented(toJson(*run), out);
    } else {
        out += "  \"world\": ";
        appendIndented(scene::toJson(std::get<scene::Scene>(recovery.work)), out);
    }
    out += "\n}\n";
    return out;
}

RecoveryResult parseRecovery(const std::string& text, const std::string& fileName) {
    return readDocument(text, fileName, kFileKind, readRecovery);
}

RecoveryResult loadRecoveryFile(const std::string& path) {
    std::variant<std::string, scene::SceneError> text = readFileText(path, kFileKind);
    if (auto* error = std::get_if<scene::SceneError>(&text)) return std::move(*error);
    return parseRecovery(std::get<std::string>(text), path);
}

std::string describe(const Recovery& recovery) {
    std::string what;
    if (const auto* run = std::get_if<Recording>(&recovery.work)) {
        what = "'" + run->scene.name + "': a run of " + std::to_string(run->end) + " steps with " +
               std::to_string(run->inputs.size()) + " inputs, shown at step " + std::to_string(recovery.shownStep);
    } else {
        const auto& world = std::get<scene::Scene>(recovery.work);
        what = "'" + world.name + "': the world of " + std::to_string(world.bodies.size()) +
               " bodies as it was (its run could not be kept)";
    }
    return what + (recovery.unsavedEdits ? ", with unsaved edits" : "") + "; saved " + recovery.savedAt;
}

std::string recoveryFolder() {
    const char* own = std::getenv("IMPULSE_STATE_DIR");
    if (own && own[0] != '\0') return own;
    // The XDG base directory rule: an empty or relative XDG_STATE_HOME is ignored.
    const char* xdg = std::getenv("XDG_STATE_HOME");
    if (xdg && xdg[0] == '/') return (fs::path(xdg) / "impulse-lab").string();
    const char* home = std::getenv("HOME");
    if (home && home[0] != '\0') return (fs::path(home) / ".local" / "state" / "impulse-lab").string();
    return "";
}

std::string recoveryFilePath(const std::string& folder, long pid) {
    return (fs::path(folder) / ("recovery-" + std::to_string(pid) + ".json")).string();
}

std::vector<std::string> orphanedRecoveryFiles(const std::string& folder) {
    static const std::regex name(R"(recovery-([0-9]{1,9})\.json)");
    std::vector<std::pair<fs::file_time_type, std::string>> found;
    std::error_code ec;
    for (const fs::directory_entry& entry : fs::directory_iterator(folder, ec)) {
        std::smatch match;
        const std::string file = entry.path().filename().string();
        if (!std::regex_match(file, match, name) || !entry.is_regular_file(ec)) continue;
        if (processIsAlive(std::stol(match[1].str()))) continue;
        found.emplace_back(entry.last_write_time(ec), entry.path().string());
    }
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::string> paths;
    for (auto& [time, path] : found) paths.push_back(std::move(path));
    return paths;
}

std::string utcNow() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &utc);
    return text;
}

RecoveryWriter::RecoveryWriter(std::string path) : path_(std::move(path)), thread_([this] { serve(); }) {}

RecoveryWriter::~RecoveryWriter() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    if (thread_.joinable()) thread_.join();  // the work handed over is written first
}

void RecoveryWriter::submit(Recovery recovery) {
    std::optional<Recovery> replaced(std::move(recovery));
    {
        std::lock_guard<std::mutex> lock(mutex_);
        pending_.swap(replaced);
    }
    changed_.notify_all();
}  // what it replaced is freed outside the lock

bool RecoveryWriter::trySubmit(Recovery& recovery) {
    std::optional<Recovery> replaced;
    {
        std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
        if (!lock.owns_lock()) return false;  // `recovery` stays the caller's
        replaced.swap(pending_);
        pending_ = std::move(recovery);
    }
    changed_.notify_all();
    return true;
}

std::string RecoveryWriter::flush() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return !pending_ && !writing_; });
    return lastError_;
}

std::string RecoveryWriter::takeError() {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::exchange(error_, std::string());
}

void RecoveryWriter::removeFile() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    if (thread_.joinable()) thread_.join();
    std::error_code ec;
    fs::remove(path_, ec);
}

uint64_t RecoveryWriter::writes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return writes_;
}

void RecoveryWriter::serve() {
#ifdef __linux__
    // Linux's nice is per thread: the frame's threads come first. Failing leaves it at
    // the main thread's priority, which only makes the write compete with drawing.
    setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 19);
#endif
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        changed_.wait(lock, [this] { return stopping_ || pending_; });
        if (!pending_) return;  // stopping, with everything written
        std::optional<Recovery> recovery;
        recovery.swap(pending_);
        writing_ = true;
        lock.unlock();
        std::string error;
        std::error_code ec;
        fs::create_directories(fs::path(path_).parent_path(), ec);
        if (ec) {
            error = "cannot create the folder of '" + path_ + "': " + ec.message();
        } else {
            error = saveTextFile(toJson(*recovery), path_);
        }
        recovery.reset();  // freed before the lock is taken again: the frame may want it
        lock.lock();
        writing_ = false;
        ++writes_;
        lastError_ = error;
        if (!error.empty()) error_ = error;
        changed_.notify_all();
    }
}

}  // namespace impulse::app
