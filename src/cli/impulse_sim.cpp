// impulse-sim: the headless runner. Loads a scene and steps it, or replays a
// recording (an experiment's run with its inputs), and writes the state as CSV
// and/or a JSON summary. Contract (the README, "impulse-sim"):
//   exit 0 success; 2 invalid input (message on stderr, nothing else written);
//   1 internal failure (e.g. a non-finite state, naming the body and step).
// The CSV depends only on the scene and the flags, never on timing, so two runs
// of the same build give byte-identical files.
#include "app/recording.h"
#include "physics/world.h"
#include "scene/scene.h"
#include "scene/state_csv.h"
#include "sweep/sweep.h"
#include "cli/summary_format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <optional>
#include <string>
#include <vector>

namespace {

using impulse::cli::shortest;

using impulse::BodyId;
using impulse::World;
using ordered_json = nlohmann::ordered_json;

// Beyond this a run is a typo, not an experiment (about 46 hours at 60 Hz).
constexpr long long kMaxSteps = 10'000'000;

const std::string kUsage = std::string() +
    "usage: impulse-sim SCENE.json --steps N [--dt SECONDS] [--csv OUT.csv] [--every K] [--summary]\n"
    "                   [--threads T]\n"
    "       impulse-sim SCENE.json --steps N --sweep TARGET.FIELD=FROM:TO:COUNT[:log] --measure OUTCOME\n"
    "                   [--dt SECONDS] [--threads T]\n"
    "       impulse-sim --replay RECORDING.json [--csv OUT.csv] [--every K] [--summary]\n"
    "\n"
    "Runs a scene headless and reports its state.\n"
    "  --replay RECORDING.json  replay a recording saved by impulse-lab (its scene, then\n"
    "                 every drag, edit, spawn, deletion, undo and redo at its step, to\n"
    "                 its last step): the final state is the recorded run's, bit for bit;\n"
    "                 CSV rows list the bodies alive at each row's step\n"
    "  --steps N      number of steps to take (0 <= N <= 10000000), required\n"
    "  --dt SECONDS   step length; default: the scene's world.timestep\n"
    "  --csv OUT.csv  write step,time,body,px,py,pz,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,\n"
    "                 one row per body at step 0, every K-th step and the last step\n"
    "  --every K      CSV row interval in steps (K >= 1, default 1)\n"
    "  --summary      print one JSON object on stdout: steps, simulated_time,\n"
    "                 wall_time_s, step_time_ms {median, p95, mean, max}, the final\n"
    "                 state of every body, energies, momenta, contact_points of the\n"
    "                 last step, max_speed (largest final body speed, m/s) and\n"
    "                 sleeping_bodies (asleep after the last step; 0 unless world.sleeping)\n"
    "                 and spin_clamped (bodies whose spin a step clamped to the limit\n"
    "                 on the speed of their farthest point, summed over the steps)\n"
    "                 and left_bounds (the bodies removed for leaving world.bounds)\n"
    "  --threads T    threads sharing the solver's sweeps (1 <= T <= 64, default 1);\n"
    "                 results are bit-identical for every T\n"
    "  --sweep TARGET.FIELD=FROM:TO:COUNT[:log]\n"
    "                 run the scene once per value of one parameter (COUNT values from\n"
    "                 FROM to TO, evenly or, with :log, evenly in log space), each run\n"
    "                 for N steps of the scene's timestep (a world.timestep sweep runs\n"
    "                 each value for that same simulated time), and print one CSV row\n"
    "                 per value: value,outcome,note. TARGET is a body's name with FIELD\n"
    "                 one of: " + impulse::sweep::bodyFieldList() + ";\n"
    "                 or world with FIELD one of: " + impulse::sweep::worldFieldList() + ".\n"
    "                 --threads T runs T values at once (each run alone on one thread:\n"
    "                 the same numbers for every T)\n"
    "  --measure OUTCOME  what a sweep measures in each run, one of: " + impulse::sweep::measureList() + "\n"
    "                 (apex: highest centre height after the first rebound; rest_time: from\n"
    "                 when the body stays slower than 1 cm/s and 0.1 rad/s; energy_lost:\n"
    "                 kinetic + potential energy at the start less at the end, J);\n"
    "                 an empty outcome: the run never showed it\n"
    "  --help         show this text\n"
    "\n"
    "A dynamic body whose centre of mass leaves the world's bounds (world.bounds) is\n"
    "removed after that step, with a line on stderr naming it.\n"
    "\n"
    "Exit status: 0 success, 2 invalid input, 1 internal failure (e.g. non-finite state).\n";

struct Options {
    std::string scenePath;
    std::string replayPath;
    long long steps = -1;
    std::optional<float> dt;
    std::string csvPath;
    long long every = 1;
    bool summary = false;
    int threads = 1;
    std::optional<impulse::sweep::SweepSpec> sweep;
    std::optional<impulse::sweep::Measure> measure;
};

// Invalid input: message on stderr, exit 2.
struct UsageError {
    std::string message;
};

[[noreturn]] void usageError(const std::string& message) {
    throw UsageError{message};
}

long long parseInteger(const std::string& flag, const std::string& text) {
    const bool negative = !text.empty() && text[0] == '-';
    const std::size_t digitsFrom = negative ? 1 : 0;
    if (text.size() == digitsFrom || text.find_first_not_of("0123456789", digitsFrom) != std::string::npos) {
        usageError(flag + ": expected a whole number, got '" + text + "'");
    }
    errno = 0;
    const long long value = std::strtoll(text.c_str(), nullptr, 10);
    if (errno == ERANGE) usageError(flag + ": '" + text + "' is out of range");
    return value;
}

double parseReal(const std::string& flag, const std::string& text) {
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() ||
        std::isspace(static_cast<unsigned char>(text[0]))) {
        usageError(flag + ": expected a number, got '" + text + "'");
    }
    if (!std::isfinite(value) || errno == ERANGE)
        usageError(flag + ": '" + text + "' is not a finite number");
    return value;
}

