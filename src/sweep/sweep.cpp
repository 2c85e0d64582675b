#include "sweep/sweep.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace impulse::sweep {
namespace {

struct FieldName {
    const char* name;
};

constexpr FieldName kBodyFields[] = {
    {"mass"}, {"e"}, {"mu"}, {"mu_s"},
    {"x"}, {"y"}, {"z"},
    {"vx"}, {"vy"}, {"vz"},
    {"wx"}, {"wy"}, {"wz"},
};
constexpr FieldName kWorldFields[] = {
    {"gravity_x"}, {"gravity_y"}, {"gravity_z"}, {"timestep"},
    {"passes"}, {"sub_steps"}, {"threshold"},
};

struct MeasureName {
    MeasureKind kind;
    const char* name;
};
constexpr MeasureName kMeasures[] = {
    {MeasureKind::Apex, "apex"},         {MeasureKind::FinalX, "final_x"},   {MeasureKind::FinalY, "final_y"},
    {MeasureKind::FinalZ, "final_z"},    {MeasureKind::Distance, "distance"}, {MeasureKind::RestTime, "rest_time"},
    {MeasureKind::EnergyLost, "energy_lost"},
};

template <class Table>
bool listed(const Table& table, const std::string& name) {
    return std::any_of(std::begin(table), std::end(table), [&](const FieldName& f) { return name == f.name; });
}

template <class Table>
std::string listOf(const Table& table) {
    std::string out;
    for (const FieldName& f : table) out += (out.empty() ? "" : ", ") + std::string(f.name);
    return out;
}

std::optional<double> parseNumber(const std::string& text) {
    if (text.empty()) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(value)) return std::nullopt;
    return value;
}

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    size_t from = 0;
    for (size_t at; (at = text.find(separator, from)) != std::string::npos; from = at + 1) {
        parts.push_back(text.substr(from, at - from));
    }
    parts.push_back(text.substr(from));
    return parts;
}

std::string shortText(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", value);
    return text;
}

bool atRest(const Body& body) {
    return glm::length(body.linearVelocity) < kRestSpeed && glm::length(body.angularVelocity) < kRestSpin;
}

// Follows the measured body (or the world) step by step.
class Observer {
public:
    Observer(const World& world, const Measure& measure) : measure_(measure) {
        if (!measure.body.empty()) id_ = world.findBody(measure.body);
        startEnergy_ = world.kineticEnergy() + world.potentialEnergy();
        if (id_) {
            const Body& body = world.body(id_);
            lastPosition_ = glm::dvec3(body.position);
            lastVerticalVelocity_ = body.linearVelocity.y;
        }
    }
    bool found() const { return measure_.body.empty() || bool(id_); }

    void observe(const World& world, double time) {
        if (!id_ || !world.isValid(id_)) return;
        const Body& body = world.body(id_);
        const glm::dvec3 position(body.position);
        distance_ += glm::length(position - lastPosition_);
        lastPosition_ = position;
        if (!rebounded_ && lastVerticalVelocity_ < 0.0f && body.linearVelocity.y > 0.0f) rebounded_ = true;
        lastVerticalVelocity_ = body.linearVelocity.y;
        if (rebounded_) apex_ = std::max(apex_.value_or(position.y), position.y);
        if (!atRest(body)) lastMoving_ = time;
    }

    std::optional<double> outcome(const World& world) const {
        if (measure_.kind == MeasureKind::EnergyLost) {
            return startEnergy_ - (world.kineticEnergy() + world.potentialEnergy());
        }
        if (!id_ || !world.isValid(id_)) return std::nullopt;  // it left the world's bounds
        const Body& body = world.body(id_);
        switch (measure_.kind) {
            case MeasureKind::Apex: return apex_;
            case MeasureKind::FinalX: return double(body.position.x);
            case MeasureKind::FinalY: return double(body.position.y);
            case MeasureKind::FinalZ: return double(body.position.z);
            case MeasureKind::Distance: return distance_;
            case MeasureKind::RestTime: return atRest(body) ? std::optional<double>(lastMoving_) : std::nullopt;
            case MeasureKind::EnergyLost: break;
        }
        return std::nullopt;
    }

private:
    const Measure& measure_;
    BodyId id_;
    double startEnergy_ = 0.0;
    glm::dvec3 lastPosition_{0.0};
    float lastVerticalVelocity_ = 0.0f;
    bool rebounded_ = false;
    std::optional<double> apex_;
    double distance_ = 0.0;
    double lastMoving_ = 0.0;
};

}  // namespace

