// The body-state CSV of impulse-sim (the README's --csv columns), written by
// impulse-sim and by the app's export of a whole run: one row per body per step.
#pragma once

#include "physics/world.h"

#include <cstdio>
#include <string>
#include <vector>

namespace impulse::scene {

inline constexpr const char* kStateCsvHeader = "step,time,body,px,py,pz,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n";

/// The bodies' names as CSV fields (RFC 4180 quoting where a name needs it).
std::vector<std::string> stateCsvNames(const World& world, const std::vector<BodyId>& bodies);

/// One row per body of `bodies` (named by `names`, from stateCsvNames), floats with
/// nine significant digits, which read back as the same float.
void writeStateCsvRows(std::FILE* out, const World& world, const std::vector<BodyId>& bodies,
                       const std::vector<std::string>& names, long long step, double time);

}  // namespace impulse::scene
