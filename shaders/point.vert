layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec4 aColor;
layout(location = 2) in float aSize;
uniform mat4 uViewProj;
uniform vec3 uEye;
uniform float uMetresPerPixel;  // what one pixel spans at one metre from the eye
out vec4 vColor;
void main() {
    vColor = aColor;
    // A point is drawn as a square facing the eye at its centre's depth. Moved toward
    // the eye by its own radius (in metres there), it shows whole on the surface it
    // lies on (tilted up to 45 degrees from the view) while any body more than that in
    // front of it hides it. (A constant in depth-buffer units would be millimetres
    // near the eye and metres far away: points showed through bodies.)
    vec3 toEye = uEye - aPosition;
    float distance = length(toEye);
    float radius = 0.5 * aSize * uMetresPerPixel * distance;
    vec3 pulled = aPosition + toEye * (min(radius, 0.5 * distance) / max(distance, 1e-6));
    gl_Position = uViewProj * vec4(pulled, 1.0);
    gl_PointSize = aSize;
}
