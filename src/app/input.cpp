#include "app/input.h"

#include "app/spawn_placement.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace impulse::app {

namespace {

constexpr float kPickDistance = 1000.0f;  // m, longest ray cast
// A click this near a moving body's drawn outline (pixels) still picks it.
constexpr float kNearMissPixels = 8.0f;
constexpr float kShotSpeed = 25.0f;       // m/s
constexpr float kShotRadius = 0.25f;      // m
constexpr float kShotMass = 2.0f;         // kg
constexpr float kSpawnSize = 0.5f;        // m, box half extent and sphere radius
constexpr float kOrbitRadiansPerPixel = 0.006f;
// Framing leaves this share of the view's half width and half height free at the edges.
constexpr float kFrameMargin = 0.12f;
// Framing shows at least this far around the centre (m): a lone small body is seen with
// some room, and a mouse drag across the view moves it by metres, not centimetres.
constexpr float kMinFrameHalfSize = 2.0f;
// Framing also shows where moving bodies will be this long from now, at their speed.
constexpr float kFrameLookAheadSeconds = 2.0f;
// ... but at most this far past the static props' box (m).
constexpr float kLookAheadPastProps = 1.0f;

// The middle size of the moving bodies (bounding radius, m), or `fallback` with none.
float medianMovingRadius(const World& world, float fallback) {
    std::vector<float> radii;
    for (BodyId id : world.bodyIds()) {
        const Body& b = world.body(id);
        if (!b.isStatic) radii.push_back(boundingRadius(b.shape));
    }
    if (radii.empty()) return fallback;
    std::nth_element(radii.begin(), radii.begin() + static_cast<std::ptrdiff_t>(radii.size() / 2), radii.end());
    return radii[radii.size() / 2];
}

}  // namespace

Input::Input(Experiment& experiment, int width, int height)
    : experiment_(experiment),
      view_{0.0f, 0.0f, static_cast<float>(std::max(width, 1)), static_cast<float>(std::max(height, 1))} {}

