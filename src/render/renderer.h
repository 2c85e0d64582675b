// The OpenGL 3.3 core renderer: instanced lit boxes and spheres with a shadow
// map, a grid pattern on static surfaces, hover/selection highlight, a sky
// gradient and a debug layer (lines and points). It draws what the app hands
// it and knows nothing about the physics solver.
#pragma once

#include "render/camera.h"
#include "render/debug_draw.h"
#include "render/render_tier.h"
#include "render/shader.h"

#include <glm/gtc/quaternion.hpp>

#include <memory>
#include <string>
#include <vector>

namespace impulse::render {

enum class Highlight : int { None = 0, Hover = 1, Selected = 2, Dragged = 3 };

/// One shape to draw; laid out exactly as the GPU instance attributes.
struct Instance {
    glm::vec4 positionHighlight;  ///< xyz world position, w = Highlight
    glm::vec4 orientation;        ///< quaternion x, y, z, w
    glm::vec4 halfSizeFlags;      ///< xyz half extents (sphere: radius thrice), w = 1 for a grid pattern
    glm::vec4 color;              ///< sRGB, alpha unused

    static Instance make(const glm::vec3& position, const glm::quat& orientation, const glm::vec3& halfSize,
                         const glm::vec4& color, Highlight highlight = Highlight::None, bool grid = false) {
        return Instance{glm::vec4(position, static_cast<float>(highlight)),
                        glm::vec4(orientation.x, orientation.y, orientation.z, orientation.w),
                        glm::vec4(halfSize, grid ? 1.0f : 0.0f), color};
    }
};

struct DrawList {
    std::vector<Instance> boxes;
    std::vector<Instance> spheres;
    /// Another run's bodies (the experiment's ghost), drawn see-through after the opaque
    /// pass in their instance colour: they cast no shadow and receive none.
    std::vector<Instance> ghostBoxes;
    std::vector<Instance> ghostSpheres;
    void clear() {
        boxes.clear();
        spheres.clear();
        ghostBoxes.clear();
        ghostSpheres.clear();
    }
};

struct RenderOptions {
    bool shadows = true;
    /// False: only static bodies look the shadow map up, so moving bodies are lit as if
    /// in the sun (they still cast shadows). On software GL the look-up costs a third of
    /// a lit pixel.
    bool bodiesReceiveShadows = true;
    /// The render tier's settings; the shadow map has tier.shadowMapSize texels a side,
    /// fitted to the view (see shadow_fit.h): a camera 15 m from its target gets ~7 cm
    /// texels at 768, ~2.5 cm at 2048. Each doubling costs ~3-4x the shadow pass on llvmpipe.
    TierSettings tier;
    glm::vec3 towardSun = glm::normalize(glm::vec3(0.45f, 1.0f, 0.3f));
    /// Debug lines hidden behind bodies are drawn faintly on top.
    bool debugXray = true;
    /// Framebuffer rectangles (x, y from the bottom left, width, height) that opaque
    /// panels will cover: the 3D pass shades nothing there (software GL pays per pixel)
    /// and fills them with `panelColor`, the panels' background, by a clear.
    std::vector<glm::ivec4> hiddenRects;
    glm::vec4 panelColor{0.0f, 0.0f, 0.0f, 1.0f};
    /// The 3D view's framebuffer rectangle (x, y from the bottom left, width, height):
    /// the projection's aspect and the GL viewport. Empty: the whole framebuffer.
    glm::ivec4 viewport{0};
};

/// What the GL context says it is (logged at start, shown in bug reports).
struct GlInfo {
    std::string vendor, renderer, version, shadingLanguage;
    bool debugOutput = false;  ///< a debug context: GL messages reach stderr through KHR_debug
};

class Renderer {
public:
    Renderer();
    ~Renderer();
    Renderer(const Renderer&) = delete;
    Renderer& operator=(const Renderer&) = delete;

