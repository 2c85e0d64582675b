// Over 800 lines: the 3D pass and its shadow map are one piece of GL state; issue 23 splits it by render tier.
#include "render/renderer.h"

#include "render/shadow_fit.h"

#include <glm/gtc/matrix_transform.hpp>

#include <stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <mutex>
#include <utility>

namespace impulse::render {

namespace {

std::string glString(GLenum name) {
    const auto* text = reinterpret_cast<const char*>(glGetString(name));
    return text ? text : "(unknown)";
}

std::string hex(unsigned value) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%04X", value);
    return text;
}

void APIENTRY printGlMessage(GLenum, GLenum type, GLuint id, GLenum severity, GLsizei, const GLchar* message,
                             const void*) {
    if (severity == GL_DEBUG_SEVERITY_NOTIFICATION) return;
    const char* level = severity == GL_DEBUG_SEVERITY_HIGH     ? "high"
                        : severity == GL_DEBUG_SEVERITY_MEDIUM ? "medium"
                                                               : "low";
    std::fprintf(stderr, "GL %s (type %s, id %u): %s\n", level, hex(type).c_str(), id, message);
}

// Where instances fall on a shadow map of `mapSize` texels a side. The light's
// projection is orthographic with square texels, so metres to texels is one scale:
// the length of a row of its rotation part, worked out once per map.
struct ShadowTexels {
    ShadowTexels(const glm::mat4& light, int mapSize)
        : lightViewProj(light),
          size(static_cast<float>(mapSize)),
          texelsPerMetre(0.5f * size * glm::length(glm::vec3(light[0][0], light[1][0], light[2][0]))) {}

    // The square of texels (lower, upper corners) that an instance's bounding sphere covers.
    std::pair<glm::vec2, glm::vec2> footprint(const Instance& inst) const {
        const glm::vec4 clip = lightViewProj * glm::vec4(glm::vec3(inst.positionHighlight), 1.0f);
        const glm::vec2 centre = (glm::vec2(clip) * 0.5f + 0.5f) * size;
        const float reach = glm::length(glm::vec3(inst.halfSizeFlags)) * texelsPerMetre;
        return {centre - reach, centre + reach};
    }

