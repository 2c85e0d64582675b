// libFuzzer entry point: app::parseRecording, then a save/read round trip and a
// short replay of whatever reads (see recording_input_check.h).
#include "recording_input_check.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const std::string broken = impulse::fuzz::checkRecordingInput(text);
    if (!broken.empty()) {
        std::fprintf(stderr, "recording_fuzzer: contract broken: %s\n", broken.c_str());
        std::abort();
    }
    return 0;
}
