#include "app/app.h"

#include <glad/glad.h>

#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <imgui.h>
#include <imgui_internal.h>  // the panels' rectangles, to skip shading what they hide

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <variant>

namespace impulse::app {

namespace {

constexpr double kTargetFrameSeconds = 1.0 / 60.0;  // vsync does nothing under Xvfb: cap ourselves
// The frame budget judges the work before the buffer swap, which waits for vsync on a
// desktop; this much of the frame is left for the swap itself (a copy under Xvfb).
constexpr double kSwapAllowanceMs = 1.0;
static_assert(static_cast<int>(ui::ShadowCut::all) == FrameBudget::kMaxCut, "one cut per ShadowCut step");
constexpr float kPickDistance = 1000.0f;              // m, longest ray cast
constexpr float kShotSpeed = 25.0f;                   // m/s
constexpr float kShotRadius = 0.25f;                  // m
constexpr float kShotMass = 2.0f;                     // kg
constexpr float kSpawnSize = 0.5f;                    // m, box half extent and sphere radius
constexpr float kOrbitRadiansPerPixel = 0.006f;
// Panels take this much width on the sides; framing fits bodies into what is left.
constexpr int kPanelWidths = 710;

const glm::vec3 kPalette[] = {{0.86f, 0.42f, 0.32f}, {0.25f, 0.62f, 0.66f}, {0.93f, 0.74f, 0.3f},
                              {0.45f, 0.52f, 0.8f},  {0.56f, 0.72f, 0.42f}, {0.82f, 0.5f, 0.66f},
                              {0.95f, 0.6f, 0.38f},  {0.42f, 0.74f, 0.88f}};
const glm::vec3 kStaticColor{0.64f, 0.62f, 0.58f};
// A sleeping body keeps this much of its colour's saturation and brightness: a resting
// pile reads as asleep at a glance, each body keeps a hint of its hue, and the hover and
// selection rim (added by the shader) shows on top as on any body.
constexpr float kAsleepSaturation = 0.3f;
constexpr float kAsleepBrightness = 0.7f;

glm::vec4 colorOf(const Body& body, BodyId id) {
    if (body.isStatic) return glm::vec4(kStaticColor, 1.0f);
    // Multiplicative hash so neighbours in a stack get different colours.
    const uint32_t h = (id.index * 2654435761u) >> 29;
    const glm::vec3 color = kPalette[h % 8];
    if (!body.asleep) return glm::vec4(color, 1.0f);
    // Chosen here, per body, rather than in the shader: software GL pays for a branch per pixel.
    const glm::vec3 grey(glm::dot(color, glm::vec3(0.299f, 0.587f, 0.114f)));  // Rec. 601 luma
    return glm::vec4(kAsleepBrightness * glm::mix(grey, color, kAsleepSaturation), 1.0f);
}

// A scene to fall back on when the preset folder is missing: ground and a few bodies.
scene::Scene builtinScene() {
    scene::Scene s;
    s.name = "built-in";
    BodyDef ground;
    ground.name = "ground";
    ground.isStatic = true;
    ground.shape = Shape::box(vec3(20.0f, 0.5f, 20.0f));
    ground.position = vec3(0.0f, -0.5f, 0.0f);
    ground.friction = 0.6f;
    s.bodies.push_back(ground);
    for (int i = 0; i < 4; ++i) {
        BodyDef b;
        b.name = "box" + std::to_string(i);
        b.position = vec3(0.0f, 0.5f + 1.05f * static_cast<float>(i), 0.0f);
        s.bodies.push_back(b);
    }
    BodyDef ball;
    ball.name = "ball";
    ball.shape = Shape::sphere(0.4f);
    ball.position = vec3(2.5f, 4.0f, 0.0f);
    s.bodies.push_back(ball);
    return s;
}

}  // namespace

App::App(AppOptions options, DataPaths paths)
    : options_(std::move(options)),
      paths_(std::move(paths)),
      panels_(paths_.scenes, ""),
      frameBudget_(kTargetFrameSeconds * 1000.0 - kSwapAllowanceMs) {
    sim_.paused = options_.paused;
}

App::~App() { closeWindow(); }

bool App::openWindow() {
    // SDL falls back to its hidden "offscreen" driver when no display works; accept
    // that only when asked for, otherwise the user would face an invisible window.
    const char* requested = std::getenv("SDL_VIDEODRIVER");
    const bool initialised = SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) == 0;
    const char* driver = initialised ? SDL_GetCurrentVideoDriver() : nullptr;
    const bool hiddenFallback = driver && (!std::strcmp(driver, "offscreen") || !std::strcmp(driver, "dummy")) &&
                                !(requested && !std::strcmp(requested, driver));
    if (!initialised || hiddenFallback) {
        if (hiddenFallback) SDL_SetError("only SDL's hidden '%s' video driver is available", driver);
        std::fprintf(stderr,
                     "impulse-lab: cannot open a window: %s\n"
                     "  No display is available%s. Options:\n"
                     "  - run it on a desktop session, or under Xvfb: xvfb-run -a impulse-lab ...\n"
                     "  - SDL_VIDEODRIVER=offscreen impulse-lab --frames N --screenshot out.png  (hidden window)\n"
                     "  - impulse-sim SCENE.json --steps N  (headless simulation, no window at all)\n",
                     SDL_GetError(), std::getenv("DISPLAY") ? "" : " (DISPLAY is not set)");
        return false;
    }
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
    const std::string title = "Impulse Lab - " + scene_.name;
    window_ = SDL_CreateWindow(title.c_str(), SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, options_.width,
                               options_.height, SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (!window_) {
        std::fprintf(stderr,
                     "impulse-lab: cannot create an OpenGL 3.3 window: %s\n"
                     "  Try SDL_VIDEODRIVER=offscreen (Mesa EGL), or impulse-sim for headless runs.\n",
                     SDL_GetError());
        return false;
    }
    context_ = SDL_GL_CreateContext(window_);
    if (!context_) {
        std::fprintf(stderr, "impulse-lab: cannot create an OpenGL 3.3 core context: %s\n", SDL_GetError());
        return false;
    }
    SDL_GL_MakeCurrent(window_, context_);
    SDL_GL_SetSwapInterval(1);  // may fail (Xvfb); the loop caps the rate itself
    if (!gladLoadGLLoader(reinterpret_cast<GLADloadproc>(SDL_GL_GetProcAddress))) {
        std::fprintf(stderr, "impulse-lab: cannot load the OpenGL 3.3 functions\n");
        return false;
    }
    renderer_ = std::make_unique<render::Renderer>();
    std::string error;
    if (!renderer_->init(paths_.shaders, error)) {
        std::fprintf(stderr, "impulse-lab: %s\n", error.c_str());
        return false;
    }

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // panel layout is fixed at start; nothing written to the cwd
    ImGui::StyleColorsDark();
    ImGuiStyle& style = ImGui::GetStyle();
    // Square panels: each covers exactly its rectangle, which the 3D pass leaves out and
    // fills with the background colour (see hiddenPanelRects).
    style.WindowRounding = 0.0f;
    style.FrameRounding = 3.0f;
    style.GrabRounding = 3.0f;
    style.ItemSpacing = ImVec2(8.0f, 3.0f);  // compact: the inspectors show many rows
    style.FramePadding = ImVec2(4.0f, 2.0f);
    // Opaque panels: the 3D pass skips the pixels they cover and clears them to their
    // background colour (see hiddenPanelRects), so ImGui draws no background for them
    // (a fully transparent fill is skipped). Bytes, as ImGui would quantise the colour.
    ImVec4& background = style.Colors[ImGuiCol_WindowBg];
    background.w = 1.0f;
    const ImVec4 quantised = ImGui::ColorConvertU32ToFloat4(ImGui::ColorConvertFloat4ToU32(background));
    panelColor_ = glm::vec4(quantised.x, quantised.y, quantised.z, 1.0f);
    background.w = 0.0f;
    ImGui_ImplSDL2_InitForOpenGL(window_, context_);
    ImGui_ImplOpenGL3_Init("#version 330 core");
    // Software GL pays per sample: the default font's glyphs sit on whole pixels, so
    // nearest sampling of the atlas gives the same text as bilinear, for less. Lines
    // are then anti-aliased by geometry, as the atlas' baked lines need bilinear.
    style.AntiAliasedLinesUseTex = false;
    ImGui_ImplOpenGL3_CreateDeviceObjects();
    glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(reinterpret_cast<intptr_t>(io.Fonts->TexID)));
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindTexture(GL_TEXTURE_2D, 0);
    return true;
}

