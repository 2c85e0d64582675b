// Hemisphere ambient + sun with a PCF shadow, Blinn specular, box edge lines,
// sphere octant shading (to see spin), a world grid on static surfaces,
// a rim highlight for hover/selection and distance fog.
// GHOST (with SPHERE or BOX): another run's bodies, see-through in their instance
// colour with a bright rim, unshadowed (the renderer blends them last).
//
// One source, several programs (programs:: in render/shader_source.h): SPHERE, BOX and
// GRID (a box with the grid: static bodies). Software GL (llvmpipe) runs both
// sides of every branch whose condition varies per pixel, so a feature behind
// an `if` still costs every pixel: the variants leave it out instead. What
// depends only on a box face's normal comes from lit.vert once per face.
in vec3 vWorld;
in vec3 vLocal;
in vec3 vLight;
flat in vec3 vHalfSize;
flat in float vHighlight;
#ifdef SPHERE
in vec3 vNormal;
flat in vec3 vBase;
#else
flat in vec3 vNormal;
flat in vec3 vAmbient;
flat in vec3 vDiffuse;
#endif
#ifdef GRID
flat in float vUp;
#else
in float vFog;
#endif

uniform vec3 uTowardSun;
uniform vec3 uEye;
uniform int uShadows;
uniform float uShadowBias;  // a depth-range fraction (lit.vert offsets the look-up along the normal)
uniform sampler2DShadow uShadowMap;

out vec4 fragColor;

const vec3 kSunLight = vec3(1.0, 0.96, 0.9) * 1.15;
const vec3 kFogColor = vec3(0.518, 0.608, 0.740);  // horizon colour squared
#ifdef GHOST
const float kGhostAlpha = 0.35;  // opacity of a ghost's face seen head-on
#endif
// Distance fog toward the horizon colour (lit.vert has the same function).
float fogAmount(float dist) { return 1.0 - exp(-dist * 0.006); }

float sunVisibility() {
    if (uShadows == 0) return 1.0;
    // The light projection is orthographic (w = 1). Points beyond its far plane are
    // clamped to it: behind every caster, so still shadowed where covered.
    vec3 p = vLight * 0.5 + 0.5;
    // One bilinear-filtered comparison = 2x2 PCF in hardware; level 0 given, so no
    // derivatives are needed to pick a level.
    return textureLod(uShadowMap, vec3(p.xy, min(p.z, 0.9999) - uShadowBias), 0.0);
}

#ifdef GRID
// 1 on a line of the given spacing, 0 elsewhere, anti-aliased: `c` is the coordinate
// in units of the spacing and `d` its change per pixel.
float gridLines(vec2 c, vec2 d, float width) {
    vec2 g = abs(fract(c - 0.5) - 0.5) / max(d, vec2(1e-4));
    float line = 1.0 - min(min(g.x, g.y) / width, 1.0);
    // Fade out where lines get denser than pixels.
    return line * (1.0 - smoothstep(0.3, 0.6, max(d.x, d.y)));
}
#endif

void main() {
    vec3 v = normalize(uEye - vWorld);

#ifdef SPHERE
    vec3 n = normalize(vNormal);
    vec3 base = vBase;
    // Alternate octants slightly so rolling and spinning are visible.
    vec3 s = sign(vLocal);
    if (s.x * s.y * s.z > 0.0) base *= 0.72;
    float nDotL = max(dot(n, uTowardSun), 0.0);
    vec3 ambient = base * mix(vec3(0.25, 0.22, 0.2), vec3(0.55, 0.65, 0.8), n.y * 0.5 + 0.5) * 0.38;
    vec3 diffuse = base * kSunLight * nDotL;
#else
    vec3 n = vNormal;
    float nDotL = max(dot(n, uTowardSun), 0.0);
    // Darken near the edges of the face: the second smallest distance to a face plane.
    vec3 d = vHalfSize - abs(vLocal);
    float edge = max(min(d.x, d.y), min(max(d.x, d.y), d.z));  // the middle value
    float w = fwidth(edge);
    float k = 1.0 - 0.45 * (1.0 - smoothstep(0.012, 0.012 + 1.5 * w, edge));
#ifdef GRID
    // World-space grid on surfaces facing up (the ground), 1 m and 5 m lines; one
    // derivative serves both spacings.
    vec2 perPixel = fwidth(vWorld.xz);
    float fine = gridLines(vWorld.xz, perPixel, 1.0);
    float bold = gridLines(vWorld.xz * 0.2, perPixel * 0.2, 1.5);
    k *= 1.0 - 0.45 * vUp * max(fine * 0.6, bold);
#endif
    vec3 ambient = vAmbient * k;
    vec3 diffuse = vDiffuse * k;
#endif

#ifdef GHOST
    float visible = 1.0;
#else
    float visible = sunVisibility();
#endif
    // Blinn specular, exponent 48 = 32 + 16 by squaring (pow costs two transcendentals).
    vec3 h = normalize(uTowardSun + v);
    float s1 = max(dot(n, h), 0.0);
    float s2 = s1 * s1, s4 = s2 * s2, s8 = s4 * s4, s16 = s8 * s8, s32 = s16 * s16;
    float spec = s32 * s16 * 0.25 * nDotL;
    vec3 color = ambient + (diffuse + vec3(spec)) * visible;

    if (vHighlight > 0.5) {
        float r = 1.0 - max(dot(n, v), 0.0);
        float rim = r * r;
        vec3 tint = vHighlight > 1.5 ? vec3(1.0, 0.55, 0.1) : vec3(0.5, 0.75, 1.0);
        float strength = vHighlight > 2.5 ? 1.4 : (vHighlight > 1.5 ? 1.0 : 0.6);
        color += tint * (rim * strength + 0.18 * strength);
    }

#ifdef GRID
    // Large surfaces: per pixel, as the distance is not linear across them.
    float fog = fogAmount(length(uEye - vWorld));
#else
    float fog = vFog;
#endif
    color = mix(color, kFogColor, fog);

#ifdef GHOST
    // The outline reads at any size: the rim is nearly opaque, the face see-through.
    float facing = max(dot(n, v), 0.0);
    float rimAmount = (1.0 - facing) * (1.0 - facing);
    color = mix(color, vec3(1.0), 0.6 * rimAmount);
    fragColor = vec4(sqrt(max(color, vec3(0.0))), mix(kGhostAlpha, 0.9, rimAmount));
#else
    fragColor = vec4(sqrt(max(color, vec3(0.0))), 1.0);
#endif
}
