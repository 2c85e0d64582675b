#include "app/auto_shadows.h"

#include <cstdio>

namespace impulse::app {

const char* shadowModeName(ShadowMode mode) {
    switch (mode) {
        case ShadowMode::on: return "on";
        case ShadowMode::off: return "off";
        case ShadowMode::automatic: break;
    }
    return "auto";
}

bool parseShadowMode(const std::string& text, ShadowMode& out) {
    for (ShadowMode mode : {ShadowMode::automatic, ShadowMode::on, ShadowMode::off}) {
        if (text == shadowModeName(mode)) {
            out = mode;
            return true;
        }
    }
    return false;
}

std::string describeShadows(ShadowMode mode, const render::TierSettings& tier, ShadowCut cut, double render3dMs) {
    // One line of the Stats column (about 40 characters at 1280x720).
    if (mode == ShadowMode::off) return "shadows off (set to Off)";
    if (mode == ShadowMode::on) return "shadows on (set to On)";
    if (!tier.autoShadowCut) return std::string("shadows on (Auto: ") + render::tierName(tier.tier) + " tier)";
    char text[96];
    const double budget = AutoShadows::kRenderBudgetMs;
    switch (cut) {
        case ShadowCut::none:
            std::snprintf(text, sizeof text, "shadows on (Auto: 3D pass %.1f ms)", render3dMs);
            break;
        case ShadowCut::onBodies:
            std::snprintf(text, sizeof text, "bodies unshadowed: 3D pass over %.0f ms", budget);
            break;
        case ShadowCut::all:
            std::snprintf(text, sizeof text, "shadows off by Auto: 3D pass over %.0f ms", budget);
            break;
    }
    return text;
}

}  // namespace impulse::app
