// The renderer in a hidden window (SDL's offscreen driver, Mesa's software GL):
// drawing the shadow map again only where casters moved must give the picture a
// whole new map gives, and leaving out the bodies hidden behind a wall must not
// change the picture; ghost bodies blend over it in their tint and cast no shadow.
#include "app/paths.h"
#include "render/renderer.h"
#include "render/shadow_fit.h"

#include <glad/glad.h>

#include <SDL.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace impulse {
namespace {

constexpr int kWidth = 480, kHeight = 270;

class HiddenGlWindow {
public:
    explicit HiddenGlWindow(int contextFlags = 0) {
        setenv("SDL_VIDEODRIVER", "offscreen", 1);
        if (SDL_Init(SDL_INIT_VIDEO) != 0) return;
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
        SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, contextFlags);
        window_ =
            SDL_CreateWindow("renderer test", 0, 0, kWidth, kHeight, SDL_WINDOW_OPENGL | SDL_WINDOW_HIDDEN);
        if (window_) context_ = SDL_GL_CreateContext(window_);
        ready_ = context_ && gladLoadGLLoader(reinterpret_cast<GLADloadproc>(SDL_GL_GetProcAddress));
    }
    ~HiddenGlWindow() {
        if (context_) SDL_GL_DeleteContext(context_);
        if (window_) SDL_DestroyWindow(window_);
        SDL_Quit();
    }
    HiddenGlWindow(const HiddenGlWindow&) = delete;
    HiddenGlWindow& operator=(const HiddenGlWindow&) = delete;
    bool ready() const { return ready_; }

private:
    SDL_Window* window_ = nullptr;
    SDL_GLContext context_ = nullptr;
    bool ready_ = false;
};

// A ground, and a 6 x 6 grid of tilted boxes above it, in the sun.
render::DrawList boxesOnGround() {
    render::DrawList draw;
    const glm::vec4 grey(0.6f, 0.6f, 0.6f, 1.0f), orange(0.9f, 0.5f, 0.3f, 1.0f);
    const glm::quat upright(1.0f, 0.0f, 0.0f, 0.0f);
    draw.boxes.push_back(render::Instance::make(glm::vec3(0.0f, -0.5f, 0.0f), upright,
                                                glm::vec3(20.0f, 0.5f, 20.0f), grey, render::Highlight::None, true));
    for (int i = 0; i < 36; ++i) {
        const float column = float(i % 6), row = float(i / 6);
        const glm::vec3 position(-5.0f + 2.0f * column, 0.6f + 0.3f * float(i % 3), -5.0f + 2.0f * row);
        const glm::quat tilt = glm::angleAxis(0.2f * float(i), glm::normalize(glm::vec3(1.0f, 2.0f, 0.5f)));
        draw.boxes.push_back(render::Instance::make(position, tilt, glm::vec3(0.5f), orange));
    }
    return draw;
}

std::vector<unsigned char> renderedPixels(render::Renderer& renderer, const render::DrawList& draw,
                                          const render::OrbitCamera& camera, const render::RenderOptions& options,
                                          const render::DebugDraw& debug = {}) {
    renderer.render(camera, kWidth, kHeight, draw, debug, options);
    std::vector<unsigned char> pixels(size_t(kWidth) * kHeight * 3);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, kWidth, kHeight, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
    return pixels;
}

std::vector<unsigned char> renderedPixels(render::Renderer& renderer, const render::DrawList& draw) {
    render::OrbitCamera camera;
    camera.frame(glm::vec3(0.0f), 9.0f, float(kWidth) / float(kHeight));
    render::RenderOptions options;
    return renderedPixels(renderer, draw, camera, options);
}

size_t differingBytes(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b) {
    size_t count = 0;
    for (size_t i = 0; i < a.size(); ++i) count += a[i] != b[i];
    return count;
}

