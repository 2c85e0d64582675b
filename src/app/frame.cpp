#include "app/frame.h"

#include "ui/ghost_tint.h"

#include <glad/glad.h>

#include <imgui.h>
#include <imgui_internal.h>  // the panels' rectangles, to skip shading what they hide

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace impulse::app {

namespace {

// The classroom vectors' colours, shared by the arrows and their labels.
const glm::vec4 kVelocityColor{0.3f, 0.6f, 1.0f, 1.0f};
const glm::vec4 kMomentumColor{0.35f, 0.9f, 0.45f, 1.0f};
const glm::vec4 kAngularVelocityColor{0.75f, 0.4f, 1.0f, 1.0f};
const glm::vec4 kAngularMomentumColor{1.0f, 0.45f, 0.75f, 1.0f};
const glm::vec4 kImpactColor{1.0f, 0.8f, 0.1f, 1.0f};
const glm::vec4 kSystemColor{1.0f, 1.0f, 1.0f, 1.0f};
const glm::vec4 kTrailColor{0.9f, 0.12f, 0.08f, 1.0f};
const glm::vec4 kMarkTrailColor{0.0f, 0.6f, 0.65f, 1.0f};
// A trail's points closer than this to the last one drawn are passed over: a pile
// at rest then adds no lines, and a moving body's path looks the same.
constexpr float kTrailMinSegment = 0.005f;  // m

/// One classroom arrow: where it starts and ends (world), its colour, and the
/// value its label shows.
struct ClassroomArrow {
    glm::vec3 from, to;
    glm::vec4 color;
    const char* symbol;  ///< v, p, w, L, dp
    double value;        ///< the vector's length, in `unit`
    const char* unit;
    BodyId body;         ///< whose vector; null for the system's
};

/// Every classroom arrow `view` turns on, for the dynamic bodies of `world`, the
/// change of momentum of `impact` (null: none shown) and the system's centre.
std::vector<ClassroomArrow> classroomArrows(const World& world, const ClassroomView& view,
                                            const ImpactBookkeeping* impact) {
    std::vector<ClassroomArrow> arrows;
    const bool perBody = view.velocity || view.momentum || view.angularVelocity || view.angularMomentum;
    const auto add = [&](const glm::vec3& from, const glm::dvec3& vector, float scale, const glm::vec4& color,
                         const char* symbol, const char* unit, BodyId body) {
        arrows.push_back({from, from + glm::vec3(vector) * scale, color, symbol, glm::length(vector), unit, body});
    };
    if (perBody) {
        for (BodyId id : world.bodyIds()) {
            const Body& b = world.body(id);
            if (b.isStatic) continue;
            const BodyMotion motion = bodyMotion(b, glm::dvec3(b.position));
            if (view.velocity) add(b.position, glm::dvec3(b.linearVelocity), view.velocityScale, kVelocityColor, "v", "m/s", id);
            if (view.momentum) add(b.position, motion.momentum, view.momentumScale, kMomentumColor, "p", "kg m/s", id);
            if (view.angularVelocity) {
                add(b.position, glm::dvec3(b.angularVelocity), view.angularVelocityScale, kAngularVelocityColor, "w",
                    "rad/s", id);
            }
            if (view.angularMomentum) {
                add(b.position, motion.spin, view.angularMomentumScale, kAngularMomentumColor, "L", "kg m^2/s", id);
            }
        }
    }
    if (view.impactMomentum && impact) {
        // From each body's centre (a static body's at the impact point): equal and opposite.
        const auto from = [&](BodyId id) {
            return world.isValid(id) && world.body(id).isDynamic() ? world.body(id).position : impact->point;
        };
        add(from(impact->first.bodyA), impact->momentumChangeA(), view.momentumScale, kImpactColor, "dp", "kg m/s",
            impact->first.bodyA);
        add(from(impact->first.bodyB), impact->momentumChangeB(), view.momentumScale, kImpactColor, "dp", "kg m/s",
            impact->first.bodyB);
    }
    if (view.systemCentre) {
        const SystemMotion system = systemMotion(world);
        if (system.bodies > 0) {
            add(glm::vec3(system.centre), system.velocity, view.velocityScale, kSystemColor, "v_cm", "m/s", BodyId{});
        }
    }
    return arrows;
}

const glm::vec3 kPalette[] = {{0.86f, 0.42f, 0.32f}, {0.25f, 0.62f, 0.66f}, {0.93f, 0.74f, 0.3f},
                              {0.45f, 0.52f, 0.8f},  {0.56f, 0.72f, 0.42f}, {0.82f, 0.5f, 0.66f},
                              {0.95f, 0.6f, 0.38f},  {0.42f, 0.74f, 0.88f}};
const glm::vec3 kStaticColor{0.64f, 0.62f, 0.58f};
// A sleeping body keeps this much of its colour's saturation and brightness: a resting
// pile reads as asleep at a glance, each body keeps a hint of its hue, and the hover and
// selection rim (added by the shader) shows on top as on any body.
constexpr float kAsleepSaturation = 0.3f;
constexpr float kAsleepBrightness = 0.7f;
// The ghost run's bodies: drawn see-through, with a white rim.
const glm::vec4 kGhostColor{ui::kGhostTint.r, ui::kGhostTint.g, ui::kGhostTint.b, 1.0f};
// A ghost body this close to where the same body is now (m, and |dot| of the
// orientations) is not drawn: it would only tint the real one.
constexpr float kGhostCoincidentDistance = 1e-4f;
constexpr float kGhostCoincidentDot = 1.0f - 1e-7f;


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

}  // namespace

Frame::Frame() = default;
Frame::~Frame() = default;

bool Frame::init(const std::string& shaderDir, std::string& error) {
    renderer_ = std::make_unique<render::Renderer>();
    return renderer_->init(shaderDir, error);
}

void Frame::release() { renderer_.reset(); }

void Frame::resize(int width, int height, const ui::Layout& layout, float pixelScale) {
    width_ = width;
    height_ = height;
    layout_ = layout;
    pixelScale_ = pixelScale;
}

glm::ivec4 Frame::toFramebuffer(const ui::Rect& rect) const {
    const int x0 = static_cast<int>(std::round(rect.x * pixelScale_));
    const int x1 = static_cast<int>(std::round(rect.right() * pixelScale_));
    const int top = static_cast<int>(std::round(rect.y * pixelScale_));
    const int bottom = static_cast<int>(std::round(rect.bottom() * pixelScale_));
    return glm::ivec4(x0, height_ - bottom, x1 - x0, bottom - top);
}

void Frame::capturePoses(const World& world, const World* ghost) {
    const auto capture = [](const World& w, std::vector<CapturedPose>& poses) {
        for (BodyId id : w.bodyIds()) {
            if (id.index >= poses.size()) poses.resize(id.index + 1);
            const Body& b = w.body(id);
            poses[id.index] = CapturedPose{Pose{b.position, b.orientation}, id.generation};
        }
    };
    capture(world, previous_);
    if (ghost) {
        capture(*ghost, previousGhost_);
    } else {
        previousGhost_.clear();
    }
}

Pose Frame::blendedPose(const Body& b, BodyId id, float alpha, const std::vector<CapturedPose>& previous) {
    const Pose now{b.position, b.orientation};
    if (alpha >= 1.0f || b.isStatic || id.index >= previous.size() || previous[id.index].generation != id.generation) {
        return now;
    }
    return blendPoses(previous[id.index].pose, now, alpha);  // by the unsimulated fraction of a step
}

void Frame::build(const World& world, const World* ghost, BodyId selected, BodyId hover, float alpha,
                  const ui::DebugView& view, const ui::ContactKey& pickedContact,
                  const std::optional<PosePreview>& preview, const ImpactBookkeeping* impact,
                  const std::vector<ContactPointInfo>* nextStepContacts) {
    buildDrawList(world, selected, hover, alpha, preview);
    if (ghost) buildGhostList(*ghost, world, alpha);
    buildDebugLayer(world, selected, view, pickedContact, preview, impact, nextStepContacts);
}

void Frame::buildGhostList(const World& ghost, const World& world, float alpha) {
    for (BodyId id : ghost.bodyIds()) {
        const Body& b = ghost.body(id);
        if (world.isValid(id)) {
            const Body& now = world.body(id);
            if (glm::length(now.position - b.position) < kGhostCoincidentDistance &&
                std::fabs(glm::dot(now.orientation, b.orientation)) > kGhostCoincidentDot) {
                continue;
            }
        }
        const Pose pose = blendedPose(b, id, alpha, previousGhost_);
        if (b.shape.type == ShapeType::Box) {
            draw_.ghostBoxes.push_back(
                render::Instance::make(pose.position, pose.orientation, b.shape.halfExtents, kGhostColor));
        } else {
            draw_.ghostSpheres.push_back(
                render::Instance::make(pose.position, pose.orientation, vec3(b.shape.radius), kGhostColor));
        }
    }
}

void Frame::render(const render::OrbitCamera& camera, ShadowCut cut) {
    renderer_->render(camera, width_, height_, draw_, debug_, renderOptions(cut));
}

std::string Frame::saveScreenshot(const std::string& path) const {
    return render::saveScreenshot(path, width_, height_);
}

void Frame::buildDrawList(const World& world, BodyId selected, BodyId hover, float alpha,
                          const std::optional<PosePreview>& preview) {
    draw_.clear();
    shown_.clear();
    const DragState& drag = world.drag();
    for (BodyId id : world.bodyIds()) {
        const Body& b = world.body(id);
        const bool previewed = preview && preview->body == id;
        const Pose shown = previewed ? preview->pose : blendedPose(b, id, alpha, previous_);
        shown_.push_back(ShownBody{id, shown});
        const vec3& p = shown.position;
        const quat& q = shown.orientation;
        render::Highlight hl = render::Highlight::None;
        if (drag.active && drag.body == id) {
            hl = render::Highlight::Dragged;
        } else if (id == selected) {
            hl = render::Highlight::Selected;
        } else if (id == hover) {
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

void Frame::buildDebugLayer(const World& world, BodyId selected, const ui::DebugView& view,
                            const ui::ContactKey& pickedContact, const std::optional<PosePreview>& preview,
                            const ImpactBookkeeping* impact,
                            const std::vector<ContactPointInfo>* nextStepContacts) {
    debug_.clear();
    // A pile has thousands of contact points: copy them all out only when all are
    // drawn, else only those of the picked point's body (or none).
    const bool allContactsShown = view.contacts || view.normals || view.impulses;
    const BodyId pickedBody = pickedContact.valid ? pickedContact.a : BodyId{};
    if (nextStepContacts) {
        contacts_.clear();
        for (const ContactPointInfo& c : *nextStepContacts) {
            if (allContactsShown || c.bodyA == pickedBody || c.bodyB == pickedBody) contacts_.push_back(c);
        }
    } else {
        contacts_ = allContactsShown ? world.contacts() : ui::contactsOf(world, pickedBody).points;
    }
    const std::vector<ContactPointInfo>& contacts = contacts_;
    const int pickedIndex = ui::findContact(contacts, pickedContact);
    const glm::vec4 stickColor(0.3f, 1.0f, 0.4f, 1.0f), slipColor(1.0f, 0.45f, 0.15f, 1.0f);
    for (size_t i = 0; i < contacts.size(); ++i) {
        const ContactPointInfo& c = contacts[i];
        const bool picked = static_cast<int>(i) == pickedIndex;
        if (view.contacts || picked) {
            debug_.point(c.point, picked ? glm::vec4(1.0f) : (c.sticking ? stickColor : slipColor), picked ? 14.0f : 7.0f);
        }
        if (view.normals || picked) debug_.arrow(c.point, c.point + c.normal * 0.35f, {1.0f, 0.9f, 0.2f, 1.0f});
        if (view.impulses || picked) {
            debug_.arrow(c.point, c.point + c.normal * (c.normalImpulse * view.impulseScale), {0.2f, 0.85f, 1.0f, 1.0f});
            debug_.arrow(c.point, c.point + c.frictionImpulse * view.impulseScale, {1.0f, 0.35f, 0.9f, 1.0f});
        }
    }
    for (BodyId id : world.bodyIds()) {
        const Body& b = world.body(id);
        if (view.aabbs) {
            const Aabb box = shapeAabb(b.shape, b.position, b.rotation, 0.0f);
            debug_.aabb(box.lower, box.upper, b.isStatic ? glm::vec4(0.6f, 0.6f, 0.6f, 0.6f) : glm::vec4(1.0f, 1.0f, 0.3f, 0.9f));
        }
        if (b.isStatic) continue;
        if (view.centreOfMass) {
            debug_.cross(b.position, 0.15f, {1.0f, 1.0f, 1.0f, 1.0f});
            debug_.point(b.position, {0.1f, 0.1f, 0.1f, 1.0f}, 6.0f);
        }
        if (view.principalAxes) {
            vec3 moments;
            mat3 axes;
            principalAxes(b.inertiaBody, moments, axes);
            debug_.axes(b.position, b.rotation * axes, vec3(boundingRadius(b.shape) * 1.3f));
        }
    }
    // Outline the selection so it reads at any distance.
    if (selected && world.isValid(selected)) {
        const Body& b = world.body(selected);
        const bool previewed = preview && preview->body == selected;
        const vec3 centre = previewed ? preview->pose.position : b.position;
        const mat3 rotation = previewed ? glm::mat3_cast(preview->pose.orientation) : b.rotation;
        const glm::vec4 orange(1.0f, 0.6f, 0.1f, 1.0f);
        if (b.shape.type == ShapeType::Box) {
            debug_.orientedBox(centre, rotation, b.shape.halfExtents * 1.01f, orange);
        } else {
            const float r = b.shape.radius * 1.01f;
            debug_.circle(centre, rotation[0], rotation[1], r, orange);
            debug_.circle(centre, rotation[1], rotation[2], r, orange);
            debug_.circle(centre, rotation[2], rotation[0], r, orange);
        }
    }
    buildClassroomVectors(world, view.classroom, impact);
    const DragState& drag = world.drag();
    if (drag.active) {
        debug_.line(drag.anchor, drag.target, {1.0f, 1.0f, 1.0f, 1.0f});
        debug_.point(drag.target, {1.0f, 1.0f, 1.0f, 1.0f}, 9.0f);
        debug_.point(drag.anchor, {1.0f, 0.55f, 0.1f, 1.0f}, 9.0f);
    }
}

void Frame::buildTrails(const BodyTrails& trails, uint64_t shownStep, const ClassroomView& view) {
    if (!view.trails && !view.markedPoints) return;
    std::vector<ShownTrailPoint> points;
    const auto draw = [&](const BodyTrail& trail, bool marks, const glm::vec4& color) {
        points.clear();
        trails.shownPoints(trail, shownStep, view.trailSeconds, marks, points);
        if (points.empty()) return;
        // Opaque at the body, clear at the trail's length: the oldest part fades into the scene.
        const auto faded = [&](const ShownTrailPoint& p) {
            return glm::vec4(glm::vec3(color), color.w * std::max(0.0f, 1.0f - p.age / view.trailSeconds));
        };
        const ShownTrailPoint* from = &points.front();
        for (size_t i = 1; i < points.size(); ++i) {
            const ShownTrailPoint& to = points[i];
            if (to.startsLine) {
                from = &to;
                continue;
            }
            if (i + 1 < points.size() && glm::distance(from->position, to.position) < kTrailMinSegment)
                continue;
            debug_.lines.push_back(render::DebugVertex{from->position, faded(*from)});
            debug_.lines.push_back(render::DebugVertex{to.position, faded(to)});
            from = &to;
        }
        // The marked point itself, while its body is there at the step shown.
        if (marks && points.back().age == 0.0f) debug_.point(points.back().position, color, 6.0f);
    };
    for (const BodyTrail& trail : trails.trails()) {
        if (view.trails) draw(trail, false, kTrailColor);
        if (view.markedPoints) draw(trail, true, kMarkTrailColor);
    }
}

void Frame::buildClassroomVectors(const World& world, const ClassroomView& view, const ImpactBookkeeping* impact) {
    for (const ClassroomArrow& arrow : classroomArrows(world, view, impact)) {
        debug_.arrow(arrow.from, arrow.to, arrow.color);
        // The system's centre of mass: a marker that reads apart from the bodies' own.
        if (!arrow.body) {
            debug_.cross(arrow.from, 0.3f, arrow.color);
            debug_.point(arrow.from, arrow.color, 10.0f);
        }
    }
    if (view.impactMomentum && impact) debug_.point(impact->point, kImpactColor, 9.0f);
}

void Frame::drawClassroomLabels(const World& world, const ClassroomView& view, const ImpactBookkeeping* impact,
                                BodyId selected, const render::OrbitCamera& camera, const ui::Rect& rect) {
    // Labelled: the selected body's vectors, both change-of-momentum arrows and the
    // system's centre; every body's label would bury a pile in text.
    ImDrawList* dl = ImGui::GetBackgroundDrawList();
    dl->PushClipRect(ImVec2(rect.x, rect.y), ImVec2(rect.right(), rect.bottom()), true);
    char text[96];
    std::vector<ImVec4> placed;  // the labels' rectangles so far: left, top, right, bottom
    for (const ClassroomArrow& arrow : classroomArrows(world, view, impact)) {
        const bool impactArrow = arrow.color == kImpactColor;
        if (arrow.body && arrow.body != selected && !impactArrow) continue;
        if (arrow.body && arrow.value == 0.0) continue;  // no arrow to label
        const glm::vec4 tip = camera.project(arrow.to, rect.w, rect.h);
        if (tip.w <= 0.0f) continue;  // behind the eye
        const std::string value = labelValue(arrow.value);
        if (arrow.body) {
            std::snprintf(text, sizeof text, "%s %s %s", arrow.symbol, value.c_str(), arrow.unit);
        } else {
            std::snprintf(text, sizeof text, "centre of mass, v %s m/s", value.c_str());
        }
        const ImVec2 size = ImGui::CalcTextSize(text);
        const glm::vec2 inside = labelInsideView(glm::vec2(rect.x + tip.x + 6.0f, rect.y + tip.y - 8.0f),
                                                 glm::vec2(size.x, size.y), glm::vec4(rect.x, rect.y, rect.w, rect.h));
        ImVec2 at(inside.x, inside.y);
        // Arrows of one body end close together: a label that would cover one already
        // placed goes below it.
        const auto covers = [&](const ImVec4& r) {
            return at.x < r.z && at.x + size.x > r.x && at.y < r.w && at.y + size.y > r.y;
        };
        for (auto hit = std::find_if(placed.begin(), placed.end(), covers); hit != placed.end();
             hit = std::find_if(placed.begin(), placed.end(), covers)) {
            at.y = hit->w + 3.0f;
        }
        placed.push_back(ImVec4(at.x - 3.0f, at.y - 1.0f, at.x + size.x + 3.0f, at.y + size.y + 1.0f));
        dl->AddRectFilled(ImVec2(at.x - 3, at.y - 1), ImVec2(at.x + size.x + 3, at.y + size.y + 1),
                          IM_COL32(20, 24, 30, 170), 3.0f);
        dl->AddText(at, ImGui::ColorConvertFloat4ToU32(ImVec4(arrow.color.x, arrow.color.y, arrow.color.z, 1.0f)), text);
    }
    dl->PopClipRect();
}

render::RenderOptions Frame::renderOptions(ShadowCut cut) const {
    render::RenderOptions ro;
    ro.tier = tier_;
    ro.shadows = cut != ShadowCut::all;  // Off, or cut by Auto
    ro.bodiesReceiveShadows = cut == ShadowCut::none;
    // The columns, margins included, and the timeline under the view are the panels'
    // background: the view is drawn only between them, and nothing there overlaps.
    ro.hiddenRects = hiddenPanelRects();
    ro.hiddenRects.push_back(toFramebuffer(layout_.leftColumn));
    ro.hiddenRects.push_back(toFramebuffer(layout_.rightColumn));
    ro.hiddenRects.push_back(toFramebuffer(layout_.timeline));
    ro.viewport = toFramebuffer(layout_.view);
    ro.panelColor = panelColor_;
    return ro;
}

std::vector<glm::ivec4> Frame::hiddenPanelRects() const {
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

float Frame::drawOverlay(const World& world, const std::string& sceneName, const ui::SimControls& sim,
                         const ui::Rect& view, int mouseX, int mouseY, const std::string& poseCaption) {
    ImDrawList* dl = ImGui::GetForegroundDrawList();
    const float centre = view.x + 0.5f * view.w;
    char text[256];
    std::snprintf(text, sizeof text, "%s  |  %d bodies  |  %s%s", sceneName.c_str(), world.bodyCount(),
                  sim.paused ? "PAUSED" : "running", sim.timeScale != 1.0f ? "  (slow motion)" : "");
    const ImVec2 size = ImGui::CalcTextSize(text);
    const ImVec2 pos(centre - 0.5f * size.x, view.y + 10.0f);
    dl->AddRectFilled(ImVec2(pos.x - 8, pos.y - 4), ImVec2(pos.x + size.x + 8, pos.y + size.y + 4),
                      IM_COL32(20, 24, 30, 170), 4.0f);
    dl->AddText(pos, sim.paused ? IM_COL32(255, 200, 90, 255) : IM_COL32(230, 235, 240, 255), text);
    const char* hint = "H: help";
    const ImVec2 hintSize = ImGui::CalcTextSize(hint);
    dl->AddText(ImVec2(centre - 0.5f * hintSize.x, pos.y + size.y + 8), IM_COL32(200, 205, 215, 200), hint);
    const float statusBottom = pos.y + size.y + 8 + hintSize.y;
    const DragState& drag = world.drag();
    if (drag.active || !poseCaption.empty()) {
        if (drag.active) {
            std::snprintf(text, sizeof text, "drag force %.1f N", static_cast<double>(glm::length(drag.force)));
        } else {
            std::snprintf(text, sizeof text, "%s", poseCaption.c_str());
        }
        const ImVec2 at(static_cast<float>(mouseX) + 16.0f, static_cast<float>(mouseY) + 12.0f);
        const ImVec2 ts = ImGui::CalcTextSize(text);
        dl->AddRectFilled(ImVec2(at.x - 4, at.y - 2), ImVec2(at.x + ts.x + 4, at.y + ts.y + 2), IM_COL32(20, 24, 30, 190),
                          3.0f);
        dl->AddText(at, IM_COL32(255, 255, 255, 255), text);
    }
    return statusBottom;
}

void Frame::drawGizmo(const GizmoShape& gizmo, GizmoHandle highlight, const ui::Rect& view, float scale) {
    if (!gizmo.visible) return;
    // The background list: over the 3D pass, under every panel and popup.
    ImDrawList* dl = ImGui::GetBackgroundDrawList();
    dl->PushClipRect(ImVec2(view.x, view.y), ImVec2(view.right(), view.bottom()), true);
    const ImU32 axisColors[3] = {IM_COL32(235, 75, 70, 255), IM_COL32(95, 205, 90, 255), IM_COL32(85, 135, 245, 255)};
    const ImU32 highlightColor = IM_COL32(255, 225, 70, 255);
    const ImVec2 origin(view.x, view.y);
    const auto at = [&](const glm::vec2& p) { return ImVec2(origin.x + p.x, origin.y + p.y); };
    static constexpr GizmoHandle kMoves[] = {GizmoHandle::moveX, GizmoHandle::moveY, GizmoHandle::moveZ};
    static constexpr GizmoHandle kTurns[] = {GizmoHandle::rotateX, GizmoHandle::rotateY, GizmoHandle::rotateZ};
    for (int axis = 0; axis < 3; ++axis) {
        const bool lit = highlight == kTurns[axis];
        std::vector<ImVec2> points;
        for (const glm::vec2& p : gizmo.rings[axis]) points.push_back(at(p));
        dl->AddPolyline(points.data(), static_cast<int>(points.size()), lit ? highlightColor : axisColors[axis],
                        ImDrawFlags_Closed, (lit ? 3.5f : 2.0f) * scale);
    }
    for (int axis = 0; axis < 3; ++axis) {
        const bool lit = highlight == kMoves[axis];
        const ImU32 color = lit ? highlightColor : axisColors[axis];
        const glm::vec2 shaft = gizmo.arrowTips[axis] - gizmo.centre;
        dl->AddLine(at(gizmo.centre), at(gizmo.arrowTips[axis]), color, (lit ? 4.0f : 2.5f) * scale);
        const float length = glm::length(shaft);
        if (length < 1.0f) continue;  // seen end on: no direction to point a head along
        const glm::vec2 along = shaft / length, across(-along.y, along.x);
        const float head = 11.0f * scale, half = 5.0f * scale;
        const glm::vec2 base = gizmo.arrowTips[axis] - along * head;
        dl->AddTriangleFilled(at(gizmo.arrowTips[axis]), at(base + across * half), at(base - across * half), color);
    }
    dl->AddCircleFilled(at(gizmo.centre), 3.0f * scale, IM_COL32(255, 255, 255, 230));
    dl->PopClipRect();
}

}  // namespace impulse::app
