// Instanced boxes and spheres: a unit mesh scaled by half extents, rotated by a
// quaternion and moved to the body's position. Compiled as SPHERE, BOX or GRID
// (see lit.frag). A box face is flat, so its normal and every lighting term that
// depends only on the normal are computed here once per face (flat outputs)
// instead of once per pixel.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec4 iPositionHighlight;
layout(location = 3) in vec4 iOrientation;
layout(location = 4) in vec4 iHalfSizeFlags;
layout(location = 5) in vec4 iColor;

uniform mat4 uViewProj;
uniform mat4 uLightViewProj;
uniform vec3 uTowardSun;
uniform vec3 uEye;
uniform float uShadowNormalOffset;  // m along the normal: where the shadow map is looked up

out vec3 vWorld;
out vec3 vLocal;  // metres in the body frame
out vec3 vLight;  // light clip space (orthographic: w = 1) of the point off the surface
flat out vec3 vHalfSize;
flat out float vHighlight;
#ifdef SPHERE
out vec3 vNormal;
flat out vec3 vBase;  // linear albedo
#else
flat out vec3 vNormal;
flat out vec3 vAmbient;  // albedo x sky light
flat out vec3 vDiffuse;  // albedo x sun light x cos(angle to the sun), before the shadow
#endif
#ifdef GRID
flat out float vUp;  // 1 on faces looking up or down (the grid's), 0 on the sides
#else
out float vFog;  // a body is small: the fog, smooth in distance, is exact enough per vertex
#endif

vec3 rotateByQuat(vec4 q, vec3 v) { return v + 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v); }

// Hemisphere ambient: sky colour from above, ground colour from below.
vec3 ambientLight(vec3 n) { return mix(vec3(0.25, 0.22, 0.2), vec3(0.55, 0.65, 0.8), n.y * 0.5 + 0.5) * 0.38; }
const vec3 kSunLight = vec3(1.0, 0.96, 0.9) * 1.15;
// Distance fog toward the horizon colour (lit.frag has the same function).
float fogAmount(float dist) { return 1.0 - exp(-dist * 0.006); }

void main() {
    vec3 local = aPosition * iHalfSizeFlags.xyz;
    vec3 world = iPositionHighlight.xyz + rotateByQuat(iOrientation, local);
    vWorld = world;
    // Face normals of a box and normals of a sphere survive the per-axis scale unchanged.
    vec3 n = rotateByQuat(iOrientation, aNormal);
    vNormal = n;
    vLocal = local;
    // Normal-offset bias (see the renderer): per vertex, exact for flat faces and
    // smooth enough across a sphere's.
    vLight = (uLightViewProj * vec4(world + n * uShadowNormalOffset, 1.0)).xyz;
    vec3 base = iColor.rgb * iColor.rgb;  // gamma 2 approximation: cheap on software GL
#ifdef SPHERE
    vBase = base;
#else
    vAmbient = base * ambientLight(n);
    vDiffuse = base * kSunLight * max(dot(n, uTowardSun), 0.0);
#endif
#ifdef GRID
    vUp = smoothstep(0.7, 0.9, abs(n.y));
#else
    vFog = fogAmount(length(uEye - world));
#endif
    vHalfSize = iHalfSizeFlags.xyz;
    vHighlight = iPositionHighlight.w;
    gl_Position = uViewProj * vec4(world, 1.0);
}
