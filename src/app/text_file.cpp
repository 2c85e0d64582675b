#include "app/text_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace impulse::app {

std::string writeTextFile(const std::string& path, const std::string& text) {
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file) return "cannot write '" + path + "': " + std::strerror(errno);
    const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
    const int writeError = written ? 0 : errno;
    if (std::fclose(file) != 0 || !written) {
        return "cannot write '" + path + "': " + std::strerror(writeError ? writeError : errno);
    }
    return "";
}

}  // namespace impulse::app