void App::closeWindow() {
    if (ImGui::GetCurrentContext()) {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplSDL2_Shutdown();
        ImGui::DestroyContext();
    }
    renderer_.reset();  // GL objects go while the context lives
    if (context_) SDL_GL_DeleteContext(context_);
    if (window_) SDL_DestroyWindow(window_);
    context_ = nullptr;
    window_ = nullptr;
    SDL_Quit();
}

bool App::loadScene(const std::string& path, std::string& error) {
    scene::SceneResult result = scene::loadSceneFile(path);
    if (const auto* bad = std::get_if<scene::SceneError>(&result)) {
        error = bad->message();
        return false;  // the running world is untouched
    }
    scene_ = std::move(std::get<scene::Scene>(result));
    scenePath_ = path;
    panels_.setScenePath(path);
    resetScene();
    camera_ = render::OrbitCamera{};
    frameAll();
    if (window_) SDL_SetWindowTitle(window_, ("Impulse Lab - " + scene_.name).c_str());
    return true;
}

void App::resetScene() {
    world_ = scene::buildWorld(scene_);
    grabbing_ = false;
    hover_ = BodyId{};
    previous_.clear();
    clock_.reset();
    simTime_ = 0.0;
    panels_.bodyEditor().select(world_, BodyId{});
    panels_.pickedContact() = ui::ContactKey{};
    panels_.stats().clear();
    panels_.stats().push(ui::measure(world_, 0.0f));
    world_.setDragSettings(dragSettings_);
    frameBudget_.reset();  // what the cuts saved was measured on the old world
}

