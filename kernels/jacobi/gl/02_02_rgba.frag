#version 330 core
// Chapter 02, RGBA variant: the fragment shader's entry point. One pixel = one texel = four
// unknowns; the stencil itself is in 02_rgba.glsl, compiled after this file.
//! [entry]
vec4 jacobi_rgba(ivec2 texel);
out vec4 x_new;  // written to the GL_RGBA32F texture of the framebuffer

void main() { x_new = jacobi_rgba(ivec2(gl_FragCoord.xy)); }
//! [entry]
