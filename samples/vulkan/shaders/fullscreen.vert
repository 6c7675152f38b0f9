#version 450
// One triangle, (-1,-1), (1,-1), (-1,1), drawn with a viewport twice the render target's size: in window
// coordinates it covers the whole target and its long edge lies outside it, so it needs no clipping and
// every pixel of the target gets exactly one fragment (the scissor keeps the rest out).
void main() {
    vec2 corner = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2));
    gl_Position = vec4(corner - 1.0, 0.5, 1.0);
}
