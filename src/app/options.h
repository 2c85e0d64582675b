// Command line of impulse-lab.
#pragma once

#include "app/auto_shadows.h"
#include "app/classroom_view.h"
#include "render/render_tier.h"

#include <optional>
#include <string>

namespace impulse::app {

struct AppOptions {
    std::string scene;          ///< empty: the default preset
    int frames = -1;            ///< quit after this many frames; -1 = run until closed
    std::string screenshot;     ///< PNG of the last frame
    std::string saveOnExit;     ///< the world as a scene file, written on exit
    int width = 1280, height = 720;
    bool paused = false;
    render::TierChoice renderTier;  ///< none: the tier GL_RENDERER implies
    std::optional<ShadowMode> shadows;  ///< for this run; none: the saved setting
    /// The classroom views drawn from the start, in place of the scene's `show` (--show).
    std::optional<std::vector<scene::ShownView>> show;
    std::string select;         ///< the body selected at the start; empty: none
    std::string recordVideo;    ///< record the view from the first frame into a new folder here
    bool help = false;
};

/// Parses argv; returns "" or an error message naming the bad argument.
std::string parseOptions(int argc, const char* const* argv, AppOptions& out);

const char* usageText();

}  // namespace impulse::app