// Returns nullopt when --help was asked for.
std::optional<Options> parseArguments(int argc, char** argv) {
    Options options;
    bool stepsSeen = false, dtSeen = false, csvSeen = false, everySeen = false, summarySeen = false,
         threadsSeen = false, replaySeen = false, sweepSeen = false, measureSeen = false;
    auto once = [](bool& seen, const std::string& flag) {
        if (seen) usageError(flag + ": given more than once");
        seen = true;
    };
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg == "--help" || arg == "-h") return std::nullopt;
        if (arg.size() < 2 || arg.compare(0, 2, "--") != 0) {
            if (arg.size() > 1 && arg[0] == '-') usageError(arg + ": unknown flag (see --help)");
            if (!options.scenePath.empty()) {
                usageError("unexpected argument '" + arg + "' (only one scene file; see --help)");
            }
            options.scenePath = arg;
            continue;
        }
        // --flag=value or --flag value
        std::optional<std::string> inlineValue;
        if (auto eq = arg.find('='); eq != std::string::npos) {
            inlineValue = arg.substr(eq + 1);
            arg.erase(eq);
        }
        auto value = [&]() -> std::string {
            if (inlineValue) return *inlineValue;
            if (i + 1 >= argc) usageError(arg + ": missing value");
            return argv[++i];
        };
        if (arg == "--steps") {
            once(stepsSeen, arg);
            options.steps = parseInteger(arg, value());
            if (options.steps < 0)
                usageError("--steps: must be >= 0 (got " + std::to_string(options.steps) + ")");
            if (options.steps > kMaxSteps) {
                usageError("--steps: must be <= " + std::to_string(kMaxSteps) + " (got " +
                           std::to_string(options.steps) + ")");
            }
        } else if (arg == "--dt") {
            once(dtSeen, arg);
            const double dt = parseReal(arg, value());
            // The physics layer owns the allowed range: ask it.
            impulse::WorldSettings probe;
            probe.timestep = static_cast<float>(std::clamp(dt, -1.0e30, 1.0e30));
            if (impulse::Validation error = impulse::validateSettings(probe)) {
                usageError("--dt: " + error->rule);
            }
            options.dt = probe.timestep;
        } else if (arg == "--csv") {
            once(csvSeen, arg);
            options.csvPath = value();
            if (options.csvPath.empty()) usageError("--csv: missing value");
        } else if (arg == "--every") {
            once(everySeen, arg);
            options.every = parseInteger(arg, value());
            if (options.every < 1)
                usageError("--every: must be >= 1 (got " + std::to_string(options.every) + ")");
        } else if (arg == "--threads") {
            once(threadsSeen, arg);
            const long long threads = parseInteger(arg, value());
            // The physics layer owns the allowed range: ask it.
            if (impulse::Validation error = impulse::validateThreadCount(int(std::clamp(threads, -1LL, 1000000LL)))) {
                usageError("--threads: " + error->rule + " (got " + std::to_string(threads) + ")");
            }
            options.threads = int(threads);
        } else if (arg == "--replay") {
            once(replaySeen, arg);
            options.replayPath = value();
            if (options.replayPath.empty()) usageError("--replay: missing value");
        } else if (arg == "--sweep") {
            once(sweepSeen, arg);
            auto parsed = impulse::sweep::parseSweep(value());
            if (auto* error = std::get_if<impulse::sweep::ParseError>(&parsed)) usageError(error->message);
            options.sweep = std::get<0>(parsed);
        } else if (arg == "--measure") {
            once(measureSeen, arg);
            auto parsed = impulse::sweep::parseMeasure(value());
            if (auto* error = std::get_if<impulse::sweep::ParseError>(&parsed)) usageError(error->message);
            options.measure = std::get<impulse::sweep::Measure>(parsed);
        } else if (arg == "--summary") {
            once(summarySeen, arg);
            if (inlineValue) usageError("--summary: takes no value");
            options.summary = true;
        } else {
            usageError(arg + ": unknown flag (see --help)");
        }
    }
    if (sweepSeen || measureSeen) {
        if (!sweepSeen) usageError("--measure: only with --sweep");
        if (!measureSeen) usageError("--sweep: needs --measure OUTCOME (one of " + impulse::sweep::measureList() + ")");
        if (replaySeen) usageError("--sweep: runs a scene; sweeping a recording is not supported");
        if (csvSeen || everySeen || summarySeen) {
            usageError("--sweep: prints its own CSV on stdout; not with --csv, --every or --summary");
        }
    }
    if (replaySeen) {
        // A recording holds its own scene, length and step size.
        if (!options.scenePath.empty()) usageError("--replay: give a recording or a scene, not both");
        if (stepsSeen) usageError("--steps: not with --replay (a recording runs to its own last step)");
        if (dtSeen) usageError("--dt: not with --replay (a recording's steps are its own)");
        if (threadsSeen) usageError("--threads: not with --replay (a replay runs on one thread)");
        return options;
    }
    if (options.scenePath.empty()) usageError("missing SCENE.json or --replay RECORDING.json (see --help)");
    if (!stepsSeen) usageError("--steps: required (see --help)");
    return options;
}