std::vector<double> Range::values() const {
    std::vector<double> out;
    out.reserve(size_t(std::max(count, 0)));
    for (int i = 0; i < count; ++i) {
        const double t = count == 1 ? 0.0 : double(i) / double(count - 1);
        out.push_back(logarithmic ? from * std::pow(to / from, t) : from + t * (to - from));
    }
    if (count > 1) out.back() = to;  // exactly the end the user typed
    return out;
}

std::string Measure::name() const {
    for (const MeasureName& m : kMeasures) {
        if (m.kind == kind) return body.empty() ? std::string(m.name) : std::string(m.name) + ":" + body;
    }
    return "?";
}

std::string bodyFieldList() { return listOf(kBodyFields); }
std::string worldFieldList() { return listOf(kWorldFields); }
std::string measureList() {
    std::string out;
    for (const MeasureName& m : kMeasures) {
        out += (out.empty() ? "" : ", ") + std::string(m.name) + (m.kind == MeasureKind::EnergyLost ? "" : ":BODY");
    }
    return out;
}

std::variant<SweepSpec, ParseError> parseSweep(const std::string& text) {
    const auto refuse = [&](const std::string& rule) { return ParseError{"--sweep: '" + text + "': " + rule}; };
    const size_t equals = text.find('=');
    const size_t dot = text.rfind('.', equals);
    if (equals == std::string::npos || dot == std::string::npos || dot == 0) {
        return refuse("expected BODY.FIELD=FROM:TO:COUNT[:log] or world.FIELD=FROM:TO:COUNT[:log]");
    }
    Parameter parameter;
    parameter.body = text.substr(0, dot);
    parameter.field = text.substr(dot + 1, equals - dot - 1);
    if (parameter.body == "world") {
        parameter.body.clear();
        if (!listed(kWorldFields, parameter.field)) return refuse("unknown world field (one of " + worldFieldList() + ")");
    } else if (!listed(kBodyFields, parameter.field)) {
        return refuse("unknown body field (one of " + bodyFieldList() + ")");
    }
    const std::vector<std::string> parts = split(text.substr(equals + 1), ':');
    if (parts.size() < 3 || parts.size() > 4 || (parts.size() == 4 && parts[3] != "log")) {
        return refuse("the range is FROM:TO:COUNT, or FROM:TO:COUNT:log");
    }
    Range range;
    const std::optional<double> from = parseNumber(parts[0]), to = parseNumber(parts[1]);
    if (!from) return refuse("FROM '" + parts[0] + "' is not a finite number");
    if (!to) return refuse("TO '" + parts[1] + "' is not a finite number");
    const std::optional<double> count = parseNumber(parts[2]);
    if (!count || *count != std::floor(*count) || *count < 1 || *count > kMaxVariants) {
        return refuse("COUNT '" + parts[2] + "' must be a whole number from 1 to " + std::to_string(kMaxVariants));
    }
    range.from = *from;
    range.to = *to;
    range.count = int(*count);
    range.logarithmic = parts.size() == 4;
    if (range.logarithmic && (range.from <= 0.0 || range.to <= 0.0)) return refuse("a log range needs FROM > 0 and TO > 0");
    return std::make_pair(parameter, range);
}

std::variant<Measure, ParseError> parseMeasure(const std::string& text) {
    const size_t colon = text.find(':');
    const std::string kind = text.substr(0, colon);
    for (const MeasureName& m : kMeasures) {
        if (kind != m.name) continue;
        Measure measure{m.kind, colon == std::string::npos ? std::string() : text.substr(colon + 1)};
        const bool needsBody = m.kind != MeasureKind::EnergyLost;
        if (needsBody && measure.body.empty()) return ParseError{"--measure: '" + text + "': names a body (" + kind + ":BODY)"};
        if (!needsBody && colon != std::string::npos) {
            return ParseError{"--measure: '" + text + "': " + kind + " is the whole world's (no :BODY)"};
        }
        return measure;
    }
    return ParseError{"--measure: '" + text + "': unknown outcome (one of " + measureList() + ")"};
}

