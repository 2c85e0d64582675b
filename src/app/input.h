// Mouse and keyboard input on the 3D view: picking and selecting, the mouse
// drag through the world's drag (as experiment commands), moving and turning a
// body with the gizmo or, paused, by dragging it (one SetBody on release), the
// orbit camera (orbit, pan, zoom, framing), and where spawned bodies and shots start.
#pragma once

#include "app/experiment.h"
#include "app/gizmo.h"
#include "app/picking.h"
#include "render/camera.h"
#include "ui/panels.h"

#include <SDL.h>

#include <optional>
#include <string>

namespace impulse::app {

class Input {
public:
    /// `width` x `height`: the window size the camera frames for before the window opens.
    Input(Experiment& experiment, int width, int height);

    void setWindow(SDL_Window* window) { window_ = window; }
    /// Where the 3D view is this frame (window pixels), the bottom of the status bar
    /// drawn at its top (picking, panning and framing use this rectangle), and the text
    /// scale (the gizmo's size on screen).
    void setView(const ui::Rect& view, float statusBarBottom, float textScale) {
        view_ = view;
        statusBarBottom_ = statusBarBottom;
        textScale_ = textScale;
    }
    /// The bodies as the last frame drew them: clicks and hovers pick those (see picking.h).
    void setShownBodies(const std::vector<ShownBody>* shown) { shown_ = shown; }
    /// Paused, a left drag on a dynamic body moves it instead of pulling it with the spring.
    void setPaused(bool paused) { paused_ = paused; }
    const ui::Rect& view() const { return view_; }

    /// Mouse buttons, motion and wheel (not those ImGui takes).
    void handleMouse(const SDL_Event& event);
    /// The keys of the 3D view: B, N, T (spawn, shoot), Delete/X, F and Esc (which also
    /// drops a move or turn in progress, changing nothing). Most become
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
    bool busy() const { return grabbing_ || orbiting_ || panning_ || poseDrag_.has_value(); }
    /// The left button holds a body through the world's drag.
    bool grabbing() const { return grabbing_; }

    /// The body being moved or turned and the pose shown for it until the release
    /// commits it (the world keeps its own pose until then); none when nothing is.
    std::optional<PosePreview> preview() const;
    /// The gizmo of the selected body in the view (view pixels), and the handle to
    /// highlight (the one dragged, else the one under the cursor).
    GizmoShape gizmo() const;
    GizmoHandle gizmoHighlight() const;
    /// What a move or turn in progress does so far ("x +0.40 m"), shown by the cursor; "" when none.
    std::string poseDragCaption() const;

    render::OrbitCamera& camera() { return camera_; }
    const render::OrbitCamera& camera() const { return camera_; }
    BodyId hover() const { return hover_; }
    int mouseX() const { return mouseX_; }
    int mouseY() const { return mouseY_; }

private:
    void beginMouseDrag();
    /// A press on a gizmo handle of the selected body starts its drag; false when there is none under the cursor.
    bool beginGizmoDrag();
    /// The previewed pose for the cursor now.
    void updatePoseDrag();
    /// The release: the previewed pose becomes one SetBody (nothing when it did not change).
    void commitPoseDrag();
    void updateDragTarget();
    void updateHover();
    /// Frames the box [lower, upper] into the view rectangle (see frameAll).
    void frameBox(const vec3& lower, const vec3& upper);
    render::Ray mouseRay() const;
    /// The drawn body under the cursor, if any.
    std::optional<ShownHit> pickUnderMouse() const;
    /// The mouse is over the 3D view: in the window and on no panel.
    bool mouseInView() const;
    std::string uniqueName(const std::string& stem) const;

    Experiment& experiment_;
    const std::vector<ShownBody>* shown_ = nullptr;
    SDL_Window* window_ = nullptr;
    ui::Rect view_;  // the 3D view in the window
    float statusBarBottom_ = 0.0f;
    render::OrbitCamera camera_;

    int mouseX_ = 0, mouseY_ = 0;
    bool grabbing_ = false;  // the left button holds a body through the world's drag
    vec3 dragPlanePoint_{0.0f}, dragPlaneNormal_{0.0f, 0.0f, 1.0f};
    bool orbiting_ = false, panning_ = false;
    BodyId hover_;
    float textScale_ = 1.0f;
    bool paused_ = false;
    // A left drag that moves or turns a body: a gizmo handle's (gizmo set), or a paused
    // body's free move (the grabbed point follows the cursor on the plane facing the camera).
    struct PoseDrag {
        BodyId body;
        Pose start, pose;
        std::optional<GizmoDrag> gizmo;
        vec3 grabbed{0.0f}, planeNormal{0.0f, 0.0f, 1.0f};
        int pressX = 0, pressY = 0;  // a click (no motion) moves nothing, not even by rounding
    };
    std::optional<PoseDrag> poseDrag_;
    GizmoHandle gizmoHover_ = GizmoHandle::none;
};

}  // namespace impulse::app