ordered_json vec(const impulse::vec3& v) {
    return ordered_json::array({shortest(v.x), shortest(v.y), shortest(v.z)});
}
ordered_json dvec(const glm::dvec3& v) {
    return ordered_json::array({v.x, v.y, v.z});
}


// A dynamic body that left the world's bounds, reported on stderr as it is removed and
// listed in the summary.
struct LeftBounds {
    std::string name;
    long long step = 0;
};

void reportLeftBounds(const std::string& name, long long step, const impulse::vec3& position) {
    std::fprintf(stderr, "impulse-sim: step %lld: body '%s' left the world bounds at (%.1f, %.1f, %.1f) m: removed\n", step,
                 name.c_str(), double(position.x), double(position.y), double(position.z));
}

// Removes the dynamic bodies outside the world's bounds after a step; true when it removed one.
bool removeBodiesOutsideBounds(World& world, long long step, std::vector<LeftBounds>& left) {
    const std::vector<BodyId> outside = world.bodiesOutsideBounds();
    for (BodyId id : outside) {
        reportLeftBounds(world.body(id).name, step, world.body(id).position);
        left.push_back({world.body(id).name, step});
        world.removeBody(id);
    }
    return !outside.empty();
}

ordered_json summarise(const World& world, const std::vector<BodyId>& ids, long long steps,
                       double simulatedTime, double wallSeconds, std::vector<double> stepMs,
                       const std::vector<LeftBounds>& leftBounds) {

    ordered_json bodies = ordered_json::array();
    double maxSpeed = 0.0;
    for (BodyId id : ids) {
        const impulse::Body& b = world.body(id);
        const impulse::quat& q = b.orientation;
        bodies.push_back(ordered_json{
            {"name", b.name},
            {"position", vec(b.position)},
            {"orientation",
             ordered_json::array({shortest(q.w), shortest(q.x), shortest(q.y), shortest(q.z)})},
            {"linear_velocity", vec(b.linearVelocity)},
            {"angular_velocity", vec(b.angularVelocity)},
        });
        if (b.isDynamic()) maxSpeed = std::max(maxSpeed, static_cast<double>(glm::length(b.linearVelocity)));
    }

    ordered_json summary;
    summary["steps"] = steps;
    summary["simulated_time"] = simulatedTime;
    summary["wall_time_s"] = wallSeconds;
    summary["step_time_ms"] = impulse::cli::stepTimeSummary(std::move(stepMs));
    summary["bodies"] = std::move(bodies);
    summary["kinetic_energy"] = world.kineticEnergy();
    summary["potential_energy"] = world.potentialEnergy();
    summary["linear_momentum"] = dvec(world.linearMomentum());
    summary["angular_momentum"] = dvec(world.angularMomentum());
    summary["contact_points"] = world.stats().contactPoints;
    summary["max_speed"] = maxSpeed;
    summary["sleeping_bodies"] = world.stats().sleepingBodies;
    summary["spin_clamped"] = world.spinClampCount();
    ordered_json left = ordered_json::array();
    for (const LeftBounds& body : leftBounds) left.push_back(ordered_json{{"name", body.name}, {"step", body.step}});
    summary["left_bounds"] = std::move(left);
    return summary;
}