void App::frameAll() {
    // Frame the moving bodies and the smaller static props (ramps, walls); a large
    // ground would otherwise push everything into the distance.
    constexpr float kLargeStatic = 10.0f;  // m, half size beyond which a static body is "the ground"
    vec3 lo(1e30f), hi(-1e30f);
    bool any = false;
    for (int pass = 0; pass < 2 && !any; ++pass) {
        for (BodyId id : world_.bodyIds()) {
            const Body& b = world_.body(id);
            const Aabb box = shapeAabb(b.shape, b.position, b.rotation, 0.0f);
            if (pass == 0 && b.isStatic && glm::length(box.upper - box.lower) > 2.0f * kLargeStatic) continue;
            lo = glm::min(lo, box.lower);
            hi = glm::max(hi, box.upper);
            any = true;
        }
    }
    if (!any) {
        lo = vec3(-5.0f);
        hi = vec3(5.0f);
    }
    int winW = options_.width, winH = options_.height;
    if (window_) SDL_GetWindowSize(window_, &winW, &winH);
    const int freeWidth = winW - kPanelWidths > winW / 3 ? winW - kPanelWidths : winW;
    // The bounding sphere of a box overestimates what must fit: 0.8 keeps a small margin.
    camera_.frame(0.5f * (lo + hi), std::max(0.4f * glm::length(hi - lo), 2.5f),
                  static_cast<float>(freeWidth) / static_cast<float>(std::max(winH, 1)));
}

void App::frameBody(BodyId id) {
    if (!world_.isValid(id)) {
        frameAll();
        return;
    }
    const Body& b = world_.body(id);
    camera_.target = b.position;
    camera_.distance = std::max(6.0f * boundingRadius(b.shape), 3.0f);
}

void App::select(BodyId id) { panels_.bodyEditor().select(world_, id); }

render::Ray App::mouseRay() const {
    int w = 1, h = 1;
    SDL_GetWindowSize(window_, &w, &h);
    return camera_.rayThroughPixel(static_cast<float>(mouseX_), static_cast<float>(mouseY_), static_cast<float>(w),
                                   static_cast<float>(h));
}

int App::run() {
    const std::string path = options_.scene.empty() ? paths_.defaultScene() : options_.scene;
    std::string error;
    if (!loadScene(path, error)) {
        std::fprintf(stderr, "impulse-lab: %s\n", error.c_str());
        if (!options_.scene.empty()) return 2;
        std::fprintf(stderr, "impulse-lab: using the built-in scene\n");
        scene_ = builtinScene();
        resetScene();
        frameAll();
    }
    if (!openWindow()) return 1;
    frameAll();  // now with the real window size
    panels_.setMessage("loaded " + (scenePath_.empty() ? std::string("built-in scene") : scenePath_), false);

    const double frequency = static_cast<double>(SDL_GetPerformanceFrequency());
    const auto msBetween = [frequency](Uint64 a, Uint64 b) { return static_cast<double>(b - a) / frequency * 1000.0; };
    Uint64 last = SDL_GetPerformanceCounter();
    int frame = 0;
    bool quit = false;
    bool screenshotRequested = false;
    int exitCode = 0;
    // IMPULSE_PROFILE=N: print the median stage times over the run on exit, leaving out
    // the first N frames (30 when N is not a number above it: shaders compile, caches fill).
    const char* profileSetting = std::getenv("IMPULSE_PROFILE");
    const bool profile = profileSetting != nullptr;
    const size_t warmUpFrames = profile ? std::max<size_t>(std::strtoul(profileSetting, nullptr, 10), 30) : 0;
    std::vector<FrameTimes> history;
    while (!quit) {
        const Uint64 start = SDL_GetPerformanceCounter();
        const double frameSeconds = static_cast<double>(start - last) / frequency;
        last = start;
        FrameTimes times;
        times.frame = frameSeconds * 1000.0;

        SDL_Event event;
        while (SDL_PollEvent(&event)) {
            ImGui_ImplSDL2_ProcessEvent(&event);
            handleEvent(event, quit);
            if (event.type == SDL_KEYDOWN && event.key.keysym.sym == SDLK_F12) screenshotRequested = true;
        }
        SDL_GL_GetDrawableSize(window_, &width_, &height_);

        updateDragTarget();
        updateHover();

        const Uint64 uiStart = SDL_GetPerformanceCounter();
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplSDL2_NewFrame();
        ImGui::NewFrame();
        ui::PanelRequests requests;
        panels_.draw(world_, sim_, view_, dragSettings_, frameInfo_, requests);
        drawViewportOverlay();
        ImGui::Render();
        const Uint64 uiEnd = SDL_GetPerformanceCounter();
        processRequests(requests);
        screenshotRequested |= requests.screenshot;

        // The frame shows the world as the last frame's steps left it; this frame's
        // steps run on physicsJob_ while it is drawn, so nothing below reads the world
        // until the job is waited for. (One frame later on screen than stepping first.)
        const Uint64 t0 = SDL_GetPerformanceCounter();
        const float alpha = sim_.paused ? 1.0f : static_cast<float>(clock_.alpha());
        buildDrawList(alpha);
        buildDebugLayer();
        const render::RenderOptions options = renderOptions();
        const bool physicsOnJob = physicsPlacement_.onBackground();
        if (physicsOnJob) physicsJob_.start([this, frameSeconds] { physicsMs_ = simulate(frameSeconds); });
        // The times below include the rasteriser's work: a fence marks the end of the 3D
        // pass and glFinish the end of the panels. The panels are submitted before the
        // wait for the fence, so that this CPU work overlaps the rasterisation of the 3D
        // pass (software GL, llvmpipe, rasterises on its own threads from the flush on).
        renderer_->render(camera_, width_, height_, draw_, debug_, options);
        const GLsync sceneDone = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        glFlush();
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        glClientWaitSync(sceneDone, GL_SYNC_FLUSH_COMMANDS_BIT, GL_TIMEOUT_IGNORED);
        glDeleteSync(sceneDone);
        const Uint64 t1 = SDL_GetPerformanceCounter();
        glFinish();
        const Uint64 t2 = SDL_GetPerformanceCounter();
        if (physicsOnJob) {
            physicsJob_.wait();
        } else {
            physicsMs_ = simulate(frameSeconds);
        }
        const Uint64 physicsDone = SDL_GetPerformanceCounter();
        times.physics = physicsMs_;
        physicsPlacement_.record(physicsJob_.lastWaitMs(), physicsJob_.lastWaitCpuMs(), physicsMs_);
        frameInfo_.physicsOnMainThread = !physicsOnJob;

        ++frame;
        const bool lastFrame = options_.frames >= 0 && frame >= options_.frames;
        if (lastFrame && !options_.screenshot.empty()) {
            const std::string err = render::saveScreenshot(options_.screenshot, width_, height_);
            if (!err.empty()) {
                std::fprintf(stderr, "impulse-lab: screenshot: %s\n", err.c_str());
                exitCode = 1;
            }
        }
        if (screenshotRequested) {
            saveScreenshotNow("impulse-lab-" + std::to_string(++screenshotCount_) + ".png");
            screenshotRequested = false;
        }
        SDL_GL_SwapWindow(window_);
        const Uint64 t3 = SDL_GetPerformanceCounter();
        times.render = msBetween(t0, t1);
        times.uiDraw = msBetween(t1, t2);
        times.ui = msBetween(uiStart, uiEnd) + times.uiDraw;
        times.physicsWait = msBetween(t2, physicsDone);
        times.present = msBetween(physicsDone, t3);
        times.busy = msBetween(start, t3);
        times.shadowCut = shadowCut();  // what this frame was drawn with
        showTimes(times);
        if (view_.holdFrameRate && view_.shadows) {
            frameBudget_.record(times.busy - times.present);
        } else {
            frameBudget_.reset();
        }
        frameInfo_.shadowCut = shadowCut();
        if (profile) history.push_back(times);
        if (lastFrame) quit = true;

        const double busy = static_cast<double>(SDL_GetPerformanceCounter() - start) / frequency;
        if (busy < kTargetFrameSeconds) {
            SDL_Delay(static_cast<Uint32>((kTargetFrameSeconds - busy) * 1000.0));
        }
    }

    if (profile) printProfile(history, warmUpFrames);
    if (!options_.saveOnExit.empty()) {
        std::string err;
        if (!saveWorld(options_.saveOnExit, err)) {
            std::fprintf(stderr, "impulse-lab: save on exit: %s\n", err.c_str());
            exitCode = 1;
        }
    }
    return exitCode;
}

