#include "render/render_tier.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace impulse::render {

TierSettings tierSettings(RenderTier tier) {
    TierSettings s;
    s.tier = tier;
    if (tier == RenderTier::standard) {
        s.msaaSamples = 4;
        s.shadowMapSize = 2048;
        s.vsync = true;
        s.timerQueries = true;
        s.autoShadowCut = false;
    }
    // Software: no MSAA (llvmpipe shades and stores every sample), a 768 map (each
    // doubling costs ~3-4x the shadow pass there), no vsync (Xvfb has none: the loop
    // caps the rate), and the frame waits for the rasteriser to time it.
    return s;
}

RenderTier tierForRenderer(std::string_view glRenderer) {
    std::string lower(glRenderer);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const char* software : {"llvmpipe", "softpipe", "swiftshader"}) {
        if (lower.find(software) != std::string::npos) return RenderTier::software;
    }
    return RenderTier::standard;
}

const char* tierName(RenderTier tier) { return tier == RenderTier::standard ? "standard" : "software"; }

bool parseTierChoice(std::string_view text, TierChoice& out) {
    if (text == "auto") {
        out = std::nullopt;
    } else if (text == "software") {
        out = RenderTier::software;
    } else if (text == "standard") {
        out = RenderTier::standard;
    } else {
        return false;
    }
    return true;
}

}  // namespace impulse::render
