// The OpenGL 3.3 core renderer: instanced lit boxes and spheres with a shadow
// map, a grid pattern on static surfaces, hover/selection highlight, a sky
// gradient and a debug layer (lines and points). It draws what the app hands
// it and knows nothing about the physics solver.
#pragma once

#include "render/camera.h"
#include "render/debug_draw.h"
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
    void clear() {
        boxes.clear();
        spheres.clear();
    }
};

struct RenderOptions {
    bool shadows = true;
    int shadowMapSize = 1024;  // texels; 2048 costs ~5 ms more per frame on llvmpipe
    glm::vec3 towardSun = glm::normalize(glm::vec3(0.45f, 1.0f, 0.3f));
    /// The region whose shadows matter (the moving bodies); the map covers this sphere.
    glm::vec3 shadowCentre{0.0f};
    float shadowRadius = 20.0f;
    /// Debug lines hidden behind bodies are drawn faintly on top.
    bool debugXray = true;
};

class Renderer {
public:
    Renderer();
    ~Renderer();
    Renderer(const Renderer&) = delete;
    Renderer& operator=(const Renderer&) = delete;

    /// Needs a current GL 3.3 core context with the loader initialised.
    bool init(const std::string& shaderDir, std::string& error);
    void render(const OrbitCamera& camera, int width, int height, const DrawList& draw, const DebugDraw& debug,
                const RenderOptions& options);

private:
    struct Mesh {
        GLuint vao = 0, vbo = 0, ebo = 0;
        GLsizei indexCount = 0;
    };
    void createMesh(Mesh& mesh, const std::vector<float>& vertices, const std::vector<unsigned>& indices);
    void ensureShadowMap(int size);
    void drawInstances(Mesh& mesh, GLuint instanceBuffer, size_t first, size_t count);

    ShaderProgram lit_, shadow_, line_, point_, sky_;
    std::vector<Instance> sorted_[2];  // boxes: casters first; spheres: coarse first
    Mesh box_, sphereHigh_, sphereLow_;
    GLuint instanceVbo_[2] = {0, 0};  // boxes, spheres
    std::vector<Instance> receivers_;
    GLuint lineVao_ = 0, lineVbo_ = 0, pointVao_ = 0, pointVbo_ = 0, emptyVao_ = 0;
    GLuint shadowFbo_ = 0, shadowTex_ = 0;
    int shadowSize_ = 0;
};

/// Saves the back buffer (call before the swap) as a PNG. Returns "" or an error message.
std::string saveScreenshot(const std::string& path, int width, int height);

}  // namespace impulse::render