// A camera looking at `target` along -z, `pitch` rad down, from `distance` m.
render::OrbitCamera lookingAlongMinusZ(const glm::vec3& target, float pitch, float distance) {
    render::OrbitCamera camera;
    camera.target = target;
    camera.yaw = 0.0f;
    camera.pitch = pitch;
    camera.distance = distance;
    return camera;
}

// Sets a renderer up with the source tree's shaders; a failure says why.
bool initWithSourceShaders(render::Renderer& renderer) {
    app::DataPaths paths;
    const std::string found = app::findDataPaths("/nonexistent/bin", paths);
    std::string error = found;
    if (found.empty() && renderer.init(paths.shaders, error)) return true;
    ADD_FAILURE() << error;
    return false;
}

TEST(Renderer, ShadowMapDrawnAgainWhereCastersMovedMatchesAWholeNewMap) {
    HiddenGlWindow window;
    if (!window.ready()) GTEST_SKIP() << "no OpenGL 3.3 context (SDL offscreen driver): " << SDL_GetError();
    render::Renderer partial, whole;
    ASSERT_TRUE(initWithSourceShaders(partial));
    ASSERT_TRUE(initWithSourceShaders(whole));

    const render::DrawList before = boxesOnGround();
    render::DrawList after = before;
    // Two boxes move by a metre and turn: the map changes around their old and new places only.
    for (size_t i : {8u, 23u}) {
        after.boxes[i].positionHighlight += glm::vec4(1.0f, 0.4f, -0.7f, 0.0f);
        after.boxes[i].orientation = glm::vec4(0.0f, 0.38268343f, 0.0f, 0.92387953f);
    }
    const std::vector<unsigned char> first = renderedPixels(partial, before);
    const std::vector<unsigned char> drawnAgain = renderedPixels(partial, after);
    const std::vector<unsigned char> drawnWhole = renderedPixels(whole, after);
    // The picture changed where the boxes and their shadows moved...
    EXPECT_GT(differingBytes(first, drawnWhole), 1000u);
    // ...and the partly drawn map gives exactly the picture of a whole new one.
    EXPECT_EQ(differingBytes(drawnAgain, drawnWhole), 0u);
}

TEST(Renderer, BodiesBehindAWallShowWhereverTheyPeekOverIt) {
    HiddenGlWindow window;
    if (!window.ready()) GTEST_SKIP() << "no OpenGL 3.3 context (SDL offscreen driver): " << SDL_GetError();
    render::Renderer renderer;
    ASSERT_TRUE(initWithSourceShaders(renderer));

    // Bodies wholly behind the wall are left out of the main pass; one whose top peeks
    // over it must not be. Looking along -z, a little down, at a wall 3 m high; bodies
    // stand 2 m behind it.
    const render::OrbitCamera camera = lookingAlongMinusZ(glm::vec3(0.0f, 1.0f, 0.0f), 0.2f, 12.0f);
    render::RenderOptions options;
    options.shadows = false;  // the bodies' shadows would show: only the bodies themselves matter here
    const glm::vec4 grey(0.6f, 0.6f, 0.6f, 1.0f), orange(0.9f, 0.5f, 0.3f, 1.0f);
    const glm::quat upright(1.0f, 0.0f, 0.0f, 0.0f);
    const auto box = [&](const glm::vec3& centre, const glm::quat& q, const glm::vec3& half, bool isStatic) {
        const glm::vec4 color = isStatic ? grey : orange;
        return render::Instance::make(centre, q, half, color, render::Highlight::None, isStatic);
    };
    render::DrawList scene;
    scene.boxes.push_back(box(glm::vec3(0.0f, -0.5f, 0.0f), upright, glm::vec3(20.0f, 0.5f, 20.0f), true));
    scene.boxes.push_back(box(glm::vec3(0.0f, 1.5f, 0.0f), upright, glm::vec3(4.0f, 1.5f, 0.25f), true));
    const glm::quat tilt = glm::angleAxis(0.5f, glm::normalize(glm::vec3(1.0f, 2.0f, 0.5f)));
    render::DrawList hidden = scene;
    hidden.boxes.push_back(box(glm::vec3(-1.0f, 0.8f, -2.0f), tilt, glm::vec3(0.4f), false));
    hidden.spheres.push_back(box(glm::vec3(1.5f, 0.6f, -2.0f), upright, glm::vec3(0.5f), false));
    // The sight line over the wall passes ~2.96 m high at this box's front: the top
    // 0.3 m of it shows.
    render::DrawList peeking = scene;
    peeking.boxes.push_back(box(glm::vec3(1.0f, 2.85f, -2.0f), upright, glm::vec3(0.4f), false));

    const std::vector<unsigned char> wallOnly = renderedPixels(renderer, scene, camera, options);
    EXPECT_EQ(differingBytes(wallOnly, renderedPixels(renderer, hidden, camera, options)), 0u);
    EXPECT_GT(differingBytes(wallOnly, renderedPixels(renderer, peeking, camera, options)), 0u);
}

