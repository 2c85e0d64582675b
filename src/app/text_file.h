// Writing a whole text file (the CSV exports) with a message that names the file
// and the system's reason when it cannot be written.
#pragma once

#include <string>

namespace impulse::app {

/// Writes `text` to `path`, replacing it; returns "" or "cannot write 'path': reason".
std::string writeTextFile(const std::string& path, const std::string& text);

}  // namespace impulse::app