std::variant<scene::Scene, FieldError> withValue(const scene::Scene& base, const Parameter& parameter, double value) {
    scene::Scene scene = base;
    const float v = float(value);
    const std::string& f = parameter.field;
    if (parameter.body.empty()) {
        WorldSettings& s = scene.settings;
        const bool whole = f == "passes" || f == "sub_steps";
        if (whole && (value != std::floor(value) || std::fabs(value) > 1e6)) {
            return FieldError{"world." + f, "must be a whole number (got " + shortText(value) + ")"};
        }
        if (f == "gravity_x") s.gravity.x = v;
        else if (f == "gravity_y") s.gravity.y = v;
        else if (f == "gravity_z") s.gravity.z = v;
        else if (f == "timestep") s.timestep = v;
        else if (f == "passes") s.passes = int(value);
        else if (f == "sub_steps") s.subSteps = int(value);
        else if (f == "threshold") s.restitutionThreshold = v;
    } else {
        BodyDef* def = scene::findBody(scene, parameter.body);
        if (!def) return FieldError{parameter.name(), "no body named '" + parameter.body + "'"};
        if (def->isStatic && f != "e" && f != "mu" && f != "mu_s") {
            return FieldError{parameter.name(), "'" + parameter.body + "' is static: only e, mu and mu_s apply"};
        }
        if (f == "mass") {
            // An explicit tensor scales with the mass, as the body's own would.
            if (def->inertia && def->mass > 0.0f) *def->inertia *= v / def->mass;
            def->mass = v;
        } else if (f == "e") def->restitution = v;
        else if (f == "mu") def->friction = v;
        else if (f == "mu_s") def->staticFriction = v;
        else if (f == "x") def->position.x = v;
        else if (f == "y") def->position.y = v;
        else if (f == "z") def->position.z = v;
        else if (f == "vx") def->linearVelocity.x = v;
        else if (f == "vy") def->linearVelocity.y = v;
        else if (f == "vz") def->linearVelocity.z = v;
        else if (f == "wx") def->angularVelocity.x = v;
        else if (f == "wy") def->angularVelocity.y = v;
        else if (f == "wz") def->angularVelocity.z = v;
    }
    if (const Validation bad = scene::validateScene(scene)) {
        // Name the swept field where that is what broke a rule.
        return FieldError{parameter.name() + " = " + shortText(value), bad->message()};
    }
    return scene;
}

Variant runVariant(const scene::Scene& base, const Parameter& parameter, double value, const Measure& measure,
                   double duration) {
    Variant variant;
    variant.value = value;
    auto edited = withValue(base, parameter, value);
    if (const FieldError* error = std::get_if<FieldError>(&edited)) {
        variant.refused = error->message();
        return variant;
    }
    World world = scene::buildWorld(std::get<scene::Scene>(edited));
    Observer observer(world, measure);
    if (!observer.found()) {
        variant.refused = "--measure: no body named '" + measure.body + "'";
        return variant;
    }
    const double dt = double(world.settings().timestep);
    const long long steps = std::llround(duration / dt);
    for (long long step = 1; step <= steps; ++step) {
        world.step();
        observer.observe(world, double(step) * dt);
    }
    variant.outcome = observer.outcome(world);
    for (const BodyId id : world.bodyIds()) variant.finalBodies.push_back(world.body(id));
    return variant;
}

std::vector<Variant> run(const Request& request, Progress* progress) {
    const size_t count = request.values.size();
    std::vector<Variant> variants(count);
    std::vector<uint8_t> ran(count, 0);
    std::atomic<size_t> next{0};
    const auto work = [&] {
        for (size_t k; (k = next.fetch_add(1)) < count;) {
            if (progress && progress->cancel.load()) return;
            variants[k] = runVariant(request.scene, request.parameter, request.values[k], request.measure,
                                     request.duration);
            ran[k] = 1;
            if (progress) progress->done.fetch_add(1);
        }
    };
    const int threads = std::clamp(request.threads, 1, int(std::max<size_t>(count, 1)));
    std::vector<std::thread> workers;
    for (int t = 1; t < threads; ++t) workers.emplace_back(work);
    work();
    for (std::thread& worker : workers) worker.join();
    std::vector<Variant> out;
    for (size_t k = 0; k < count; ++k) {
        if (ran[k]) out.push_back(std::move(variants[k]));
    }
    return out;
}

}  // namespace impulse::sweep