TEST(Renderer, ReportsItsContextAndADebugContextSendsGlErrorsToStderr) {
    HiddenGlWindow window(SDL_GL_CONTEXT_DEBUG_FLAG);
    if (!window.ready()) GTEST_SKIP() << "no OpenGL 3.3 context (SDL offscreen driver): " << SDL_GetError();
    render::Renderer renderer;
    ASSERT_TRUE(initWithSourceShaders(renderer));
    const render::GlInfo& info = renderer.glInfo();
    EXPECT_FALSE(info.renderer.empty());
    EXPECT_NE(info.renderer, "(unknown)");
    EXPECT_EQ(info.version.rfind("3.3", 0) == 0 || info.version.rfind("4.", 0) == 0, true) << info.version;
    if (!GLAD_GL_KHR_debug) GTEST_SKIP() << info.renderer << " has no KHR_debug";
    ASSERT_TRUE(info.debugOutput);
    testing::internal::CaptureStderr();
    glBindTexture(GL_DEPTH_TEST, 0);  // not a texture target: GL_INVALID_ENUM
    const std::string messages = testing::internal::GetCapturedStderr();
    EXPECT_EQ(glGetError(), GLenum(GL_INVALID_ENUM));
    EXPECT_NE(messages.find("GL high"), std::string::npos) << messages;
}

TEST(Renderer, AShadowMapTheContextCannotHoldTurnsShadowsOffWithAMessage) {
    HiddenGlWindow window;
    if (!window.ready()) GTEST_SKIP() << "no OpenGL 3.3 context (SDL offscreen driver): " << SDL_GetError();
    render::Renderer renderer, unshadowed;
    ASSERT_TRUE(initWithSourceShaders(renderer));
    ASSERT_TRUE(initWithSourceShaders(unshadowed));
    render::OrbitCamera camera;
    camera.frame(glm::vec3(0.0f), 9.0f, float(kWidth) / float(kHeight));
    render::RenderOptions options;
    GLint largest = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &largest);
    options.tier.shadowMapSize = 2 * largest;
    testing::internal::CaptureStderr();
    const std::vector<unsigned char> pixels = renderedPixels(renderer, boxesOnGround(), camera, options);
    const std::string messages = testing::internal::GetCapturedStderr();
    EXPECT_NE(messages.find("shadows off"), std::string::npos) << messages;
    EXPECT_NE(messages.find("exceeds the largest texture"), std::string::npos) << messages;
    EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
    render::RenderOptions noShadows = options;
    noShadows.shadows = false;
    EXPECT_EQ(differingBytes(pixels, renderedPixels(unshadowed, boxesOnGround(), camera, noShadows)), 0u);
}

// A pixel's colour (bytes) at a view point given with its origin top left.
glm::ivec3 pixelAt(const std::vector<unsigned char>& pixels, const glm::vec2& point) {
    const int x = int(point.x), y = kHeight - 1 - int(point.y);  // GL rows run bottom-up
    const size_t i = (size_t(y) * kWidth + size_t(x)) * 3;
    return glm::ivec3(pixels[i], pixels[i + 1], pixels[i + 2]);
}