void Input::handleMouse(const SDL_Event& event) {
    const ImGuiIO& io = ImGui::GetIO();
    switch (event.type) {
        case SDL_MOUSEBUTTONDOWN:
            mouseX_ = event.button.x;
            mouseY_ = event.button.y;
            // The columns' margins are not the view: a press there picks and orbits nothing.
            if (io.WantCaptureMouse || !view_.contains(static_cast<float>(mouseX_), static_cast<float>(mouseY_))) break;
            if (event.button.button == SDL_BUTTON_LEFT) {
                if (!beginGizmoDrag()) beginMouseDrag();
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
            if (event.button.button == SDL_BUTTON_LEFT && poseDrag_) {
                commitPoseDrag();
            } else if (event.button.button == SDL_BUTTON_LEFT && grabbing_) {
                updateDragTarget();
                experiment_.apply(EndDrag{});  // the body keeps its velocity: a throw
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
            if (panning_) camera_.pan(dx, dy, view_.h);
            break;
        }
        case SDL_MOUSEWHEEL:
            if (!io.WantCaptureMouse) camera_.zoom(static_cast<float>(event.wheel.y));
            break;
        default:
            break;
    }
}

bool Input::handleKey(SDL_Keycode key, ui::PanelRequests& requests) {
    switch (key) {
        case SDLK_f:
            requests.frameSelection = true;
            return true;
        case SDLK_b:
            requests.spawnBox = true;
            return true;
        case SDLK_n:
            requests.spawnSphere = true;
            return true;
        case SDLK_t:
            requests.shoot = true;
            return true;
        case SDLK_DELETE:
        case SDLK_BACKSPACE:
        case SDLK_x:
            requests.deleteSelection = true;
            return true;
        case SDLK_ESCAPE:
            if (poseDrag_) {
                poseDrag_.reset();  // dropped: the world never held the preview
            } else {
                experiment_.select(BodyId{});
            }
            return true;
        default:
            return false;
    }
}

void Input::update() {
    updateDragTarget();
    updatePoseDrag();
    updateHover();
}

void Input::forgetWorld() {
    grabbing_ = false;
    poseDrag_.reset();
    hover_ = BodyId{};
    gizmoHover_ = GizmoHandle::none;
}

GizmoShape Input::gizmo() const {
    const World& world = experiment_.world();
    const BodyId id = experiment_.selected();
    if (grabbing_ || !world.isValid(id)) return GizmoShape{};
    const std::optional<PosePreview> shown = preview();
    const vec3 centre = shown ? shown->pose.position : world.body(id).position;
    return gizmoShape(camera_, view_.w, view_.h, centre, textScale_);
}

GizmoHandle Input::gizmoHighlight() const {
    if (poseDrag_) return poseDrag_->gizmo ? poseDrag_->gizmo->handle() : GizmoHandle::none;
    return gizmoHover_;
}

std::optional<PosePreview> Input::preview() const {
    if (!poseDrag_ || !experiment_.world().isValid(poseDrag_->body)) return std::nullopt;
    return PosePreview{poseDrag_->body, poseDrag_->pose};
}

std::string Input::poseDragCaption() const {
    if (!preview()) return "";
    const PoseDrag& d = *poseDrag_;
    char text[96];
    const char* axes = "xyz";
    const int axis = d.gizmo ? gizmoAxis(d.gizmo->handle()) : -1;
    if (axis >= 0 && !isMoveHandle(d.gizmo->handle())) {
        std::snprintf(text, sizeof text, "about %c %+.1f deg  (Ctrl: %g deg steps)", axes[axis],
                      static_cast<double>(glm::degrees(d.gizmo->angle())), static_cast<double>(kSnapDegrees));
    } else if (axis >= 0) {
        std::snprintf(text, sizeof text, "%c %+.2f m  (Ctrl: %g m grid)", axes[axis],
                      static_cast<double>(d.pose.position[axis] - d.start.position[axis]), static_cast<double>(kSnapMetres));
    } else {
        std::snprintf(text, sizeof text, "moved %.2f m  (Ctrl: %g m grid)",
                      static_cast<double>(glm::length(d.pose.position - d.start.position)), static_cast<double>(kSnapMetres));
    }
    return text;
}

bool Input::beginGizmoDrag() {
    const World& world = experiment_.world();
    const BodyId id = experiment_.selected();
    const GizmoShape shape = gizmo();
    const glm::vec2 cursor(static_cast<float>(mouseX_) - view_.x, static_cast<float>(mouseY_) - view_.y);
    const GizmoHandle handle = pickGizmo(shape, cursor, textScale_);
    if (handle == GizmoHandle::none) return false;
    const Body& b = world.body(id);
    const Pose start{b.position, b.orientation};
    poseDrag_ = PoseDrag{id, start, start, GizmoDrag(handle, start, shape, mouseRay(), cursor, camera_.forward()),
                         vec3(0.0f), vec3(0.0f, 0.0f, 1.0f), mouseX_, mouseY_};
    return true;
}

void Input::updatePoseDrag() {
    if (!poseDrag_) return;
    if (!experiment_.world().isValid(poseDrag_->body)) {
        poseDrag_.reset();  // deleted, or the world replaced, while held
        return;
    }
    if (mouseX_ == poseDrag_->pressX && mouseY_ == poseDrag_->pressY) {
        poseDrag_->pose = poseDrag_->start;  // back where it was pressed, or not moved yet
        return;
    }
    const bool snap = (SDL_GetModState() & KMOD_CTRL) != 0;
    const render::Ray ray = mouseRay();
    if (poseDrag_->gizmo) {
        const glm::vec2 cursor(static_cast<float>(mouseX_) - view_.x, static_cast<float>(mouseY_) - view_.y);
        poseDrag_->pose = poseDrag_->gizmo->update(ray, cursor, snap);
        return;
    }
    glm::vec3 onPlane;
    if (render::intersectPlane(ray, poseDrag_->grabbed, poseDrag_->planeNormal, onPlane)) {
        poseDrag_->pose = freeMovePose(poseDrag_->start, poseDrag_->grabbed, onPlane, snap);
    }
}

void Input::commitPoseDrag() {
    updatePoseDrag();
    if (!poseDrag_) return;
    const PoseDrag drag = *poseDrag_;
    poseDrag_.reset();
    // The body as it is now (a running world moved it meanwhile) with the pose shown.
    BodyDef def = experiment_.world().bodyDef(drag.body);
    if (def.position == drag.pose.position && def.orientation == drag.pose.orientation) return;
    def.position = drag.pose.position;
    def.orientation = drag.pose.orientation;
    if (const Validation refused = experiment_.apply(SetBody{drag.body, def})) {
        std::fprintf(stderr, "impulse-lab: move refused: %s\n", refused->message().c_str());
    }
}

std::optional<ShownHit> Input::pickUnderMouse() const {
    if (!shown_) return std::nullopt;
    // Metres of slack per metre of depth: kNearMissPixels on screen at any depth.
    const float slope = kNearMissPixels * textScale_ * 2.0f * std::tan(0.5f * camera_.fovY) / std::max(view_.h, 1.0f);
    return pickShown(experiment_.world(), *shown_, mouseRay(), kPickDistance, slope);
}

void Input::beginMouseDrag() {
    const World& world = experiment_.world();
    const std::optional<ShownHit> hit = pickUnderMouse();
    if (!hit) {
        experiment_.select(BodyId{});
        return;
    }
    experiment_.select(hit->body);
    // A static body only is selected (a missed click must not drag the ground): the
    // gizmo and the Body panel move it.
    const Body& b = world.body(hit->body);
    if (b.isStatic) return;
    // The grabbed point follows the cursor on the plane through it facing the camera.
    dragPlanePoint_ = hit->shownPoint;
    dragPlaneNormal_ = -camera_.forward();
    if (paused_) {
        // Paused, nothing would pull the body along: it moves with the cursor instead.
        const Pose start{b.position, b.orientation};
        poseDrag_ = PoseDrag{hit->body, start, start, std::nullopt, hit->worldPoint, dragPlaneNormal_, mouseX_, mouseY_};
        return;
    }
    if (!experiment_.apply(BeginDrag{hit->body, hit->worldPoint})) grabbing_ = true;
}

void Input::updateDragTarget() {
    if (!grabbing_) return;
    if (!experiment_.world().drag().active) {
        grabbing_ = false;  // the body was deleted or the world replaced
        return;
    }
    glm::vec3 target;
    if (render::intersectPlane(mouseRay(), dragPlanePoint_, dragPlaneNormal_, target)) {
        experiment_.setDragTarget(target);
    }
}

void Input::updateHover() {
    hover_ = BodyId{};
    gizmoHover_ = GizmoHandle::none;
    if (grabbing_ || orbiting_ || panning_ || poseDrag_ || !mouseInView()) return;
    const glm::vec2 cursor(static_cast<float>(mouseX_) - view_.x, static_cast<float>(mouseY_) - view_.y);
    gizmoHover_ = pickGizmo(gizmo(), cursor, textScale_);
    if (gizmoHover_ != GizmoHandle::none) return;
    if (const std::optional<ShownHit> hit = pickUnderMouse()) hover_ = hit->body;
}

BodyDef Input::spawnDef(ShapeType type) const {
    const render::Ray ray =
        mouseInView() ? mouseRay() : camera_.rayThroughPixel(0.5f * view_.w, 0.5f * view_.h, view_.w, view_.h);
    BodyDef def;
    def.shape = type == ShapeType::Box ? Shape::box(vec3(kSpawnSize)) : Shape::sphere(kSpawnSize);
    def.name = uniqueName(type == ShapeType::Box ? "box" : "sphere");
    // Drop it just above whatever the mouse points at, or on the y = 0 plane, clear of every body.
    const World& world = experiment_.world();
    vec3 point;
    if (const std::optional<RayHit> hit = world.rayCast(ray.origin, ray.direction, kPickDistance)) {
        def.position = spawnPositionAt(world, def.shape, hit->point, hit->normal);
    } else if (render::intersectPlane(ray, vec3(0.0f), vec3(0.0f, 1.0f, 0.0f), point)) {
        def.position = liftedClear(world, def.shape, point + vec3(0.0f, kSpawnSize * 2.0f, 0.0f));
    } else {
        def.position = ray.origin + ray.direction * 10.0f;
    }
    return def;
}

BodyDef Input::shotDef() const {
    render::Ray ray = mouseRay();
    if (!mouseInView()) {
        ray.origin = camera_.eye();
        ray.direction = camera_.forward();
    }
    BodyDef def;
    def.name = uniqueName("shot");
    def.shape = Shape::sphere(kShotRadius);
    def.mass = kShotMass;
    def.position = ray.origin + ray.direction * 1.0f;
    def.linearVelocity = ray.direction * kShotSpeed;
    if (!paused_) return def;
    // Paused, a shot 1 m from the eye would hang huge in front of the camera until Space:
    // it waits a few radii short of what the mouse points at, aimed at it, no larger
    // than the scene's own moving bodies (the same density as a full-size shot).
    const World& world = experiment_.world();
    const float radius = std::min(kShotRadius, medianMovingRadius(world, kShotRadius));
    def.shape = Shape::sphere(radius);
    def.mass = kShotMass * std::pow(radius / kShotRadius, 3.0f);
    vec3 point;
    if (const std::optional<RayHit> hit = world.rayCast(ray.origin, ray.direction, kPickDistance)) {
        point = hit->point;
    } else if (!render::intersectPlane(ray, vec3(0.0f), vec3(0.0f, 1.0f, 0.0f), point)) {
        return def;  // pointing at the sky: from in front of the eye, as when running
    }
    constexpr float kRadiiShort = 3.0f;
    def.position = point - ray.direction * (kRadiiShort * radius);
    return def;
}

BodyDef Input::duplicateDef(BodyId id) const {
    const World& world = experiment_.world();
    BodyDef def = world.bodyDef(id);
    constexpr float kGap = 0.05f;  // m between the original and the copy
    const float reach = def.shape.type == ShapeType::Sphere ? def.shape.radius : glm::length(def.shape.halfExtents);
    def.position.x += 2.0f * reach + kGap;  // the bounding spheres do not meet, whatever the orientation
    def.name = uniqueName(def.name.empty() ? "body" : def.name);
    return def;
}

std::string Input::uniqueName(const std::string& stem) const {
    for (int n = 1;; ++n) {
        std::string name = stem + "_" + std::to_string(n);
        if (!experiment_.world().findBody(name)) return name;
    }
}

void Input::frameAll() {
    // Frame the moving bodies and the smaller static props (ramps, walls, a table); a
    // large ground would otherwise push everything into the distance.
    constexpr float kLargeStatic = 10.0f;  // m, half size beyond which a static body is "the ground"
    const World& world = experiment_.world();
    const auto isGround = [&](const Body& b, const Aabb& box) {
        return b.isStatic && glm::length(box.upper - box.lower) > 2.0f * kLargeStatic;
    };
    vec3 lo(1e30f), hi(-1e30f), propsLo(1e30f), propsHi(-1e30f);
    bool any = false, props = false;
    for (int pass = 0; pass < 2 && !any; ++pass) {
        for (BodyId id : world.bodyIds()) {
            const Body& b = world.body(id);
            const Aabb box = shapeAabb(b.shape, b.position, b.rotation, 0.0f);
            if (pass == 0 && isGround(b, box)) continue;
            lo = glm::min(lo, box.lower);
            hi = glm::max(hi, box.upper);
            any = true;
            if (b.isStatic) {
                propsLo = glm::min(propsLo, box.lower);
                propsHi = glm::max(propsHi, box.upper);
                props = true;
            }
        }
    }
    if (!any) {
        lo = vec3(-5.0f);
        hi = vec3(5.0f);
    }
    // A rolling or thrown body soon leaves a tight frame: show its way along the ground
    // too (not up or down, where gravity and contacts decide), but not far past the
    // props (a table's cushions, a ramp's foot), which stop or turn it.
    for (BodyId id : world.bodyIds()) {
        const Body& b = world.body(id);
        if (b.isStatic) continue;
        const Aabb box = shapeAabb(b.shape, b.position, b.rotation, 0.0f);
        vec3 aheadLo = box.lower + b.linearVelocity * kFrameLookAheadSeconds * vec3(1.0f, 0.0f, 1.0f);
        vec3 aheadHi = aheadLo + (box.upper - box.lower);
        if (props) {
            aheadLo = glm::clamp(aheadLo, propsLo - vec3(kLookAheadPastProps), propsHi + vec3(kLookAheadPastProps));
            aheadHi = glm::clamp(aheadHi, propsLo - vec3(kLookAheadPastProps), propsHi + vec3(kLookAheadPastProps));
        }
        lo = glm::min(lo, aheadLo);
        hi = glm::max(hi, aheadHi);
    }
    frameBox(lo, hi);
}

void Input::frameBox(const vec3& boxLower, const vec3& boxUpper) {
    const vec3 centre = 0.5f * (boxLower + boxUpper);
    const vec3 lower = glm::min(boxLower, centre - vec3(kMinFrameHalfSize));
    const vec3 upper = glm::max(boxUpper, centre + vec3(kMinFrameHalfSize));
    // The status bar at the view's top is kept free as well, as a share of the half height.
    const float statusShare = 2.0f * std::max(statusBarBottom_ - view_.y, 0.0f) / std::max(view_.h, 1.0f);
    camera_.frameBox(lower, upper, view_.w / std::max(view_.h, 1.0f), kFrameMargin, kFrameMargin + statusShare,
                     kFrameMargin);
}

void Input::frameBody(BodyId id) {
    const World& world = experiment_.world();
    if (!world.isValid(id)) {
        frameAll();
        return;
    }
    // The body with room around it: twice its size on every side (and at least the
    // frame's smallest size).
    const Body& b = world.body(id);
    const vec3 room(2.0f * boundingRadius(b.shape));
    frameBox(b.position - room, b.position + room);
}

void Input::follow(BodyId id) {
    const World& world = experiment_.world();
    if (world.isValid(id)) camera_.target = world.body(id).position;
}

render::Ray Input::mouseRay() const {
    return camera_.rayThroughPixel(static_cast<float>(mouseX_) - view_.x, static_cast<float>(mouseY_) - view_.y,
                                   view_.w, view_.h);
}

bool Input::mouseInView() const {
    return !ImGui::GetIO().WantCaptureMouse && window_ && SDL_GetMouseFocus() == window_ &&
           view_.contains(static_cast<float>(mouseX_), static_cast<float>(mouseY_));
}

}  // namespace impulse::app