    /// Needs a current GL 3.3 core context with the loader initialised. Fails, with the
    /// reason, on a shader that does not build, an incomplete shadow framebuffer or a GL error.
    bool init(const std::string& shaderDir, std::string& error);
    const GlInfo& glInfo() const { return glInfo_; }
    void render(const OrbitCamera& camera, int width, int height, const DrawList& draw, const DebugDraw& debug,
                const RenderOptions& options);

private:
    struct Mesh {
        GLuint vao = 0, vbo = 0, ebo = 0;
        GLsizei indexCount = 0;
    };
    void createMesh(Mesh& mesh, const std::vector<float>& vertices, const std::vector<unsigned>& indices);
    /// Makes the shadow map `size` texels a side; "" or why its framebuffer is incomplete.
    std::string ensureShadowMap(int size);
    /// The rectangles of shadow-map texels to draw again (x, y, width, height; none: the map holds).
    void shadowTexelsToDraw(const DrawList& draw, const glm::mat4& lightViewProj, int mapSize,
                            size_t boxCasters, float tolerance, std::vector<glm::ivec4>& rects);
    /// Clears and draws the shadow casters in `rects` of the map (bound, with its state set).
    void drawShadowRects(const std::vector<glm::ivec4>& rects, const glm::mat4& lightViewProj,
                         size_t boxCasters);
    void upload(int k, const std::vector<Instance>& instances);
    /// The ghost bodies, blended over what the opaque pass left (see DrawList).
    void drawGhosts(const DrawList& draw, const glm::mat4& viewProj, const glm::vec3& eye, const glm::vec3& sun);
    void drawInstances(Mesh& mesh, GLuint instanceBuffer, size_t first, size_t count);

    // Lit variants of one shader source (see lit.frag): spheres, boxes, boxes with the grid.
    ShaderProgram litSphere_, litBox_, litGrid_, shadow_, line_, point_, sky_;
    ShaderProgram ghostSphere_, ghostBox_;  // lit.frag's GHOST variants
    // Boxes in five runs: casters without grid (seen, then hidden behind a static box),
    // casters with grid, then receivers with / without grid (casters form a prefix for
    // the shadow pass, grid boxes one range for the grid program). Spheres: seen with the
    // coarse mesh, with the fine mesh, then hidden.
    std::vector<Instance> sorted_[2];
    std::vector<Instance> groups_[5];
    std::vector<std::pair<float, unsigned>> order_;  // (distance, index) for front-to-back order
    std::vector<Instance> scratch_;
    Mesh box_, sphereHigh_, sphereLow_;
    // Boxes, spheres, their casters of a partial shadow pass, and the ghost boxes and spheres.
    GLuint instanceVbo_[6] = {0, 0, 0, 0, 0, 0};
    size_t instanceCapacity_[6] = {0, 0, 0, 0, 0, 0};  // in instances
    std::vector<Instance> ghostSorted_[2];  // boxes, spheres: far to near
    std::vector<Instance> shadowCasters_[2];      // boxes, spheres over each rectangle of the map drawn again
    std::vector<glm::ivec4> shadowRects_;         // of the map, to draw again this frame
    std::vector<glm::vec4> casterFootprints_[2];  // boxes, spheres: shadow-map texels (lower, upper corner)
    std::vector<glm::uvec2> shadowRuns_;          // per rectangle: its first box and sphere in shadowCasters_
    std::vector<char> dirtyTiles_;                // shadow-map tiles (row-major) where casters moved
    GLuint lineVao_ = 0, lineVbo_ = 0, pointVao_ = 0, pointVbo_ = 0, emptyVao_ = 0;
    GLuint shadowFbo_ = 0, shadowTex_ = 0;
    int shadowSize_ = 0;
    bool shadowsBroken_ = false;  // a resized shadow map was incomplete: said once, shadows off
    GlInfo glInfo_;
    // What the shadow map holds (see shadowTexelsToDraw).
    bool shadowValid_ = false;
    glm::mat4 shadowLightViewProj_{0.0f};
    size_t shadowBoxCasters_ = 0;
    std::vector<Instance> shadowBoxes_, shadowSpheres_;
};

/// Saves the back buffer (call before the swap) as a PNG. Returns "" or an error message.
std::string saveScreenshot(const std::string& path, int width, int height);
/// The back buffer's RGB bytes in `rect` (x, y from the bottom left, width, height), rows bottom-up.
std::vector<unsigned char> readPixels(const glm::ivec4& rect);
/// Writes rows read by readPixels as a PNG (top row first); "" or the error. Safe from any thread.
std::string writePng(const std::string& path, const std::vector<unsigned char>& rgb, int width, int height);

}  // namespace impulse::render
