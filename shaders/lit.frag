#version 330 core
// Hemisphere ambient + sun with a PCF shadow, Blinn specular, box edge lines,
// sphere octant shading (to see spin), a world grid on static surfaces,
// a rim highlight for hover/selection and distance fog.
in vec3 vWorld;
in vec3 vNormal;
in vec3 vLocal;
in vec4 vLight;
flat in vec3 vColor;
flat in vec3 vHalfSize;
flat in float vHighlight;
flat in float vGrid;

uniform vec3 uTowardSun;
uniform vec3 uEye;
uniform int uShadows;
uniform int uSphere;
uniform float uShadowTexel;
uniform sampler2DShadow uShadowMap;

out vec4 fragColor;

float sunVisibility(vec3 n) {
    if (uShadows == 0) return 1.0;
    vec3 p = vLight.xyz / vLight.w * 0.5 + 0.5;
    if (p.z >= 1.0) return 1.0;
    float slope = 1.0 - max(dot(n, uTowardSun), 0.0);
    float bias = 0.0005 + 0.002 * slope;
    // One bilinear-filtered comparison = 2x2 PCF in hardware (cheap on software GL).
    return texture(uShadowMap, vec3(p.xy, p.z - bias));
}

// 1 on a line of the given spacing (m), 0 elsewhere, anti-aliased with screen derivatives.
float gridLines(vec2 coord, float spacing, float width) {
    vec2 c = coord / spacing;
    vec2 d = fwidth(c);
    vec2 g = abs(fract(c - 0.5) - 0.5) / max(d, vec2(1e-4));
    float line = 1.0 - min(min(g.x, g.y) / width, 1.0);
    // Fade out where lines get denser than pixels.
    return line * (1.0 - smoothstep(0.3, 0.6, max(d.x, d.y)));
}

void main() {
    vec3 n = normalize(vNormal);
    vec3 v = normalize(uEye - vWorld);
    vec3 base = vColor * vColor;  // gamma 2 approximation: cheap on software GL

    if (uSphere == 1) {
        // Alternate octants slightly so rolling and spinning are visible.
        vec3 s = sign(vLocal);
        if (s.x * s.y * s.z > 0.0) base *= 0.72;
    } else {
        // Darken near the edges of the face: the second smallest distance to a face plane.
        vec3 d = vHalfSize - abs(vLocal);
        float edge = max(min(d.x, d.y), min(max(d.x, d.y), d.z));  // the middle value
        float w = fwidth(edge);
        float k = 1.0 - smoothstep(0.012, 0.012 + 1.5 * w, edge);
        base *= 1.0 - 0.45 * k;
    }

    if (vGrid > 0.5) {
        // World-space grid on static surfaces facing up (the ground), 1 m and 5 m lines.
        float up = smoothstep(0.7, 0.9, abs(n.y));
        float fine = gridLines(vWorld.xz, 1.0, 1.0);
        float bold = gridLines(vWorld.xz, 5.0, 1.5);
        base = mix(base, base * 0.55, up * max(fine * 0.6, bold));
    }

    float sun = max(dot(n, uTowardSun), 0.0) * sunVisibility(n);
    vec3 sky = vec3(0.55, 0.65, 0.8);
    vec3 ground = vec3(0.25, 0.22, 0.2);
    vec3 ambient = mix(ground, sky, n.y * 0.5 + 0.5) * 0.38;
    vec3 h = normalize(uTowardSun + v);
    float spec = pow(max(dot(n, h), 0.0), 48.0) * 0.25 * sun;
    vec3 color = base * (ambient + vec3(1.0, 0.96, 0.9) * 1.15 * sun) + vec3(spec);

    if (vHighlight > 0.5) {
        float rim = pow(1.0 - max(dot(n, v), 0.0), 2.0);
        vec3 tint = vHighlight > 1.5 ? vec3(1.0, 0.55, 0.1) : vec3(0.5, 0.75, 1.0);
        float strength = vHighlight > 2.5 ? 1.4 : (vHighlight > 1.5 ? 1.0 : 0.6);
        color += tint * (rim * strength + 0.18 * strength);
    }

    // Distance fog toward the horizon colour.
    float dist = length(uEye - vWorld);
    float fog = 1.0 - exp(-dist * 0.006);
    color = mix(color, vec3(0.518, 0.608, 0.740), fog);  // horizon colour squared

    fragColor = vec4(sqrt(max(color, vec3(0.0))), 1.0);
}
