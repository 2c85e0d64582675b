layout(location = 0) in vec3 aPosition;
layout(location = 2) in vec4 iPositionHighlight;
layout(location = 3) in vec4 iOrientation;
layout(location = 4) in vec4 iHalfSizeFlags;

uniform mat4 uLightViewProj;

vec3 rotateByQuat(vec4 q, vec3 v) { return v + 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v); }

void main() {
    vec3 world = iPositionHighlight.xyz + rotateByQuat(iOrientation, aPosition * iHalfSizeFlags.xyz);
    gl_Position = uLightViewProj * vec4(world, 1.0);
}
