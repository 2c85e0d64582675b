in float vHeight;
out vec4 fragColor;
void main() {
    vec3 horizon = vec3(0.72, 0.78, 0.86);
    vec3 zenith = vec3(0.36, 0.5, 0.7);
    fragColor = vec4(mix(horizon, zenith, smoothstep(0.3, 1.0, vHeight)), 1.0);
}
