// libFuzzer entry point: scene::parseScene, then buildWorld and a few steps of
// whatever loads (see scene_input_check.h). A broken contract aborts, so
// libFuzzer keeps the input as a crash like any sanitizer report.
#include "scene_input_check.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const std::string broken = impulse::fuzz::checkSceneInput(text);
    if (!broken.empty()) {
        std::fprintf(stderr, "scene_fuzzer: contract broken: %s\n", broken.c_str());
        std::abort();
    }
    return 0;
}
