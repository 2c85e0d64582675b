#include "app/app.h"

#include "app/recording.h"
#include "app/text_file.h"

#include "ui/splitters.h"
#include "ui/widgets.h"

#include <glad/glad.h>

#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <imgui.h>
#include <imgui_internal.h>  // the panels' final rectangles, for the layout report

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <utility>

#include <unistd.h>

namespace impulse::app {

namespace {

// SIGTERM, SIGINT or SIGHUP: the loop ends at its next frame, writing the recovery file
// instead of asking about unsaved edits (the work is safe; the next start offers it).
volatile std::sig_atomic_t terminationSignal = 0;
extern "C" void noteTerminationSignal(int signal) { terminationSignal = signal; }

void catchTerminationSignals() {
    struct sigaction action {};
    action.sa_handler = noteTerminationSignal;
    sigemptyset(&action.sa_mask);
    for (int signal : {SIGTERM, SIGINT, SIGHUP}) sigaction(signal, &action, nullptr);
}

// How often the work is autosaved while it changes, unless IMPULSE_AUTOSAVE_SECONDS says.
constexpr double kAutosaveSeconds = 5.0;
constexpr double kMaxAutosaveSeconds = 3600.0;
// The frame that asks whether to restore a recovery file (see offerRecovery's call).
constexpr int kOfferRecoveryFrame = 2;

// Without vsync (software tier, or none to be had: Xvfb) the loop caps its own rate.
constexpr double kTargetFrameSeconds = 1.0 / 60.0;
// ImGui's default font is a 13-pixel bitmap font; larger text is this size times the scale.
constexpr float kBaseFontPixels = 13.0f;
// After input the loop draws this many frames before it may wait again: ImGui needs a
// frame or two to settle hover and focus after the last event.
constexpr int kFramesAfterInput = 4;
// An idle loop still wakes this often (ms): the Stats panel's clock and timings stay fresh.
constexpr int kIdleWakeMs = 500;

// The panels' look at text scale `scale`, from scratch (ScaleAllSizes is not undoable).
void applyStyle(float scale) {
    ImGuiStyle style;
    ImGui::StyleColorsDark(&style);
    // Square panels: each covers exactly its rectangle, which the 3D pass leaves out and
    // fills with the background colour (see Frame's hidden rectangles).
    style.WindowRounding = 0.0f;
    style.FrameRounding = 3.0f;
    style.GrabRounding = 3.0f;
    style.ItemSpacing = ImVec2(8.0f, 3.0f);  // compact: the inspectors show many rows
    style.FramePadding = ImVec2(4.0f, 2.0f);
    // Software GL pays per sample: the default font's glyphs sit on whole pixels, so
    // nearest sampling of the atlas gives the same text as bilinear, for less. Lines
    // are then anti-aliased by geometry, as the atlas' baked lines need bilinear.
    style.AntiAliasedLinesUseTex = false;
    style.ScaleAllSizes(scale);
    // Opaque panels: the 3D pass clears the columns to their background colour, so
    // ImGui draws no background for them (a fully transparent fill is skipped).
    style.Colors[ImGuiCol_WindowBg].w = 0.0f;
    ImGui::GetStyle() = style;
}

// The panels' background as ImGui would draw it opaque (bytes, as ImGui quantises).
glm::vec4 panelBackground() {
    ImGuiStyle style;
    ImGui::StyleColorsDark(&style);
    ImVec4 background = style.Colors[ImGuiCol_WindowBg];
    background.w = 1.0f;
    const ImVec4 q = ImGui::ColorConvertU32ToFloat4(ImGui::ColorConvertFloat4ToU32(background));
    return glm::vec4(q.x, q.y, q.z, 1.0f);
}

void useNearestFontSampling() {
    glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(reinterpret_cast<intptr_t>(ImGui::GetIO().Fonts->TexID)));
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindTexture(GL_TEXTURE_2D, 0);
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
      input_(experiment_, options_.width, options_.height),
      panels_(paths_.scenes, "") {
    sim_.paused = options_.paused;
    input_.setShownBodies(&frame_.shownBodies());
}

App::~App() { closeWindow(); }

bool App::openWindow() {
    // SDL falls back to its hidden "offscreen" driver when no display works; accept
    // that only when asked for, otherwise the user would face an invisible window.
    const char* requested = std::getenv("SDL_VIDEODRIVER");
    // SDL would turn SIGTERM and SIGINT into SDL_QUIT, which asks about unsaved edits as
    // a closed window does; a signal ends the app without asking (the recovery file keeps the work).
    SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
    catchTerminationSignals();
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
#ifdef NDEBUG
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG);
#else
    // Debug builds: GL reports its errors and warnings on stderr (Renderer::init).
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG | SDL_GL_CONTEXT_DEBUG_FLAG);
#endif
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
    // The tier's MSAA must be asked for with the window. Left to GL_RENDERER, the tier
    // is known only once a context exists: the first window is made without samples and
    // made again with them when the renderer turns out to be a GPU's.
    const int askedSamples = options_.renderTier ? render::tierSettings(*options_.renderTier).msaaSamples : 0;
    if (!createGlWindow(askedSamples)) return false;
    rendererTier_ = render::tierForRenderer(reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
    const int tierSamples = render::tierSettings(options_.renderTier.value_or(rendererTier_)).msaaSamples;
    if (tierSamples > 0 && !options_.renderTier) {
        destroyGlWindow();
        if (!createGlWindow(tierSamples)) return false;
    }
    input_.setWindow(window_);
    std::string error;
    if (!frame_.init(paths_.shaders, error)) {
        std::fprintf(stderr, "impulse-lab: %s\n", error.c_str());
        return false;
    }
    const render::GlInfo& gl = frame_.glInfo();
    frameInfo_.glRenderer = gl.renderer;
    applyTier(options_.renderTier);
    // One line a bug report can quote: which GL drew (llvmpipe or a GPU), the render
    // tier and why, its MSAA, and whether the swap waits for the display (Xvfb has no
    // vsync: the loop caps the rate at 60 Hz).
    const render::TierSettings& tier = frame_.tier();
    std::printf("impulse-lab: OpenGL %s on %s (%s), render tier %s (%s), MSAA %dx, vsync %s%s\n",
                gl.version.c_str(), gl.renderer.c_str(), gl.vendor.c_str(), render::tierName(tier.tier),
                options_.renderTier ? "--render-tier" : "from GL_RENDERER", tier.msaaSamples,
                vsync_ ? "on" : (tier.vsync ? "unavailable" : "off"), gl.debugOutput ? ", GL debug output on" : "");
    std::fflush(stdout);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // the layout is the app's (settings.h); nothing written to the cwd
    applyStyle(1.0f);
    frame_.setPanelColor(panelBackground());
    if (!ImGui_ImplSDL2_InitForOpenGL(window_, context_) || !ImGui_ImplOpenGL3_Init("#version 330 core")) {
        std::fprintf(stderr, "impulse-lab: Dear ImGui cannot start on this window and GL context\n");
        return false;
    }
    if (!ImGui_ImplOpenGL3_CreateDeviceObjects()) {
        std::fprintf(stderr, "impulse-lab: Dear ImGui cannot build its GL shaders and font texture\n");
        return false;
    }
    useNearestFontSampling();
    textScale_ = 1.0f;
    return true;
}

void App::closeWindow() {
    if (ImGui::GetCurrentContext()) {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplSDL2_Shutdown();
        ImGui::DestroyContext();
    }
    frame_.release();  // GL objects go while the context lives
    gpuTimer_.release();
    destroyGlWindow();
    input_.setWindow(nullptr);
    SDL_Quit();
}

bool App::createGlWindow(int samples) {
    SDL_GL_SetAttribute(SDL_GL_MULTISAMPLEBUFFERS, samples > 0 ? 1 : 0);
    SDL_GL_SetAttribute(SDL_GL_MULTISAMPLESAMPLES, samples);
    const std::string title = "Impulse Lab - " + experiment_.scene().name;
    const auto create = [&] {
        window_ = SDL_CreateWindow(title.c_str(), SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, options_.width,
                                   options_.height, SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
        context_ = window_ ? SDL_GL_CreateContext(window_) : nullptr;
        return context_ != nullptr;
    };
    if (!create() && samples > 0) {
        // No visual or context with samples: draw without MSAA rather than not at all.
        std::printf("impulse-lab: the GL context refused %dx MSAA (%s): drawing without it\n", samples,
                    SDL_GetError());
        destroyGlWindow();
        SDL_GL_SetAttribute(SDL_GL_MULTISAMPLEBUFFERS, 0);
        SDL_GL_SetAttribute(SDL_GL_MULTISAMPLESAMPLES, 0);
        create();
    }
    if (!window_) {
        std::fprintf(stderr,
                     "impulse-lab: cannot create an OpenGL 3.3 window: %s\n"
                     "  Try SDL_VIDEODRIVER=offscreen (Mesa EGL), or impulse-sim for headless runs.\n",
                     SDL_GetError());
        return false;
    }
    if (!context_) {
        std::fprintf(stderr, "impulse-lab: cannot create an OpenGL 3.3 core context: %s\n", SDL_GetError());
        return false;
    }
    SDL_GL_MakeCurrent(window_, context_);
    if (!gladLoadGLLoader(reinterpret_cast<GLADloadproc>(SDL_GL_GetProcAddress))) {
        std::fprintf(stderr, "impulse-lab: cannot load the OpenGL 3.3 functions (the context says %d.%d)\n",
                     GLVersion.major, GLVersion.minor);
        return false;
    }
    // What the context gave, which may be fewer samples than asked for.
    GLint sampleBuffers = 0, given = 0;
    glGetIntegerv(GL_SAMPLE_BUFFERS, &sampleBuffers);
    glGetIntegerv(GL_SAMPLES, &given);
    msaaSamples_ = sampleBuffers > 0 ? given : 0;
    if (samples > 0 && msaaSamples_ < samples) {
        std::printf("impulse-lab: asked for %dx MSAA, the context gave %dx\n", samples, msaaSamples_);
    }
    return true;
}

void App::destroyGlWindow() {
    if (context_) SDL_GL_DeleteContext(context_);
    if (window_) SDL_DestroyWindow(window_);
    context_ = nullptr;
    window_ = nullptr;
    msaaSamples_ = 0;
}

void App::applyTier(render::TierChoice choice) {
    render::TierSettings tier = render::tierSettings(choice.value_or(rendererTier_));
    // The window's samples were fixed when it was made: a tier without MSAA turns them
    // off; one with MSAA on a window without samples draws without until a restart.
    frameInfo_.tierNote.clear();
    if (tier.msaaSamples > 0 && msaaSamples_ == 0) {
        frameInfo_.tierNote = "MSAA needs a window made with samples: start with --render-tier standard";
    }
    tier.msaaSamples = tier.msaaSamples > 0 ? msaaSamples_ : 0;
    if (msaaSamples_ > 0) tier.msaaSamples > 0 ? glEnable(GL_MULTISAMPLE) : glDisable(GL_MULTISAMPLE);
    vsync_ = SDL_GL_SetSwapInterval(tier.vsync ? 1 : 0) == 0 && tier.vsync;
    frame_.setTier(tier);
    autoShadows_.reset();  // what the cuts saved was measured with the old settings
    gpuTimer_.reset();
    frameInfo_.renderTier = tier.tier;
    frameInfo_.rendererTier = rendererTier_;
    frameInfo_.tierChoice = choice;
    frameInfo_.msaaSamples = tier.msaaSamples;
}

bool App::openScene(const std::string& path, std::string& note) {
    OpenedFile opened = loadSceneOrRecording(path);
    if (const auto* bad = std::get_if<scene::SceneError>(&opened)) {
        note = bad->message();
        return false;  // the running world is untouched
    }
    if (auto* scene = std::get_if<scene::Scene>(&opened)) {
        if (const Validation refused = experiment_.apply(LoadScene{std::move(*scene), path})) {
            note = path + ": " + refused->message();
            return false;
        }
        sceneRestarted();
        sceneLoaded();
        note = "loaded " + path;
        return true;
    }
    const Recording& recording = std::get<Recording>(opened);
    // Replayed on an experiment of its own, so that an input the run cannot hold leaves
    // the running world untouched; a run that replays whole then takes its place.
    Experiment replayed;
    if (const Validation refused = replayRecording(recording, replayed, "")) {
        note = path + ": " + refused->message();
        return false;
    }
    experiment_ = std::move(replayed);
    // The world is what the file holds: its inputs are not unsaved edits.
    experiment_.markSaved();
    // The whole run is recorded; it is shown from its start, paused: playing replays it.
    experiment_.seek(experiment_.runStart());
    sim_.paused = true;
    sceneRestarted();
    sceneLoaded();
    panels_.setScenePath(path);
    note = "opened the recording " + path + " (" + std::to_string(recording.end) + " steps, " +
           std::to_string(recording.inputs.size()) + " inputs): paused at its start, Space plays it";
    return true;
}

void App::sceneRestarted() {
    input_.forgetWorld();
    frame_.forgetPoses();
    clock_.reset();
    panels_.pickedContact() = ui::ContactKey{};
    timeline_ = ui::TimelineControls{};  // loop points of a run that is gone
    panels_.stats().clear();
    panels_.stats().push(ui::measure(experiment_.world(), 0.0f));
    autoShadows_.reset();  // what the cuts saved was measured on the old world
}

void App::sceneLoaded() {
    panels_.setScenePath(experiment_.scenePath());
    panels_.setSceneNote(experiment_.scene().note);
    if (const auto& shown = experiment_.scene().show) view_.classroom.showOnly(*shown);
    startCamera();
    updateTitle();
}

void App::startCamera() {
    input_.camera() = render::OrbitCamera{};
    if (const std::optional<scene::SceneCamera>& given = experiment_.scene().camera) {
        useCamera(*given);
    } else {
        input_.frameAll();
    }
}

void App::useCamera(const scene::SceneCamera& given) {
    render::OrbitCamera& camera = input_.camera();
    camera.target = given.target;
    camera.distance = given.distance;
    camera.yaw = glm::radians(given.yawDegrees);
    camera.pitch = glm::radians(given.pitchDegrees);
}

scene::SceneCamera App::sceneCamera() const {
    const render::OrbitCamera& camera = input_.camera();
    // Yaw as the file's range allows: orbiting adds up turns.
    const float yaw = std::remainder(glm::degrees(camera.yaw), 360.0f);
    const float pitch = std::clamp(glm::degrees(camera.pitch), -scene::kMaxCameraPitchDegrees,
                                   scene::kMaxCameraPitchDegrees);
    return scene::SceneCamera{camera.target, std::clamp(camera.distance, 1e-3f, scene::kMaxCameraDistance), yaw,
                              pitch};
}

void App::layOut() {
    int width = 0, height = 0;
    SDL_GetWindowSize(window_, &width, &height);
    layout_ = ui::computeLayout(width, height, columnWidths_, columnsShown_);
    if (layout_.textScale != textScale_) applyTextScale(layout_.textScale);
    panels_.setLayout(layout_);
    int drawableWidth = 0, drawableHeight = 0;
    SDL_GL_GetDrawableSize(window_, &drawableWidth, &drawableHeight);
    frame_.resize(drawableWidth, drawableHeight, layout_,
                  width > 0 ? static_cast<float>(drawableWidth) / static_cast<float>(width) : 1.0f);
    // Until the overlay has been drawn once, its status bar is two lines of text high.
    if (statusBarBottom_ <= 0.0f) statusBarBottom_ = 10.0f + 2.0f * kBaseFontPixels * layout_.textScale + 12.0f;
    input_.setView(layout_.view, statusBarBottom_, layout_.textScale);
}

void App::applyTextScale(float scale) {
    // The default font rasterised at the size needed (whole pixels, no oversampling), so
    // it stays as sharp as at 13 px rather than a scaled-up bitmap.
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    ImFontConfig font;
    font.SizePixels = std::round(kBaseFontPixels * scale);
    io.Fonts->AddFontDefault(&font);
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
    useNearestFontSampling();
    applyStyle(scale);
    textScale_ = scale;
}

bool App::idle() const {
    // --frames runs (tests, screenshots) never wait; nor does anything that moves.
    return options_.frames < 0 && sim_.paused && !sim_.stepOnce && !stepBackKey_ && !stepForwardKey_ &&
           stepsForward_ == 0 && framesSinceInput_ >= kFramesAfterInput &&
           !input_.busy() && !experiment_.world().drag().active && !ImGui::IsAnyItemActive() &&
           std::getenv("IMPULSE_PROFILE") == nullptr;
}

int App::run() {
    if (const char* layoutReport = std::getenv("IMPULSE_LAYOUT_JSON")) layoutReport_ = layoutReport;
    const char* liveLayout = std::getenv("IMPULSE_LAYOUT_LIVE");
    liveLayout_ = !layoutReport_.empty() && liveLayout && std::string(liveLayout) == "1";
    const std::string path = options_.scene.empty() ? paths_.defaultScene() : options_.scene;
    std::string opened;
    if (!openScene(path, opened)) {
        std::fprintf(stderr, "impulse-lab: %s\n", opened.c_str());
        if (!options_.scene.empty()) return 2;
        std::fprintf(stderr, "impulse-lab: using the built-in scene\n");
        experiment_.apply(LoadScene{builtinScene(), ""});
        sceneRestarted();
        sceneLoaded();
        opened = "loaded built-in scene";
    }
    if (options_.show) view_.classroom.showOnly(*options_.show);
    if (!options_.select.empty()) {
        const BodyId chosen = experiment_.world().findBody(options_.select);
        if (!chosen) {
            std::fprintf(stderr, "impulse-lab: --select: the scene has no body named '%s'\n", options_.select.c_str());
            return 2;
        }
        experiment_.select(chosen);
    }
    settingsPath_ = layoutSettingsPath();
    AppSettings settings;
    if (settingsPath_.empty()) {
        std::fprintf(stderr, "impulse-lab: neither XDG_CONFIG_HOME nor HOME is set: the panel columns' widths "
                             "and the Shadows setting will not be remembered\n");
    } else if (const std::string problem = loadSettings(settingsPath_, settings); !problem.empty()) {
        std::fprintf(stderr, "impulse-lab: settings: %s (using the defaults)\n", problem.c_str());
    }
    columnWidths_ = ui::clampWidths(settings.columns);
    view_.shadows = options_.shadows.value_or(settings.shadows);
    const AppSettings startSettings{columnWidths_, settings.shadows};
    if (const std::string refused = startAutosave(); !refused.empty()) {
        std::fprintf(stderr, "impulse-lab: %s\n", refused.c_str());
        return 2;
    }
    if (!openWindow()) return 1;
    layOut();
    startCamera();  // now with the real view rectangle
    panels_.setMessage(opened, false);
    reportedEditSerial_ = latestEditSerial();

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
        // Paused with nothing moving, the loop waits for input rather than drawing the
        // same picture 60 times a second (a core's worth of software GL). Before the
        // frame's start: the wait is no work for the frame budget to cut shadows over.
        frameInfo_.waitedForInput = idle();
        if (frameInfo_.waitedForInput) SDL_WaitEventTimeout(nullptr, kIdleWakeMs);
        if (terminationSignal != 0) break;
        const Uint64 start = SDL_GetPerformanceCounter();
        const double frameSeconds = static_cast<double>(start - last) / frequency;
        last = start;
        FrameTimes times;
        times.frame = frameSeconds * 1000.0;

        ui::PanelRequests requests;  // of the keys and then the panels' buttons
        const uint64_t messagesBefore = panels_.messagesSet();
        framesSinceInput_ = std::min(framesSinceInput_ + 1, kFramesAfterInput);
        SDL_Event event;
        while (SDL_PollEvent(&event)) {
            framesSinceInput_ = 0;
            input_.setPaused(sim_.paused);  // a Space earlier in the queue counts
            ImGui_ImplSDL2_ProcessEvent(&event);
            handleEvent(event, requests);
            if (event.type == SDL_KEYDOWN && event.key.keysym.sym == SDLK_F12 && !event.key.repeat) {
                screenshotRequested = true;
            }
        }
        layOut();
        if (view_.followSelected) input_.follow(experiment_.selected());
        input_.update();

        const Uint64 uiStart = SDL_GetPerformanceCounter();
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplSDL2_NewFrame();
        ImGui::NewFrame();
        ui::widgets::beginFrame();
        // ImGui opens a modal only over windows it has seen: the offer waits for the first frames.
        if (frame == kOfferRecoveryFrame && offered_) offerRecovery();
        panels_.draw(edits_, experiment_.observations(), experiment_, sim_, view_, frameInfo_, requests,
                     columnsShown_);
        ui::TimelineRequests timelineRequests;
        timelinePanel_.draw(experiment_, layout_.timeline, layout_.textScale, sim_, timeline_, timelineRequests,
                            requests);
        if (columnsShown_ && ui::columnSplitters(layout_, columnWidths_)) framesSinceInput_ = 0;
        Frame::drawGizmo(input_.gizmo(), input_.gizmoHighlight(), layout_.view, layout_.textScale);
        Frame::drawClassroomLabels(experiment_.world(), view_.classroom,
                                   impactShownAt(experiment_.observations().strongestImpacts, experiment_.world()),
                                   experiment_.selected(), input_.camera(), layout_.view);
        statusBarBottom_ = Frame::drawOverlay(experiment_.world(), experiment_.scene().name, sim_, layout_.view,
                                              input_.mouseX(), input_.mouseY(), input_.poseDragCaption());
        ImGui::Render();
        const Uint64 uiEnd = SDL_GetPerformanceCounter();
        if (frame == 0 && !options_.recordVideo.empty()) requests.toggleVideo = true;
        quit = processRequests(requests);
        applyTimeline(timelineRequests);
        reportEdit(messagesBefore);
        updateTitle();
        autosaveIfDue();  // before the steps start: the capture reads the experiment
        screenshotRequested |= requests.screenshot;

        // The world steps here, on this thread, before the frame is drawn: the view shows
        // where this frame's steps left it (the panels above were drawn before them). No
        // other thread ever reaches the experiment (docs/app.md, "Threads").
        // Paused, nothing is recorded: a video frame is always 1/60 s of simulated time.
        videoFrame_ = video_.recording() && !sim_.paused;
        // The trails are recorded only while shown: a run without them pays nothing.
        experiment_.observations().trails.setRecording(view_.classroom.trails ||
                                                       view_.classroom.markedPoints);
        times.physics = simulate(frameSeconds);
        reportedEditSerial_ = latestEditSerial();  // the steps' own edits (bounds) said what they did
        const Uint64 t0 = SDL_GetPerformanceCounter();
        const float alpha =
            sim_.paused ? 1.0f : static_cast<float>(videoFrame_ ? videoClock_.alpha() : clock_.alpha());
        // Paused after an edit, the world's contacts are its last step's at the old poses:
        // the view draws those the next step will use, as "Contacts use" names them.
        frame_.build(experiment_.world(), experiment_.ghostWorld(), experiment_.selected(), input_.hover(), alpha, view_,
                     panels_.pickedContact(), input_.preview(),
                     impactShownAt(experiment_.observations().strongestImpacts, experiment_.world()),
                     panels_.nextStepContacts().replacingStale(experiment_.world(), sim_.paused));
        frame_.buildTrails(experiment_.observations().trails, experiment_.shownStep(), view_.classroom);
        const ShadowCut cut = autoShadows_.cut(view_.shadows, frame_.tier());
        const bool timerQueries = frame_.tier().timerQueries;
        const Uint64 renderStart = SDL_GetPerformanceCounter();
        Uint64 t1 = 0, t2 = 0;
        if (timerQueries) {
            // The GL's own times of the 3D pass and the panels, read a few frames later:
            // the CPU goes on to the swap without waiting for the GPU.
            gpuTimer_.begin(render::GpuTimer::scene);
            frame_.render(input_.camera(), cut);
            gpuTimer_.end();
            if (videoFrame_) recordVideoFrame();
            t1 = SDL_GetPerformanceCounter();
            gpuTimer_.begin(render::GpuTimer::panels);
            ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
            gpuTimer_.end();
            gpuTimer_.endFrame();
            t2 = SDL_GetPerformanceCounter();
            times.render3d = gpuTimer_.latestMs(render::GpuTimer::scene);
            times.uiGl = gpuTimer_.latestMs(render::GpuTimer::panels);
        } else {
            // Software GL: the times include the rasteriser's work: a fence marks the end
            // of the 3D pass and glFinish the end of the panels. The panels are submitted
            // before the wait for the fence, so that this CPU work overlaps the
            // rasterisation of the 3D pass (llvmpipe rasterises on its own threads from
            // the flush on).
            frame_.render(input_.camera(), cut);
            if (videoFrame_) recordVideoFrame();
            const GLsync sceneDone = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
            glFlush();
            ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
            glClientWaitSync(sceneDone, GL_SYNC_FLUSH_COMMANDS_BIT, GL_TIMEOUT_IGNORED);
            glDeleteSync(sceneDone);
            t1 = SDL_GetPerformanceCounter();
            glFinish();
            t2 = SDL_GetPerformanceCounter();
            times.render3d = msBetween(renderStart, t1);
        }

        ++frame;
        const bool lastFrame = options_.frames >= 0 && frame >= options_.frames;
        if (lastFrame && !options_.screenshot.empty()) {
            const std::string err = frame_.saveScreenshot(options_.screenshot);
            if (!err.empty()) {
                std::fprintf(stderr, "impulse-lab: screenshot: %s\n", err.c_str());
                exitCode = 1;
            }
        }
        if (screenshotRequested) {
            saveScreenshotNow(firstFreeNumberedPath("", "impulse-lab-", ".png"));
            screenshotRequested = false;
        }
        SDL_GL_SwapWindow(window_);
        if (liveLayout_) writeLayout(layoutReport_);
        const Uint64 t3 = SDL_GetPerformanceCounter();
        times.render = msBetween(t0, t1);
        times.uiDraw = msBetween(t1, t2);
        times.ui = msBetween(uiStart, uiEnd) + times.uiDraw;
        times.present = msBetween(t2, t3);
        times.busy = msBetween(start, t3);
        times.shadowCut = cut;  // what this frame was drawn with
        showTimes(times);
        const int judgedBefore = autoShadows_.budget().windowsJudged();
        autoShadows_.record(times, view_.shadows, frame_.tier());
        const ShadowCut nextCut = autoShadows_.cut(view_.shadows, frame_.tier());
        if (autoShadows_.budget().windowsJudged() > judgedBefore && judgedWindows_.size() < 1000) {
            judgedWindows_.push_back({autoShadows_.budget().lastMedian(), nextCut});
        }
        ++framesByCut_[static_cast<size_t>(cut)];
        frameInfo_.shadows = describeShadows(view_.shadows, frame_.tier(), nextCut, frameInfo_.render3dMs);
        frameInfo_.shadowsCut = nextCut != ShadowCut::none && view_.shadows == ShadowMode::automatic;
        if (profile) history.push_back(times);
        if (lastFrame) quit = true;
        panels_.setVideoStatus(video_.status());

        const double busy = static_cast<double>(SDL_GetPerformanceCounter() - start) / frequency;
        if (!vsync_ && busy < kTargetFrameSeconds) {
            SDL_Delay(static_cast<Uint32>((kTargetFrameSeconds - busy) * 1000.0));
        }
    }

    if (profile) printProfile(history, warmUpFrames);
    if (profile && !autosaveCaptureMs_.empty()) {
        std::sort(autosaveCaptureMs_.begin(), autosaveCaptureMs_.end());
        std::printf("profile: autosave: %zu captures on the frame, median %.3f ms, slowest %.3f ms\n",
                    autosaveCaptureMs_.size(), autosaveCaptureMs_[autosaveCaptureMs_.size() / 2],
                    autosaveCaptureMs_.back());
    }
    if (autosave_) {
        const bool workChanged = workAtStart_ && workMark(experiment_) != *workAtStart_;
        if (terminationSignal != 0 && workChanged) {
            // Ended by a signal: the work goes to the recovery file, which the next start offers.
            autosave_->submit(captureRecovery(experiment_, sceneCamera(), utcNow()));
            const std::string error = autosave_->flush();
            if (error.empty()) {
                std::printf("impulse-lab: ended by signal %d: the work is in %s (the next start offers it)\n",
                            static_cast<int>(terminationSignal), autosave_->path().c_str());
            } else {
                std::fprintf(stderr, "impulse-lab: ended by signal %d: autosave failed: %s\n",
                             static_cast<int>(terminationSignal), error.c_str());
                exitCode = 1;
            }
            std::fflush(stdout);
        } else {
            autosave_->removeFile();  // a clean quit (or nothing done): nothing to recover
        }
    }
    if (video_.recording() || !video_.status().message.empty()) {
        // The last recording's frames written and encoded, then said (scripts and tests read it).
        video_.stop();
        video_.finish();
        std::printf("impulse-lab: video: %s\n", video_.status().message.c_str());
        std::fflush(stdout);
    }
    if (!layoutReport_.empty()) writeLayout(layoutReport_);
    // A --shadows flag is for this run: only a change made in the World panel is kept.
    const AppSettings endSettings{columnWidths_, options_.shadows && view_.shadows == *options_.shadows
                                                     ? startSettings.shadows
                                                     : view_.shadows};
    if (!(endSettings == startSettings) && !settingsPath_.empty()) {
        if (const std::string problem = saveSettings(settingsPath_, endSettings); !problem.empty()) {
            std::fprintf(stderr, "impulse-lab: settings not saved: %s\n", problem.c_str());
        }
    }
    if (!options_.saveOnExit.empty()) {
        const std::string err = experiment_.save(options_.saveOnExit, sceneCamera(), view_.classroom.shown());
        if (!err.empty()) {
            std::fprintf(stderr, "impulse-lab: save on exit: %s\n", err.c_str());
            exitCode = 1;
        }
    }
    return exitCode;
}

void App::showTimes(const FrameTimes& t) {
    // Smoothed over ~10 frames so the numbers can be read.
    const auto smooth = [](float& shown, double ms) { shown = static_cast<float>(0.9 * shown + 0.1 * ms); };
    smooth(frameInfo_.frameMs, t.frame);
    smooth(frameInfo_.physicsMs, t.physics);
    smooth(frameInfo_.renderMs, t.render);
    if (t.render3d >= 0.0) smooth(frameInfo_.render3dMs, t.render3d);
    if (t.uiGl >= 0.0) smooth(frameInfo_.uiGlMs, t.uiGl);
    frameInfo_.timerQueries = frame_.tier().timerQueries;
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
                "render %.2f UI %.2f (drawing %.2f) swap %.2f\n",
                history.size() - warmUpFrames, warmUpFrames, median(&FrameTimes::frame),
                median(&FrameTimes::busy), median(&FrameTimes::physics),
                median(&FrameTimes::render), median(&FrameTimes::ui), median(&FrameTimes::uiDraw),
                median(&FrameTimes::present));
    std::vector<double> passes;
    for (size_t i = warmUpFrames; i < history.size(); ++i) {
        if (history[i].render3d >= 0.0) passes.push_back(history[i].render3d);
    }
    if (!passes.empty()) {
        std::nth_element(passes.begin(), passes.begin() + static_cast<std::ptrdiff_t>(passes.size() / 2), passes.end());
        std::printf("profile: 3D pass (GL) median %.2f ms\n", passes[passes.size() / 2]);
    }
    const auto framesCut = [&](ShadowCut cut) {
        return std::count_if(history.begin() + static_cast<std::ptrdiff_t>(warmUpFrames), history.end(),
                             [cut](const FrameTimes& t) { return t.shadowCut == cut; });
    };
    std::printf("profile: frames drawn with shadows cut: on bodies %td, all %td\n", framesCut(ShadowCut::onBodies),
                framesCut(ShadowCut::all));
}

