// Mouse and keyboard input on the 3D view: picking and selecting, the mouse
// drag through the world's drag (as experiment commands), the orbit camera
// (orbit, pan, zoom, framing), and where spawned bodies and shots start.
#pragma once

#include "app/experiment.h"
#include "render/camera.h"
#include "ui/panels.h"

#include <SDL.h>

#include <string>

namespace impulse::app {

class Input {
public:
    /// `width` x `height`: the window size the camera frames for before the window opens.
    Input(Experiment& experiment, int width, int height);

    void setWindow(SDL_Window* window) { window_ = window; }
    /// Where the 3D view is this frame (window pixels), and the bottom of the status bar
    /// drawn at its top: picking, panning and framing use this rectangle.
    void setView(const ui::Rect& view, float statusBarBottom) {
        view_ = view;
        statusBarBottom_ = statusBarBottom;
    }
    const ui::Rect& view() const { return view_; }

    /// Mouse buttons, motion and wheel (not those ImGui takes).
    void handleMouse(const SDL_Event& event);
    /// The keys of the 3D view: B, N, T (spawn, shoot), Delete/X, F and Esc. Most become
    /// requests, handled with the panels' buttons; false for a key that is not one of them.
    bool handleKey(SDL_Keycode key, ui::PanelRequests& requests);
    /// Once a frame, before drawing: moves the drag target to the cursor and finds the hovered body.
    void update();
    /// The scene was loaded or reset: nothing is held or hovered any more.
    void forgetWorld();

    /// A box or sphere (named box_N, sphere_N) just above what the mouse points at.
    BodyDef spawnDef(ShapeType type) const;
    /// A fast ball from the camera toward the mouse (or straight ahead).
    BodyDef shotDef() const;
    /// A copy of a body (named NAME_N) beside it along +x, clear of it by a few centimetres.
    BodyDef duplicateDef(BodyId id) const;

    /// Fits the bodies, and where the moving ones will be in a moment, into the view
    /// rectangle below its status bar, with margins.
    void frameAll();
    /// Fits a body and its surroundings into the view, or frames all when `id` is not a body.
    void frameBody(BodyId id);
    /// Keeps the camera's target on the body (following it); nothing when `id` is not a body.
    void follow(BodyId id);
    /// The camera moves with the mouse (orbit or pan) or holds a body: the view is changing.
    bool busy() const { return grabbing_ || orbiting_ || panning_; }

    render::OrbitCamera& camera() { return camera_; }
    const render::OrbitCamera& camera() const { return camera_; }
    BodyId hover() const { return hover_; }
    int mouseX() const { return mouseX_; }
    int mouseY() const { return mouseY_; }

private:
    void beginMouseDrag();
    void updateDragTarget();
    void updateHover();
    /// Frames the box [lower, upper] into the view rectangle (see frameAll).
    void frameBox(const vec3& lower, const vec3& upper);
    render::Ray mouseRay() const;
    /// The mouse is over the 3D view: in the window and on no panel.
    bool mouseInView() const;
    std::string uniqueName(const std::string& stem) const;

    Experiment& experiment_;
    SDL_Window* window_ = nullptr;
    ui::Rect view_;  // the 3D view in the window
    float statusBarBottom_ = 0.0f;
    render::OrbitCamera camera_;

    int mouseX_ = 0, mouseY_ = 0;
    bool grabbing_ = false;  // the left button holds a body through the world's drag
    vec3 dragPlanePoint_{0.0f}, dragPlaneNormal_{0.0f, 0.0f, 1.0f};
    bool orbiting_ = false, panning_ = false;
    BodyId hover_;
};

}  // namespace impulse::app