    glm::mat4 lightViewProj;
    float size;
    float texelsPerMetre;
};

// Unit cube [-1, 1]^3 with flat normals: 24 vertices (position, normal), 36 indices.
void buildCube(std::vector<float>& v, std::vector<unsigned>& idx) {
    const glm::vec3 normals[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (const glm::vec3& n : normals) {
        // Two axes spanning the face, ordered so that the winding is counter-clockwise seen from outside.
        const glm::vec3 u = std::fabs(n.y) > 0.5f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
        const glm::vec3 w = glm::cross(n, u);
        const unsigned base = static_cast<unsigned>(v.size() / 6);
        const glm::vec3 corners[4] = {n - u - w, n + u - w, n + u + w, n - u + w};
        for (const glm::vec3& c : corners) {
            v.insert(v.end(), {c.x, c.y, c.z, n.x, n.y, n.z});
        }
        // cross(u, w) == n for this basis? w = n x u, so u x w = u x (n x u) = n (u.u) - u (u.n) = n.
        idx.insert(idx.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
    }
}

// Unit UV sphere; modest tessellation keeps 1000 spheres cheap on software GL.
void buildSphere(std::vector<float>& v, std::vector<unsigned>& idx, int stacks, int slices) {
    const float pi = 3.14159265358979f;
    for (int i = 0; i <= stacks; ++i) {
        const float phi = pi * static_cast<float>(i) / static_cast<float>(stacks);
        for (int j = 0; j <= slices; ++j) {
            const float theta = 2.0f * pi * static_cast<float>(j) / static_cast<float>(slices);
            const glm::vec3 p(std::sin(phi) * std::cos(theta), std::cos(phi), std::sin(phi) * std::sin(theta));
            v.insert(v.end(), {p.x, p.y, p.z, p.x, p.y, p.z});
        }
    }
    const unsigned row = static_cast<unsigned>(slices + 1);
    for (unsigned i = 0; i < static_cast<unsigned>(stacks); ++i) {
        for (unsigned j = 0; j < static_cast<unsigned>(slices); ++j) {
            const unsigned a = i * row + j, b = a + row;
            idx.insert(idx.end(), {a, a + 1, b, a + 1, b + 1, b});
        }
    }
}

// The shadow map is drawn again by tiles of this many texels a side where casters
// moved (a pile1000 box covers about 40), in at most this many rectangles.
constexpr int kShadowTileTexels = 16;
constexpr size_t kMaxShadowRects = 24;

// Bodies hidden behind static boxes are looked for behind the faces of at most this
// many of them (the largest), with this margin (m) to the faces' edges and planes.
constexpr size_t kMaxOccluders = 8;
constexpr float kOcclusionMargin = 0.01f;

// m: how far other bodies may sink into the ground before it counts as a caster (a
// settled pile1000 presses 1-30 mm into it).
constexpr float kGroundSinkTolerance = 0.05f;

// glPolygonOffset's factor and units for the bodies of the main pass (see render()).
constexpr glm::vec2 kBodyDepthOffset(1.0f, 1.0f);

// Spheres smaller than this on screen (radius, pixels) use the coarse mesh.
constexpr float kFineSpherePixels = 24.0f;

// The instance's body axes in the world: the columns of its rotation.
glm::mat3 instanceAxes(const Instance& inst) {
    const glm::vec4& q = inst.orientation;
    return glm::mat3_cast(glm::quat(q.w, q.x, q.y, q.z));
}

// Lowest and highest world y of an instance (box corners or sphere).
void verticalExtent(const Instance& inst, bool sphere, float& bottom, float& top) {
    const glm::vec3 h(inst.halfSizeFlags);
    float reach = h.y;
    if (!sphere) {
        const glm::mat3 r = instanceAxes(inst);
        // |R|^T row y times the half extents: the box's half height in world space.
        reach = std::fabs(r[0].y) * h.x + std::fabs(r[1].y) * h.y + std::fabs(r[2].y) * h.z;
    }
    bottom = inst.positionHighlight.y - reach;
    top = inst.positionHighlight.y + reach;
}

// The parts of the w x h framebuffer that no rectangle of `hidden` covers, as
// rectangles: vertical slabs between the hidden rectangles' x edges, each cut at
// the y ranges covered there; neighbouring slabs with the same cuts are merged.
std::vector<glm::ivec4> uncoveredRects(int w, int h, const std::vector<glm::ivec4>& hidden) {
    std::vector<int> xs = {0, w};
    for (const glm::ivec4& r : hidden) {
        xs.push_back(std::clamp(r.x, 0, w));
        xs.push_back(std::clamp(r.x + r.z, 0, w));
    }
    std::sort(xs.begin(), xs.end());
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
    std::vector<glm::ivec4> out;
    std::vector<glm::ivec2> covered, open, previousOpen;
    size_t previousFirst = 0;  // where the previous slab's rectangles start in `out`
    for (size_t i = 0; i + 1 < xs.size(); ++i) {
        const int x0 = xs[i], x1 = xs[i + 1];
        covered.clear();
        for (const glm::ivec4& r : hidden) {
            if (r.z > 0 && r.w > 0 && r.x <= x0 && r.x + r.z >= x1) covered.emplace_back(r.y, r.y + r.w);
        }
        std::sort(covered.begin(), covered.end(),
                  [](const glm::ivec2& a, const glm::ivec2& b) { return a.x < b.x; });
        open.clear();
        int y = 0;
        for (const glm::ivec2& c : covered) {
            if (c.x > y) open.emplace_back(y, std::min(c.x, h));
            y = std::max(y, c.y);
        }
        if (y < h) open.emplace_back(y, h);
        if (i > 0 && open == previousOpen) {
            for (size_t k = previousFirst; k < out.size(); ++k) out[k].z = x1 - out[k].x;  // widen
            continue;
        }
        previousFirst = out.size();
        for (const glm::ivec2& o : open) out.emplace_back(x0, o.x, x1 - x0, o.y - o.x);
        previousOpen = open;
    }
    return out;
}

// A face of a static box that looks toward the eye: bodies wholly behind it are hidden.
struct OccludingFace {
    glm::vec3 normal;  // unit, outward
    float plane;       // dot(normal, x) on the face
    float eyeHeight;   // the eye's distance in front of the face's plane
    glm::vec3 centre;
    glm::vec3 axes[2];  // unit, along the face
    glm::vec2 reach;    // half sizes along `axes`, less the margin
};

// The faces of `box` that look toward `eye`, with `margin` metres off their edges.
void addOccludingFaces(const Instance& box, const glm::vec3& eye, float margin,
                       std::vector<OccludingFace>& out) {
    const glm::mat3 axes = instanceAxes(box);
    const glm::vec3 half(box.halfSizeFlags), centre(box.positionHighlight);
    for (int axis = 0; axis < 3; ++axis) {
        for (const float side : {-1.0f, 1.0f}) {
            OccludingFace f;
            f.normal = side * axes[axis];
            f.plane = glm::dot(f.normal, centre) + half[axis];
            f.eyeHeight = glm::dot(f.normal, eye) - f.plane;
            if (f.eyeHeight <= margin) continue;  // seen edge-on or from behind
            f.centre = centre + f.normal * half[axis];
            const int a = (axis + 1) % 3, b = (axis + 2) % 3;
            f.axes[0] = axes[a];
            f.axes[1] = axes[b];
            f.reach = glm::vec2(half[a], half[b]) - margin;
            if (f.reach.x > 0.0f && f.reach.y > 0.0f) out.push_back(f);
        }
    }
}

// The faces looking toward `eye` of the largest `statics` (boxes drawn every frame).
std::vector<OccludingFace> occludingFaces(std::vector<const Instance*> statics, const glm::vec3& eye) {
    if (statics.size() > kMaxOccluders) {
        const auto largerFace = [](const Instance* a, const Instance* b) {
            const glm::vec3 ha(a->halfSizeFlags), hb(b->halfSizeFlags);
            return std::max({ha.x * ha.y, ha.y * ha.z, ha.z * ha.x}) >
                   std::max({hb.x * hb.y, hb.y * hb.z, hb.z * hb.x});
        };
        std::partial_sort(statics.begin(), statics.begin() + kMaxOccluders, statics.end(), largerFace);
        statics.resize(kMaxOccluders);
    }
    std::vector<OccludingFace> faces;
    for (const Instance* box : statics) addOccludingFaces(*box, eye, kOcclusionMargin, faces);
    return faces;
}

// Whether the box `inst` (a sphere: the cube around it) lies wholly behind one of
// `faces` as seen from `eye` (looking along `forward`): at least `margin` behind the
// face's plane, with every corner's line of sight crossing the face's rectangle at
// least `nearest` metres in front of the eye (where the near plane has not cut the face
// away). The face is convex, so then it covers the whole box on screen, nearer: every
// pixel of the box would fail the depth test.
bool hiddenBehind(const Instance& inst, const std::vector<OccludingFace>& faces, const glm::vec3& eye,
                  const glm::vec3& forward, float nearest, float margin) {
    const glm::vec3 centre(inst.positionHighlight), half(inst.halfSizeFlags);
    const float radius = glm::length(half);
    glm::vec3 corners[8];
    bool cornersKnown = false;
    for (const OccludingFace& f : faces) {
        // Not wholly behind the face's plane?
        if (glm::dot(f.normal, centre) - f.plane > -(radius + margin)) continue;
        if (!cornersKnown) {
            const glm::mat3 axes = instanceAxes(inst);
            for (int c = 0; c < 8; ++c) {
                const glm::vec3 sign((c & 1) ? 1.0f : -1.0f, (c & 2) ? 1.0f : -1.0f, (c & 4) ? 1.0f : -1.0f);
                corners[c] = centre + axes * (sign * half);
            }
            cornersKnown = true;
        }
        bool covered = true;
        for (int c = 0; c < 8 && covered; ++c) {
            const float height = glm::dot(f.normal, corners[c]) - f.plane;  // < -margin, see above
            // Where the line of sight to the corner meets the face's plane.
            const glm::vec3 crossing = eye + (corners[c] - eye) * (f.eyeHeight / (f.eyeHeight - height));
            const glm::vec3 offset = crossing - f.centre;
            covered = std::fabs(glm::dot(offset, f.axes[0])) <= f.reach.x &&
                      std::fabs(glm::dot(offset, f.axes[1])) <= f.reach.y &&
                      glm::dot(crossing - eye, forward) >= nearest;
        }
        if (covered) return true;
    }
    return false;
}

// The dirty tiles of a tiles x tiles grid (row-major flags) as rectangles of tiles
// (x, y, width, height): runs of dirty tiles along each row, a run merged with the same
// run on the row below.
void dirtyTileRects(const std::vector<char>& dirty, int tiles, std::vector<glm::ivec4>& out) {
    out.clear();
    size_t firstOpen = 0;  // rectangles from here on may still grow downwards
    for (int y = 0; y < tiles; ++y) {
        const size_t previousRowEnd = out.size();
        for (int x = 0; x < tiles;) {
            if (!dirty[static_cast<size_t>(y * tiles + x)]) {
                ++x;
                continue;
            }
            const int start = x;
            while (x < tiles && dirty[static_cast<size_t>(y * tiles + x)]) ++x;
            bool merged = false;
            for (size_t k = firstOpen; k < previousRowEnd && !merged; ++k) {
                glm::ivec4& r = out[k];
                if (r.x == start && r.z == x - start && r.y + r.w == y) {
                    ++r.w;
                    merged = true;
                }
            }
            if (!merged) out.emplace_back(start, y, x - start, 1);
        }
        // Rectangles that did not reach this row are finished: move them before the open ones.
        const auto reaches = [y](const glm::ivec4& r) { return r.y + r.w == y + 1; };
        firstOpen = static_cast<size_t>(
            std::stable_partition(out.begin() + static_cast<std::ptrdiff_t>(firstOpen), out.end(),
                                  [&](const glm::ivec4& r) { return !reaches(r); }) -
            out.begin());
    }
}

}  // namespace

Renderer::Renderer() = default;

void Renderer::shadowTexelsToDraw(const DrawList& draw, const glm::mat4& lightViewProj, int mapSize,
                                  size_t boxCasters, float tolerance, std::vector<glm::ivec4>& rects) {
    // The map is kept while the light box and the casters are as they were when it
    // was drawn, up to `tolerance` metres of movement (a fraction of a texel: no visible
    // change). Compared with the drawn state, not the last frame's, so creeping motion
    // cannot add up. Where some casters moved (a dragged body in a resting pile, the
    // last bodies of a pile coming to rest), only the tiles their old and new poses
    // cover are drawn again.
    const auto same = [tolerance](const Instance& a, const Instance& b) {
        if (glm::vec3(a.halfSizeFlags) != glm::vec3(b.halfSizeFlags)) return false;
        const glm::vec3 dp = glm::vec3(a.positionHighlight) - glm::vec3(b.positionHighlight);
        // A rotation by a small angle moves the corners by about angle x reach, and the
        // angle is about 2 |dq|.
        glm::vec4 dq = a.orientation - b.orientation;
        if (glm::dot(a.orientation, b.orientation) < 0.0f) dq = a.orientation + b.orientation;
        const float reach = glm::length(glm::vec3(a.halfSizeFlags));
        return glm::dot(dp, dp) <= tolerance * tolerance && 2.0f * glm::length(dq) * reach <= tolerance;
    };
    rects.clear();
    const bool sameLayout = shadowValid_ && shadowSize_ == mapSize && lightViewProj == shadowLightViewProj_ &&
                            boxCasters == shadowBoxCasters_ && draw.boxes.size() == shadowBoxes_.size() &&
                            draw.spheres.size() == shadowSpheres_.size();
    if (!sameLayout) {
        shadowValid_ = true;
        shadowLightViewProj_ = lightViewProj;
        shadowBoxCasters_ = boxCasters;
        shadowBoxes_ = draw.boxes;
        shadowSpheres_ = draw.spheres;
        rects.emplace_back(0, 0, mapSize, mapSize);
        return;
    }
    const int tiles = (mapSize + kShadowTileTexels - 1) / kShadowTileTexels;
    dirtyTiles_.assign(static_cast<size_t>(tiles * tiles), 0);
    bool anyMoved = false;
    const ShadowTexels texels(lightViewProj, mapSize);
    const auto cover = [&](const Instance& inst) {
        const auto [lower, upper] = texels.footprint(inst);
        // Two texels more on each side: rasterisation rounding and the 2x2 filter's reach.
        // Clamped before the conversion: a body flung far away lies far outside the map.
        const float size = static_cast<float>(mapSize);
        const glm::ivec2 first(glm::clamp(glm::floor(lower) - 2.0f, 0.0f, size));
        const glm::ivec2 last(glm::clamp(glm::ceil(upper) + 2.0f, 0.0f, size));
        if (last.x <= first.x || last.y <= first.y) return;
        const glm::ivec2 firstTile = first / kShadowTileTexels, lastTile = (last - 1) / kShadowTileTexels;
        for (int y = firstTile.y; y <= lastTile.y; ++y) {
            for (int x = firstTile.x; x <= lastTile.x; ++x) {
                dirtyTiles_[static_cast<size_t>(y * tiles + x)] = 1;
            }
        }
        anyMoved = true;
    };
    const auto compare = [&](const std::vector<Instance>& now, std::vector<Instance>& drawn) {
        for (size_t i = 0; i < now.size(); ++i) {
            if (same(now[i], drawn[i])) continue;
            cover(drawn[i]);
            cover(now[i]);
            drawn[i] = now[i];
        }
    };
    compare(draw.boxes, shadowBoxes_);
    compare(draw.spheres, shadowSpheres_);
    if (!anyMoved) return;
    dirtyTileRects(dirtyTiles_, tiles, rects);
    glm::ivec2 lower(tiles), upper(0);
    for (glm::ivec4& r : rects) {
        lower = glm::min(lower, glm::ivec2(r));
        upper = glm::max(upper, glm::ivec2(r.x + r.z, r.y + r.w));
        r *= kShadowTileTexels;
    }
    // Each rectangle costs a clear, draw calls and the vertex work of its casters: many
    // small ones are drawn as the one rectangle around them.
    if (rects.size() > kMaxShadowRects) {
        rects.assign(1, glm::ivec4(lower, upper - lower) * kShadowTileTexels);
    }
    for (glm::ivec4& r : rects) {  // the last row and column of tiles may reach past the map
        r.z = std::min(r.z, mapSize - r.x);
        r.w = std::min(r.w, mapSize - r.y);
    }
}

Renderer::~Renderer() {
    for (Mesh* m : {&box_, &sphereHigh_, &sphereLow_}) {
        glDeleteVertexArrays(1, &m->vao);
        glDeleteBuffers(1, &m->vbo);
        glDeleteBuffers(1, &m->ebo);
    }
    glDeleteBuffers(6, instanceVbo_);
    glDeleteVertexArrays(1, &lineVao_);
    glDeleteBuffers(1, &lineVbo_);
    glDeleteVertexArrays(1, &pointVao_);
    glDeleteBuffers(1, &pointVbo_);
    glDeleteVertexArrays(1, &emptyVao_);
    if (shadowFbo_) glDeleteFramebuffers(1, &shadowFbo_);
    if (shadowTex_) glDeleteTextures(1, &shadowTex_);
}

bool Renderer::init(const std::string& shaderDir, std::string& error) {
    glInfo_.vendor = glString(GL_VENDOR);
    glInfo_.renderer = glString(GL_RENDERER);
    glInfo_.version = glString(GL_VERSION);
    glInfo_.shadingLanguage = glString(GL_SHADING_LANGUAGE_VERSION);
    GLint contextFlags = 0;
    glGetIntegerv(GL_CONTEXT_FLAGS, &contextFlags);
    glInfo_.debugOutput = GLAD_GL_KHR_debug && (contextFlags & GL_CONTEXT_FLAG_DEBUG_BIT);
    if (glInfo_.debugOutput) {
        // Synchronous, so that a message's stack is the call that caused it.
        glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
        glDebugMessageCallback(printGlMessage, nullptr);
    }
    const std::pair<ShaderProgram*, ProgramSource> loads[] = {
        {&litSphere_, programs::litSphere}, {&litBox_, programs::litBox},     {&litGrid_, programs::litGrid},
        {&ghostSphere_, programs::ghostSphere}, {&ghostBox_, programs::ghostBox}, {&shadow_, programs::shadow},
        {&line_, programs::line},           {&point_, programs::point},       {&sky_, programs::sky}};
    for (const auto& [program, source] : loads) {
        if (!program->load(shaderDir, source, error)) return false;
    }

    std::vector<float> v;
    std::vector<unsigned> idx;
    buildCube(v, idx);
    createMesh(box_, v, idx);
    v.clear();
    idx.clear();
    buildSphere(v, idx, 16, 24);
    createMesh(sphereHigh_, v, idx);
    v.clear();
    idx.clear();
    buildSphere(v, idx, 7, 10);
    createMesh(sphereLow_, v, idx);
    glGenBuffers(6, instanceVbo_);

    glGenVertexArrays(1, &lineVao_);
    glGenBuffers(1, &lineVbo_);
    glBindVertexArray(lineVao_);
    glBindBuffer(GL_ARRAY_BUFFER, lineVbo_);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(DebugVertex),
                          reinterpret_cast<void*>(offsetof(DebugVertex, position)));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(DebugVertex),
                          reinterpret_cast<void*>(offsetof(DebugVertex, color)));

