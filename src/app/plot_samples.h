// Plots of body quantities against time: the series the user picked (a body and
// a quantity each), sampled after every step, and their export to CSV. The
// samples keep the step they came from, so a run taken back to a step drops
// the later ones (forgetAfter), as the impact log does. No GL, SDL or ImGui.
#pragma once

#include "physics/world.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace impulse::app {

enum class BodyQuantity {
    PositionX,
    PositionY,
    PositionZ,
    VelocityX,
    VelocityY,
    VelocityZ,
    Speed,
    Height,  ///< of the body's lowest point (y up)
    AngularVelocityX,
    AngularVelocityY,
    AngularVelocityZ,
    AngularSpeed,
    KineticEnergy,
    ContactForce,  ///< normal impulse over the last step / its timestep, summed over the body's contacts
};
inline constexpr int kBodyQuantityCount = int(BodyQuantity::ContactForce) + 1;

/// "vy (m/s)": the quantity's short name and unit.
const char* quantityLabel(BodyQuantity quantity);
/// The quantity of a live body in the world as it is now.
double sampleQuantity(const World& world, BodyId body, BodyQuantity quantity);

struct PlotSeries {
    BodyId body;
    std::string bodyName;
    BodyQuantity quantity = BodyQuantity::PositionY;
    /// One per PlotSamples::steps() entry; NaN where the body was gone or the series not yet added.
    std::deque<float> values;
    /// "ball: vy (m/s)"
    std::string label() const;
};

class PlotSamples {
public:
    /// Most samples kept per series (10 minutes at 60 Hz); the oldest go first.
    static constexpr size_t kCapacity = 36000;

    /// Adds a series of a live body; refused (naming the field) for a stale handle or one
    /// already plotted.
    Validation add(const World& world, BodyId body, BodyQuantity quantity);
    void remove(size_t index);
    /// One sample of every series after a step, stamped with the world's step count and
    /// `time`. Nothing without series.
    void record(const World& world, double time);
    /// Forgets the samples of steps after `step` (a run taken back to that step).
    void forgetAfter(uint64_t step);
    /// A new world (a load or reset): the samples go, and each series follows the body of
    /// the same name in it (a series whose body is not there goes too).
    void rebind(const World& world);

    /// Another run's samples are shown: keeps this run's values of the series `chosen`
    /// holds, adds the ones it lacks (NaN: not sampled in this run) and drops the rest.
    void showSeriesOf(const PlotSamples& chosen);
    const std::vector<PlotSeries>& series() const { return series_; }
    const std::deque<uint64_t>& steps() const { return steps_; }
    const std::deque<double>& times() const { return times_; }

    /// The series as CSV: a header "step,time,<label>..." and a row per sample (empty cells for NaN).
    std::string csv() const;
    /// Writes csv() to `path`; returns why it could not ("" when written).
    std::string writeCsv(const std::string& path) const;

private:
    std::vector<PlotSeries> series_;
    std::deque<uint64_t> steps_;
    std::deque<double> times_;
};

}  // namespace impulse::app
