// impulse-sim: the headless runner. Loads a scene, steps it, writes the state as
// CSV and/or a JSON summary. Contract (shared/DESIGN.md):
//   exit 0 success; 2 invalid input (message on stderr, nothing else written);
//   1 internal failure (e.g. a non-finite state, naming the body and step).
// The CSV depends only on the scene and the flags, never on timing, so two runs
// of the same build give byte-identical files.
#include "physics/world.h"
#include "scene/scene.h"
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

constexpr const char* kUsage =
    "usage: impulse-sim SCENE.json --steps N [--dt SECONDS] [--csv OUT.csv] [--every K] [--summary]\n"
    "                   [--threads T]\n"
    "\n"
    "Runs a scene headless and reports its state.\n"
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
    "  --threads T    threads sharing the solver's sweeps (1 <= T <= 64, default 1);\n"
    "                 results are bit-identical for every T\n"
    "  --help         show this text\n"
    "\n"
    "Exit status: 0 success, 2 invalid input, 1 internal failure (e.g. non-finite state).\n";

struct Options {
    std::string scenePath;
    long long steps = -1;
    std::optional<float> dt;
    std::string csvPath;
    long long every = 1;
    bool summary = false;
    int threads = 1;
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
         threadsSeen = false;
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
        } else if (arg == "--summary") {
            once(summarySeen, arg);
            if (inlineValue) usageError("--summary: takes no value");
            options.summary = true;
        } else {
            usageError(arg + ": unknown flag (see --help)");
        }
    }
    if (options.scenePath.empty()) usageError("missing SCENE.json (see --help)");
    if (!stepsSeen) usageError("--steps: required (see --help)");
    return options;
}

// RFC 4180 quoting for names that contain a separator, a quote or a line break.
std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    return quoted + "\"";
}

// Nine significant digits read back as the same float.
void printFloat(std::FILE* out, float x) {
    std::fprintf(out, ",%.9g", static_cast<double>(x));
}

void writeRows(std::FILE* out, const World& world, const std::vector<BodyId>& ids,
               const std::vector<std::string>& names, long long step, double time) {
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const impulse::Body& b = world.body(ids[i]);
        std::fprintf(out, "%lld,%.9g,%s", step, time, names[i].c_str());
        for (int k = 0; k < 3; ++k) printFloat(out, b.position[k]);
        printFloat(out, b.orientation.w);
        printFloat(out, b.orientation.x);
        printFloat(out, b.orientation.y);
        printFloat(out, b.orientation.z);
        for (int k = 0; k < 3; ++k) printFloat(out, b.linearVelocity[k]);
        for (int k = 0; k < 3; ++k) printFloat(out, b.angularVelocity[k]);
        std::fputc('\n', out);
    }
}


ordered_json vec(const impulse::vec3& v) {
    return ordered_json::array({shortest(v.x), shortest(v.y), shortest(v.z)});
}
ordered_json dvec(const glm::dvec3& v) {
    return ordered_json::array({v.x, v.y, v.z});
}


ordered_json summarise(const World& world, const std::vector<BodyId>& ids, long long steps,
                       double simulatedTime, double wallSeconds, std::vector<double> stepMs) {

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
    return summary;
}

int run(const Options& options) {
    impulse::scene::SceneResult loaded = impulse::scene::loadSceneFile(options.scenePath);
    if (const auto* error = std::get_if<impulse::scene::SceneError>(&loaded)) {
        std::fprintf(stderr, "impulse-sim: %s\n", error->message().c_str());
        return 2;
    }
    impulse::scene::Scene& scene = std::get<impulse::scene::Scene>(loaded);
    if (options.dt) {
        scene.settings.timestep = *options.dt;
        if (impulse::Validation error = impulse::validateSettings(scene.settings)) {
            std::fprintf(stderr, "impulse-sim: --dt: with this scene's world settings: %s\n",
                         error->message().c_str());
            return 2;
        }
    }
    World world = impulse::scene::buildWorld(scene);
    world.setThreadCount(options.threads);  // checked while parsing

    const float dt = world.settings().timestep;
    const std::vector<BodyId> ids = world.bodyIds();
    std::vector<std::string> names;
    names.reserve(ids.size());
    for (BodyId id : ids) names.push_back(csvField(world.body(id).name));

    // Opened only after every input check passed: invalid input writes nothing.
    std::FILE* csv = nullptr;
    if (!options.csvPath.empty()) {
        csv = std::fopen(options.csvPath.c_str(), "wb");
        if (csv == nullptr) {
            std::fprintf(stderr, "impulse-sim: --csv: cannot create '%s': %s\n", options.csvPath.c_str(),
                         std::strerror(errno));
            return 2;
        }
        std::fputs("step,time,body,px,py,pz,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n", csv);
        writeRows(csv, world, ids, names, 0, 0.0);
    }
    auto closeCsv = [&]() -> bool {
        if (csv == nullptr) return true;
        const bool ok = std::fflush(csv) == 0 && !std::ferror(csv);
        const bool closed = std::fclose(csv) == 0;
        csv = nullptr;
        if (!ok || !closed) {
            std::fprintf(stderr, "impulse-sim: --csv: writing '%s' failed\n", options.csvPath.c_str());
        }
        return ok && closed;
    };

    using Clock = std::chrono::steady_clock;
    std::vector<double> stepMs;
    stepMs.reserve(static_cast<std::size_t>(options.steps));
    const Clock::time_point runStart = Clock::now();
    for (long long step = 1; step <= options.steps; ++step) {
        const Clock::time_point start = Clock::now();
        world.step();
        stepMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());

        // The world rolls a non-finite step back (so an interactive session
        // survives); for a batch run it is still an internal failure.
        if (const auto& recovery = world.lastRecovery()) {
            closeCsv();
            std::fprintf(stderr, "impulse-sim: non-finite state in body '%s' at step %lld\n",
                         recovery->bodyName.c_str(), step);
            return 1;
        }
        if (csv != nullptr && (step % options.every == 0 || step == options.steps)) {
            writeRows(csv, world, ids, names, step, static_cast<double>(step) * static_cast<double>(dt));
        }
    }
    const double wallSeconds = std::chrono::duration<double>(Clock::now() - runStart).count();
    if (!closeCsv()) return 1;

    if (options.summary) {
        const double simulatedTime = static_cast<double>(options.steps) * static_cast<double>(dt);
        const std::string text =
            summarise(world, ids, options.steps, simulatedTime, wallSeconds, std::move(stepMs)).dump(2);
        std::fprintf(stdout, "%s\n", text.c_str());
        if (std::fflush(stdout) != 0) return 1;
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        std::optional<Options> options = parseArguments(argc, argv);
        if (!options) {
            std::fputs(kUsage, stdout);
            return 0;
        }
        return run(*options);
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
