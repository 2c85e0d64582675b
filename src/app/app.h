// The desktop app: owns the SDL window and GL context, the World, the
// renderer and the panels, runs the fixed-timestep loop and turns mouse and
// keyboard input into picking, dragging, spawning and camera moves.
#pragma once

#include "app/background_job.h"
#include "app/frame_budget.h"
#include "app/options.h"
#include "app/paths.h"
#include "app/sim_clock.h"
#include "physics/world.h"
#include "render/camera.h"
#include "render/debug_draw.h"
#include "render/renderer.h"
#include "scene/scene.h"
#include "ui/panels.h"

#include <SDL.h>

#include <memory>
#include <string>
#include <vector>

namespace impulse::app {

class App {
public:
    App(AppOptions options, DataPaths paths);
    ~App();
    App(const App&) = delete;
    App& operator=(const App&) = delete;

    /// Opens the window and runs until closed or --frames is reached. Returns the exit code.
    int run();

private:
    /// One frame's stage times (ms), and its shadow cut.
    struct FrameTimes {
        double frame = 0.0;    ///< since the previous frame's start
        double busy = 0.0;     ///< work of this frame, without the wait for the 60 Hz cap
        double physics = 0.0;  ///< simulate(): every step of the frame, on physicsJob_
        double physicsWait = 0.0;  ///< how long the main thread waited for it after its GL work
        double render = 0.0;   ///< draw lists, debug layer, 3D pass (GL work finished; panels sent meanwhile)
        double ui = 0.0;       ///< panels' ImGui calls and their GL drawing (finished)
        double uiDraw = 0.0;   ///< the GL drawing part of ui that the 3D pass did not overlap
        double present = 0.0;  ///< screenshot and buffer swap
        ui::ShadowCut shadowCut = ui::ShadowCut::none;  ///< what the frame budget had cut in this frame
    };

    struct Pose {
        vec3 position{0.0f};
        quat orientation{1.0f, 0.0f, 0.0f, 0.0f};
        uint32_t generation = 0;
    };

    bool openWindow();
    void closeWindow();
    bool loadScene(const std::string& path, std::string& error);
    void resetScene();
    void frameAll();
    void frameBody(BodyId id);
    void select(BodyId id);

    void handleEvent(const SDL_Event& event, bool& quit);
    void handleKey(const SDL_KeyboardEvent& key, bool& quit);
    void beginMouseDrag(int x, int y);
    void updateDragTarget();
    void updateHover();
    /// Runs the steps this frame is due; returns the wall time spent (ms).
    double simulate(double frameSeconds);
    void capturePoses();
    void processRequests(ui::PanelRequests& requests);

    void spawn(ShapeType type);
    void shoot();
    void deleteSelection();
    std::string uniqueName(const std::string& stem) const;
    render::Ray mouseRay() const;

    void buildDrawList(float alpha);
    render::RenderOptions renderOptions() const;
    ui::ShadowCut shadowCut() const { return static_cast<ui::ShadowCut>(frameBudget_.cut()); }
    std::vector<glm::ivec4> hiddenPanelRects() const;
    void showTimes(const FrameTimes& times);
    static void printProfile(const std::vector<FrameTimes>& history, size_t warmUpFrames);
    void buildDebugLayer();
    void drawViewportOverlay();
    void saveScreenshotNow(const std::string& path);
    bool saveWorld(const std::string& path, std::string& error) const;

    AppOptions options_;
    DataPaths paths_;
    SDL_Window* window_ = nullptr;
    SDL_GLContext context_ = nullptr;
    int width_ = 0, height_ = 0;  // drawable size in pixels
    glm::vec4 panelColor_{0.0f};  // the panels' background, cleared by the renderer

    World world_;
    scene::Scene scene_;
    std::string scenePath_;
    std::vector<Pose> previous_;  // pose before the last step, by body index
    FixedStepClock clock_;
    double simTime_ = 0.0;

    render::OrbitCamera camera_;
    std::unique_ptr<render::Renderer> renderer_;
    render::DrawList draw_;
    render::DebugDraw debug_;

    ui::Panels panels_;
    ui::SimControls sim_;
    ui::DebugView view_;
    ui::FrameInfo frameInfo_;
    FrameBudget frameBudget_;  // cuts shadows while frames run late ("hold 60 fps")
    DragSettings dragSettings_;

    // Mouse state.
    int mouseX_ = 0, mouseY_ = 0;
    bool grabbing_ = false;  // left button holds a body through the world's drag
    vec3 dragPlanePoint_{0.0f}, dragPlaneNormal_{0.0f, 0.0f, 1.0f};
    bool orbiting_ = false, panning_ = false;
    BodyId hover_;
    int spawnCount_ = 0;
    int screenshotCount_ = 0;

    double physicsMs_ = 0.0;  // written by physicsJob_: simulate()'s time
    JobPlacement physicsPlacement_;  // on physicsJob_, or on this thread while that one is starved
    // Steps the world while the main thread draws; last, so that it stops first, before
    // any member its job uses (should the frame throw while it runs).
    BackgroundJob physicsJob_;
};

}  // namespace impulse::app
