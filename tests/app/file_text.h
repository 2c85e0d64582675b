// The whole text of a file ("" when it cannot be read): the app tests compare saved files.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

inline std::string fileText(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}
