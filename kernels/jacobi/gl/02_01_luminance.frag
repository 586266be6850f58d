#version 330 core
// Chapter 02, luminance variant (paper 000, section 5.1 and Fig. 7): one weighted Jacobi step
//   x_new = (1 - omega) x + omega (f - sum of the 8 off-diagonal A_d x_d) / A_C
// for one unknown. One unknown = one texel = one pixel; every texture is GL_R32F and is read with
// texelFetch (integer texel coordinates, no filtering).
uniform sampler2D x_old;  // the current iterate
uniform sampler2D A[9];   // the nine diagonals, one texture each, in the order below
uniform sampler2D f;      // the right-hand side
uniform float omega;
out float x_new;          // written to the GL_R32F texture of the framebuffer: the next iterate

const int SW = 0, S = 1, SE = 2, W = 3, C = 4, E = 5, NW = 6, N = 7, NE = 8;

// A neighbour's value. texelFetch outside the texture is undefined, so the coordinate is clamped:
// on the border the neighbour's coefficient is a stored zero, and any finite value will do.
//! [step]
float x(ivec2 p) { return texelFetch(x_old, clamp(p, ivec2(0), textureSize(x_old, 0) - 1), 0).r; }

void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);  // pixel centre (i + 0.5, j + 0.5) -> unknown (i, j)
  float offdiag = texelFetch(A[SW], p, 0).r * x(p + ivec2(-1, -1)) + texelFetch(A[S], p, 0).r * x(p + ivec2(0, -1)) +
                  texelFetch(A[SE], p, 0).r * x(p + ivec2(1, -1)) + texelFetch(A[W], p, 0).r * x(p + ivec2(-1, 0)) +
                  texelFetch(A[E], p, 0).r * x(p + ivec2(1, 0)) + texelFetch(A[NW], p, 0).r * x(p + ivec2(-1, 1)) +
                  texelFetch(A[N], p, 0).r * x(p + ivec2(0, 1)) + texelFetch(A[NE], p, 0).r * x(p + ivec2(1, 1));
  x_new = (1.0 - omega) * x(p) + omega * (texelFetch(f, p, 0).r - offdiag) / texelFetch(A[C], p, 0).r;
}
//! [step]
