// impulse-lab: the interactive desktop app.
#include "app/app.h"

#include <SDL.h>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
    using namespace impulse::app;
    AppOptions options;
    const std::string error = parseOptions(argc, argv, options);
    if (!error.empty()) {
        std::fprintf(stderr, "impulse-lab: %s\n%s", error.c_str(), usageText());
        return 2;
    }
    if (options.help) {
        std::fputs(usageText(), stdout);
        return 0;
    }
    std::string exeDir;
    if (char* base = SDL_GetBasePath()) {
        exeDir = base;
        SDL_free(base);
    }
    DataPaths paths;
    const std::string pathError = findDataPaths(exeDir, paths);
    if (!pathError.empty()) {
        std::fprintf(stderr, "impulse-lab: %s\n", pathError.c_str());
        return 1;
    }
    App app(options, paths);
    return app.run();
}
