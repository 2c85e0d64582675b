// One triangle covering the screen at the far plane, from gl_VertexID alone.
out float vHeight;
void main() {
    vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
    vHeight = p.y * 0.5 + 0.5;
    gl_Position = vec4(p, 1.0, 1.0);
}