// The --csv file: opened only after every input check passed (invalid input writes nothing).
class CsvFile {
public:
    ~CsvFile() { close(); }
    // False (with the message printed) when it cannot be created.
    bool open(const std::string& path) {
        path_ = path;
        file_ = std::fopen(path.c_str(), "wb");
        if (file_ == nullptr) {
            std::fprintf(stderr, "impulse-sim: --csv: cannot create '%s': %s\n", path.c_str(), std::strerror(errno));
            return false;
        }
        std::fputs(impulse::scene::kStateCsvHeader, file_);
        return true;
    }
    void rows(const World& world, const std::vector<BodyId>& ids, const std::vector<std::string>& names,
              long long step, double time) {
        if (file_ != nullptr) impulse::scene::writeStateCsvRows(file_, world, ids, names, step, time);
    }
    // An input refused during a replay is invalid input: nothing is left written.
    void discard() {
        if (file_ == nullptr) return;
        std::fclose(file_);
        file_ = nullptr;
        std::remove(path_.c_str());
    }
    // False (with the message printed) when writing failed.
    bool close() {
        if (file_ == nullptr) return true;
        const bool ok = std::fflush(file_) == 0 && !std::ferror(file_);
        const bool closed = std::fclose(file_) == 0;
        file_ = nullptr;
        if (!ok || !closed) std::fprintf(stderr, "impulse-sim: --csv: writing '%s' failed\n", path_.c_str());
        return ok && closed;
    }

private:
    std::FILE* file_ = nullptr;
    std::string path_;
};

// The world rolls a non-finite step back (so an interactive session survives);
// for a batch run it is still an internal failure. True when it happened.
bool reportedNonFinite(const World& world, long long step) {
    const auto& recovery = world.lastRecovery();
    if (!recovery) return false;
    std::fprintf(stderr, "impulse-sim: non-finite state in body '%s' at step %lld\n", recovery->bodyName.c_str(), step);
    return true;
}