    glGenVertexArrays(1, &pointVao_);
    glGenBuffers(1, &pointVbo_);
    glBindVertexArray(pointVao_);
    glBindBuffer(GL_ARRAY_BUFFER, pointVbo_);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(DebugPoint),
                          reinterpret_cast<void*>(offsetof(DebugPoint, position)));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(DebugPoint),
                          reinterpret_cast<void*>(offsetof(DebugPoint, color)));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 1, GL_FLOAT, GL_FALSE, sizeof(DebugPoint),
                          reinterpret_cast<void*>(offsetof(DebugPoint, size)));

    glGenVertexArrays(1, &emptyVao_);
    glBindVertexArray(0);
    error = ensureShadowMap(RenderOptions{}.tier.shadowMapSize);
    if (!error.empty()) return false;
    if (const GLenum code = glGetError(); code != GL_NO_ERROR) {
        error = "OpenGL error " + hex(code) + " while setting up the renderer on " + glInfo_.renderer;
        return false;
    }
    return true;
}

void Renderer::createMesh(Mesh& mesh, const std::vector<float>& vertices, const std::vector<unsigned>& indices) {
    glGenVertexArrays(1, &mesh.vao);
    glGenBuffers(1, &mesh.vbo);
    glGenBuffers(1, &mesh.ebo);
    glBindVertexArray(mesh.vao);
    glBindBuffer(GL_ARRAY_BUFFER, mesh.vbo);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(float)), vertices.data(),
                 GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), nullptr);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), reinterpret_cast<void*>(3 * sizeof(float)));
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, mesh.ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(indices.size() * sizeof(unsigned)),
                 indices.data(), GL_STATIC_DRAW);
    mesh.indexCount = static_cast<GLsizei>(indices.size());

    // Per-instance attributes 2..5 (four vec4 of Instance) are pointed at a range of an
    // instance buffer at draw time: GL 3.3 has no base-instance draw.
    for (GLuint loc = 2; loc < 6; ++loc) {
        glEnableVertexAttribArray(loc);
        glVertexAttribDivisor(loc, 1);
    }
    glBindVertexArray(0);
}

