#version 330 core
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec4 aColor;
layout(location = 2) in float aSize;
uniform mat4 uViewProj;
out vec4 vColor;
void main() {
    vColor = aColor;
    gl_Position = uViewProj * vec4(aPosition, 1.0);
    // Pull points slightly toward the eye so they win against the surface they lie on.
    gl_Position.z -= 0.0005 * gl_Position.w;
    gl_PointSize = aSize;
}
