#include "app/options.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace impulse::app {

namespace {

bool parseInt(const char* text, long lo, long hi, int& out) {
    char* end = nullptr;
    const long v = std::strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < lo || v > hi) return false;
    out = static_cast<int>(v);
    return true;
}

}  // namespace

std::string parseShownViews(const std::string& list, std::vector<scene::ShownView>& out) {
    std::istringstream names(list);
    std::string name;
    bool any = false;
    while (std::getline(names, name, ',')) {
        const std::optional<scene::ShownView> view = scene::shownViewNamed(name);
        if (!view) return "--show: '" + name + "' is not a view (" + scene::shownViewList() + ")";
        if (std::find(out.begin(), out.end(), *view) == out.end()) out.push_back(*view);
        any = true;
    }
    return any ? "" : "--show needs a list of views (" + scene::shownViewList() + ")";
}

const char* usageText() {
    return "usage: impulse-lab [SCENE.json] [options]\n"
           "  --frames N            quit after N frames\n"
           "  --screenshot FILE.png save the last frame as a PNG\n"
           "  --save-on-exit FILE   write the world as a scene file on exit\n"
           "  --size WxH            window size (default 1280x720)\n"
           "  --paused              start paused\n"
           "  --record-video DIR    record the view from the first frame (V stops it) into a new\n"
           "                        DIR/impulse-lab-video-N folder of PNGs, one per 1/60 s simulated\n"
           "  --render-tier T       software, standard or auto (default): the tier GL_RENDERER implies\n"
           "                        (software for llvmpipe, softpipe, SwiftShader; standard otherwise)\n"
           "  --shadows S           auto, on or off for this run (default: the World panel's, saved)\n"
           "  --show LIST           classroom vectors to draw, comma-separated: velocity, momentum,\n"
           "                        angular-velocity, angular-momentum, impact-momentum, centre-of-mass,\n"
           "                        trails, marked-points; momenta puts the momenta diagram (Contact\n"
           "                        inspector) in front\n"
           "  --select NAME         select the body of that name at the start (its values are shown)\n"
           "  -h, --help            this text\n"
           "Without a display, run with SDL_VIDEODRIVER=offscreen, or use impulse-sim for headless runs.\n";
}

std::string parseOptions(int argc, const char* const* argv, AppOptions& out) {
    for (int i = 1; i < argc; ++i) {
        const char* arg = argv[i];
        auto value = [&](const char* name) -> const char* {
            if (i + 1 >= argc) return nullptr;
            (void)name;
            return argv[++i];
        };
        if (!std::strcmp(arg, "-h") || !std::strcmp(arg, "--help")) {
            out.help = true;
        } else if (!std::strcmp(arg, "--frames")) {
            const char* v = value(arg);
            if (!v || !parseInt(v, 0, 100000000, out.frames)) return "--frames needs a whole number >= 0";
        } else if (!std::strcmp(arg, "--screenshot")) {
            const char* v = value(arg);
            if (!v || !*v) return "--screenshot needs a file name";
            out.screenshot = v;
        } else if (!std::strcmp(arg, "--save-on-exit")) {
            const char* v = value(arg);
            if (!v || !*v) return "--save-on-exit needs a file name";
            out.saveOnExit = v;
        } else if (!std::strcmp(arg, "--size")) {
            const char* v = value(arg);
            if (!v) return "--size needs WxH, e.g. 1280x720";
            const char* x = std::strchr(v, 'x');
            if (!x) return "--size needs WxH, e.g. 1280x720";
            const std::string w(v, x);
            if (!parseInt(w.c_str(), 64, 16384, out.width) || !parseInt(x + 1, 64, 16384, out.height)) {
                return std::string("--size: bad size '") + v + "' (WxH, 64..16384 each)";
            }
        } else if (!std::strcmp(arg, "--record-video")) {
            const char* v = value(arg);
            if (!v || !*v) return "--record-video needs a folder (. for the working directory)";
            out.recordVideo = v;
        } else if (!std::strcmp(arg, "--render-tier")) {
            const char* v = value(arg);
            if (!v || !render::parseTierChoice(v, out.renderTier)) {
                return std::string("--render-tier: ") + (v ? "'" + std::string(v) + "' is not a tier" : "missing") +
                       " (software, standard or auto)";
            }
        } else if (!std::strcmp(arg, "--shadows")) {
            const char* v = value(arg);
            ShadowMode mode = ShadowMode::automatic;
            if (!v || !parseShadowMode(v, mode)) {
                return std::string("--shadows: ") + (v ? "'" + std::string(v) + "' is not a setting" : "missing") +
                       " (auto, on or off)";
            }
            out.shadows = mode;
        } else if (!std::strcmp(arg, "--show")) {
            const char* v = value(arg);
            const std::string error = parseShownViews(v ? v : "", out.show.emplace());
            if (!error.empty()) return error;
        } else if (!std::strcmp(arg, "--select")) {
            const char* v = value(arg);
            if (!v || !*v) return "--select needs a body's name";
            out.select = v;
        } else if (!std::strcmp(arg, "--paused")) {
            out.paused = true;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return std::string("unknown option ") + arg;
        } else if (out.scene.empty()) {
            out.scene = arg;
        } else {
            return std::string("only one scene file may be given (got '") + out.scene + "' and '" + arg + "')";
        }
    }
    return "";
}

}  // namespace impulse::app
