#version 330 core
// One triangle that covers the whole viewport, made from gl_VertexID alone (no vertex buffer):
// corners (-1,-1), (3,-1), (-1,3) in clip space. The part outside [-1,1]^2 is clipped away, so the
// rasteriser runs the fragment shader exactly once per pixel. (2008's version: glOrtho and a quad
// of two triangles, whose shared diagonal the rasteriser also visits without gaps or overlap.)
void main() {
  vec2 corner = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
  gl_Position = vec4(corner, 0.0, 1.0);
}