TEST(Renderer, GhostBodiesShowSeeThroughInTheirTintAndCastNoShadow) {
    HiddenGlWindow window;
    if (!window.ready()) GTEST_SKIP() << "no OpenGL 3.3 context (SDL offscreen driver): " << SDL_GetError();
    render::Renderer renderer;
    ASSERT_TRUE(initWithSourceShaders(renderer));

    const render::OrbitCamera camera = lookingAlongMinusZ(glm::vec3(0.0f, 0.5f, 0.0f), 0.4f, 8.0f);
    render::RenderOptions options;
    const glm::vec4 grey(0.6f, 0.6f, 0.6f, 1.0f), orange(0.9f, 0.5f, 0.3f, 1.0f), tint(0.55f, 1.0f, 0.95f, 1.0f);
    const glm::quat upright(1.0f, 0.0f, 0.0f, 0.0f);
    render::DrawList real;
    real.boxes.push_back(render::Instance::make(glm::vec3(0.0f, -0.5f, 0.0f), upright, glm::vec3(20.0f, 0.5f, 20.0f),
                                                grey, render::Highlight::None, true));
    real.boxes.push_back(render::Instance::make(glm::vec3(-1.5f, 0.5f, 0.0f), upright, glm::vec3(0.5f), orange));
    // The same box in the ghost run: diverged 3 m to the right, and a ghost sphere
    // behind the real box (hidden by it).
    render::DrawList withGhost = real;
    const glm::vec3 ghostCentre(1.5f, 0.5f, 0.0f);
    withGhost.ghostBoxes.push_back(render::Instance::make(ghostCentre, upright, glm::vec3(0.5f), tint));
    withGhost.ghostSpheres.push_back(
        render::Instance::make(glm::vec3(-1.5f, 0.5f, -0.9f), upright, glm::vec3(0.3f), tint));

    const std::vector<unsigned char> plain = renderedPixels(renderer, real, camera, options);
    const std::vector<unsigned char> ghosted = renderedPixels(renderer, withGhost, camera, options);
    const glm::vec4 projected = camera.project(ghostCentre, float(kWidth), float(kHeight));
    const glm::vec2 centre(projected.x, projected.y);
    ASSERT_GT(projected.w, 0.0f);
    // At the ghost's centre the ground shows through, tinted: greener and bluer than red
    // by far more than the bare ground, and not the tint itself (see-through).
    const glm::ivec3 before = pixelAt(plain, centre), after = pixelAt(ghosted, centre);
    EXPECT_GT((after.g - after.r) - (before.g - before.r), 25) << "ground " << before.r << "," << before.g << ","
                                                               << before.b << " ghost " << after.r << ","
                                                               << after.g << "," << after.b;
    // Drawn opaque, the lit tint's red is about 100 there; the ground's is 170.
    EXPECT_GT(after.r, 125) << "opaque: the ground does not show through";
    // Nothing changes outside the ghost box's square on screen (about 60 px across at this
    // distance): no shadow of it on the ground, and the sphere behind the real box is hidden.
    size_t changedOutside = 0;
    for (int y = 0; y < kHeight; ++y) {
        for (int x = 0; x < kWidth; ++x) {
            if (std::abs(x - int(centre.x)) < 45 && std::abs((kHeight - 1 - y) - int(centre.y)) < 45) continue;
            const size_t i = (size_t(y) * kWidth + size_t(x)) * 3;
            changedOutside += plain[i] != ghosted[i] || plain[i + 1] != ghosted[i + 1] || plain[i + 2] != ghosted[i + 2];
        }
    }
    EXPECT_EQ(changedOutside, 0u);
}


// Brightness (sum of the bytes) at a world point's pixel.
int brightnessAt(const std::vector<unsigned char>& pixels, const render::OrbitCamera& camera, const glm::vec3& p) {
    const glm::vec4 projected = camera.project(p, float(kWidth), float(kHeight));
    const glm::ivec3 c = pixelAt(pixels, glm::vec2(projected));
    return c.r + c.g + c.b;
}