render::RenderOptions App::renderOptions() const {
    render::RenderOptions ro;
    ro.shadows = view_.shadows && shadowCut() != ui::ShadowCut::all;
    ro.bodiesReceiveShadows = shadowCut() == ui::ShadowCut::none;
    // The shadow map covers the moving bodies (and the camera's focus).
    vec3 lo = camera_.target - vec3(2.0f), hi = camera_.target + vec3(2.0f);
    for (const auto* v : {&draw_.boxes, &draw_.spheres}) {
        for (const render::Instance& inst : *v) {
            if (inst.halfSizeFlags.w > 0.5f) continue;  // static: receives, not the focus
            const vec3 p(inst.positionHighlight);
            const float r = glm::length(vec3(inst.halfSizeFlags));
            lo = glm::min(lo, p - vec3(r));
            hi = glm::max(hi, p + vec3(r));
        }
    }
    ro.hiddenRects = hiddenPanelRects();
    ro.panelColor = panelColor_;
    // A body flung far away must not spread the map's texels over kilometres.
    constexpr float kMaxShadowReach = 80.0f;  // m from the camera's focus
    ro.shadowLower = glm::max(lo, camera_.target - vec3(kMaxShadowReach));
    ro.shadowUpper = glm::min(hi, camera_.target + vec3(kMaxShadowReach));
    return ro;
}

std::vector<glm::ivec4> App::hiddenPanelRects() const {
    // Call after ImGui::Render(): the panels' final rectangles for this frame. Only plain
    // windows (square, background cleared by the renderer); popups and tooltips are partly
    // transparent.
    std::vector<glm::ivec4> rects;
    const ImGuiContext* g = ImGui::GetCurrentContext();
    if (!g || width_ <= 0 || height_ <= 0) return rects;
    const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
    for (const ImGuiWindow* w : g->Windows) {
        if (!w->WasActive || w->Hidden) continue;
        if (w->Flags & (ImGuiWindowFlags_ChildWindow | ImGuiWindowFlags_Popup | ImGuiWindowFlags_Tooltip |
                        ImGuiWindowFlags_NoBackground)) {
            continue;
        }
        // Pixels from the bottom left: those whose centres the window's rectangle holds.
        const float x0 = w->Pos.x * scale.x, x1 = (w->Pos.x + w->Size.x) * scale.x;
        const float y0 = static_cast<float>(height_) - (w->Pos.y + w->Size.y) * scale.y;
        const float y1 = static_cast<float>(height_) - w->Pos.y * scale.y;
        const int ix0 = static_cast<int>(std::round(x0)), iy0 = static_cast<int>(std::round(y0));
        const int ix1 = static_cast<int>(std::round(x1)), iy1 = static_cast<int>(std::round(y1));
        if (ix1 > ix0 && iy1 > iy0) rects.emplace_back(ix0, iy0, ix1 - ix0, iy1 - iy0);
    }
    return rects;
}