int printSummary(const World& world, long long steps, double simulatedTime, double wallSeconds,
                 std::vector<double> stepMs, const std::vector<LeftBounds>& leftBounds) {
    const std::string text =
        summarise(world, world.bodyIds(), steps, simulatedTime, wallSeconds, std::move(stepMs), leftBounds).dump(2);
    std::fprintf(stdout, "%s\n", text.c_str());
    return std::fflush(stdout) == 0 ? 0 : 1;
}

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The scene file with --dt applied; none (the message printed) when it is invalid input.
std::optional<impulse::scene::Scene> loadScene(const Options& options) {
    impulse::scene::SceneResult loaded = impulse::scene::loadSceneFile(options.scenePath);
    if (const auto* error = std::get_if<impulse::scene::SceneError>(&loaded)) {
        std::fprintf(stderr, "impulse-sim: %s\n", error->message().c_str());
        return std::nullopt;
    }
    impulse::scene::Scene& scene = std::get<impulse::scene::Scene>(loaded);
    if (options.dt) {
        scene.settings.timestep = *options.dt;
        if (impulse::Validation error = impulse::validateSettings(scene.settings)) {
            std::fprintf(stderr, "impulse-sim: --dt: with this scene's world settings: %s\n",
                         error->message().c_str());
            return std::nullopt;
        }
    }
    return std::move(scene);
}

int run(const Options& options) {
    const std::optional<impulse::scene::Scene> scene = loadScene(options);
    if (!scene) return 2;
    World world = impulse::scene::buildWorld(*scene);
    world.setThreadCount(options.threads);  // checked while parsing

    const float dt = world.settings().timestep;
    std::vector<BodyId> ids = world.bodyIds();
    std::vector<std::string> names = impulse::scene::stateCsvNames(world, ids);
    std::vector<LeftBounds> leftBounds;

    CsvFile csv;
    if (!options.csvPath.empty()) {
        if (!csv.open(options.csvPath)) return 2;
        csv.rows(world, ids, names, 0, 0.0);
    }

    std::vector<double> stepMs;
    stepMs.reserve(static_cast<std::size_t>(options.steps));
    const Clock::time_point runStart = Clock::now();
    for (long long step = 1; step <= options.steps; ++step) {
        const Clock::time_point start = Clock::now();
        world.step();
        stepMs.push_back(millisecondsSince(start));
        if (reportedNonFinite(world, step)) {
            csv.close();
            return 1;
        }
        if (removeBodiesOutsideBounds(world, step, leftBounds)) {
            ids = world.bodyIds();
            names = impulse::scene::stateCsvNames(world, ids);
        }
        if (step % options.every == 0 || step == options.steps) {
            csv.rows(world, ids, names, step, static_cast<double>(step) * static_cast<double>(dt));
        }
    }
    const double wallSeconds = millisecondsSince(runStart) / 1000.0;
    if (!csv.close()) return 1;
    if (!options.summary) return 0;
    return printSummary(world, options.steps, static_cast<double>(options.steps) * static_cast<double>(dt),
                        wallSeconds, std::move(stepMs), leftBounds);
}