TEST(Renderer, ABoxOnTheGroundShadowsItRightAtItsFoot) {
    HiddenGlWindow window;
    if (!window.ready()) GTEST_SKIP() << "no OpenGL 3.3 context (SDL offscreen driver): " << SDL_GetError();
    render::Renderer renderer;
    ASSERT_TRUE(initWithSourceShaders(renderer));
    // A 1 m box on the ground; the sun (+x, up, +z) casts its shadow toward -x. Seen
    // from the -x side, close, with a coarse map (256: ~2.3 cm texels here) so that a
    // bias of a few texels would leave a lit gap of several pixels at the box's foot.
    render::OrbitCamera camera;
    camera.target = glm::vec3(-0.5f, 0.0f, 0.0f);
    camera.yaw = -1.5707963f;
    camera.pitch = 0.7f;
    camera.distance = 1.5f;
    render::RenderOptions options;
    options.tier.shadowMapSize = 256;
    const glm::vec4 grey(0.6f, 0.6f, 0.6f, 1.0f), orange(0.9f, 0.5f, 0.3f, 1.0f);
    const glm::quat upright(1.0f, 0.0f, 0.0f, 0.0f);
    render::DrawList draw;
    draw.boxes.push_back(render::Instance::make(glm::vec3(0.0f, -0.5f, 0.0f), upright, glm::vec3(20.0f, 0.5f, 20.0f),
                                                grey, render::Highlight::None, true));
    draw.boxes.push_back(render::Instance::make(glm::vec3(0.0f, 0.5f, 0.0f), upright, glm::vec3(0.5f), orange));
    const std::vector<unsigned char> pixels = renderedPixels(renderer, draw, camera, options);
    // The ground in the sun (beside the shadow, which leans toward -z) and deep in the shadow.
    const int lit = brightnessAt(pixels, camera, glm::vec3(-0.7f, 0.0f, 0.75f));
    const int shadowed = brightnessAt(pixels, camera, glm::vec3(-0.75f, 0.0f, -0.15f));
    ASSERT_GT(lit - shadowed, 100) << "no shadow to compare with";
    // Where a bias shows is by the box's foot at its corners: there the sun's ray from
    // the ground crosses only a corner of the box, so the ground is barely deeper than
    // the caster. Ground points a (2 to 6 cm) off the shadowed face and b inside the
    // shadow's edge from the corner (-0.5, 0, 0.5), where the ray's chord through the
    // box is ~9.5 cm (b / 0.3 - a / 0.45 times the sun vector's length 1.137): all
    // within a quarter of the way from shadowed to lit.
    for (const float a : {0.02f, 0.04f, 0.06f}) {
        const float b = a * 0.3f / 0.45f + 0.025f;  // on the shadow edge at 2a/3, then 2.5 cm in
        const int brightness = brightnessAt(pixels, camera, glm::vec3(-0.5f - a, 0.0f, 0.5f - b));
        EXPECT_LT(brightness, shadowed + (lit - shadowed) / 4)
            << "ground " << a * 100.0f << " cm off the face, " << b * 100.0f << " cm in from the corner: "
            << brightness << " (lit " << lit << ", shadowed " << shadowed << ")";
    }
    // And along the shadowed face, 1.5 to 4.5 cm off it.
    for (const float gap : {0.015f, 0.03f, 0.045f}) {
        for (const float z : {-0.3f, -0.15f, 0.2f, 0.35f}) {
            const int brightness = brightnessAt(pixels, camera, glm::vec3(-0.5f - gap, 0.0f, z));
            EXPECT_LT(brightness, shadowed + (lit - shadowed) / 4)
                << gap * 100.0f << " cm from the box at z " << z << ": " << brightness << " (lit " << lit
                << ", shadowed " << shadowed << ")";
        }
    }
}