void App::showTimes(const FrameTimes& t) {
    // Smoothed over ~10 frames so the numbers can be read.
    const auto smooth = [](float& shown, double ms) { shown = static_cast<float>(0.9 * shown + 0.1 * ms); };
    smooth(frameInfo_.frameMs, t.frame);
    smooth(frameInfo_.physicsMs, t.physics);
    smooth(frameInfo_.physicsWaitMs, t.physicsWait);
    smooth(frameInfo_.renderMs, t.render);
    smooth(frameInfo_.uiMs, t.ui);
    smooth(frameInfo_.presentMs, t.present);
}

void App::printProfile(const std::vector<FrameTimes>& history, size_t warmUpFrames) {
    if (history.size() <= warmUpFrames) return;
    const auto median = [&](double FrameTimes::*field) {
        std::vector<double> v;
        for (size_t i = warmUpFrames; i < history.size(); ++i) v.push_back(history[i].*field);
        std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
        return v[v.size() / 2];
    };
    std::printf("profile: %zu frames (first %zu left out), median ms: frame %.2f busy %.2f | physics %.2f "
                "(waited %.2f) render %.2f UI %.2f (drawing %.2f) swap %.2f\n",
                history.size() - warmUpFrames, warmUpFrames, median(&FrameTimes::frame),
                median(&FrameTimes::busy), median(&FrameTimes::physics), median(&FrameTimes::physicsWait),
                median(&FrameTimes::render), median(&FrameTimes::ui), median(&FrameTimes::uiDraw),
                median(&FrameTimes::present));
    const auto framesCut = [&](ui::ShadowCut cut) {
        return std::count_if(history.begin() + static_cast<std::ptrdiff_t>(warmUpFrames), history.end(),
                             [cut](const FrameTimes& t) { return t.shadowCut == cut; });
    };
    std::printf("profile: frames drawn with shadows cut to hold 60 fps: on bodies %td, all %td\n",
                framesCut(ui::ShadowCut::onBodies), framesCut(ui::ShadowCut::all));
}

bool App::saveWorld(const std::string& path, std::string& error) const {
    error = scene::saveSceneFile(scene::captureScene(world_, scene_.name), path);
    return error.empty();
}

void App::saveScreenshotNow(const std::string& path) {
    const std::string err = render::saveScreenshot(path, width_, height_);
    panels_.setMessage(err.empty() ? "saved " + path : "screenshot: " + err, !err.empty());
}

void App::handleEvent(const SDL_Event& event, bool& quit) {
    const ImGuiIO& io = ImGui::GetIO();
    switch (event.type) {
        case SDL_QUIT:
            quit = true;
            break;
        case SDL_WINDOWEVENT:
            if (event.window.event == SDL_WINDOWEVENT_CLOSE) quit = true;
            break;
        case SDL_KEYDOWN:
            if (!io.WantCaptureKeyboard) handleKey(event.key, quit);
            break;
        case SDL_MOUSEBUTTONDOWN:
            mouseX_ = event.button.x;
            mouseY_ = event.button.y;
            if (io.WantCaptureMouse) break;
            if (event.button.button == SDL_BUTTON_LEFT) {
                beginMouseDrag(event.button.x, event.button.y);
            } else if (event.button.button == SDL_BUTTON_RIGHT) {
                if (SDL_GetModState() & KMOD_SHIFT) {
                    panning_ = true;
                } else {
                    orbiting_ = true;
                }
            } else if (event.button.button == SDL_BUTTON_MIDDLE) {
                panning_ = true;
            }
            break;
        case SDL_MOUSEBUTTONUP:
            mouseX_ = event.button.x;
            mouseY_ = event.button.y;
            if (event.button.button == SDL_BUTTON_LEFT && grabbing_) {
                updateDragTarget();
                world_.endDrag();  // the body keeps its velocity: a throw
                grabbing_ = false;
            } else if (event.button.button == SDL_BUTTON_RIGHT || event.button.button == SDL_BUTTON_MIDDLE) {
                orbiting_ = false;
                panning_ = false;
            }
            break;
        case SDL_MOUSEMOTION: {
            mouseX_ = event.motion.x;
            mouseY_ = event.motion.y;
            const float dx = static_cast<float>(event.motion.xrel), dy = static_cast<float>(event.motion.yrel);
            if (orbiting_) camera_.orbit(-dx * kOrbitRadiansPerPixel, dy * kOrbitRadiansPerPixel);
            if (panning_) {
                int w = 1, h = 1;
                SDL_GetWindowSize(window_, &w, &h);
                camera_.pan(dx, dy, static_cast<float>(h));
            }
            break;
        }
        case SDL_MOUSEWHEEL:
            if (!io.WantCaptureMouse) camera_.zoom(static_cast<float>(event.wheel.y));
            break;
        default:
            break;
    }
}