// --replay: the recording's run through an Experiment, as the app ran it. The CSV
// lists the bodies alive at each row's step (spawns and deletions change them).
int replay(const Options& options) {
    impulse::app::RecordingResult loaded = impulse::app::loadRecordingFile(options.replayPath);
    if (const auto* error = std::get_if<impulse::scene::SceneError>(&loaded)) {
        std::fprintf(stderr, "impulse-sim: %s\n", error->message().c_str());
        return 2;
    }
    const impulse::app::Recording& recording = std::get<impulse::app::Recording>(loaded);
    const long long steps = static_cast<long long>(recording.end);
    CsvFile csv;
    if (!options.csvPath.empty() && !csv.open(options.csvPath)) return 2;

    impulse::app::Experiment experiment;
    std::vector<double> stepMs;
    stepMs.reserve(static_cast<std::size_t>(steps));
    bool nonFinite = false;
    std::vector<LeftBounds> leftBounds;
    Clock::time_point stepStart = Clock::now();
    const Clock::time_point runStart = stepStart;
    const auto observe = [&](const World& world) {
        const long long step = static_cast<long long>(world.stepCount());
        if (step > 0) stepMs.push_back(millisecondsSince(stepStart));
        if (reportedNonFinite(world, step)) {
            nonFinite = true;
            return false;
        }
        for (const impulse::app::BodyLeftBounds& left : experiment.takeBodiesLeftBounds()) {
            reportLeftBounds(left.name, step, left.position);
            leftBounds.push_back({left.name, step});
        }
        if (step % options.every == 0 || step == steps) {
            const std::vector<BodyId> ids = world.bodyIds();
            csv.rows(world, ids, impulse::scene::stateCsvNames(world, ids), step, experiment.simulatedTime());
        }
        stepStart = Clock::now();
        return true;
    };
    if (const impulse::Validation refused =
            impulse::app::replayRecording(recording, experiment, "", observe)) {
        csv.discard();
        std::fprintf(stderr, "impulse-sim: %s: %s\n", options.replayPath.c_str(), refused->message().c_str());
        return 2;
    }
    const double wallSeconds = millisecondsSince(runStart) / 1000.0;
    if (!csv.close() || nonFinite) return 1;
    if (!options.summary) return 0;
    return printSummary(experiment.world(), steps, experiment.simulatedTime(), wallSeconds, std::move(stepMs),
                        leftBounds);
}

// --sweep: one run per value, one CSV row each on stdout.
int sweep(const Options& options) {
    std::optional<impulse::scene::Scene> scene = loadScene(options);
    if (!scene) return 2;
    impulse::sweep::Request request;
    request.scene = std::move(*scene);
    request.parameter = options.sweep->first;
    request.values = options.sweep->second.values();
    request.measure = *options.measure;
    request.duration = double(options.steps) * double(request.scene.settings.timestep);
    request.threads = options.threads;
    const auto named = [&](const std::string& body) { return impulse::scene::findBody(request.scene, body) != nullptr; };
    if (!request.parameter.body.empty() && !named(request.parameter.body)) {
        std::fprintf(stderr, "impulse-sim: --sweep: %s: the scene has no body named '%s'\n",
                     request.parameter.name().c_str(), request.parameter.body.c_str());
        return 2;
    }
    if (!request.measure.body.empty() && !named(request.measure.body)) {
        std::fprintf(stderr, "impulse-sim: --measure: %s: the scene has no body named '%s'\n",
                     request.measure.name().c_str(), request.measure.body.c_str());
        return 2;
    }
    const std::vector<impulse::sweep::Variant> variants = impulse::sweep::run(request);
    std::printf("%s,%s,note\n", request.parameter.name().c_str(), request.measure.name().c_str());
    size_t refused = 0;
    for (const impulse::sweep::Variant& variant : variants) {
        std::string outcome;
        if (variant.outcome) {
            char text[32];
            std::snprintf(text, sizeof text, "%.9g", *variant.outcome);
            outcome = text;
        }
        std::string note = variant.refused.empty() ? (variant.outcome ? "" : "not seen in the run") : variant.refused;
        if (!variant.refused.empty()) {
            ++refused;
            std::fprintf(stderr, "impulse-sim: --sweep: %s\n", variant.refused.c_str());
        }
        std::replace(note.begin(), note.end(), ',', ';');
        std::printf("%.9g,%s,%s\n", variant.value, outcome.c_str(), note.c_str());
    }
    if (std::fflush(stdout) != 0) return 1;
    return refused == variants.size() ? 2 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        std::optional<Options> options = parseArguments(argc, argv);
        if (!options) {
            std::fputs(kUsage.c_str(), stdout);
            return 0;
        }
        if (options->sweep) return sweep(*options);
        return options->replayPath.empty() ? run(*options) : replay(*options);
    } catch (const UsageError& e) {
        std::fprintf(stderr, "impulse-sim: %s\n", e.message.c_str());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "impulse-sim: internal error: %s\n", e.what());
        return 1;
    } catch (...) {
        std::fprintf(stderr, "impulse-sim: internal error\n");
        return 1;
    }
}
