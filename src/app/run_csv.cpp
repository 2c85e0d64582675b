#include "app/run_csv.h"

#include "scene/state_csv.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace impulse::app {

namespace {

// The scratch experiment's history is never looked at: the smallest budget will do.
constexpr size_t kScratchHistoryBytes = size_t(16) << 20;

}  // namespace

std::string writeRunCsv(const Recording& recording, const std::string& path, const std::atomic<bool>& stop,
                        std::atomic<uint64_t>& stepsWritten) {
    const std::string partial = path + ".partial";
    std::FILE* out = std::fopen(partial.c_str(), "wb");
    if (out == nullptr) return "export run: cannot create '" + partial + "': " + std::strerror(errno);
    std::fputs(scene::kStateCsvHeader, out);
    Experiment experiment;
    experiment.setHistoryBudget(kScratchHistoryBytes);
    const auto writeStep = [&](const World& world) {
        if (stop.load(std::memory_order_relaxed)) return false;
        const std::vector<BodyId> bodies = world.bodyIds();
        scene::writeStateCsvRows(out, world, bodies, scene::stateCsvNames(world, bodies),
                                 static_cast<long long>(world.stepCount()), experiment.simulatedTime());
        stepsWritten.store(world.stepCount(), std::memory_order_relaxed);
        return true;
    };
    const Validation refused = replayRecording(recording, experiment, "", writeStep);
    const bool written = std::fflush(out) == 0 && !std::ferror(out);
    const bool closed = std::fclose(out) == 0;
    std::string error;
    if (stop.load()) {
        error = "export run: stopped";
    } else if (refused) {
        error = "export run: the run does not replay: " + refused->message();
    } else if (!written || !closed) {
        error = "export run: writing '" + partial + "' failed";
    } else if (std::rename(partial.c_str(), path.c_str()) != 0) {
        error = "export run: cannot rename '" + partial + "' to '" + path + "': " + std::strerror(errno);
    }
    if (!error.empty()) std::remove(partial.c_str());
    return error;
}

RunCsvExport::~RunCsvExport() {
    stop_.store(true);
    if (thread_.joinable()) thread_.join();
}

std::string RunCsvExport::start(const Experiment& experiment, const std::string& path) {
    if (running_.load()) return "export run: the last export is still running";
    if (path.empty()) return "export run: the file name is empty";
    std::variant<Recording, std::string> captured = captureRecording(experiment);
    if (const auto* refused = std::get_if<std::string>(&captured)) return "export run: " + *refused;
    if (thread_.joinable()) thread_.join();
    Recording recording = std::move(std::get<Recording>(captured));
    steps_ = recording.end;
    stepsWritten_.store(0);
    stop_.store(false);
    running_.store(true);
    thread_ = std::thread([this, recording = std::move(recording), path] {
        const std::string error = writeRunCsv(recording, path, stop_, stepsWritten_);
        {
            const std::lock_guard<std::mutex> lock(outcomeMutex_);
            outcome_ = error.empty() ? Outcome{"wrote the run, steps 0 to " + std::to_string(recording.end) +
                                                   " (impulse-sim's columns), to " + path,
                                               false}
                                     : Outcome{error, true};
        }
        running_.store(false);
    });
    return "";
}

std::optional<RunCsvExport::Outcome> RunCsvExport::takeOutcome() {
    const std::lock_guard<std::mutex> lock(outcomeMutex_);
    std::optional<Outcome> outcome = std::move(outcome_);
    outcome_.reset();
    return outcome;
}

}  // namespace impulse::app