void App::handleKey(const SDL_KeyboardEvent& key, bool& quit) {
    const bool ctrl = (key.keysym.mod & KMOD_CTRL) != 0;
    switch (key.keysym.sym) {
        case SDLK_q:
            if (ctrl) quit = true;
            break;
        case SDLK_SPACE:
            sim_.paused = !sim_.paused;
            break;
        case SDLK_s:
        case SDLK_PERIOD:
            sim_.paused = true;
            sim_.stepOnce = true;
            break;
        case SDLK_r:
            resetScene();
            break;
        case SDLK_f:
            frameBody(panels_.bodyEditor().selected());
            break;
        case SDLK_b:
            spawn(ShapeType::Box);
            break;
        case SDLK_n:
            spawn(ShapeType::Sphere);
            break;
        case SDLK_t:
            shoot();
            break;
        case SDLK_DELETE:
        case SDLK_BACKSPACE:
        case SDLK_x:
            deleteSelection();
            break;
        case SDLK_c:
            view_.contacts = !view_.contacts;
            break;
        case SDLK_LEFTBRACKET:
            sim_.timeScale = std::max(0.05f, sim_.timeScale * 0.5f);
            break;
        case SDLK_RIGHTBRACKET:
            sim_.timeScale = std::min(2.0f, sim_.timeScale * 2.0f);
            break;
        case SDLK_h:
        case SDLK_F1:
            panels_.toggleHelp();
            break;
        case SDLK_ESCAPE:
            select(BodyId{});
            break;
        default:
            break;
    }
}

void App::beginMouseDrag(int x, int y) {
    mouseX_ = x;
    mouseY_ = y;
    const render::Ray ray = mouseRay();
    const std::optional<RayHit> hit = world_.rayCast(ray.origin, ray.direction, kPickDistance);
    if (!hit) {
        select(BodyId{});
        return;
    }
    select(hit->body);
    if (world_.body(hit->body).isStatic) return;
    // The grabbed point follows the cursor on the plane through it facing the camera.
    dragPlanePoint_ = hit->point;
    dragPlaneNormal_ = -camera_.forward();
    if (!world_.beginDrag(hit->body, hit->point, dragSettings_)) grabbing_ = true;
}

void App::updateDragTarget() {
    if (!grabbing_) return;
    if (!world_.drag().active) {
        grabbing_ = false;  // the body was deleted or the world replaced
        return;
    }
    glm::vec3 target;
    if (render::intersectPlane(mouseRay(), dragPlanePoint_, dragPlaneNormal_, target)) world_.setDragTarget(target);
}

void App::updateHover() {
    hover_ = BodyId{};
    if (grabbing_ || orbiting_ || panning_ || ImGui::GetIO().WantCaptureMouse) return;
    if (!(SDL_GetMouseFocus() == window_)) return;
    const render::Ray ray = mouseRay();
    if (const std::optional<RayHit> hit = world_.rayCast(ray.origin, ray.direction, kPickDistance)) hover_ = hit->body;
}

void App::capturePoses() {
    for (BodyId id : world_.bodyIds()) {
        if (id.index >= previous_.size()) previous_.resize(id.index + 1);
        const Body& b = world_.body(id);
        previous_[id.index] = Pose{b.position, b.orientation, id.generation};
    }
}

