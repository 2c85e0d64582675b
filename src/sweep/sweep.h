// Sweeps: one experiment run for a range of one parameter at once, each value
// a copy of the scene with that one edit, stepped headless on worker threads,
// and one outcome measured per run. No window, no files: impulse-sim's
// --sweep and the app share it.
#pragma once

#include "physics/body.h"
#include "scene/scene.h"

#include <atomic>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace impulse::sweep {

/// What a sweep varies: a field of one body ("ball.e") or of the world ("world.timestep").
struct Parameter {
    std::string body;   ///< the body's name; empty for a world setting
    std::string field;  ///< one of bodyFieldList() or worldFieldList()
    /// "ball.e", "world.timestep": as the CLI takes it and the CSV header shows it.
    std::string name() const { return (body.empty() ? std::string("world") : body) + "." + field; }
};

/// The values of a sweep: `count` values from `from` to `to`, evenly spaced, or
/// evenly in log space (both ends > 0).
struct Range {
    double from = 0.0, to = 1.0;
    int count = 2;
    bool logarithmic = false;
    std::vector<double> values() const;
};

/// What a sweep measures in each run.
enum class MeasureKind {
    Apex,       ///< highest centre height (y, m) after the body's first rebound (v_y turns from down to up)
    FinalX,     ///< centre position at the end, m
    FinalY,
    FinalZ,
    Distance,   ///< path length of the centre over the run, m
    RestTime,   ///< time (s) from which the body stays slower than kRestSpeed and kRestSpin
    EnergyLost, ///< the world's kinetic + potential energy at the start less at the end, J
};

struct Measure {
    MeasureKind kind = MeasureKind::Apex;
    std::string body;  ///< empty for energy_lost
    /// "apex:ball", "energy_lost": as the CLI takes it and the CSV header shows it.
    std::string name() const;
};

/// A body at rest for RestTime: slower than this (m/s) and turning slower than kRestSpin (rad/s).
inline constexpr float kRestSpeed = 0.01f;
inline constexpr float kRestSpin = 0.1f;
/// Most values one sweep may run.
inline constexpr int kMaxVariants = 1024;

/// Refusals name the part of the text and the rule, e.g. "--sweep: 'ball.q': unknown body field".
struct ParseError {
    std::string message;
};
/// A parsed --sweep: what varies, over which values.
using SweepSpec = std::pair<Parameter, Range>;
std::variant<SweepSpec, ParseError> parseSweep(const std::string& text);
std::variant<Measure, ParseError> parseMeasure(const std::string& text);
std::string bodyFieldList();
std::string worldFieldList();
std::string measureList();

/// The scene with `parameter` set to `value`; a refusal names the field and the
/// rule (an unknown body, a value the model does not accept).
std::variant<scene::Scene, FieldError> withValue(const scene::Scene& base, const Parameter& parameter, double value);

/// One run of a sweep.
struct Variant {
    double value = 0.0;
    std::optional<double> outcome;  ///< none: the run never showed it (no rebound, not at rest)
    std::string refused;            ///< why this value was not run ("" when it ran)
    std::vector<Body> finalBodies;  ///< the bodies' state at the end (what a single run with the edit ends with)
};

struct Request {
    scene::Scene scene;
    Parameter parameter;
    std::vector<double> values;
    Measure measure;
    double duration = 1.0;  ///< simulated s each run lasts (a timestep sweep takes as many steps as that needs)
    int threads = 1;        ///< worker threads, each running whole variants
};

/// Shared with the caller while a sweep runs: how many variants are done, and a Cancel.
struct Progress {
    std::atomic<int> done{0};
    std::atomic<bool> cancel{false};
};

/// Runs every variant, in the order of the values; the results do not depend on
/// `threads` (each run is single-threaded and alone). After a cancel, the
/// variants it stopped are left out.
std::vector<Variant> run(const Request& request, Progress* progress = nullptr);

/// One variant: the measured outcome of a world stepped for `duration`.
Variant runVariant(const scene::Scene& scene, const Parameter& parameter, double value, const Measure& measure,
                   double duration);

}  // namespace impulse::sweep
