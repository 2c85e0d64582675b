#include "app/plot_samples.h"

#include "app/text_file.h"

#include "physics/shape.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace impulse::app {

const char* quantityLabel(BodyQuantity quantity) {
    switch (quantity) {
        case BodyQuantity::PositionX: return "x (m)";
        case BodyQuantity::PositionY: return "y (m)";
        case BodyQuantity::PositionZ: return "z (m)";
        case BodyQuantity::VelocityX: return "vx (m/s)";
        case BodyQuantity::VelocityY: return "vy (m/s)";
        case BodyQuantity::VelocityZ: return "vz (m/s)";
        case BodyQuantity::Speed: return "speed (m/s)";
        case BodyQuantity::Height: return "height of lowest point (m)";
        case BodyQuantity::AngularVelocityX: return "wx (rad/s)";
        case BodyQuantity::AngularVelocityY: return "wy (rad/s)";
        case BodyQuantity::AngularVelocityZ: return "wz (rad/s)";
        case BodyQuantity::AngularSpeed: return "|w| (rad/s)";
        case BodyQuantity::KineticEnergy: return "KE (J)";
        case BodyQuantity::ContactForce: return "contact force (N)";
    }
    return "?";
}

double sampleQuantity(const World& world, BodyId id, BodyQuantity quantity) {
    const Body& body = world.body(id);
    switch (quantity) {
        case BodyQuantity::PositionX: return body.position.x;
        case BodyQuantity::PositionY: return body.position.y;
        case BodyQuantity::PositionZ: return body.position.z;
        case BodyQuantity::VelocityX: return body.linearVelocity.x;
        case BodyQuantity::VelocityY: return body.linearVelocity.y;
        case BodyQuantity::VelocityZ: return body.linearVelocity.z;
        case BodyQuantity::Speed: return glm::length(body.linearVelocity);
        case BodyQuantity::Height: return shapeAabb(body.shape, body.position, body.rotation, 0.0f).lower.y;
        case BodyQuantity::AngularVelocityX: return body.angularVelocity.x;
        case BodyQuantity::AngularVelocityY: return body.angularVelocity.y;
        case BodyQuantity::AngularVelocityZ: return body.angularVelocity.z;
        case BodyQuantity::AngularSpeed: return glm::length(body.angularVelocity);
        case BodyQuantity::KineticEnergy: return body.kineticEnergy();
        case BodyQuantity::ContactForce: return world.contactNormalImpulse(id) / world.settings().timestep;
    }
    return std::numeric_limits<double>::quiet_NaN();
}

std::string PlotSeries::label() const { return bodyName + ": " + quantityLabel(quantity); }

Validation PlotSamples::add(const World& world, BodyId body, BodyQuantity quantity) {
    if (!world.isValid(body)) return FieldError{"body", "no such body (pick a body to plot)"};
    for (const PlotSeries& s : series_) {
        if (s.body == body && s.quantity == quantity) return FieldError{"quantity", "already plotted for this body"};
    }
    PlotSeries added{body, world.body(body).name, quantity, {}};
    added.values.assign(steps_.size(), std::numeric_limits<float>::quiet_NaN());
    series_.push_back(std::move(added));
    return std::nullopt;
}

void PlotSamples::remove(size_t index) {
    if (index < series_.size()) series_.erase(series_.begin() + static_cast<std::ptrdiff_t>(index));
    if (series_.empty()) {
        steps_.clear();
        times_.clear();
    }
}

void PlotSamples::record(const World& world, double time) {
    if (series_.empty()) return;
    steps_.push_back(world.stepCount());
    times_.push_back(time);
    for (PlotSeries& s : series_) {
        s.values.push_back(world.isValid(s.body) ? float(sampleQuantity(world, s.body, s.quantity))
                                                 : std::numeric_limits<float>::quiet_NaN());
    }
    if (steps_.size() > kCapacity) {
        steps_.pop_front();
        times_.pop_front();
        for (PlotSeries& s : series_) s.values.pop_front();
    }
}

void PlotSamples::forgetAfter(uint64_t step) {
    while (!steps_.empty() && steps_.back() > step) {
        steps_.pop_back();
        times_.pop_back();
        for (PlotSeries& s : series_) s.values.pop_back();
    }
}

void PlotSamples::showSeriesOf(const PlotSamples& chosen) {
    std::vector<PlotSeries> shown;
    for (const PlotSeries& c : chosen.series_) {
        const auto same = [&](const PlotSeries& s) { return s.body == c.body && s.quantity == c.quantity; };
        const auto own = std::find_if(series_.begin(), series_.end(), same);
        if (own != series_.end()) {
            shown.push_back(std::move(*own));
        } else {
            PlotSeries added{c.body, c.bodyName, c.quantity, {}};
            added.values.assign(steps_.size(), std::numeric_limits<float>::quiet_NaN());
            shown.push_back(std::move(added));
        }
    }
    series_ = std::move(shown);
    if (series_.empty()) {
        steps_.clear();
        times_.clear();
    }
}

void PlotSamples::rebind(const World& world) {
    steps_.clear();
    times_.clear();
    std::vector<PlotSeries> kept;
    for (PlotSeries& s : series_) {
        s.body = world.findBody(s.bodyName);
        s.values.clear();
        if (s.body) kept.push_back(std::move(s));
    }
    series_ = std::move(kept);
}

namespace {

// A CSV field: quoted when it holds a comma, a quote or a line break (body names may).
std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

}  // namespace

std::string PlotSamples::csv() const {
    std::string out = "step,time";
    for (const PlotSeries& s : series_) out += "," + csvField(s.label());
    out += "\n";
    char number[40];
    for (size_t k = 0; k < steps_.size(); ++k) {
        std::snprintf(number, sizeof number, "%llu,%.9g", static_cast<unsigned long long>(steps_[k]), times_[k]);
        out += number;
        for (const PlotSeries& s : series_) {
            out += ",";
            if (!std::isfinite(s.values[k])) continue;
            std::snprintf(number, sizeof number, "%.9g", double(s.values[k]));
            out += number;
        }
        out += "\n";
    }
    return out;
}

std::string PlotSamples::writeCsv(const std::string& path) const {
    if (path.empty()) return "path: empty (type a file name, e.g. plots.csv)";
    if (series_.empty()) return "nothing to export: add a series first";
    return writeTextFile(path, csv());
}

}  // namespace impulse::app