TEST(Renderer, ShadowMapFittedToTheViewKeepsItsTexelsWhenABodyIsShotFarAway) {
    // Pure math: no GL.
    render::OrbitCamera camera;  // 15 m from its target
    const float aspect = 16.0f / 9.0f;
    const glm::vec3 sun = glm::normalize(glm::vec3(0.45f, 1.0f, 0.3f));
    const int mapSize = 768;
    // The casters of a scene like the default one (kerbs at +-20 m), then a sphere 80 m away.
    const glm::vec3 lower(-20.0f, 0.0f, -20.0f), upper(20.0f, 4.0f, 20.0f);
    const render::ShadowFit near = render::fitShadowMap(camera, aspect, sun, lower, upper, mapSize);
    const render::ShadowFit shot =
        render::fitShadowMap(camera, aspect, sun, lower, glm::max(upper, glm::vec3(80.0f, 1.0f, 0.0f)), mapSize);
    EXPECT_EQ(shot.texel, near.texel);
    // Bounded by the view: the slice out to twice the camera's distance (a sphere of
    // ~0.86 x 30 m here), whole metres, over the map's texels.
    EXPECT_LE(near.texel, 2.0f * std::ceil(0.86f * render::kShadowReach * camera.distance) / float(mapSize));
    EXPECT_LT(near.texel, 0.07f);  // the map fitted to the moving bodies reached 21 cm
    // The view's target and the ground around it are on the map.
    for (const glm::vec3& p : {camera.target, glm::vec3(5.0f, 0.0f, 5.0f), glm::vec3(-5.0f, 0.0f, -5.0f)}) {
        const glm::vec4 q = near.lightViewProj * glm::vec4(p, 1.0f);
        EXPECT_LE(std::fabs(q.x), 1.0f);
        EXPECT_LE(std::fabs(q.y), 1.0f);
    }
    // Turning the camera keeps the texel size and grid (no shimmer): the slice is taken
    // as its bounding sphere, the same whichever way the camera looks.
    render::OrbitCamera turned = camera;
    turned.orbit(0.4f, 0.1f);
    EXPECT_EQ(render::fitShadowMap(turned, aspect, sun, lower, upper, mapSize).texel, near.texel);
    // Moving it by a fraction of a texel keeps the whole light box.
    render::OrbitCamera nudged = camera;
    nudged.target += glm::vec3(0.1f * near.texel, 0.0f, 0.0f);
    EXPECT_EQ(render::fitShadowMap(nudged, aspect, sun, lower, upper, mapSize).lightViewProj, near.lightViewProj);
}

// A scene of a ground and a slab 0.3 m thick standing across the view, 25 m away.
render::DrawList slabScene() {
    const glm::vec4 grey(0.6f, 0.6f, 0.6f, 1.0f), blue(0.3f, 0.4f, 0.8f, 1.0f);
    const glm::quat upright(1.0f, 0.0f, 0.0f, 0.0f);
    render::DrawList draw;
    draw.boxes.push_back(render::Instance::make(glm::vec3(0.0f, -0.5f, 0.0f), upright, glm::vec3(40.0f, 0.5f, 40.0f),
                                                grey, render::Highlight::None, true));
    draw.boxes.push_back(render::Instance::make(glm::vec3(0.0f, 1.0f, 0.0f), upright, glm::vec3(2.0f, 1.0f, 0.15f), blue));
    return draw;
}