std::string Renderer::ensureShadowMap(int size) {
    if (shadowTex_ && shadowSize_ == size) return "";
    GLint largest = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &largest);
    if (size > largest) {
        return "a " + std::to_string(size) + "x" + std::to_string(size) + " shadow map exceeds the largest texture of " +
               glInfo_.renderer + " (" + std::to_string(largest) + ")";
    }
    shadowValid_ = false;
    if (!shadowTex_) glGenTextures(1, &shadowTex_);
    if (!shadowFbo_) glGenFramebuffers(1, &shadowFbo_);
    glBindTexture(GL_TEXTURE_2D, shadowTex_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, size, size, 0, GL_DEPTH_COMPONENT, GL_FLOAT, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_BORDER);
    const float border[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    glTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, border);
    // Hardware depth comparison: a linear-filtered sampler2DShadow gives 2x2 PCF for free.
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
    glBindFramebuffer(GL_FRAMEBUFFER, shadowFbo_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, shadowTex_, 0);
    glDrawBuffer(GL_NONE);
    glReadBuffer(GL_NONE);
    const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    shadowSize_ = size;
    if (status == GL_FRAMEBUFFER_COMPLETE) return "";
    return "the " + std::to_string(size) + "x" + std::to_string(size) + " shadow-map framebuffer is incomplete (status " +
           hex(status) + ") on " + glInfo_.renderer;
}