double App::simulate(double frameSeconds) {
    const auto start = std::chrono::steady_clock::now();
    const FixedStepClock::Plan plan =
        clock_.advance(frameSeconds, world_.settings().timestep, sim_.timeScale, sim_.maxStepsPerFrame, sim_.paused,
                       sim_.stepOnce);
    sim_.stepOnce = false;
    double totalMs = 0.0;
    for (int i = 0; i < plan.steps; ++i) {
        capturePoses();
        const auto t0 = std::chrono::steady_clock::now();
        world_.step();
        const auto t1 = std::chrono::steady_clock::now();
        const double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
        totalMs += ms;
        simTime_ += world_.settings().timestep;
        panels_.stats().push(ui::measure(world_, static_cast<float>(ms)));
    }
    frameInfo_.stepsThisFrame = plan.steps;
    if (plan.steps > 0) frameInfo_.stepMs = static_cast<float>(totalMs / plan.steps);
    frameInfo_.simTime = static_cast<float>(simTime_);
    if (plan.steps > 0) {
        if (const BodyId bad = world_.firstNonFiniteBody()) {
            sim_.paused = true;
            panels_.setMessage("body '" + world_.body(bad).name + "' has a non-finite state: paused (press R to reset)",
                               true);
        }
    }
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void App::processRequests(ui::PanelRequests& requests) {
    std::string error;
    if (!requests.open.empty()) {
        if (loadScene(requests.open, error)) {
            panels_.setMessage("loaded " + requests.open, false);
        } else {
            // Shown in the Scene panel; also one line on stderr for logs and scripted tests.
            std::fprintf(stderr, "impulse-lab: %s\n", error.c_str());
            panels_.setMessage(error, true);
        }
    }
    if (!requests.save.empty()) {
        if (saveWorld(requests.save, error)) {
            panels_.setMessage("saved " + requests.save, false);
            panels_.refreshPresets();
        } else {
            panels_.setMessage(error, true);
        }
    }
    if (requests.reset) resetScene();
    if (requests.spawnBox) spawn(ShapeType::Box);
    if (requests.spawnSphere) spawn(ShapeType::Sphere);
    if (requests.shoot) shoot();
    if (requests.deleteSelection) deleteSelection();
    if (requests.frameSelection) frameBody(panels_.bodyEditor().selected());
}

std::string App::uniqueName(const std::string& stem) const {
    for (int n = 1;; ++n) {
        std::string name = stem + "_" + std::to_string(n);
        if (!world_.findBody(name)) return name;
    }
}

void App::spawn(ShapeType type) {
    render::Ray ray = mouseRay();
    int w = 1, h = 1;
    SDL_GetWindowSize(window_, &w, &h);
    if (ImGui::GetIO().WantCaptureMouse || SDL_GetMouseFocus() != window_) {
        ray = camera_.rayThroughPixel(0.5f * static_cast<float>(w), 0.5f * static_cast<float>(h),
                                      static_cast<float>(w), static_cast<float>(h));
    }
    BodyDef def;
    def.shape = type == ShapeType::Box ? Shape::box(vec3(kSpawnSize)) : Shape::sphere(kSpawnSize);
    def.name = uniqueName(type == ShapeType::Box ? "box" : "sphere");
    // Drop it just above whatever the mouse points at, or on the y = 0 plane.
    vec3 point;
    if (const std::optional<RayHit> hit = world_.rayCast(ray.origin, ray.direction, kPickDistance)) {
        def.position = hit->point + hit->normal * (kSpawnSize * 1.75f) + vec3(0.0f, kSpawnSize * 0.5f, 0.0f);
    } else if (render::intersectPlane(ray, vec3(0.0f), vec3(0.0f, 1.0f, 0.0f), point)) {
        def.position = point + vec3(0.0f, kSpawnSize * 2.0f, 0.0f);
    } else {
        def.position = ray.origin + ray.direction * 10.0f;
    }
    FieldError err;
    const BodyId id = world_.createBody(def, &err);
    if (!id) {
        panels_.setMessage("spawn refused: " + err.message(), true);
        return;
    }
    select(id);
}

void App::shoot() {
    render::Ray ray = mouseRay();
    if (ImGui::GetIO().WantCaptureMouse || SDL_GetMouseFocus() != window_) {
        ray.origin = camera_.eye();
        ray.direction = camera_.forward();
    }
    BodyDef def;
    def.name = uniqueName("shot");
    def.shape = Shape::sphere(kShotRadius);
    def.mass = kShotMass;
    def.position = ray.origin + ray.direction * 1.0f;
    def.linearVelocity = ray.direction * kShotSpeed;
    FieldError err;
    if (!world_.createBody(def, &err)) panels_.setMessage("shot refused: " + err.message(), true);
}

void App::deleteSelection() {
    const BodyId id = panels_.bodyEditor().selected();
    if (!id || !world_.isValid(id)) return;
    world_.removeBody(id);
    select(BodyId{});
    ui::ContactKey& picked = panels_.pickedContact();
    if (picked.valid && (picked.a == id || picked.b == id)) picked = ui::ContactKey{};
}

void App::buildDrawList(float alpha) {
    draw_.clear();
    const BodyId selected = panels_.bodyEditor().selected();
    const DragState& drag = world_.drag();
    for (BodyId id : world_.bodyIds()) {
        const Body& b = world_.body(id);
        vec3 p = b.position;
        quat q = b.orientation;
        if (alpha < 1.0f && !b.isStatic && id.index < previous_.size() &&
            previous_[id.index].generation == id.generation) {
            // Blend last step's pose into this one by the unsimulated fraction (nlerp on the short arc).
            const Pose& prev = previous_[id.index];
            p = glm::mix(prev.position, p, alpha);
            quat q0 = prev.orientation;
            if (glm::dot(q0, q) < 0.0f) q0 = -q0;
            q = glm::normalize(q0 * (1.0f - alpha) + q * alpha);
        }
        render::Highlight hl = render::Highlight::None;
        if (drag.active && drag.body == id) {
            hl = render::Highlight::Dragged;
        } else if (id == selected) {
            hl = render::Highlight::Selected;
        } else if (id == hover_) {
            hl = render::Highlight::Hover;
        }
        const glm::vec4 color = colorOf(b, id);
        if (b.shape.type == ShapeType::Box) {
            draw_.boxes.push_back(render::Instance::make(p, q, b.shape.halfExtents, color, hl, b.isStatic));
        } else {
            draw_.spheres.push_back(render::Instance::make(p, q, vec3(b.shape.radius), color, hl, b.isStatic));
        }
    }
}

void App::buildDebugLayer() {
    debug_.clear();
    // A pile has thousands of contact points: copy them out only when some are drawn.
    const bool contactsShown =
        view_.contacts || view_.normals || view_.impulses || panels_.pickedContact().valid;
    const std::vector<ContactPointInfo> contacts =
        contactsShown ? world_.contacts() : std::vector<ContactPointInfo>{};
    const int pickedIndex = ui::findContact(contacts, panels_.pickedContact());
    const glm::vec4 stickColor(0.3f, 1.0f, 0.4f, 1.0f), slipColor(1.0f, 0.45f, 0.15f, 1.0f);
    for (size_t i = 0; i < contacts.size(); ++i) {
        const ContactPointInfo& c = contacts[i];
        const bool picked = static_cast<int>(i) == pickedIndex;
        if (view_.contacts || picked) {
            debug_.point(c.point, picked ? glm::vec4(1.0f) : (c.sticking ? stickColor : slipColor), picked ? 14.0f : 7.0f);
        }
        if (view_.normals || picked) debug_.arrow(c.point, c.point + c.normal * 0.35f, {1.0f, 0.9f, 0.2f, 1.0f});
        if (view_.impulses || picked) {
            debug_.arrow(c.point, c.point + c.normal * (c.normalImpulse * view_.impulseScale), {0.2f, 0.85f, 1.0f, 1.0f});
            debug_.arrow(c.point, c.point + c.frictionImpulse * view_.impulseScale, {1.0f, 0.35f, 0.9f, 1.0f});
        }
    }
    for (BodyId id : world_.bodyIds()) {
        const Body& b = world_.body(id);
        if (view_.aabbs) {
            const Aabb box = shapeAabb(b.shape, b.position, b.rotation, 0.0f);
            debug_.aabb(box.lower, box.upper, b.isStatic ? glm::vec4(0.6f, 0.6f, 0.6f, 0.6f) : glm::vec4(1.0f, 1.0f, 0.3f, 0.9f));
        }
        if (b.isStatic) continue;
        if (view_.velocities) {
            debug_.arrow(b.position, b.position + b.linearVelocity * view_.velocityScale, {0.3f, 0.6f, 1.0f, 1.0f});
            debug_.arrow(b.position, b.position + b.angularVelocity * view_.velocityScale, {0.75f, 0.4f, 1.0f, 1.0f});
        }
        if (view_.centreOfMass) {
            debug_.cross(b.position, 0.15f, {1.0f, 1.0f, 1.0f, 1.0f});
            debug_.point(b.position, {0.1f, 0.1f, 0.1f, 1.0f}, 6.0f);
        }
        if (view_.principalAxes) {
            vec3 moments;
            mat3 axes;
            principalAxes(b.inertiaBody, moments, axes);
            debug_.axes(b.position, b.rotation * axes, vec3(boundingRadius(b.shape) * 1.3f));
        }
    }
    // Outline the selection so it reads at any distance.
    const BodyId selected = panels_.bodyEditor().selected();
    if (selected && world_.isValid(selected)) {
        const Body& b = world_.body(selected);
        const glm::vec4 orange(1.0f, 0.6f, 0.1f, 1.0f);
        if (b.shape.type == ShapeType::Box) {
            debug_.orientedBox(b.position, b.rotation, b.shape.halfExtents * 1.01f, orange);
        } else {
            const float r = b.shape.radius * 1.01f;
            debug_.circle(b.position, b.rotation[0], b.rotation[1], r, orange);
            debug_.circle(b.position, b.rotation[1], b.rotation[2], r, orange);
            debug_.circle(b.position, b.rotation[2], b.rotation[0], r, orange);
        }
    }
    const DragState& drag = world_.drag();
    if (drag.active) {
        debug_.line(drag.anchor, drag.target, {1.0f, 1.0f, 1.0f, 1.0f});
        debug_.point(drag.target, {1.0f, 1.0f, 1.0f, 1.0f}, 9.0f);
        debug_.point(drag.anchor, {1.0f, 0.55f, 0.1f, 1.0f}, 9.0f);
    }
}

void App::drawViewportOverlay() {
    ImDrawList* dl = ImGui::GetForegroundDrawList();
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    char text[256];
    std::snprintf(text, sizeof text, "%s  |  %d bodies  |  %s%s", scene_.name.c_str(), world_.bodyCount(),
                  sim_.paused ? "PAUSED" : "running", sim_.timeScale != 1.0f ? "  (slow motion)" : "");
    const ImVec2 size = ImGui::CalcTextSize(text);
    const ImVec2 pos(0.5f * (display.x - size.x), 10.0f);
    dl->AddRectFilled(ImVec2(pos.x - 8, pos.y - 4), ImVec2(pos.x + size.x + 8, pos.y + size.y + 4),
                      IM_COL32(20, 24, 30, 170), 4.0f);
    dl->AddText(pos, sim_.paused ? IM_COL32(255, 200, 90, 255) : IM_COL32(230, 235, 240, 255), text);
    const char* hint = "H: help";
    dl->AddText(ImVec2(0.5f * (display.x - ImGui::CalcTextSize(hint).x), pos.y + size.y + 8),
                IM_COL32(200, 205, 215, 200), hint);
    const DragState& drag = world_.drag();
    if (drag.active) {
        std::snprintf(text, sizeof text, "drag force %.1f N", static_cast<double>(glm::length(drag.force)));
        const ImVec2 at(static_cast<float>(mouseX_) + 16.0f, static_cast<float>(mouseY_) + 12.0f);
        const ImVec2 ts = ImGui::CalcTextSize(text);
        dl->AddRectFilled(ImVec2(at.x - 4, at.y - 2), ImVec2(at.x + ts.x + 4, at.y + ts.y + 2), IM_COL32(20, 24, 30, 190),
                          3.0f);
        dl->AddText(at, IM_COL32(255, 255, 255, 255), text);
    }
}

}  // namespace impulse::app