TEST(Renderer, AContactPointBehindABodyIsNotDrawnThroughIt) {
    HiddenGlWindow window;
    if (!window.ready()) GTEST_SKIP() << "no OpenGL 3.3 context (SDL offscreen driver): " << SDL_GetError();
    render::Renderer renderer;
    ASSERT_TRUE(initWithSourceShaders(renderer));
    const render::OrbitCamera camera = lookingAlongMinusZ(glm::vec3(0.0f, 1.0f, 0.0f), 0.1f, 25.0f);
    render::RenderOptions options;
    options.shadows = false;
    options.debugXray = false;  // hidden is hidden: no faint copy on top
    const render::DrawList draw = slabScene();
    const glm::vec4 red(1.0f, 0.0f, 0.0f, 1.0f);
    // One point on the slab's front face (seen), one 0.3 m behind its back face, where a
    // contact with a body behind it would be: 0.45 m behind what the eye sees there.
    const glm::vec3 onFront(-1.0f, 1.0f, 0.15f), behind(1.0f, 1.0f, -0.45f);
    render::DebugDraw debug;
    debug.point(onFront, red);
    debug.point(behind, red);
    const std::vector<unsigned char> pixels = renderedPixels(renderer, draw, camera, options, debug);
    const std::vector<unsigned char> without = renderedPixels(renderer, draw, camera, options);
    const auto at = [&](const std::vector<unsigned char>& image, const glm::vec3& p) {
        return pixelAt(image, glm::vec2(camera.project(p, float(kWidth), float(kHeight))));
    };
    EXPECT_EQ(at(pixels, onFront), glm::ivec3(255, 0, 0)) << "the point on the face it lies on shows whole";
    EXPECT_EQ(at(pixels, behind), at(without, behind)) << "the point behind the slab shows through it";
    // With the x-ray layer, the hidden point shows faintly: far from its full red.
    options.debugXray = true;
    const glm::ivec3 faint = at(renderedPixels(renderer, draw, camera, options, debug), behind), slab = at(without, behind);
    EXPECT_NE(faint, slab);
    EXPECT_LT(faint.r - slab.r, 100) << "drawn at full strength through the slab";
}

TEST(Renderer, ADebugLineLyingOnAFaceShowsAllAlongIt) {
    HiddenGlWindow window;
    if (!window.ready()) GTEST_SKIP() << "no OpenGL 3.3 context (SDL offscreen driver): " << SDL_GetError();
    render::Renderer renderer;
    ASSERT_TRUE(initWithSourceShaders(renderer));
    const render::OrbitCamera camera = lookingAlongMinusZ(glm::vec3(0.0f, 1.0f, 0.0f), 0.35f, 12.0f);
    render::RenderOptions options;
    options.debugXray = false;  // where the line is hidden, nothing shows
    const render::DrawList draw = slabScene();
    // Lines on the slab's top face and on the ground, across the view, in pure red.
    render::DebugDraw debug;
    const glm::vec4 red(1.0f, 0.0f, 0.0f, 1.0f);
    const glm::vec3 lines[2][2] = {{{-1.8f, 2.0f, 0.05f}, {1.8f, 2.0f, 0.05f}}, {{-3.0f, 0.0f, 2.3f}, {3.0f, 0.0f, 2.3f}}};
    for (const auto& l : lines) debug.line(l[0], l[1], red);
    const std::vector<unsigned char> pixels = renderedPixels(renderer, draw, camera, options, debug);
    // Every column the line crosses has a red pixel within a pixel of it (no stipple).
    for (const auto& l : lines) {
        const glm::vec4 a = camera.project(l[0], float(kWidth), float(kHeight));
        const glm::vec4 b = camera.project(l[1], float(kWidth), float(kHeight));
        int columns = 0, missing = 0;
        for (int x = int(a.x) + 2; x <= int(b.x) - 2; ++x) {
            const float y = a.y + (b.y - a.y) * (float(x) - a.x) / (b.x - a.x);
            bool found = false;
            for (int dy = -1; dy <= 1 && !found; ++dy) {
                const glm::ivec3 c = pixelAt(pixels, glm::vec2(float(x), y + float(dy)));
                found = c.r > 200 && c.g < 60 && c.b < 60;
            }
            ++columns;
            missing += !found;
        }
        EXPECT_GT(columns, 50);
        EXPECT_EQ(missing, 0) << "of " << columns << " columns at y " << a.y;
    }
}

}  // namespace
}  // namespace impulse