void Renderer::upload(int k, const std::vector<Instance>& instances) {
    glBindBuffer(GL_ARRAY_BUFFER, instanceVbo_[k]);
    // A new store every frame (orphaning): the GL may still be drawing an earlier frame
    // from the old one, as the frame does not wait for the GPU (standard tier). Its size
    // only grows (doubling), so the driver can hand back a store it has finished with.
    if (instances.size() > instanceCapacity_[k]) {
        instanceCapacity_[k] = std::max<size_t>(instances.size(), 2 * instanceCapacity_[k]);
    }
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(instanceCapacity_[k] * sizeof(Instance)), nullptr,
                 GL_STREAM_DRAW);
    if (!instances.empty()) {
        glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(instances.size() * sizeof(Instance)),
                        instances.data());
    }
}

void Renderer::drawInstances(Mesh& mesh, GLuint instanceBuffer, size_t first, size_t count) {
    if (count == 0) return;
    glBindVertexArray(mesh.vao);
    glBindBuffer(GL_ARRAY_BUFFER, instanceBuffer);
    for (int i = 0; i < 4; ++i) {
        glVertexAttribPointer(static_cast<GLuint>(2 + i), 4, GL_FLOAT, GL_FALSE, sizeof(Instance),
                              reinterpret_cast<void*>(first * sizeof(Instance) + static_cast<size_t>(i) * sizeof(glm::vec4)));
    }
    glDrawElementsInstanced(GL_TRIANGLES, mesh.indexCount, GL_UNSIGNED_INT, nullptr, static_cast<GLsizei>(count));
}

void Renderer::drawGhosts(const DrawList& draw, const glm::mat4& viewProj, const glm::vec3& eye,
                          const glm::vec3& sun) {
    if (draw.ghostBoxes.empty() && draw.ghostSpheres.empty()) return;
    // Far to near, so that a nearer ghost blends over a farther one. Each is convex and
    // drawn with its back faces culled: one layer per ghost at every pixel.
    for (int k = 0; k < 2; ++k) {
        const std::vector<Instance>& ghosts = k == 0 ? draw.ghostBoxes : draw.ghostSpheres;
        order_.clear();
        for (size_t i = 0; i < ghosts.size(); ++i) {
            const glm::vec3 d = glm::vec3(ghosts[i].positionHighlight) - eye;
            order_.emplace_back(-glm::dot(d, d), static_cast<unsigned>(i));
        }
        std::sort(order_.begin(), order_.end());
        ghostSorted_[k].clear();
        for (const auto& o : order_) ghostSorted_[k].push_back(ghosts[o.second]);
        upload(4 + k, ghostSorted_[k]);
    }
    // Depth-tested against the opaque pass (a ghost behind a real body is hidden, and
    // the panels' depth 0 hides it under them) but not written: ghosts never hide one
    // another. Pushed back a little more than the real bodies (kBodyDepthOffset), so a
    // ghost body still where the real one is does not flicker through it.
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
    glEnable(GL_CULL_FACE);
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(kBodyDepthOffset.x + 1.0f, kBodyDepthOffset.y + 4.0f);
    for (ShaderProgram* p : {&ghostBox_, &ghostSphere_}) {
        p->use();
        p->set("uViewProj", viewProj);
        p->set("uTowardSun", sun);
        p->set("uEye", eye);
        if (p == &ghostBox_) {
            drawInstances(box_, instanceVbo_[4], 0, ghostSorted_[0].size());
        } else {
            drawInstances(sphereHigh_, instanceVbo_[5], 0, ghostSorted_[1].size());
        }
    }
    glDisable(GL_POLYGON_OFFSET_FILL);
    glDisable(GL_CULL_FACE);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
}

