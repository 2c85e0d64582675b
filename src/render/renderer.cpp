#include "render/renderer.h"

#include <glm/gtc/matrix_transform.hpp>

#include <stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace impulse::render {

namespace {

// The square of shadow-map texels (lower, upper corners) that an instance's bounding
// sphere covers. The light's projection is orthographic with square texels, so metres
// to texels is one scale: the length of a row of its rotation part.
std::pair<glm::vec2, glm::vec2> shadowFootprint(const Instance& inst, const glm::mat4& lightViewProj,
                                                int mapSize) {
    const float size = static_cast<float>(mapSize);
    const float texelsPerMetre =
        0.5f * size * glm::length(glm::vec3(lightViewProj[0][0], lightViewProj[1][0], lightViewProj[2][0]));
    const glm::vec4 clip = lightViewProj * glm::vec4(glm::vec3(inst.positionHighlight), 1.0f);
    const glm::vec2 centre = (glm::vec2(clip) * 0.5f + 0.5f) * size;
    const float reach = glm::length(glm::vec3(inst.halfSizeFlags)) * texelsPerMetre;
    return {centre - reach, centre + reach};
}

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

// Spheres smaller than this on screen (radius, pixels) use the coarse mesh.
constexpr float kFineSpherePixels = 24.0f;

// Lowest and highest world y of an instance (box corners or sphere).
void verticalExtent(const Instance& inst, bool sphere, float& bottom, float& top) {
    const glm::vec3 h(inst.halfSizeFlags);
    float reach = h.y;
    if (!sphere) {
        const glm::quat q(inst.orientation.w, inst.orientation.x, inst.orientation.y, inst.orientation.z);
        const glm::mat3 r = glm::mat3_cast(q);
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

}  // namespace

Renderer::Renderer() = default;

glm::ivec4 Renderer::shadowTexelsToDraw(const DrawList& draw, const glm::mat4& lightViewProj, int mapSize,
                                        size_t boxCasters, float tolerance) {
    // The map is kept while the light box and the casters are as they were when it
    // was drawn, up to `tolerance` metres of movement (a fraction of a texel: no visible
    // change). Compared with the drawn state, not the last frame's, so creeping motion
    // cannot add up. Where some casters moved (a dragged body in a resting pile), only
    // the texels their old and new poses cover are drawn again.
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
    const glm::ivec4 wholeMap(0, 0, mapSize, mapSize);
    const bool sameLayout = shadowValid_ && shadowSize_ == mapSize && lightViewProj == shadowLightViewProj_ &&
                            boxCasters == shadowBoxCasters_ && draw.boxes.size() == shadowBoxes_.size() &&
                            draw.spheres.size() == shadowSpheres_.size();
    if (!sameLayout) {
        shadowValid_ = true;
        shadowLightViewProj_ = lightViewProj;
        shadowBoxCasters_ = boxCasters;
        shadowBoxes_ = draw.boxes;
        shadowSpheres_ = draw.spheres;
        return wholeMap;
    }
    glm::vec2 lower(1e30f), upper(-1e30f);
    const auto cover = [&](const Instance& inst) {
        const auto [footLower, footUpper] = shadowFootprint(inst, lightViewProj, mapSize);
        lower = glm::min(lower, footLower);
        upper = glm::max(upper, footUpper);
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
    if (lower.x > upper.x) return glm::ivec4(0);
    // Two texels more on each side: rasterisation rounding and the 2x2 filter's reach.
    const glm::ivec2 first = glm::clamp(glm::ivec2(glm::floor(lower)) - 2, 0, mapSize);
    const glm::ivec2 last = glm::clamp(glm::ivec2(glm::ceil(upper)) + 2, 0, mapSize);
    if (last.x <= first.x || last.y <= first.y) return glm::ivec4(0);
    return glm::ivec4(first, last - first);
}

Renderer::~Renderer() {
    for (Mesh* m : {&box_, &sphereHigh_, &sphereLow_}) {
        glDeleteVertexArrays(1, &m->vao);
        glDeleteBuffers(1, &m->vbo);
        glDeleteBuffers(1, &m->ebo);
    }
    glDeleteBuffers(4, instanceVbo_);
    glDeleteVertexArrays(1, &lineVao_);
    glDeleteBuffers(1, &lineVbo_);
    glDeleteVertexArrays(1, &pointVao_);
    glDeleteBuffers(1, &pointVbo_);
    glDeleteVertexArrays(1, &emptyVao_);
    if (shadowFbo_) glDeleteFramebuffers(1, &shadowFbo_);
    if (shadowTex_) glDeleteTextures(1, &shadowTex_);
}

bool Renderer::init(const std::string& shaderDir, std::string& error) {
    if (!litSphere_.load(shaderDir, "lit.vert", "lit.frag", error, "#define SPHERE\n")) return false;
    if (!litBox_.load(shaderDir, "lit.vert", "lit.frag", error, "#define BOX\n")) return false;
    if (!litGrid_.load(shaderDir, "lit.vert", "lit.frag", error, "#define BOX\n#define GRID\n")) return false;
    if (!shadow_.load(shaderDir, "shadow.vert", "shadow.frag", error)) return false;
    if (!line_.load(shaderDir, "line.vert", "line.frag", error)) return false;
    if (!point_.load(shaderDir, "point.vert", "point.frag", error)) return false;
    if (!sky_.load(shaderDir, "sky.vert", "sky.frag", error)) return false;

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
    glGenBuffers(4, instanceVbo_);

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

void Renderer::ensureShadowMap(int size) {
    if (shadowTex_ && shadowSize_ == size) return;
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
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    shadowSize_ = size;
}

void Renderer::upload(int k, const std::vector<Instance>& instances) {
    glBindBuffer(GL_ARRAY_BUFFER, instanceVbo_[k]);
    // Grow the store only when needed (doubling); every frame then just overwrites it.
    if (instances.size() > instanceCapacity_[k]) {
        instanceCapacity_[k] = std::max<size_t>(instances.size(), 2 * instanceCapacity_[k]);
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(instanceCapacity_[k] * sizeof(Instance)), nullptr,
                     GL_STREAM_DRAW);
    }
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

void Renderer::render(const OrbitCamera& camera, int width, int height, const DrawList& draw,
                      const DebugDraw& debug, const RenderOptions& options) {
    const float aspect = static_cast<float>(width) / static_cast<float>(std::max(height, 1));
    const glm::mat4 viewProj = camera.projection(aspect) * camera.view();
    const glm::vec3 eye = camera.eye();

    // With the sun above, a body whose top is below every other body's bottom (the
    // ground) shadows nothing but itself: leave it out of the shadow pass, which
    // would otherwise rasterise the whole map for it.
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
    for (const Instance& inst : draw.boxes) {
        float bottom, top;
        verticalExtent(inst, false, bottom, top);
        // Compare with the lowest bottom of the *other* bodies.
        const float othersLowest = bottom <= lowest ? secondLowest : lowest;
        const bool receiverOnly = options.towardSun.y > 0.0f && top <= othersLowest + 1e-3f;
        const bool grid = inst.halfSizeFlags.w > 0.5f;
        groups_[receiverOnly ? (grid ? 2 : 3) : (grid ? 1 : 0)].push_back(inst);
    }
    // Near bodies first: the depth test then rejects most hidden pixels before they are
    // shaded (early z), which is what software GL pays for. The large flat receivers
    // come last for the same reason.
    const auto frontToBack = [&](std::vector<Instance>& v, size_t first, size_t last) {
        order_.clear();
        for (size_t i = first; i < last; ++i) {
            const glm::vec3 d = glm::vec3(v[i].positionHighlight) - eye;
            order_.emplace_back(glm::dot(d, d), static_cast<unsigned>(i));
        }
        std::sort(order_.begin(), order_.end(),
                  [](const std::pair<float, unsigned>& a, const std::pair<float, unsigned>& b) { return a.first < b.first; });
        scratch_.clear();
        for (const auto& o : order_) scratch_.push_back(v[o.second]);
        std::copy(scratch_.begin(), scratch_.end(), v.begin() + static_cast<std::ptrdiff_t>(first));
    };
    frontToBack(groups_[0], 0, groups_[0].size());
    size_t boxRun[5] = {0, 0, 0, 0, 0};  // start of each group in sorted_[0], and the end
    {
        std::vector<Instance>& out = sorted_[0];
        out.clear();
        for (int g = 0; g < 4; ++g) {
            boxRun[g] = out.size();
            out.insert(out.end(), groups_[g].begin(), groups_[g].end());
        }
        boxRun[4] = out.size();
    }
    // Spheres (always casters): far ones first with the coarse mesh, near ones after
    // with the fine mesh; each run front to back.
    const float pixelsPerMetre = static_cast<float>(height) / (2.0f * std::tan(camera.fovY * 0.5f));
    size_t coarseSpheres = 0;
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
        frontToBack(out, 0, coarseSpheres);
        frontToBack(out, coarseSpheres, out.size());
    }
    upload(0, sorted_[0]);
    upload(1, sorted_[1]);

    // Light: an orthographic box fitted to the region as the sun sees it. Casters
    // nearer the sun than the box are clamped onto its near plane (depth clamp), so
    // they still shadow the region.
    const glm::vec3 sun = glm::normalize(options.towardSun);
    // The light's frame is a pure rotation (origin fixed), so the texel grid below is
    // fixed in the world.
    const glm::vec3 lightUp = std::fabs(sun.y) > 0.95f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
    const glm::mat4 lightView = glm::lookAt(glm::vec3(0.0f), -sun, lightUp);
    glm::vec3 lo(1e30f), hi(-1e30f);
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 corner((i & 1) ? options.shadowUpper.x : options.shadowLower.x,
                               (i & 2) ? options.shadowUpper.y : options.shadowLower.y,
                               (i & 4) ? options.shadowUpper.z : options.shadowLower.z);
        const glm::vec3 q(lightView * glm::vec4(corner, 1.0f));
        lo = glm::min(lo, q);
        hi = glm::max(hi, q);
    }
    // Square texels, and a depth range with room for receivers just below the region.
    // The region is widened to whole metres, its size rounded up to whole metres and
    // the centre snapped to whole texels, so the map's texel grid stays put while
    // bodies jitter or one is dragged about: shadow edges do not shimmer, and the map
    // is drawn again only where casters moved (see shadowTexelsToDraw).
    lo = glm::vec3(glm::floor(glm::vec2(lo)), lo.z);
    hi = glm::vec3(glm::ceil(glm::vec2(hi)), hi.z);
    const int mapSize = std::max(options.shadowMapSize, 16);
    const float halfSide = std::ceil(std::max(0.5f * std::max(hi.x - lo.x, hi.y - lo.y), 1.0f));
    const float texel = 2.0f * halfSide / static_cast<float>(mapSize);
    const glm::vec2 mid = glm::round(glm::vec2(0.5f * (lo.x + hi.x), 0.5f * (lo.y + hi.y)) / texel) * texel;
    const float nearZ = std::floor(-hi.z) - 1.0f, farZ = std::ceil(-lo.z) + 2.0f;  // view space looks down -z
    const glm::mat4 lightViewProj =
        glm::ortho(mid.x - halfSide, mid.x + halfSide, mid.y - halfSide, mid.y + halfSide, nearZ, farZ) * lightView;
    // Biases in metres (one texel, four more on slopes), as depth-range fractions.
    const glm::vec2 shadowBias = glm::vec2(1.0f, 4.0f) * texel / (farZ - nearZ);

    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDisable(GL_BLEND);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glFrontFace(GL_CCW);

    if (options.shadows) ensureShadowMap(mapSize);
    const glm::ivec4 redraw = options.shadows
                                  ? shadowTexelsToDraw(draw, lightViewProj, mapSize, boxRun[2], 0.25f * texel)
                                  : glm::ivec4(0);
    if (redraw.z > 0) {
        glBindFramebuffer(GL_FRAMEBUFFER, shadowFbo_);
        glViewport(0, 0, shadowSize_, shadowSize_);
        // Only the texels that change are cleared and rasterised: the scissor drops
        // every caster's fragments outside them.
        glEnable(GL_SCISSOR_TEST);
        glScissor(redraw.x, redraw.y, redraw.z, redraw.w);
        glClear(GL_DEPTH_BUFFER_BIT);
        glEnable(GL_POLYGON_OFFSET_FILL);
        glPolygonOffset(2.0f, 4.0f);
        glEnable(GL_DEPTH_CLAMP);
        shadow_.use();
        shadow_.set("uLightViewProj", lightViewProj);
        if (redraw == glm::ivec4(0, 0, mapSize, mapSize)) {
            drawInstances(box_, instanceVbo_[0], 0, boxRun[2]);
            drawInstances(sphereLow_, instanceVbo_[1], 0, sorted_[1].size());
        } else {
            // Part of the map: only the casters over it, so the others cost no vertex
            // work either.
            const glm::vec2 first(redraw.x, redraw.y), last(redraw.x + redraw.z, redraw.y + redraw.w);
            const auto casters = [&](const Instance* begin, const Instance* end, std::vector<Instance>& out) {
                out.clear();
                for (const Instance* inst = begin; inst != end; ++inst) {
                    const auto [lower, upper] = shadowFootprint(*inst, lightViewProj, mapSize);
                    if (glm::all(glm::lessThan(lower, last)) && glm::all(glm::greaterThan(upper, first))) {
                        out.push_back(*inst);
                    }
                }
            };
            casters(sorted_[0].data(), sorted_[0].data() + boxRun[2], shadowCasters_[0]);
            casters(sorted_[1].data(), sorted_[1].data() + sorted_[1].size(), shadowCasters_[1]);
            upload(2, shadowCasters_[0]);
            upload(3, shadowCasters_[1]);
            drawInstances(box_, instanceVbo_[2], 0, shadowCasters_[0].size());
            drawInstances(sphereLow_, instanceVbo_[3], 0, shadowCasters_[1].size());
        }
        glDisable(GL_DEPTH_CLAMP);
        glDisable(GL_POLYGON_OFFSET_FILL);
        glDisable(GL_SCISSOR_TEST);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
    }

    glViewport(0, 0, width, height);
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

    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, shadowTex_);
    for (const ShaderProgram* p : {&litBox_, &litGrid_, &litSphere_}) {
        p->use();
        p->set("uViewProj", viewProj);
        p->set("uLightViewProj", lightViewProj);
        p->set("uTowardSun", sun);
        p->set("uEye", eye);
        p->set("uShadows", options.shadows ? 1 : 0);
        p->set("uShadowBias", shadowBias);
        p->set("uShadowMap", 0);
        if (p == &litBox_) {
            drawInstances(box_, instanceVbo_[0], boxRun[0], boxRun[1] - boxRun[0]);  // bodies
        } else if (p == &litGrid_) {
            // Static casters.
            inVisibleRects([&] { drawInstances(box_, instanceVbo_[0], boxRun[1], boxRun[2] - boxRun[1]); });
        } else {
            drawInstances(sphereLow_, instanceVbo_[1], 0, coarseSpheres);
            drawInstances(sphereHigh_, instanceVbo_[1], coarseSpheres, sorted_[1].size() - coarseSpheres);
        }
    }
    // Receivers last: the ground is mostly hidden behind everything else.
    litGrid_.use();
    inVisibleRects([&] { drawInstances(box_, instanceVbo_[0], boxRun[2], boxRun[3] - boxRun[2]); });
    litBox_.use();
    inVisibleRects([&] { drawInstances(box_, instanceVbo_[0], boxRun[3], boxRun[4] - boxRun[3]); });
    glBindTexture(GL_TEXTURE_2D, 0);
    glDisable(GL_CULL_FACE);

    // Sky gradient after the opaque pass, at the far plane: only uncovered pixels are shaded.
    glDepthFunc(GL_LEQUAL);
    glDepthMask(GL_FALSE);
    sky_.use();
    glBindVertexArray(emptyVao_);
    inVisibleRects([] { glDrawArrays(GL_TRIANGLES, 0, 3); });
    glDepthMask(GL_TRUE);
    glDepthFunc(GL_LESS);

    // Debug layer: depth-tested at full strength, then faintly on top where hidden.
    if (!debug.lines.empty() || !debug.points.empty()) {
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

std::string saveScreenshot(const std::string& path, int width, int height) {
    if (width <= 0 || height <= 0) return "empty framebuffer";
    std::vector<unsigned char> pixels(static_cast<size_t>(width) * static_cast<size_t>(height) * 3);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
    stbi_flip_vertically_on_write(1);  // GL rows run bottom-up
    if (!stbi_write_png(path.c_str(), width, height, 3, pixels.data(), width * 3)) {
        return "cannot write " + path;
    }
    return "";
}

}  // namespace impulse::render
