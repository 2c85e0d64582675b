// The whole run as impulse-sim's body-state CSV, from the app: the run is replayed
// from its recording on a scratch experiment, so the rows are those of
// `impulse-sim --replay RECORDING.json --csv` byte for byte, whatever step is shown.
// A long run takes a while (a 5-minute pile1000 replays in about a minute), so the
// app runs it on a thread of its own and the frame loop never waits for it.
#pragma once

#include "app/recording.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace impulse::app {

/// Writes every step of the recording's run (the world as loaded, then after each
/// step) to `path`, through `path.partial` renamed at the end, so a failed or stopped
/// export leaves no file. `stop` set stops it; `stepsWritten` counts the steps written.
/// Returns "" or the error.
std::string writeRunCsv(const Recording& recording, const std::string& path, const std::atomic<bool>& stop,
                        std::atomic<uint64_t>& stepsWritten);

class RunCsvExport {
public:
    RunCsvExport() = default;
    RunCsvExport(const RunCsvExport&) = delete;
    RunCsvExport& operator=(const RunCsvExport&) = delete;
    /// Stops an export still running (its partial file is removed).
    ~RunCsvExport();

    /// Starts writing the experiment's run to `path`; returns why not ("" when started).
    std::string start(const Experiment& experiment, const std::string& path);
    bool running() const { return running_.load(); }
    /// While running: the steps written of the run's total.
    uint64_t stepsWritten() const { return stepsWritten_.load(std::memory_order_relaxed); }
    uint64_t steps() const { return steps_; }

    struct Outcome {
        std::string message;
        bool isError = false;
    };
    /// How the last export ended, once: after that, none until the next one ends.
    std::optional<Outcome> takeOutcome();

private:
    std::thread thread_;
    std::atomic<bool> running_{false};
    std::atomic<bool> stop_{false};
    std::atomic<uint64_t> stepsWritten_{0};
    uint64_t steps_ = 0;
    std::mutex outcomeMutex_;
    std::optional<Outcome> outcome_;
};

}  // namespace impulse::app