void Renderer::drawShadowRects(const std::vector<glm::ivec4>& rects, const glm::mat4& lightViewProj,
                               size_t boxCasters) {
    const int mapSize = shadowSize_;
    // Only the texels that change are cleared and rasterised: the scissor drops every
    // caster's fragments outside them.
    glEnable(GL_SCISSOR_TEST);
    if (rects.size() == 1 && rects[0] == glm::ivec4(0, 0, mapSize, mapSize)) {
        glScissor(0, 0, mapSize, mapSize);
        glClear(GL_DEPTH_BUFFER_BIT);
        drawInstances(box_, instanceVbo_[0], 0, boxCasters);
        drawInstances(sphereLow_, instanceVbo_[1], 0, sorted_[1].size());
        glDisable(GL_SCISSOR_TEST);
        return;
    }
    // Parts of the map: only the casters over each, so the others cost no vertex work
    // either. All rectangles' casters go in one upload; `runs` holds where each starts.
    const ShadowTexels texels(lightViewProj, mapSize);
    const auto footprints = [&](const std::vector<Instance>& v, size_t count, std::vector<glm::vec4>& out) {
        out.clear();
        for (size_t i = 0; i < count; ++i) {
            const auto [lower, upper] = texels.footprint(v[i]);
            out.emplace_back(lower, upper);
        }
    };
    footprints(sorted_[0], boxCasters, casterFootprints_[0]);
    footprints(sorted_[1], sorted_[1].size(), casterFootprints_[1]);
    std::vector<glm::uvec2>& runs = shadowRuns_;  // per rectangle: first box, first sphere
    runs.clear();
    shadowCasters_[0].clear();
    shadowCasters_[1].clear();
    for (const glm::ivec4& r : rects) {
        runs.emplace_back(shadowCasters_[0].size(), shadowCasters_[1].size());
        const glm::vec2 first(r.x, r.y), last(r.x + r.z, r.y + r.w);
        for (int k = 0; k < 2; ++k) {
            for (size_t i = 0; i < casterFootprints_[k].size(); ++i) {
                const glm::vec4& f = casterFootprints_[k][i];
                if (f.x < last.x && f.y < last.y && f.z > first.x && f.w > first.y) {
                    shadowCasters_[k].push_back(sorted_[k][i]);
                }
            }
        }
    }
    runs.emplace_back(shadowCasters_[0].size(), shadowCasters_[1].size());
    upload(2, shadowCasters_[0]);
    upload(3, shadowCasters_[1]);
    for (size_t k = 0; k < rects.size(); ++k) {
        const glm::ivec4& r = rects[k];
        glScissor(r.x, r.y, r.z, r.w);
        glClear(GL_DEPTH_BUFFER_BIT);
        drawInstances(box_, instanceVbo_[2], runs[k].x, runs[k + 1].x - runs[k].x);
        drawInstances(sphereLow_, instanceVbo_[3], runs[k].y, runs[k + 1].y - runs[k].y);
    }
    glDisable(GL_SCISSOR_TEST);
}

