// Which classroom vectors the 3D view draws, each with its own scale: velocity,
// momentum, angular velocity and angular momentum on every dynamic body, the
// change of momentum of both bodies of the last impact (shown for a moment
// after it), and the system's centre of mass with its velocity. Set in World >
// Debug layer, or for a run by --show.
#pragma once

#include <string>

namespace impulse::app {

struct ClassroomView {
    bool velocity = false;
    bool momentum = false;
    bool angularVelocity = false;
    bool angularMomentum = false;  ///< I w about the body's own centre of mass
    bool impactMomentum = false;   ///< the last impact's change of momentum, both bodies
    bool systemCentre = false;     ///< the dynamic bodies' centre of mass and its velocity
    float velocityScale = 0.5f;          ///< m of arrow per m/s
    /// m of arrow per kg m/s, for p and for the impact's change of p alike: a
    /// body's p before, its dp and its p after read tip to tail at one scale.
    float momentumScale = 0.5f;
    float angularVelocityScale = 0.05f;  ///< m of arrow per rad/s
    float angularMomentumScale = 0.5f;   ///< m of arrow per kg m^2/s
};

/// The names --show takes, comma-separated.
inline constexpr const char* kClassroomViewNames =
    "velocity, momentum, angular-velocity, angular-momentum, impact-momentum, centre-of-mass";

/// Turns on the views named in a comma-separated `list` (kClassroomViewNames);
/// returns "" or a message naming the unknown name and the known ones.
std::string parseClassroomViews(const std::string& list, ClassroomView& out);

}  // namespace impulse::app
