#version 430 core
// The bandwidth reference of compute-shader variants: the copy of copy.frag without the
// rasteriser and the framebuffer. 16 B read (texelFetch), 16 B written (imageStore) per texel.
layout(local_size_x = 16, local_size_y = 16) in;
uniform sampler2D source;  // RGBA32F
layout(rgba32f) uniform writeonly image2D copy;

void main() {
  ivec2 t = ivec2(gl_GlobalInvocationID.xy);
  if (all(lessThan(t, imageSize(copy)))) imageStore(copy, t, texelFetch(source, t, 0));
}
