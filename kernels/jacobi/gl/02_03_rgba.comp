#version 430 core
// Chapter 02, past the paper: the same RGBA stencil (02_rgba.glsl, compiled after this file)
// launched as an OpenGL 4.3 compute shader instead of a full-screen triangle. No rasteriser, no
// framebuffer: each invocation stores its texel with imageStore.
//! [entry]
layout(local_size_x = 16, local_size_y = 16) in;
layout(rgba32f) uniform writeonly image2D x_new;
vec4 jacobi_rgba(ivec2 texel);

void main() {
  ivec2 t = ivec2(gl_GlobalInvocationID.xy);
  if (all(lessThan(t, imageSize(x_new)))) imageStore(x_new, t, jacobi_rgba(t));  // the grid's edge
}
//! [entry]
