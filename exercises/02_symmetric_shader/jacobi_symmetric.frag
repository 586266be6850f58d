#version 330 core
// Exercise 02: weighted Jacobi reading only the 5 stored diagonals of the symmetric matrix.
// Write the part marked TODO(exercise); the check (check_symmetric_shader.cpp) fails until it is
// right.
uniform sampler2D x_old;  // the current iterate, one unknown per GL_R32F texel
uniform sampler2D A[5];   // the upper half and the main diagonal: C, E, NW, N, NE
uniform sampler2D f;      // the right-hand side
uniform float omega;
out float x_new;

const int C = 0, E = 1, NW = 2, N = 3, NE = 4;

float x(ivec2 p) { return texelFetch(x_old, clamp(p, ivec2(0), textureSize(x_old, 0) - 1), 0).r; }

void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  // The couplings to E, NW, N and NE are stored in this node's own texels.
  float upper = texelFetch(A[E], p, 0).r * x(p + ivec2(1, 0)) + texelFetch(A[NW], p, 0).r * x(p + ivec2(-1, 1)) +
                texelFetch(A[N], p, 0).r * x(p + ivec2(0, 1)) + texelFetch(A[NE], p, 0).r * x(p + ivec2(1, 1));
  // TODO(exercise): the couplings to W, SW, S and SE, from the five textures above.
  float lower = 0.0;
  x_new = (1.0 - omega) * x(p) + omega * (texelFetch(f, p, 0).r - (lower + upper)) / texelFetch(A[C], p, 0).r;
}
