// Orbit camera: a target point, yaw/pitch around it and a distance. Pure math
// (no GL), so picking code and tests can use it without a context.
#pragma once

#include <glm/glm.hpp>

namespace impulse::render {

struct Ray {
    glm::vec3 origin{0.0f};
    glm::vec3 direction{0.0f, 0.0f, -1.0f};  ///< unit
};

class OrbitCamera {
public:
    glm::vec3 target{0.0f, 1.0f, 0.0f};
    float yaw = 0.6f;        ///< rad, around +y; 0 looks down -z
    float pitch = 0.45f;     ///< rad, positive looks down onto the target
    float distance = 15.0f;  ///< m
    float fovY = glm::radians(45.0f);

    glm::vec3 eye() const;
    glm::vec3 forward() const;  ///< unit, from the eye toward the target
    glm::vec3 right() const;
    glm::vec3 up() const;
    glm::mat4 view() const;
    glm::mat4 projection(float aspect) const;
    float nearPlane() const;
    float farPlane() const;

    /// Rotates around the target by the given angles (rad); pitch is clamped short of the poles.
    void orbit(float deltaYaw, float deltaPitch);
    /// Moves the target in the view plane by a drag of (dx, dy) pixels in a viewport `height` pixels tall.
    void pan(float dx, float dy, float height);
    /// Multiplies the distance by factor^steps (positive steps zoom in).
    void zoom(float steps);
    /// Looks at a sphere (centre, radius) from the current direction so that it fills the view.
    void frame(const glm::vec3& centre, float radius, float aspect);
    /// Looks at the box's centre from the current direction, at the nearest distance from
    /// which all its corners project inside the view less the margins: fractions of the
    /// view's half width (left and right) and half height (top, bottom) left free.
    void frameBox(const glm::vec3& lower, const glm::vec3& upper, float aspect, float marginSides,
                  float marginTop, float marginBottom);

    /// World ray through pixel (x, y) of a width x height viewport (origin top-left).
    Ray rayThroughPixel(float x, float y, float width, float height) const;
    /// Pixel position (origin top-left) of a world point; z is NDC depth. w <= 0: behind the eye.
    glm::vec4 project(const glm::vec3& p, float width, float height) const;
};

/// Intersection of a ray with the plane through `point` with normal `normal`; false when parallel or behind.
bool intersectPlane(const Ray& ray, const glm::vec3& point, const glm::vec3& normal, glm::vec3& hit);

}  // namespace impulse::render
