#version 330 core
// Instanced boxes and spheres: a unit mesh scaled by half extents, rotated by a
// quaternion and moved to the body's position.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec4 iPositionHighlight;
layout(location = 3) in vec4 iOrientation;
layout(location = 4) in vec4 iHalfSizeFlags;
layout(location = 5) in vec4 iColor;

uniform mat4 uViewProj;
uniform mat4 uLightViewProj;

out vec3 vWorld;
out vec3 vNormal;
out vec3 vLocal;  // metres in the body frame
out vec4 vLight;
flat out vec3 vColor;
flat out vec3 vHalfSize;
flat out float vHighlight;
flat out float vGrid;

vec3 rotateByQuat(vec4 q, vec3 v) { return v + 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v); }

void main() {
    vec3 local = aPosition * iHalfSizeFlags.xyz;
    vec3 world = iPositionHighlight.xyz + rotateByQuat(iOrientation, local);
    vWorld = world;
    // Face normals of a box and normals of a sphere survive the per-axis scale unchanged.
    vNormal = rotateByQuat(iOrientation, aNormal);
    vLocal = local;
    vLight = uLightViewProj * vec4(world, 1.0);
    vColor = iColor.rgb;
    vHalfSize = iHalfSizeFlags.xyz;
    vHighlight = iPositionHighlight.w;
    vGrid = iHalfSizeFlags.w;
    gl_Position = uViewProj * vec4(world, 1.0);
}
