// World settings with their defaults (those of the scene format), the rules
// that validate them, and how two materials combine into a pair's e and mu.
#pragma once

#include "physics/body.h"
#include "physics/math.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

namespace impulse {

/// Most threads World::setThreadCount accepts.
inline constexpr int kMaxThreads = 64;
/// 1 <= count <= kMaxThreads.
Validation validateThreadCount(int count);

/// How the restitution of two materials combines into the pair's e.
enum class RestitutionCombine : uint8_t { Max, Min, Average, Multiply };
/// How the friction coefficients of two materials combine into the pair's mu.
enum class FrictionCombine : uint8_t { Geometric, Average, Min, Max };

const char* toString(RestitutionCombine rule);
const char* toString(FrictionCombine rule);
std::optional<RestitutionCombine> parseRestitutionCombine(const std::string& text);
std::optional<FrictionCombine> parseFrictionCombine(const std::string& text);

/// World settings; the defaults are those of the scene format.
/// The world's box (m, world frame): a dynamic body whose centre of mass leaves it
/// is out of the experiment (World::bodiesOutsideBounds; the app and impulse-sim
/// remove it). Generous around the presets, which all lie within 50 m of the origin;
/// the floor is 100 m below it, about 4.5 s of a fall.
struct WorldBounds {
    vec3 min{-1000.0f, -100.0f, -1000.0f};
    vec3 max{1000.0f, 1000.0f, 1000.0f};
    bool operator==(const WorldBounds& o) const { return min == o.min && max == o.max; }
    bool operator!=(const WorldBounds& o) const { return !(*this == o); }
};

struct WorldSettings {
    vec3 gravity{0.0f, -9.81f, 0.0f};  ///< m/s^2
    float timestep = 1.0f / 60.0f;     ///< s, one call of World::step()
    int passes = 1;                    ///< full collide-and-solve passes per step (more while a body spins fast)
    int subSteps = 10;                 ///< solver sub-steps per pass: gravity, impulses, move
    int positionIterations = 2;        ///< rigid position passes per pass, for overlap the sub-steps left
    float restitutionThreshold = 1.0f;  ///< m/s: slower approaches do not bounce
    RestitutionCombine restitutionCombine = RestitutionCombine::Max;
    FrictionCombine frictionCombine = FrictionCombine::Geometric;
    bool warmStarting = true;
    /// Islands (bodies joined by contacts) that rest for `sleepTime` stop being stepped
    /// until an awake body touches them, the drag grabs one or an edit changes one.
    bool sleeping = false;
    float sleepSpeed = 0.05f;  ///< m/s: a body rests while no point of it moves faster
    float sleepTime = 0.5f;    ///< s
    WorldBounds bounds;
};

/// Field names are those of the scene file's "world" object.
Validation validateSettings(const WorldSettings& settings);

/// The mouse drag: a soft point constraint pulling a point of the body toward a target.
struct DragSettings {
    float frequency = 5.0f;         ///< Hz, stiffness of the spring
    float dampingRatio = 0.7f;      ///< 1 = critically damped
    float maxForceInWeights = 50.0f;  ///< force cap as a multiple of the body's weight m|g|
};
Validation validateDragSettings(const DragSettings& settings);

// Inline: the collision pass combines every manifold's materials, every pass.
inline float combineRestitution(RestitutionCombine rule, float a, float b) {
    switch (rule) {
        case RestitutionCombine::Max: return std::max(a, b);
        case RestitutionCombine::Min: return std::min(a, b);
        case RestitutionCombine::Average: return 0.5f * (a + b);
        case RestitutionCombine::Multiply: return a * b;
    }
    return std::max(a, b);
}

inline float combineFriction(FrictionCombine rule, float a, float b) {
    switch (rule) {
        case FrictionCombine::Geometric: return std::sqrt(a * b);
        case FrictionCombine::Average: return 0.5f * (a + b);
        case FrictionCombine::Min: return std::min(a, b);
        case FrictionCombine::Max: return std::max(a, b);
    }
    return std::sqrt(a * b);
}

}  // namespace impulse
