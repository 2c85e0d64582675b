// What the 3D view shows, frame by frame: the draw lists (bodies blended between
// the last two steps, coloured and highlighted), the debug layer (contacts,
// velocities, boxes, axes, the selection and the drag), the 3D pass with the
// panels' rectangles left out, the overlay above the view, and screenshots.
#pragma once

#include "app/classroom.h"
#include "app/gizmo.h"
#include "app/picking.h"
#include "app/trails.h"
#include "physics/world.h"
#include "render/camera.h"
#include "render/debug_draw.h"
#include "render/renderer.h"
#include "ui/panels.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace impulse::app {

class Frame {
public:
    Frame();
    ~Frame();
    Frame(const Frame&) = delete;
    Frame& operator=(const Frame&) = delete;

    /// Needs the current GL context.
    bool init(const std::string& shaderDir, std::string& error);
    const render::GlInfo& glInfo() const { return renderer_->glInfo(); }
    /// The render tier's settings the 3D pass draws with.
    void setTier(const render::TierSettings& tier) { tier_ = tier; }
    const render::TierSettings& tier() const { return tier_; }
    /// The panels' background, which the 3D pass clears their rectangles to.
    void setPanelColor(const glm::vec4& color) { panelColor_ = color; }
    /// Frees the GL objects; call while the context lives.
    void release();
    /// The drawable's size in pixels this frame, and where the 3D view and the panel
    /// columns are (window pixels; `pixelScale` drawable pixels per window pixel).
    void resize(int width, int height, const ui::Layout& layout, float pixelScale);

    /// Before each step: the poses the next frames blend from, of the world and of the
    /// ghost run's world (null: none shown).
    void capturePoses(const World& world, const World* ghost);
    /// The world was replaced: no pose to blend from.
    void forgetPoses() {
        previous_.clear();
        previousGhost_.clear();
    }

    /// The draw lists and the debug layer from the world as it is now, bodies drawn
    /// `alpha` of the way from their pose before the last step to their pose after it;
    /// a body being moved or turned at its `preview` pose; `impact` (null: none) is the
    /// impact whose change of momentum shows. The `ghost` run's bodies (null:
    /// none) are drawn see-through, blended the same way, except where they are just
    /// where the same body is now. The contact points drawn are `nextStepContacts` when
    /// given (paused after an edit: those the next step will use), else the world's.
    void build(const World& world, const World* ghost, BodyId selected, BodyId hover, float alpha,
               const ui::DebugView& view, const ui::ContactKey& pickedContact,
               const std::optional<PosePreview>& preview, const ImpactBookkeeping* impact,
               const std::vector<ContactPointInfo>* nextStepContacts);
    /// The contact points build() drew (with the debug view's contacts on, every one).
    const std::vector<ContactPointInfo>& shownContacts() const { return contacts_; }
    /// Adds to what build() made the trails `view` turns on: each body's path up to
    /// `shownStep`, fading with age.
    void buildTrails(const BodyTrails& trails, uint64_t shownStep, const ClassroomView& view);
    /// Every body of the run at the pose build() drew it (what a click picks; never the ghost's).
    const std::vector<ShownBody>& shownBodies() const { return shown_; }
    /// The 3D pass of what build() made. Call after ImGui::Render(): it leaves out the panels.
    void render(const render::OrbitCamera& camera, ShadowCut cut);
    /// Saves the back buffer (before the swap) as a PNG; returns "" or the error.
    std::string saveScreenshot(const std::string& path) const;
    /// The 3D view's rectangle in framebuffer pixels (x, y from the bottom left, width, height).
    glm::ivec4 viewRect() const { return toFramebuffer(layout_.view); }

    /// The scene's name, body count and run state at the top of the view, and by the
    /// cursor the drag force or what a move or turn does (`poseCaption`). Returns the
    /// status bar's bottom edge (window pixels).
    static float drawOverlay(const World& world, const std::string& sceneName, const ui::SimControls& sim,
                             const ui::Rect& view, int mouseX, int mouseY, const std::string& poseCaption);
    /// The values of the classroom vectors by their tips (the selected body's, the
    /// impact's and the system's), over the 3D pass, under the panels, clipped to the view.
    static void drawClassroomLabels(const World& world, const ClassroomView& view, const ImpactBookkeeping* impact,
                                    BodyId selected, const render::OrbitCamera& camera, const ui::Rect& rect);
    /// The gizmo (view pixels) over the 3D pass, under the panels, clipped to the view;
    /// `highlight` drawn brighter and thicker.
    static void drawGizmo(const GizmoShape& gizmo, GizmoHandle highlight, const ui::Rect& view, float scale);

private:
    struct CapturedPose {
        Pose pose;
        uint32_t generation = 0;
    };
    /// Body `id`'s pose `alpha` of the way from its pose in `previous` (when that holds
    /// this body) to its pose now; static bodies do not move between steps.
    static Pose blendedPose(const Body& b, BodyId id, float alpha, const std::vector<CapturedPose>& previous);

    void buildDrawList(const World& world, BodyId selected, BodyId hover, float alpha,
                       const std::optional<PosePreview>& preview);
    void buildGhostList(const World& ghost, const World& world, float alpha);
    void buildDebugLayer(const World& world, BodyId selected, const ui::DebugView& view,
                         const ui::ContactKey& pickedContact, const std::optional<PosePreview>& preview,
                         const ImpactBookkeeping* impact, const std::vector<ContactPointInfo>* nextStepContacts);
    void buildClassroomVectors(const World& world, const ClassroomView& view, const ImpactBookkeeping* impact);
    render::RenderOptions renderOptions(ShadowCut cut) const;
    std::vector<glm::ivec4> hiddenPanelRects() const;
    /// A window rectangle in framebuffer pixels (x, y from the bottom left, width, height).
    glm::ivec4 toFramebuffer(const ui::Rect& rect) const;

    std::unique_ptr<render::Renderer> renderer_;
    glm::vec4 panelColor_{0.0f};
    render::TierSettings tier_;
    int width_ = 0, height_ = 0;  // drawable size in pixels
    ui::Layout layout_;
    float pixelScale_ = 1.0f;
    std::vector<CapturedPose> previous_;  // pose before the last step, by body index
    std::vector<CapturedPose> previousGhost_;  // the same, of the ghost run's world
    std::vector<ShownBody> shown_;
    std::vector<ContactPointInfo> contacts_;  // the contact points of the debug layer
    render::DrawList draw_;
    render::DebugDraw debug_;
};

}  // namespace impulse::app