namespace {

/// `text` as a JSON string, quoted and escaped.
std::string jsonString(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
            out += escaped;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

// A tensor as rows of the matrix on screen (GLM stores columns).
std::string inertiaRows(const mat3& m) {
    char text[256];
    std::snprintf(text, sizeof text, "[[%.6g, %.6g, %.6g], [%.6g, %.6g, %.6g], [%.6g, %.6g, %.6g]]",
                  static_cast<double>(m[0][0]), static_cast<double>(m[1][0]), static_cast<double>(m[2][0]),
                  static_cast<double>(m[0][1]), static_cast<double>(m[1][1]), static_cast<double>(m[2][1]),
                  static_cast<double>(m[0][2]), static_cast<double>(m[1][2]), static_cast<double>(m[2][2]));
    return text;
}

}  // namespace

void App::writeLayout(const std::string& path) const {
    // A script may read it at any moment (IMPULSE_LAYOUT_LIVE): it sees the last whole one.
    const std::string partial = path + ".partial";
    std::FILE* out = std::fopen(partial.c_str(), "w");
    if (!out) {
        std::fprintf(stderr, "impulse-lab: cannot write the layout report '%s': %s\n", partial.c_str(), std::strerror(errno));
        return;
    }
    const auto rect = [](float x, float y, float w, float h) {
        char text[96];
        std::snprintf(text, sizeof text, "[%.1f, %.1f, %.1f, %.1f]", static_cast<double>(x), static_cast<double>(y),
                      static_cast<double>(w), static_cast<double>(h));
        return std::string(text);
    };
    const ui::Rect& v = layout_.view;
    std::fprintf(out, "{\n  \"window\": %s,\n  \"text_scale\": %.2f,\n  \"view\": %s,\n  \"status_bar_bottom\": %.1f,\n",
                 rect(0, 0, layout_.window.w, layout_.window.h).c_str(), static_cast<double>(layout_.textScale),
                 rect(v.x, v.y, v.w, v.h).c_str(), static_cast<double>(statusBarBottom_));
    // The timeline's strip where it was drawn, and the run's steps it spans and shows.
    const ui::Rect& t = layout_.timeline;
    const ui::Rect& strip = timelinePanel_.strip();
    std::fprintf(out, "  \"timeline\": {\"rect\": %s, \"strip\": %s, \"run_start\": %llu, \"run_end\": %llu, "
                      "\"shown_step\": %llu, \"previous_run_ends\": [",
                 rect(t.x, t.y, t.w, t.h).c_str(), rect(strip.x, strip.y, strip.w, strip.h).c_str(),
                 static_cast<unsigned long long>(experiment_.runStart()),
                 static_cast<unsigned long long>(experiment_.runEnd()),
                 static_cast<unsigned long long>(experiment_.shownStep()));
    for (size_t i = 0; i < experiment_.previousRuns().size(); ++i) {
        std::fprintf(out, "%s%llu", i ? ", " : "", static_cast<unsigned long long>(experiment_.previousRuns()[i].end));
    }
    std::fprintf(out, "]},\n");
    // The panels where ImGui drew them this frame (not where the layout asked).
    std::fprintf(out, "  \"panels\": {");
    bool first = true;
    for (const char* name : {"Scene", "World", "Stats", "Body", "Contact inspector", "Help", "Plot"}) {
        const ImGuiWindow* w = ImGui::FindWindowByName(name);
        if (!w || !w->WasActive) continue;
        std::fprintf(out, "%s\n    \"%s\": %s", first ? "" : ",", name, rect(w->Pos.x, w->Pos.y, w->Size.x, w->Size.y).c_str());
        first = false;
    }
    // The numeric fields where they were last drawn, and the other widgets drawn this
    // frame ("Window/label"): test scripts click them.
    std::fprintf(out, "\n  },\n  \"fields\": {");
    first = true;
    for (const auto& [label, r] : panels_.drawnFields()) {
        std::fprintf(out, "%s\n    %s: %s", first ? "" : ",", jsonString(label).c_str(), rect(r.x, r.y, r.z, r.w).c_str());
        first = false;
    }
    std::fprintf(out, "\n  },\n  \"widgets\": {");
    first = true;
    for (const auto& [label, r] : ui::widgets::drawn()) {
        std::fprintf(out, "%s\n    %s: %s", first ? "" : ",", jsonString(label).c_str(), rect(r.x, r.y, r.z, r.w).c_str());
        first = false;
    }
    // What the app shows, for scripts to check each input's effect.
    const World& shown = experiment_.world();
    const BodyId selected = experiment_.selected();
    const ui::ContactKey& picked = panels_.pickedContact();
    const ImVec4& toast = panels_.messageToastRect();
    std::fprintf(out,
                 "\n  },\n  \"state\": {\"paused\": %s, \"time_scale\": %.6g, \"shown_step\": %llu, \"run_end\": %llu, "
                 "\"bodies\": %zu, \"selected\": %s,\n    \"grabbing\": %s, \"help\": %s, \"contacts\": %s, "
                 "\"picked_contact\": %s, \"undo_entries\": %zu, \"unsaved_edits\": %s,\n    \"message\": %s, "
                 "\"body_error\": %s, \"inertia_draft\": %s,\n    \"contacts_use\": %s, \"message_error\": %s, "
                 "\"message_toast\": %s, \"stats_frame_line\": %s, \"note_scroll_y\": %.1f, "
                 "\"impact_log_scroll_x\": %.1f}",
                 sim_.paused ? "true" : "false", static_cast<double>(sim_.timeScale),
                 static_cast<unsigned long long>(experiment_.shownStep()),
                 static_cast<unsigned long long>(experiment_.runEnd()), shown.bodyIds().size(),
                 shown.isValid(selected) ? jsonString(shown.body(selected).name).c_str() : "null",
                 input_.grabbing() ? "true" : "false", panels_.helpShown() ? "true" : "false",
                 view_.contacts ? "true" : "false",
                 picked.valid && shown.isValid(picked.a) && shown.isValid(picked.b)
                     ? jsonString(shown.body(picked.a).name + " / " + shown.body(picked.b).name).c_str()
                     : "null",
                 experiment_.history().size(), experiment_.hasUnsavedEdits() ? "true" : "false",
                 jsonString(panels_.message()).c_str(), jsonString(panels_.bodyError()).c_str(),
                 inertiaRows(panels_.inertiaDraft()).c_str(), jsonString(panels_.contactsUse()).c_str(),
                 panels_.messageIsError() ? "true" : "false",
                 rect(toast.x, toast.y, toast.z, toast.w).c_str(), jsonString(panels_.statsFrameLine()).c_str(),
                 static_cast<double>(panels_.noteScrollY()), static_cast<double>(panels_.impactLogScrollX()));
    // The run shown's observations as the Impact log and the Momenta tab list them.
    const Observations& observed = experiment_.observations();
    std::set<std::string> impactBodies;
    for (const ImpactEntry& e : observed.impacts.entries()) impactBodies.insert({e.nameA, e.nameB});
    std::fprintf(out, ",\n  \"observations\": {\"impacts\": %zu, \"impact_bodies\": [", observed.impacts.entries().size());
    first = true;
    for (const std::string& name : impactBodies) {
        std::fprintf(out, "%s%s", first ? "" : ", ", jsonString(name).c_str());
        first = false;
    }
    const ImpactBookkeeping* momenta = observed.strongestImpacts.latestAtOrBefore(shown.stepCount());
    std::fprintf(out, "], \"momenta_impact\": %s}",
                 momenta ? jsonString(momenta->first.nameA + " / " + momenta->first.nameB + " at step " +
                                      std::to_string(momenta->first.step))
                               .c_str()
                         : "null");
    // The render tier and the shadows as Stats shows them, and what Auto judged.
    const render::TierSettings& tier = frame_.tier();
    std::fprintf(out, ",\n  \"render\": {\"tier\": \"%s\", \"renderer_tier\": \"%s\", \"chosen\": %s, "
                      "\"msaa_samples\": %d, \"shadow_map_size\": %d, \"timer_queries\": %s, \"vsync\": %s,\n"
                      "    \"shadows\": \"%s\", \"shadows_line\": \"%s\", \"render_budget_ms\": %.1f,\n"
                      "    \"frames_by_cut\": {\"none\": %d, \"on_bodies\": %d, \"all\": %d},\n    \"judged_windows\": [",
                 render::tierName(tier.tier), render::tierName(rendererTier_), frameInfo_.tierChoice ? "true" : "false",
                 tier.msaaSamples, tier.shadowMapSize, tier.timerQueries ? "true" : "false", vsync_ ? "true" : "false",
                 shadowModeName(view_.shadows), frameInfo_.shadows.c_str(), AutoShadows::kRenderBudgetMs,
                 framesByCut_[0], framesByCut_[1], framesByCut_[2]);
    for (size_t i = 0; i < judgedWindows_.size(); ++i) {
        std::fprintf(out, "%s{\"median_ms\": %.3f, \"cut_after\": %d}", i ? ", " : "", judgedWindows_[i].medianMs,
                     static_cast<int>(judgedWindows_[i].cutAfter));
    }
    const render::OrbitCamera& c = input_.camera();
    std::fprintf(out, "]},\n  \"camera\": {\"target\": [%.6g, %.6g, %.6g], \"distance\": %.6g, \"yaw\": %.6g, "
                      "\"pitch\": %.6g, \"fov_y\": %.6g},\n  \"bodies\": [",
                 static_cast<double>(c.target.x), static_cast<double>(c.target.y), static_cast<double>(c.target.z),
                 static_cast<double>(c.distance), static_cast<double>(glm::degrees(c.yaw)),
                 static_cast<double>(glm::degrees(c.pitch)), static_cast<double>(glm::degrees(c.fovY)));
    const World& world = experiment_.world();
    // Each body where the world has it, and where the view drew it (between steps, or at a
    // move's preview): what a click picks.
    std::map<uint32_t, vec3> drawnAt;
    for (const ShownBody& s : frame_.shownBodies()) {
        if (world.isValid(s.body)) drawnAt[s.body.index] = s.pose.position;
    }
    first = true;
    for (BodyId id : world.bodyIds()) {
        const Body& b = world.body(id);
        const auto found = drawnAt.find(id.index);
        const vec3 drawn = found != drawnAt.end() ? found->second : b.position;
        std::fprintf(out, "%s\n    {\"name\": %s, \"static\": %s, \"position\": [%.6g, %.6g, %.6g], "
                          "\"drawn\": [%.6g, %.6g, %.6g], \"radius\": %.6g}",
                     first ? "" : ",", jsonString(b.name).c_str(), b.isStatic ? "true" : "false",
                     static_cast<double>(b.position.x), static_cast<double>(b.position.y), static_cast<double>(b.position.z),
                     static_cast<double>(drawn.x), static_cast<double>(drawn.y), static_cast<double>(drawn.z),
                     static_cast<double>(boundingRadius(b.shape)));
        first = false;
    }
    // The contact points the view drew, by the bodies' names.
    std::fprintf(out, "\n  ],\n  \"contact_points\": [");
    first = true;
    for (const ContactPointInfo& point : frame_.shownContacts()) {
        if (!world.isValid(point.bodyA) || !world.isValid(point.bodyB)) continue;
        const vec3& at = point.point;
        std::fprintf(out, "%s\n    {\"a\": %s, \"b\": %s, \"point\": [%.6g, %.6g, %.6g]}", first ? "" : ",",
                     jsonString(world.body(point.bodyA).name).c_str(), jsonString(world.body(point.bodyB).name).c_str(),
                     static_cast<double>(at.x), static_cast<double>(at.y), static_cast<double>(at.z));
        first = false;
    }
    std::fprintf(out, "\n  ]\n}\n");
    const bool written = std::fclose(out) == 0;
    if (!written || std::rename(partial.c_str(), path.c_str()) != 0) {
        std::fprintf(stderr, "impulse-lab: cannot write the layout report '%s': %s\n", path.c_str(), std::strerror(errno));
    }
}

void App::saveScreenshotNow(const std::string& path) {
    const std::string err = frame_.saveScreenshot(path);
    panels_.setMessage(err.empty() ? "saved " + path : "screenshot: " + err, !err.empty());
}

void App::toggleVideo() {
    if (video_.recording()) {
        video_.stop();
        clock_.reset();  // the wall clock takes over from here, with nothing banked meanwhile
        return;
    }
    const glm::ivec4 view = frame_.viewRect();
    const std::string dir = options_.recordVideo.empty() ? videosFolder() : options_.recordVideo;
    if (const std::string error = video_.start(dir, view.z, view.w); !error.empty()) {
        panels_.setMessage("video: " + error, true);
        return;
    }
    panels_.setMessage("recording video into " + video_.status().folder + " (V stops)", false);
    videoClock_.reset();
}

void App::recordVideoFrame() {
    const glm::ivec4 view = frame_.viewRect();
    if (view.z != video_.width() || view.w != video_.height()) {
        // A clip's frames are all one size: a resized view ends the recording.
        video_.stop("stopped: the view changed size");
        clock_.reset();
        return;
    }
    video_.addFrame(render::readPixels(view), view.z, view.w);
}

void App::handleEvent(const SDL_Event& event, ui::PanelRequests& requests) {
    switch (event.type) {
        case SDL_QUIT:
            requests.quit = true;
            break;
        case SDL_WINDOWEVENT:
            if (event.window.event == SDL_WINDOWEVENT_CLOSE) requests.quit = true;
            break;
        case SDL_KEYDOWN:
            if (!ImGui::GetIO().WantCaptureKeyboard) handleKey(event.key, requests);
            break;
        case SDL_KEYUP:  // the step keys repeat while held (applyTimeline), whoever has the keyboard
            if (event.key.keysym.sym == SDLK_COMMA) stepBackKey_ = false;
            if (event.key.keysym.sym == SDLK_PERIOD || event.key.keysym.sym == SDLK_s) stepForwardKey_ = false;
            break;
        case SDL_MOUSEBUTTONDOWN:
        case SDL_MOUSEBUTTONUP:
        case SDL_MOUSEMOTION:
        case SDL_MOUSEWHEEL:
            input_.handleMouse(event);
            break;
        default:
            break;
    }
}

void App::handleKey(const SDL_KeyboardEvent& key, ui::PanelRequests& requests) {
    const bool ctrl = (key.keysym.mod & KMOD_CTRL) != 0;
    const bool shift = (key.keysym.mod & KMOD_SHIFT) != 0;
    // A held key repeats about 30 times a second: an undo may go on while it is held, but
    // an action (reset, spawn, shoot, pause, delete) happens once a press. The step keys
    // (, . S) repeat at the timeline's own rate instead (see applyTimeline).
    const bool repeatsWhileHeld = ctrl && (key.keysym.sym == SDLK_z || key.keysym.sym == SDLK_y);
    if (key.repeat && !repeatsWhileHeld) return;
    if (ctrl) {
        switch (key.keysym.sym) {
            case SDLK_q:
                requests.quit = true;
                return;
            case SDLK_z:
                (shift ? requests.redo : requests.undo) = true;
                return;
            case SDLK_y:
                requests.redo = true;
                return;
            case SDLK_d:
                requests.duplicateSelection = true;
                return;
            case SDLK_s:
                requests.save = panels_.scenePathField();
                return;
            case SDLK_o:
                panels_.focusPathField();
                return;
            default:
                break;
        }
    }
    switch (key.keysym.sym) {
        case SDLK_SPACE:
            // Shift+Space plays backward; either pauses what plays.
            sim_.paused = !sim_.paused;
            timeline_.backward = shift;
            break;
        case SDLK_s:
        case SDLK_PERIOD:
        case SDLK_COMMA:
            (key.keysym.sym == SDLK_COMMA ? stepBackKey_ : stepForwardKey_) = true;
            (key.keysym.sym == SDLK_COMMA ? stepBackPressed_ : stepForwardPressed_) = true;
            break;
        case SDLK_HOME:
            requests.seek = experiment_.runStart();
            break;
        case SDLK_END:
            requests.seek = experiment_.runEnd();
            break;
        case SDLK_i:
            timeline_.loopIn = experiment_.shownStep();
            break;
        case SDLK_o:
            timeline_.loopOut = experiment_.shownStep();
            break;
        case SDLK_r:
            requests.reset = true;
            break;
        case SDLK_c:
            view_.contacts = !view_.contacts;
            break;
        case SDLK_l:
            view_.followSelected = !view_.followSelected;
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
        case SDLK_TAB:
            columnsShown_ = !columnsShown_;
            break;
        case SDLK_v:
            requests.toggleVideo = true;
            break;
        default:
            input_.handleKey(key.keysym.sym, requests);
            break;
    }
}

double App::simulate(double frameSeconds) {
    const auto start = std::chrono::steady_clock::now();
    const World& world = experiment_.world();
    FixedStepClock::Plan plan;
    if (videoFrame_) {
        plan.steps = videoClock_.advance(world.settings().timestep, sim_.timeScale);
    } else {
        plan = clock_.advance(frameSeconds, world.settings().timestep, sim_.timeScale, sim_.maxStepsPerFrame,
                              sim_.paused, sim_.stepOnce);
    }
    sim_.stepOnce = false;
    const int steps = plan.steps + stepsForward_;
    stepsForward_ = 0;
    // The loop holds while playing; a step asked for while paused goes where it says.
    const std::optional<LoopRange> loop = sim_.paused ? std::nullopt : timeline_.loop();
    double totalMs = 0.0;
    int stepped = 0;
    if (!sim_.paused && timeline_.backward) {
        // Backward: the frame's steps counted back, then one seek (it re-runs from a keyframe).
        PlayStep next{experiment_.shownStep(), false};
        for (int i = 0; i < steps && !next.stop; ++i) {
            next = nextPlayStep(next.step, PlayDirection::backward, experiment_.runStart(),
                                experiment_.runEnd(), loop);
        }
        if (steps > 0) experiment_.seek(next.step);
        frame_.capturePoses(world, experiment_.ghostWorld());  // no blend across a seek
        if (next.stop) sim_.paused = true;
    } else {
        for (int i = 0; i < steps; ++i) {
            const uint64_t shown = experiment_.shownStep();
            const PlayStep next = nextPlayStep(shown, PlayDirection::forward, experiment_.runStart(),
                                                  experiment_.runEnd(), loop);
            if (next.step != shown + 1) {  // wrapped to the loop's in point
                experiment_.seek(next.step);
                frame_.capturePoses(world, experiment_.ghostWorld());
                continue;
            }
            frame_.capturePoses(world, experiment_.ghostWorld());
            const auto t0 = std::chrono::steady_clock::now();
            experiment_.step();
            const auto t1 = std::chrono::steady_clock::now();
            const double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
            totalMs += ms;
            ++stepped;
            panels_.stats().push(ui::measure(world, static_cast<float>(ms)));
        }
    }
    reportBodiesLeftBounds();
    // No step measured the world (paused, or shown by a seek): the totals follow edits
    // (gravity, a moved body) and the step shown here.
    if (stepped == 0) panels_.stats().refreshLatest(ui::measure(world, panels_.stats().latest().stepMs));
    frameInfo_.stepsThisFrame = stepped;
    if (stepped > 0) frameInfo_.stepMs = static_cast<float>(totalMs / stepped);
    frameInfo_.simTime = static_cast<float>(experiment_.simulatedTime());
    if (stepped > 0) {
        if (const BodyId bad = world.firstNonFiniteBody()) {
            sim_.paused = true;
            const std::string note = "body '" + world.body(bad).name + "' has a non-finite state: paused (press R to reset)";
            panels_.setMessage(note, true);
            std::fprintf(stderr, "impulse-lab: %s\n", note.c_str());  // for logs and the monkey test
        }
    }
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void App::applyTimeline(const ui::TimelineRequests& requests) {
    if (requests.historyBudget) experiment_.setHistoryBudget(*requests.historyBudget);
    const double now = static_cast<double>(SDL_GetTicks()) / 1000.0;
    const int back = stepBackRepeat_.update(stepBackKey_ || stepBackPressed_ || requests.stepBackHeld, now);
    const int forward = stepForwardRepeat_.update(stepForwardKey_ || stepForwardPressed_ || requests.stepForwardHeld, now);
    stepBackPressed_ = stepForwardPressed_ = false;
    if (back > 0) {
        sim_.paused = true;
        const uint64_t shown = experiment_.shownStep(), first = experiment_.runStart();
        experiment_.seek(shown - std::min<uint64_t>(static_cast<uint64_t>(back), shown - first));
        frame_.capturePoses(experiment_.world(), experiment_.ghostWorld());
    }
    if (forward > 0) {
        sim_.paused = true;
        stepsForward_ += forward;
    }
    // Any input at an earlier step (an edit, an undo, a drag) continued the run as a new one.
    if (experiment_.branchCount() != branchesSeen_) {
        branchesSeen_ = experiment_.branchCount();
        panels_.setMessage("continued as a new run from step " + std::to_string(experiment_.runEnd()) +
                               "; the old run is the ghost",
                           false);
    }
}

bool App::processRequests(const ui::PanelRequests& requests) {
    if (requests.restoreRecovery) answerRecovery(*requests.restoreRecovery);
    if (requests.renderTier) applyTier(*requests.renderTier);
    if (requests.undo) undoOrRedo(true);
    if (requests.redo) undoOrRedo(false);
    if (!requests.open.empty()) {
        std::string note;
        const bool hadUnsavedEdits = experiment_.hasUnsavedEdits();
        if (openScene(requests.open, note)) {
            panels_.setMessage(note + undoHint(hadUnsavedEdits), false);
        } else {
            // Shown in the Scene panel; also one line on stderr for logs and scripted tests.
            std::fprintf(stderr, "impulse-lab: %s\n", note.c_str());
            panels_.setMessage(note, true);
        }
    }
    if (!requests.save.empty()) save(requests.save, requests.confirmed, false);
    if (!requests.saveRecording.empty()) save(requests.saveRecording, requests.confirmed, true);
    if (!requests.exportPlots.empty()) {
        ui::PanelRequests again;
        again.exportPlots = requests.exportPlots;
        if (!asksBeforeReplacing(requests.exportPlots, exportedPlotsPath_, requests.confirmed, "the plotted series",
                                 again)) {
            const std::string error = experiment_.observations().plots.writeCsv(requests.exportPlots);
            if (error.empty()) exportedPlotsPath_ = requests.exportPlots;
            panels_.setExportMessage(error.empty() ? "wrote " + requests.exportPlots : error, !error.empty());
        }
    }
    if (requests.exportData) exportData(*requests.exportData, requests.confirmed);
    if (!requests.exportRun.empty()) {
        ui::PanelRequests again;
        again.exportRun = requests.exportRun;
        if (!asksBeforeReplacing(requests.exportRun, exportedRunPath_, requests.confirmed, "the whole run", again)) {
            const std::string refused = runCsv_.start(experiment_, requests.exportRun);
            if (refused.empty()) exportedRunPath_ = requests.exportRun;
            panels_.setExportMessage(refused.empty() ? "exporting the run to " + requests.exportRun : refused,
                                     !refused.empty());
        }
    }
    if (runCsv_.running()) {
        panels_.setExportMessage("exporting the run: step " + std::to_string(runCsv_.stepsWritten()) + " of " +
                                     std::to_string(runCsv_.steps()),
                                 false);
    }
    if (const std::optional<RunCsvExport::Outcome> outcome = runCsv_.takeOutcome()) {
        panels_.setExportMessage(outcome->message, outcome->isError);
    }
    if (requests.reset) {
        const bool hadUnsavedEdits = experiment_.hasUnsavedEdits();
        experiment_.apply(ResetScene{});
        sceneRestarted();
        if (hadUnsavedEdits) panels_.setMessage("reset" + undoHint(true), false);
    }
    if (requests.spawnBox) applyOrReport(SpawnBody{input_.spawnDef(ShapeType::Box), true}, "spawn refused: ");
    if (requests.spawnSphere) applyOrReport(SpawnBody{input_.spawnDef(ShapeType::Sphere), true}, "spawn refused: ");
    if (requests.shoot) applyOrReport(SpawnBody{input_.shotDef(), false}, "shot refused: ");
    const BodyId selected = experiment_.selected();
    if (requests.duplicateSelection && selected) {
        applyOrReport(SpawnBody{input_.duplicateDef(selected), true}, "duplicate refused: ");
    }
    if (requests.deleteSelection && selected) {
        const Body& body = experiment_.world().body(selected);
        // The floor goes with one key press: say how to get it back.
        const std::string staticName = body.isStatic ? body.name : "";
        experiment_.apply(DeleteBody{selected});
        if (!staticName.empty()) {
            panels_.setMessage("deleted the static body '" + staticName + "' (Ctrl+Z brings it back)", false);
        }
    }
    if (requests.frameSelection) input_.frameBody(experiment_.selected());
    if (requests.toggleVideo) toggleVideo();
    if (requests.ghost.choose) experiment_.setGhost(requests.ghost.ghost);
    if (requests.ghost.promote) {
        experiment_.promoteGhost();
        frame_.forgetPoses();  // the other run's poses: nothing to blend from
        panels_.setMessage("the ghost run is the current run; this one is the ghost", false);
    }
    if (requests.seek) {
        experiment_.seek(*requests.seek);
        frame_.capturePoses(experiment_.world(), experiment_.ghostWorld());  // no blend across a seek
    }
    if (!requests.quit) return false;
    // --save-on-exit keeps the edits; otherwise unsaved ones are lost, so ask.
    if (requests.confirmed || !experiment_.hasUnsavedEdits() || !options_.saveOnExit.empty()) return true;
    ui::PanelRequests quit;
    quit.quit = true;
    panels_.confirm("Quit with unsaved edits? They are lost (Save keeps them).", "Quit", quit);
    return false;
}

std::string App::startAutosave() {
    if (const char* interval = std::getenv("IMPULSE_AUTOSAVE_SECONDS")) {
        char* end = nullptr;
        autosaveSeconds_ = std::strtod(interval, &end);
        if (end == interval || *end != '\0' || !(autosaveSeconds_ > 0.0) || autosaveSeconds_ > kMaxAutosaveSeconds) {
            return "IMPULSE_AUTOSAVE_SECONDS: must be a number of seconds > 0 and at most " +
                   std::to_string(static_cast<int>(kMaxAutosaveSeconds)) + ", got '" + interval + "'";
        }
    }
    // Scripted runs (--frames) are no one's work: they keep out of the user's folder.
    const char* ownFolder = std::getenv("IMPULSE_STATE_DIR");
    if (options_.frames >= 0 && !(ownFolder && ownFolder[0] != '\0')) return "";
    const std::string folder = recoveryFolder();
    if (folder.empty()) {
        std::fprintf(stderr, "impulse-lab: neither IMPULSE_STATE_DIR, XDG_STATE_HOME nor HOME is set: no autosave\n");
        return "";
    }
    autosave_ = std::make_unique<RecoveryWriter>(recoveryFilePath(folder, static_cast<long>(::getpid())));
    workAtStart_ = workMark(experiment_);
    lastAutosave_ = SDL_GetPerformanceCounter();
    const std::vector<std::string> orphans = orphanedRecoveryFiles(folder);
    if (orphans.empty()) return "";
    RecoveryResult read = loadRecoveryFile(orphans.front());
    if (const auto* bad = std::get_if<scene::SceneError>(&read)) {
        // Kept under another name, for a look: never offered again, never lost.
        const std::string kept = orphans.front() + ".unreadable";
        std::error_code ec;
        std::filesystem::rename(orphans.front(), kept, ec);
        const std::string note = "a recovery file cannot be read (" + bad->message() + "); kept as " + kept;
        std::fprintf(stderr, "impulse-lab: %s\n", note.c_str());
        panels_.setMessage(note, true);
        return "";
    }
    offeredPath_ = orphans.front();
    offered_ = std::move(std::get<Recovery>(read));
    std::printf("impulse-lab: offering the recovery file %s: %s\n", offeredPath_.c_str(), describe(*offered_).c_str());
    std::fflush(stdout);
    return "";
}

void App::offerRecovery() {
    std::printf("impulse-lab: asking whether to restore %s\n", offeredPath_.c_str());  // scripts wait for it
    std::fflush(stdout);
    ui::PanelRequests restore, discard;
    restore.restoreRecovery = true;
    discard.restoreRecovery = false;
    panels_.ask("The last session ended without quitting. Restore its work?\n" + describe(*offered_) +
                    "\n\nDiscard deletes the recovery file.",
                "Restore", restore, "Discard", discard, "decide at the next start");
}

void App::autosaveIfDue() {
    if (!autosave_) return;
    if (const std::string error = autosave_->takeError(); !error.empty()) {
        std::fprintf(stderr, "impulse-lab: autosave: %s\n", error.c_str());
        panels_.setMessage("autosave failed: " + error, true);
    }
    const Uint64 now = SDL_GetPerformanceCounter();
    const double since = static_cast<double>(now - lastAutosave_) / static_cast<double>(SDL_GetPerformanceFrequency());
    if (since < autosaveSeconds_) return;
    const WorkMark mark = workMark(experiment_);
    const WorkMark& last = autosaved_ ? *autosaved_ : *workAtStart_;
    if (mark == last) return;
    const auto t0 = std::chrono::steady_clock::now();
    Recovery work = captureRecovery(experiment_, sceneCamera(), utcNow());
    const bool handedOver = autosave_->trySubmit(work);
    autosaveCaptureMs_.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    if (!handedOver) return;  // the writer is busy: the next frame tries again
    lastAutosave_ = now;
    autosaved_ = mark;
}

void App::answerRecovery(bool restore) {
    if (!offered_) return;
    std::error_code ec;
    if (!restore) {
        std::filesystem::remove(offeredPath_, ec);
        panels_.setMessage("discarded the recovery file " + offeredPath_, false);
        offered_.reset();
        return;
    }
    // Restored into a fresh experiment first: a replay that fails leaves the running one.
    Experiment restored;
    if (const Validation refused = restoreRecovery(*offered_, restored)) {
        const std::string kept = offeredPath_ + ".unreadable";
        std::filesystem::rename(offeredPath_, kept, ec);
        panels_.setMessage("cannot restore " + offeredPath_ + ": " + refused->message() + " (kept as " + kept + ")", true);
        offered_.reset();
        return;
    }
    experiment_ = std::move(restored);
    sim_.paused = true;
    sceneRestarted();
    sceneLoaded();
    if (!offered_->scenePath.empty()) panels_.setScenePath(offered_->scenePath);  // Save goes where it went
    if (offered_->camera) useCamera(*offered_->camera);
    // Written at once under this process's name, then the old file goes: never without one.
    autosaved_ = workMark(experiment_);
    autosave_->submit(captureRecovery(experiment_, sceneCamera(), utcNow()));
    const std::string error = autosave_->flush();
    if (error.empty()) std::filesystem::remove(offeredPath_, ec);
    panels_.setMessage("restored " + describe(*offered_) + ": paused, Space runs it", false);
    std::printf("impulse-lab: restored %s\n", offeredPath_.c_str());
    std::fflush(stdout);
    offered_.reset();
}

void App::undoOrRedo(bool undo) {
    const AppliedEdit* next = undo ? experiment_.nextUndo() : experiment_.nextRedo();
    if (!next) return;
    const std::string what = describe(*next);
    const bool restarts = restartsWorld(next->command);
    const bool loads = std::holds_alternative<LoadScene>(next->command);
    if (const Validation refused = undo ? experiment_.undo() : experiment_.redo()) {
        panels_.setMessage(std::string(undo ? "cannot undo " : "cannot redo ") + what + ": " + refused->message(), true);
        return;
    }
    if (restarts) sceneRestarted();  // the views of the world that went
    if (loads) sceneLoaded();
    panels_.setMessage(std::string(undo ? "undone: " : "redone: ") + what, false);
}

bool App::asksBeforeReplacing(const std::string& path, const std::string& lastWritten, bool confirmed,
                              const std::string& replacement, const ui::PanelRequests& again) {
    std::error_code ec;
    if (confirmed || path == lastWritten || !std::filesystem::exists(path, ec)) return false;
    panels_.confirm(path + " exists. Replace it with " + replacement + "?", "Replace", again);
    return true;
}

void App::save(const std::string& path, bool confirmed, bool asRecording) {
    std::variant<Recording, std::string> recording;
    if (asRecording) {
        recording = captureRecording(experiment_);
        if (const auto* refused = std::get_if<std::string>(&recording)) {
            panels_.setMessage(*refused, true);
            return;
        }
    }
    // Saving the world over its own scene file is the usual save; a recording over it
    // (or over any file but the last recording saved) replaces another file: ask.
    std::error_code ec;
    const bool ownScene = !asRecording && std::filesystem::equivalent(path, experiment_.scenePath(), ec);
    ui::PanelRequests again;
    (asRecording ? again.saveRecording : again.save) = path;
    if (!ownScene && asksBeforeReplacing(path, asRecording ? savedRecordingPath_ : savedPath_, confirmed,
                                         asRecording ? "this run's recording" : "the world as it is now", again)) {
        return;
    }
    if (asRecording) {
        const Recording& run = std::get<Recording>(recording);
        if (const std::string error = saveRecordingFile(run, path); !error.empty()) {
            panels_.setMessage(error, true);
            return;
        }
        savedRecordingPath_ = path;
        panels_.setMessage("saved the run as the recording " + path + " (" + std::to_string(run.end) + " steps, " +
                               std::to_string(run.inputs.size()) + " inputs; Open replays it)",
                           false);
        return;
    }
    const std::string error = experiment_.save(path, sceneCamera(), view_.classroom.shown());
    if (!error.empty()) {
        panels_.setMessage(error, true);
        return;
    }
    experiment_.markSaved();
    savedPath_ = path;
    panels_.setMessage("saved " + path, false);
    panels_.refreshPresets();
}

void App::exportData(const ui::TextExport& table, bool confirmed) {
    if (table.path.empty()) {
        panels_.setDataMessage("path: empty (type a file name, e.g. data.csv)", true);
        return;
    }
    ui::PanelRequests again;
    again.exportData = table;
    if (asksBeforeReplacing(table.path, exportedDataPath_, confirmed, "the Data table", again)) return;
    const std::string error = writeTextFile(table.path, table.text);
    if (error.empty()) exportedDataPath_ = table.path;
    panels_.setDataMessage(error.empty() ? "wrote " + table.path : error, !error.empty());
}

void App::updateTitle() {
    std::string title = "Impulse Lab - " + experiment_.scene().name;
    if (experiment_.hasUnsavedEdits()) title += " (unsaved edits)";
    if (!window_ || title == title_) return;
    SDL_SetWindowTitle(window_, title.c_str());
    title_ = std::move(title);
}

void App::reportBodiesLeftBounds() {
    const std::vector<BodyLeftBounds> left = experiment_.takeBodiesLeftBounds();
    if (left.empty()) return;
    std::string names;
    for (const BodyLeftBounds& body : left) names += (names.empty() ? "'" : ", '") + body.name + "'";
    const bool one = left.size() == 1;
    const std::string note = names + " left the world bounds and " + (one ? "was" : "were") +
                             " removed (Ctrl+Z brings " + (one ? "it" : "each") + " back)";
    panels_.setMessage(note, false);
    std::printf("impulse-lab: %s\n", note.c_str());  // for logs and the app tests
}

uint64_t App::latestEditSerial() const {
    const AppliedEdit* latest = experiment_.nextUndo();
    return latest ? latest->serial : 0;
}

void App::reportEdit(uint64_t messagesBefore) {
    // An edit that said nothing of its own this frame (a spawn, a duplicate, a deletion, a
    // gizmo move) says what it did: the message never describes an earlier action.
    const uint64_t serial = latestEditSerial();
    if (serial == reportedEditSerial_) return;
    reportedEditSerial_ = serial;
    const AppliedEdit* latest = experiment_.nextUndo();
    if (!latest || panels_.messagesSet() != messagesBefore) return;
    panels_.setMessage(describe(*latest) + " (Ctrl+Z undoes it)", false, false);
}

std::string App::undoHint(bool hadUnsavedEdits) const {
    return hadUnsavedEdits ? " (Ctrl+Z brings back the edited experiment)" : "";
}

void App::applyOrReport(Command command, const char* what) {
    if (const Validation refused = experiment_.apply(std::move(command))) {
        panels_.setMessage(what + refused->message(), true);
    }
}

}  // namespace impulse::app