void Renderer::render(const OrbitCamera& camera, int width, int height, const DrawList& draw,
                      const DebugDraw& debug, const RenderOptions& options) {
    const glm::ivec4 viewport = options.viewport.z > 0 && options.viewport.w > 0 ? options.viewport
                                                                                 : glm::ivec4(0, 0, width, height);
    const float aspect = static_cast<float>(viewport.z) / static_cast<float>(std::max(viewport.w, 1));
    const glm::mat4 viewProj = camera.projection(aspect) * camera.view();
    const glm::vec3 eye = camera.eye();

    const glm::vec3 sun = glm::normalize(options.towardSun);

    // With the sun above, a body whose top is below every other body's bottom (the
    // ground) shadows nothing but itself: leave it out of the shadow pass, which
    // would otherwise rasterise the whole map for it. Other bodies sinking into it by
    // up to kGroundSinkTolerance do not count: it could only shadow their parts below
    // its top, which it hides. So a pile pressing into the ground does not make it a
    // caster now and then, each time a whole new map.
    float lowest = 1e30f, secondLowest = 1e30f;
    for (int pass = 0; pass < 2; ++pass) {
        for (const Instance& inst : pass == 0 ? draw.boxes : draw.spheres) {
            float bottom, top;
            verticalExtent(inst, pass == 1, bottom, top);
            if (bottom < lowest) {
                secondLowest = lowest;
                lowest = bottom;
            } else if (bottom < secondLowest) {
                secondLowest = bottom;
            }
        }
    }
    for (std::vector<Instance>& g : groups_) g.clear();
    glm::vec3 castersLower(1e30f), castersUpper(-1e30f);
    const auto addCaster = [&](const Instance& inst) {
        const glm::vec3 centre(inst.positionHighlight), reach(glm::length(glm::vec3(inst.halfSizeFlags)));
        castersLower = glm::min(castersLower, centre - reach);
        castersUpper = glm::max(castersUpper, centre + reach);
    };
    for (const Instance& inst : draw.boxes) {
        float bottom, top;
        verticalExtent(inst, false, bottom, top);
        // Compare with the lowest bottom of the *other* bodies.
        const float othersLowest = bottom <= lowest ? secondLowest : lowest;
        const bool receiverOnly = sun.y > 0.0f && top <= othersLowest + kGroundSinkTolerance;
        const bool grid = inst.halfSizeFlags.w > 0.5f;
        groups_[receiverOnly ? (grid ? 3 : 4) : (grid ? 2 : 0)].push_back(inst);
        if (!receiverOnly) addCaster(inst);
    }
    for (const Instance& inst : draw.spheres) addCaster(inst);

    // Light: an orthographic box fitted to the view as the sun sees it (see
    // shadow_fit.h). Casters nearer the sun than the box are clamped onto its near
    // plane (depth clamp), so they still shadow what it covers.
    const int mapSize = std::max(options.tier.shadowMapSize, 16);
    const ShadowFit fit = fitShadowMap(camera, aspect, sun, castersLower, castersUpper, mapSize);
    const glm::mat4& lightViewProj = fit.lightViewProj;
    const float texel = fit.texel;
    // Normal-offset bias: the lit shader looks the map up from a point this far off the
    // surface along its normal, so a surface never compares with its own texels (no
    // acne) while a receiver right at a caster's foot stays in its shadow (no lit gap
    // where boxes meet the ground, as a depth bias of a few texels gave). The 2x2
    // filter reaches a texel; half a texel more for where the map samples a caster.
    const float normalOffset = 1.5f * texel;
    // A depth bias of a tenth of a texel (as a depth-range fraction) for the map's
    // 24-bit depth. (The shadow pass draws spheres with the coarse mesh, inside the
    // fine one: farther from the sun, so that errs toward lit, never acne.)
    const float depthBias = 0.1f * texel / fit.depthRange;

    // Bodies wholly behind a face of a large static box (the far side of a wall) are
    // left out of the main pass: all their pixels would fail the depth test there, yet
    // software GL pays for rasterising them. They still cast shadows.
    std::vector<const Instance*> statics;  // never left out themselves
    for (int g = 2; g < 5; ++g) {
        for (const Instance& inst : groups_[g]) {
            if (inst.halfSizeFlags.w > 0.5f) statics.push_back(&inst);
        }
    }
    const std::vector<OccludingFace> faces = occludingFaces(statics, eye);
    const auto hidden = [&](const Instance& inst) {
        return hiddenBehind(inst, faces, eye, camera.forward(), camera.nearPlane(), kOcclusionMargin);
    };
    // Moves the seen instances of v[first, last) to its front (keeping their order);
    // returns where the hidden ones start.
    const auto seenFirst = [&](std::vector<Instance>& v, size_t first, size_t last) {
        const auto seen = [&](const Instance& inst) { return !hidden(inst); };
        const auto begin = v.begin();
        return static_cast<size_t>(std::stable_partition(begin + static_cast<std::ptrdiff_t>(first),
                                                         begin + static_cast<std::ptrdiff_t>(last), seen) -
                                   begin);
    };
    {
        std::vector<Instance>& bodies = groups_[0];
        const size_t seen = seenFirst(bodies, 0, bodies.size());
        groups_[1].assign(bodies.begin() + static_cast<std::ptrdiff_t>(seen), bodies.end());
        bodies.resize(seen);
    }
    // Near bodies first: the depth test then rejects most hidden pixels before they are
    // shaded (early z), which is what software GL pays for. The large flat receivers
    // come last for the same reason. Equal distances keep the draw list's order.
    const auto frontToBack = [&](std::vector<Instance>& v, size_t first, size_t last) {
        order_.clear();
        for (size_t i = first; i < last; ++i) {
            const glm::vec3 d = glm::vec3(v[i].positionHighlight) - eye;
            order_.emplace_back(glm::dot(d, d), static_cast<unsigned>(i));
        }
        std::sort(order_.begin(), order_.end());
        scratch_.clear();
        for (const auto& o : order_) scratch_.push_back(v[o.second]);
        std::copy(scratch_.begin(), scratch_.end(), v.begin() + static_cast<std::ptrdiff_t>(first));
    };
    frontToBack(groups_[0], 0, groups_[0].size());
    size_t boxRun[6] = {0, 0, 0, 0, 0, 0};  // start of each group in sorted_[0], and the end
    {
        std::vector<Instance>& out = sorted_[0];
        out.clear();
        for (int g = 0; g < 5; ++g) {
            boxRun[g] = out.size();
            out.insert(out.end(), groups_[g].begin(), groups_[g].end());
        }
        boxRun[5] = out.size();
    }
    const size_t boxCasters = boxRun[3];
    // Spheres (always casters): far ones first with the coarse mesh, near ones after
    // with the fine mesh; each run front to back; the hidden ones last.
    const float pixelsPerMetre = static_cast<float>(viewport.w) / (2.0f * std::tan(camera.fovY * 0.5f));
    size_t coarseSpheres = 0, seenSpheres = 0;
    {
        std::vector<Instance>& out = sorted_[1];
        out.clear();
        scratch_.clear();  // the near spheres
        for (const Instance& inst : draw.spheres) {
            const float distance = glm::length(glm::vec3(inst.positionHighlight) - eye);
            const float pixels = inst.halfSizeFlags.x / std::max(distance, 1e-3f) * pixelsPerMetre;
            (pixels < kFineSpherePixels ? out : scratch_).push_back(inst);
        }
        coarseSpheres = out.size();
        out.insert(out.end(), scratch_.begin(), scratch_.end());
        // A sphere is tested as the cube around it.
        const size_t coarseSeen = seenFirst(out, 0, coarseSpheres);
        const size_t fineSeen = seenFirst(out, coarseSpheres, out.size());
        // Hidden coarse spheres sit between the two seen runs: move the seen fine ones down.
        std::rotate(out.begin() + static_cast<std::ptrdiff_t>(coarseSeen),
                    out.begin() + static_cast<std::ptrdiff_t>(coarseSpheres),
                    out.begin() + static_cast<std::ptrdiff_t>(fineSeen));
        seenSpheres = coarseSeen + (fineSeen - coarseSpheres);
        coarseSpheres = coarseSeen;
        frontToBack(out, 0, coarseSpheres);
        frontToBack(out, coarseSpheres, seenSpheres);
    }
    upload(0, sorted_[0]);
    upload(1, sorted_[1]);

    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDisable(GL_BLEND);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glFrontFace(GL_CCW);

    bool shadows = options.shadows && !shadowsBroken_;
    if (shadows) {
        if (const std::string problem = ensureShadowMap(mapSize); !problem.empty()) {
            std::fprintf(stderr, "impulse-lab: shadows off: %s\n", problem.c_str());
            shadowsBroken_ = true;
            shadows = false;
            shadowRects_.clear();
        } else {
            shadowTexelsToDraw(draw, lightViewProj, mapSize, boxCasters, 0.25f * texel, shadowRects_);
        }
    }
    if (shadows && !shadowRects_.empty()) {
        glBindFramebuffer(GL_FRAMEBUFFER, shadowFbo_);
        glViewport(0, 0, shadowSize_, shadowSize_);
        glEnable(GL_DEPTH_CLAMP);
        shadow_.use();
        shadow_.set("uLightViewProj", lightViewProj);
        drawShadowRects(shadowRects_, lightViewProj, boxCasters);
        glDisable(GL_DEPTH_CLAMP);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
    }

    glViewport(viewport.x, viewport.y, viewport.z, viewport.w);
    // No colour clear: the sky fills every pixel that neither a body nor a panel covers.
    glClear(GL_DEPTH_BUFFER_BIT);
    if (!options.hiddenRects.empty()) {
        // Depth 0 under the panels: every fragment of a body reaching under one fails the
        // depth test there before it is shaded, so hidden pixels cost almost nothing. The
        // panels' background is cleared here too, as a clear costs far less per pixel than
        // the blended, textured triangles ImGui would draw for it.
        glEnable(GL_SCISSOR_TEST);
        glClearDepth(0.0);
        glClearColor(options.panelColor.r, options.panelColor.g, options.panelColor.b, options.panelColor.a);
        for (const glm::ivec4& r : options.hiddenRects) {
            if (r.z <= 0 || r.w <= 0) continue;
            glScissor(r.x, r.y, r.z, r.w);
            glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        }
        glClearDepth(1.0);
        glDisable(GL_SCISSOR_TEST);
    }

    // The large static bodies and the sky would otherwise be rasterised under the panels
    // too, only to fail the depth test there: they are drawn once per visible rectangle.
    const std::vector<glm::ivec4> visible = options.hiddenRects.empty()
                                                ? std::vector<glm::ivec4>{glm::ivec4(0, 0, width, height)}
                                                : uncoveredRects(width, height, options.hiddenRects);
    const auto inVisibleRects = [&](const auto& drawCalls) {
        glEnable(GL_SCISSOR_TEST);
        for (const glm::ivec4& r : visible) {
            glScissor(r.x, r.y, r.z, r.w);
            drawCalls();
        }
        glDisable(GL_SCISSOR_TEST);
    };

    // The bodies' depths are pushed back by a pixel's depth slope and a step: debug
    // lines lying on a face (an outline, a box's bounds) then win the depth test all
    // along instead of tying with the face pixel by pixel (stippled).
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(kBodyDepthOffset.x, kBodyDepthOffset.y);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, shadowTex_);
    for (const ShaderProgram* p : {&litBox_, &litGrid_, &litSphere_}) {
        p->use();
        p->set("uViewProj", viewProj);
        p->set("uLightViewProj", lightViewProj);
        p->set("uTowardSun", sun);
        p->set("uEye", eye);
        const bool receives = shadows && (p == &litGrid_ || options.bodiesReceiveShadows);
        p->set("uShadows", receives ? 1 : 0);
        p->set("uShadowNormalOffset", normalOffset);
        p->set("uShadowBias", depthBias);
        p->set("uShadowMap", 0);
        if (p == &litBox_) {
            drawInstances(box_, instanceVbo_[0], boxRun[0], boxRun[1] - boxRun[0]);  // bodies seen
        } else if (p == &litGrid_) {
            // Static casters.
            inVisibleRects([&] { drawInstances(box_, instanceVbo_[0], boxRun[2], boxRun[3] - boxRun[2]); });
        } else {
            drawInstances(sphereLow_, instanceVbo_[1], 0, coarseSpheres);
            drawInstances(sphereHigh_, instanceVbo_[1], coarseSpheres, seenSpheres - coarseSpheres);
        }
    }
    // Receivers last: the ground is mostly hidden behind everything else.
    litGrid_.use();
    inVisibleRects([&] { drawInstances(box_, instanceVbo_[0], boxRun[3], boxRun[4] - boxRun[3]); });
    litBox_.use();
    inVisibleRects([&] { drawInstances(box_, instanceVbo_[0], boxRun[4], boxRun[5] - boxRun[4]); });
    glBindTexture(GL_TEXTURE_2D, 0);
    glDisable(GL_POLYGON_OFFSET_FILL);
    glDisable(GL_CULL_FACE);

    // Sky gradient after the opaque pass, at the far plane: only uncovered pixels are shaded.
    glDepthFunc(GL_LEQUAL);
    glDepthMask(GL_FALSE);
    sky_.use();
    glBindVertexArray(emptyVao_);
    inVisibleRects([] { glDrawArrays(GL_TRIANGLES, 0, 3); });
    glDepthMask(GL_TRUE);
    glDepthFunc(GL_LESS);

    drawGhosts(draw, viewProj, eye, sun);

    // Debug layer: depth-tested at full strength, then faintly on top where hidden.
    if (!debug.lines.empty() || !debug.points.empty()) {
        // Metres one pixel spans at one metre from the eye (see point.vert).
        const float metresPerPixel = 2.0f * std::tan(camera.fovY * 0.5f) / static_cast<float>(std::max(viewport.w, 1));
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glEnable(GL_PROGRAM_POINT_SIZE);
        glBindBuffer(GL_ARRAY_BUFFER, lineVbo_);
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(debug.lines.size() * sizeof(DebugVertex)),
                     debug.lines.data(), GL_STREAM_DRAW);
        glBindBuffer(GL_ARRAY_BUFFER, pointVbo_);
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(debug.points.size() * sizeof(DebugPoint)),
                     debug.points.data(), GL_STREAM_DRAW);
        const auto drawLayer = [&](float alpha) {
            line_.use();
            line_.set("uViewProj", viewProj);
            line_.set("uAlpha", alpha);
            glBindVertexArray(lineVao_);
            glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(debug.lines.size()));
            point_.use();
            point_.set("uViewProj", viewProj);
            point_.set("uEye", eye);
            point_.set("uMetresPerPixel", metresPerPixel);
            point_.set("uAlpha", alpha);
            glBindVertexArray(pointVao_);
            glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(debug.points.size()));
        };
        drawLayer(1.0f);
        if (options.debugXray) {
            // Faintly, only the hidden parts, so the visible ones stay crisp; and not under the
            // panels, whose depth 0 this test passes and whose background is already there.
            glDepthFunc(GL_GREATER);
            inVisibleRects([&] { drawLayer(0.3f); });
        }
        glDepthFunc(GL_LESS);
        glDisable(GL_PROGRAM_POINT_SIZE);
        glDisable(GL_BLEND);
    }
    glBindVertexArray(0);
    glUseProgram(0);
}

std::vector<unsigned char> readPixels(const glm::ivec4& rect) {
    std::vector<unsigned char> pixels(static_cast<size_t>(std::max(rect.z, 0)) * static_cast<size_t>(std::max(rect.w, 0)) * 3);
    if (pixels.empty()) return pixels;
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(rect.x, rect.y, rect.z, rect.w, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
    return pixels;
}

std::string writePng(const std::string& path, const std::vector<unsigned char>& rgb, int width, int height) {
    // stb's flip switch is one global: the screenshots and the video's writer thread share it.
    static std::mutex stbWriter;
    const std::lock_guard<std::mutex> lock(stbWriter);
    stbi_flip_vertically_on_write(1);  // GL rows run bottom-up
    if (!stbi_write_png(path.c_str(), width, height, 3, rgb.data(), width * 3)) return "cannot write " + path;
    return "";
}

std::string saveScreenshot(const std::string& path, int width, int height) {
    if (width <= 0 || height <= 0) return "empty framebuffer";
    return writePng(path, readPixels(glm::ivec4(0, 0, width, height)), width, height);
}

}  // namespace impulse::render
