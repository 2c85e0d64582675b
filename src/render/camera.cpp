#include "render/camera.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace impulse::render {

namespace {
constexpr float kMaxPitch = 1.55f;      // rad, just short of straight down/up
constexpr float kMinDistance = 0.5f;    // m
constexpr float kMaxDistance = 2000.0f; // m
constexpr float kZoomFactor = 0.88f;    // distance ratio per wheel step
}  // namespace

glm::vec3 OrbitCamera::forward() const {
    // yaw 0, pitch 0 looks along -z; positive pitch tilts the view down.
    const float cp = std::cos(pitch);
    return glm::normalize(glm::vec3(-std::sin(yaw) * cp, -std::sin(pitch), -std::cos(yaw) * cp));
}

glm::vec3 OrbitCamera::eye() const { return target - forward() * distance; }

glm::vec3 OrbitCamera::right() const { return glm::normalize(glm::cross(forward(), glm::vec3(0, 1, 0))); }

glm::vec3 OrbitCamera::up() const { return glm::cross(right(), forward()); }

glm::mat4 OrbitCamera::view() const { return glm::lookAt(eye(), target, glm::vec3(0, 1, 0)); }

float OrbitCamera::nearPlane() const { return std::max(0.02f, distance * 0.01f); }

float OrbitCamera::farPlane() const { return std::max(500.0f, distance * 20.0f); }

glm::mat4 OrbitCamera::projection(float aspect) const {
    return glm::perspective(fovY, std::max(aspect, 1e-3f), nearPlane(), farPlane());
}

void OrbitCamera::orbit(float deltaYaw, float deltaPitch) {
    yaw += deltaYaw;
    pitch = std::clamp(pitch + deltaPitch, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::pan(float dx, float dy, float height) {
    // One pixel covers this many metres at the target's depth.
    const float metresPerPixel = 2.0f * distance * std::tan(fovY * 0.5f) / std::max(height, 1.0f);
    target += (-dx * right() + dy * up()) * metresPerPixel;
}

void OrbitCamera::zoom(float steps) {
    distance = std::clamp(distance * std::pow(kZoomFactor, steps), kMinDistance, kMaxDistance);
}

void OrbitCamera::frame(const glm::vec3& centre, float radius, float aspect) {
    target = centre;
    // The sphere must fit both the vertical and the horizontal field of view.
    const float halfY = fovY * 0.5f;
    const float halfX = std::atan(std::tan(halfY) * std::max(aspect, 1e-3f));
    const float half = std::min(halfX, halfY);
    distance = std::clamp(radius / std::sin(half) * 1.05f, kMinDistance, kMaxDistance);
}

void OrbitCamera::frameBox(const glm::vec3& lower, const glm::vec3& upper, float aspect, float marginSides,
                           float marginTop, float marginBottom) {
    target = 0.5f * (lower + upper);
    const glm::vec3 f = forward(), r = right(), u = up();
    const float tanY = std::tan(fovY * 0.5f), tanX = tanY * std::max(aspect, 1e-3f);
    // NDC bounds a corner may reach: |x| <= sides, -bottom <= y <= top.
    const float sides = std::max(1.0f - marginSides, 0.05f);
    const float top = std::max(1.0f - marginTop, 0.05f), bottom = std::max(1.0f - marginBottom, 0.05f);
    float needed = kMinDistance;
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 corner((i & 1) ? upper.x : lower.x, (i & 2) ? upper.y : lower.y, (i & 4) ? upper.z : lower.z);
        const glm::vec3 q = corner - target;
        // At eye distance d the corner is d + z deep, and x / ((d + z) tanX) is its NDC x:
        // each bound is linear in d, so the nearest distance is the largest of them.
        const float x = glm::dot(q, r), y = glm::dot(q, u), z = glm::dot(q, f);
        needed = std::max(needed, std::fabs(x) / (tanX * sides) - z);
        needed = std::max(needed, (y > 0.0f ? y / (tanY * top) : -y / (tanY * bottom)) - z);
        needed = std::max(needed, nearPlane() - z);
    }
    distance = std::clamp(needed, kMinDistance, kMaxDistance);
}

Ray OrbitCamera::rayThroughPixel(float x, float y, float width, float height) const {
    const float aspect = width / std::max(height, 1.0f);
    const float ndcX = 2.0f * (x + 0.5f) / width - 1.0f;
    const float ndcY = 1.0f - 2.0f * (y + 0.5f) / height;
    const float t = std::tan(fovY * 0.5f);
    Ray ray;
    ray.origin = eye();
    ray.direction = glm::normalize(forward() + right() * (ndcX * t * aspect) + up() * (ndcY * t));
    return ray;
}

glm::vec4 OrbitCamera::project(const glm::vec3& p, float width, float height) const {
    const glm::vec4 clip = projection(width / std::max(height, 1.0f)) * view() * glm::vec4(p, 1.0f);
    if (clip.w <= 0.0f) return glm::vec4(0.0f, 0.0f, 0.0f, clip.w);
    const glm::vec3 ndc = glm::vec3(clip) / clip.w;
    return glm::vec4((ndc.x * 0.5f + 0.5f) * width, (0.5f - ndc.y * 0.5f) * height, ndc.z, clip.w);
}

bool intersectPlane(const Ray& ray, const glm::vec3& point, const glm::vec3& normal, glm::vec3& hit) {
    const float denom = glm::dot(ray.direction, normal);
    if (std::fabs(denom) < 1e-6f) return false;
    const float t = glm::dot(point - ray.origin, normal) / denom;
    if (t < 0.0f) return false;
    hit = ray.origin + t * ray.direction;
    return true;
}

}  // namespace impulse::render
