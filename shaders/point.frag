in vec4 vColor;
uniform float uAlpha;
out vec4 fragColor;
void main() {
    // Round points with a dark outline.
    float r = length(gl_PointCoord - vec2(0.5)) * 2.0;
    if (r > 1.0) discard;
    vec3 c = r > 0.7 ? vColor.rgb * 0.25 : vColor.rgb;
    fragColor = vec4(c, vColor.a * uAlpha);
}
