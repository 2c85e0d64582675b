// What a physics class reads off a run, from the world's own numbers: each
// body's momentum, angular momentum and kinetic energy, the system's centre of
// mass and totals, and the momentum and energy bookkeeping of an impact. No GL,
// SDL or ImGui: the overlays, the Data tab and the tests read the same values.
// Sums are in double, so totals of many bodies keep the digits a worksheet
// compares ("sum p_x before and after").
#pragma once

#include "app/impact_log.h"
#include "physics/world.h"

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace impulse::app {

/// One body's motion as a class reads it (zero for a static body).
struct BodyMotion {
    glm::dvec3 momentum{0.0};  ///< m v, kg m/s
    /// I_world w about the body's own centre of mass, kg m^2/s.
    glm::dvec3 spin{0.0};
    /// About the system's centre of mass c: (x - c) x m v + I_world w, kg m^2/s.
    /// The bodies' values add up to the system's angular momentum about c.
    glm::dvec3 angularMomentum{0.0};
    double kineticEnergy = 0.0;  ///< 1/2 m v^2 + 1/2 w . I w, J
};

/// The dynamic bodies of a set as one system.
struct SystemMotion {
    size_t bodies = 0;  ///< dynamic bodies counted
    double mass = 0.0;  ///< kg
    glm::dvec3 centre{0.0};    ///< centre of mass, m (0 without bodies)
    glm::dvec3 velocity{0.0};  ///< of the centre of mass: p / M, m/s
    glm::dvec3 momentum{0.0};  ///< total p, kg m/s
    glm::dvec3 angularMomentum{0.0};  ///< total L about `centre`, kg m^2/s
    double kineticEnergy = 0.0;       ///< J
};

/// `body`'s motion, its angular momentum taken about `systemCentre`.
BodyMotion bodyMotion(const Body& body, const glm::dvec3& systemCentre);

/// The system of `bodies` (static ones and stale handles left out), or of every
/// dynamic body of `world` when `bodies` is empty.
SystemMotion systemMotion(const World& world, const std::vector<BodyId>& bodies = {});

/// A dynamic body's motion at one instant, kept with an impact for the momenta
/// diagram (app/momenta_diagram.h). Floats, as the world's own state.
struct BodyMomentum {
    BodyId body;
    float mass = 0.0f;       ///< kg
    vec3 position{0.0f};     ///< centre of mass, m
    vec3 velocity{0.0f};     ///< m/s (the momentum is m v in double, as bodyMotion's)
    vec3 spin{0.0f};         ///< I_world w about its own centre, kg m^2/s
};

/// Every dynamic body's motion now, in body order.
std::vector<BodyMomentum> dynamicBodiesMotion(const World& world);

/// Most dynamic bodies an impact keeps the motion of, before and after (the pair
/// always, then the others in body order): a billiard rack's 16 fit; 2 x 48 bytes
/// a body, so the log's 20000 impacts hold at most 46 MB, a few kB an impact.
inline constexpr size_t kMomentaBodiesKept = 24;

/// One pair's impact in a step, as a class reads it: the change of momentum of
/// both bodies and the kinetic energy of the pair before and after.
struct ImpactBookkeeping {
    /// The pair's first impact point as the impact log has it: the step and time,
    /// the bodies and their names, the normal (A to B), the arrival speed, the pair's e.
    ImpactEntry first;
    int points = 0;           ///< impact points of the pair in that step
    vec3 point{0.0f};         ///< where the impulse acted (the points' centre), world
    /// The impulse B received, summed over the pair's impact points (j_n n + j_t):
    /// B's momentum changed by it and A's by its opposite, kg m/s.
    glm::dvec3 impulseOnB{0.0};
    glm::dvec3 momentumChangeA() const { return -impulseOnB; }
    glm::dvec3 momentumChangeB() const { return impulseOnB; }
    /// The dynamic bodies' kinetic energy just before and just after the impact, J.
    double energyBefore = 0.0, energyAfter = 0.0;
    double energyLost() const { return energyBefore - energyAfter; }
    /// What Newton's restitution takes: the sum over the points of
    /// (1 - e^2) 1/2 m_n u^2, with the point's effective normal mass m_n = 1/k_n
    /// and arrival speed u. For two spheres meeting centrally m_n is the reduced
    /// mass m_A m_B / (m_A + m_B), and this is the textbook loss. Exact for one
    /// point without friction; friction takes more (the slip's energy), and
    /// several points share the impulse, so there it is an estimate.
    double predictedLoss = 0.0;
    /// The dynamic bodies just before the step (as the log saw them: see
    /// ImpactBookkeepingLog::beforeStep; empty if it did not) and just after it, the
    /// same bodies in the same order: A and B first, then the others in body order, at
    /// most kMomentaBodiesKept; `bodiesLeftOut` were not kept.
    std::vector<BodyMomentum> bodiesBefore, bodiesAfter;
    size_t bodiesLeftOut = 0;
    /// energyLost / energyBefore and predictedLoss / energyBefore (0 without energy).
    double lostFraction() const { return energyBefore > 0.0 ? energyLost() / energyBefore : 0.0; }
    double predictedFraction() const { return energyBefore > 0.0 ? predictedLoss / energyBefore : 0.0; }
};

/// The strongest impact (largest sum of normal impulses of a pair) of `world`'s
/// last step, or none. The energy before is the pair's kinetic energy now with
/// that impact's impulses taken back (v - J/m, w - I^-1 (r x J)): exact when
/// they were the only impulses on the two bodies in the step; gravity's pull
/// over the step is in both figures, so it never counts as a loss.
std::optional<ImpactBookkeeping> strongestImpact(const World& world, double time);

/// The strongest impact of every step of the run that had impacts, so that the
/// views show the right one at any step shown (after a rewind too).
class ImpactBookkeepingLog {
public:
    /// Most steps kept; the oldest go first.
    static constexpr size_t kCapacity = 20000;

    /// Just before each step of `world` (after its inputs): the bodies' motion, which
    /// an impact in the step keeps as its "before".
    void beforeStep(const World& world);
    /// After each step of `world`, `time` simulated seconds since the load or reset.
    void record(const World& world, double time);
    /// Forgets the steps after `step` (a run taken back to that step).
    void forgetAfter(uint64_t step);
    void clear() { entries_.clear(); }
    /// The latest impact at or before `step`, or null.
    const ImpactBookkeeping* latestAtOrBefore(uint64_t step) const;
    const std::deque<ImpactBookkeeping>& entries() const { return entries_; }

private:
    std::deque<ImpactBookkeeping> entries_;
    std::vector<BodyMomentum> motionBeforeStep_;  ///< every dynamic body, before the step
    uint64_t beforeStep_ = ~uint64_t(0);           ///< the world's step count then
};

/// Simulated seconds the views show an impact's change of momentum after it.
inline constexpr double kImpactShownSeconds = 1.0;

/// The impact to show at `world`'s step: the latest at or before it, if it was
/// less than kImpactShownSeconds before; or null.
const ImpactBookkeeping* impactShownAt(const ImpactBookkeepingLog& log, const World& world);

/// A classroom label's value: 3 significant figures, and 0 for what those cannot tell
/// from rest (a resting body's 3.6e-12 m/s is float noise, not motion).
std::string labelValue(double value);
/// Where a label of `size` (px) starting at `at` is drawn: moved inside `view` (x, y,
/// width, height), 2 px in, so that no panel edge cuts it.
glm::vec2 labelInsideView(glm::vec2 at, glm::vec2 size, const glm::vec4& view);

}  // namespace impulse::app
