// Render tiers: the renderer's settings for the kind of GL it runs on, in one place.
// A GPU gets the standard tier (MSAA, a large shadow map, vsync, GL timer queries);
// software GL (Mesa's llvmpipe and softpipe, SwiftShader), which rasterises on the
// CPU's cores next to the physics, gets the software tier, which keeps what pays there.
// The tier is chosen from GL_RENDERER at start unless the user picks one.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace impulse::render {

enum class RenderTier { software, standard };

/// What a tier sets. The renderer and the app read these fields, never the tier's name.
struct TierSettings {
    RenderTier tier = RenderTier::software;
    /// Samples per pixel of the default framebuffer (asked of the context at start; 0: none).
    int msaaSamples = 0;
    /// Shadow map texels per side.
    int shadowMapSize = 768;
    /// The buffer swap waits for the display's refresh.
    bool vsync = false;
    /// The Stats panel's render/UI split is read from GL timer queries a frame or two
    /// late, never waiting; without them the frame waits for the GL work (a fence and
    /// glFinish), which on software GL is where the rasteriser's time shows.
    bool timerQueries = false;
    /// Shadows: Auto may cut them while the 3D pass runs over its budget (software GL
    /// shares the CPU with the physics; a GPU's render time does not).
    bool autoShadowCut = true;
};

/// The settings of a tier.
TierSettings tierSettings(RenderTier tier);

/// The tier for a GL_RENDERER string: software for llvmpipe, softpipe and SwiftShader
/// (in any case), standard for anything else.
RenderTier tierForRenderer(std::string_view glRenderer);

const char* tierName(RenderTier tier);

/// The user's choice: a tier, or none for the one GL_RENDERER implies.
using TierChoice = std::optional<RenderTier>;

/// "software", "standard" or "auto" as a choice; false for anything else.
bool parseTierChoice(std::string_view text, TierChoice& out);

}  // namespace impulse::render
