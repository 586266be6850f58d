#version 330 core
// The bandwidth reference of the GL chapters: every pixel copies its texel, 16 B read, 16 B written.
uniform sampler2D source;  // RGBA32F
out vec4 copy;

void main() { copy = texelFetch(source, ivec2(gl_FragCoord.xy), 0); }
