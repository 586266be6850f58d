#version 330 core
// Shows a solution field as colours (the --window view and the --png image): blue for negative,
// white for zero, red for positive values, full colour at |value| = scale; NaN in magenta, so an
// unwritten texel shows. Works for both layouts: one unknown per texel, or four.
uniform sampler2D field;
uniform int unknowns_per_texel;  // 1 (GL_R32F) or 4 (GL_RGBA32F)
uniform ivec2 grid;              // nx, ny
uniform vec2 viewport;           // size of the image in pixels
uniform float scale;
out vec4 colour;

void main() {
  ivec2 k = min(ivec2(gl_FragCoord.xy / viewport * vec2(grid)), grid - 1);  // unknown under the pixel
  float v = unknowns_per_texel == 1 ? texelFetch(field, k, 0).r : texelFetch(field, ivec2(k.x / 4, k.y), 0)[k.x % 4];
  float s = clamp(v / scale, -1.0, 1.0);
  vec3 rgb = s < 0.0 ? mix(vec3(1.0), vec3(0.23, 0.30, 0.75), -s) : mix(vec3(1.0), vec3(0.71, 0.02, 0.15), s);
  colour = isnan(v) ? vec4(1.0, 0.0, 1.0, 1.0) : vec4(rgb, 1.0);
}
