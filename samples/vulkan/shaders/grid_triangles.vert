#version 450
// Small triangles on a grid inside the view volume, placed from gl_VertexIndex alone (no vertex buffer):
// triangle t sits in cell t of a `columns` x `columns` grid, so a draw of 3*M vertices is M triangles
// that are never clipped, except that triangles from `first_outside` on are moved wholly outside the view
// volume (x + 4), where the clipper discards them.
layout(push_constant) uniform Draw {
    vec4 color;
    uint columns;
    uint first_outside;
} draw;

void main() {
    uint triangle = uint(gl_VertexIndex) / 3u;
    uint corner = uint(gl_VertexIndex) % 3u;
    uint cell = triangle % (draw.columns * draw.columns);
    float size = 1.8 / float(draw.columns);
    vec2 origin = vec2(float(cell % draw.columns), float(cell / draw.columns)) * size - 0.9;
    vec2 offsets[3] = vec2[](vec2(0.1, 0.1), vec2(0.9, 0.1), vec2(0.1, 0.9));
    gl_Position = vec4(origin + offsets[corner] * size, 0.5, 1.0);
    if (triangle >= draw.first_outside) gl_Position.x += 4.0;
}
