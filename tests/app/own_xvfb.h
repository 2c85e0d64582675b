#pragma once

#include <string>

// The start of a shell command running the rest under an X server of its own, of
// SCREEN ("1280x720x24"), with its own settings folders (tests/app/with_own_xvfb.sh).
inline std::string underOwnXvfb(const std::string& screen) {
    return std::string("'") + IMPULSE_SOURCE_DIR + "/tests/app/with_own_xvfb.sh' " + screen + " ";
}
