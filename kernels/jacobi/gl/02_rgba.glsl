// Chapter 02, RGBA variant (paper 000, section 5.2 and Figs. 8-9): the weighted Jacobi step for
// FOUR unknowns at once, in vec4 arithmetic. Compiled after an entry point that declares
// jacobi_rgba() (02_02_rgba.frag, or 02_03_rgba.comp), which supplies the #version line.
//
// Layout (chapters/02_glsl_pingpong/field_layout.hpp): texel (i, j) of every GL_RGBA32F texture
// holds unknowns 4i, 4i+1, 4i+2, 4i+3 of row j in .x .y .z .w. Lanes past the end of a row
// (nx not a multiple of 4) hold x = 0, f = 0, A_C = 1 and zeros in the other diagonals, so they
// compute (1 - omega) * 0 + omega * 0 / 1 = 0 forever and never disturb a real unknown.
uniform sampler2D x_old;  // the current iterate, four unknowns per texel
uniform sampler2D A[9];   // the nine diagonals, four coefficients per texel, in the order below
uniform sampler2D f;      // the right-hand side, four values per texel
uniform float omega;

const int SW = 0, S = 1, SE = 2, W = 3, C = 4, E = 5, NW = 6, N = 7, NE = 8;

//! [stencil]
// The x values one row up or down (dy) that the four unknowns of texel t need: for each lane its
// west neighbour, itself and its east neighbour. The west vector of lanes (x, y, z, w) is
// (left texel's w, x, y, z): the "data reordering" of the paper's Fig. 8, done with swizzles.
struct Neighbours {
  vec4 west, middle, east;
};

Neighbours row(ivec2 t, int dy) {
  ivec2 last = textureSize(x_old, 0) - 1;
  int y = clamp(t.y + dy, 0, last.y);  // clamped reads meet zero coefficients (see the luminance shader)
  vec4 left = texelFetch(x_old, ivec2(max(t.x - 1, 0), y), 0);
  vec4 mid = texelFetch(x_old, ivec2(t.x, y), 0);
  vec4 right = texelFetch(x_old, ivec2(min(t.x + 1, last.x), y), 0);
  return Neighbours(vec4(left.w, mid.xyz), mid, vec4(mid.yzw, right.x));
}

vec4 jacobi_rgba(ivec2 t) {
  Neighbours s = row(t, -1), c = row(t, 0), n = row(t, 1);
  vec4 offdiag = texelFetch(A[SW], t, 0) * s.west + texelFetch(A[S], t, 0) * s.middle + texelFetch(A[SE], t, 0) * s.east +
                 texelFetch(A[W], t, 0) * c.west + texelFetch(A[E], t, 0) * c.east +
                 texelFetch(A[NW], t, 0) * n.west + texelFetch(A[N], t, 0) * n.middle + texelFetch(A[NE], t, 0) * n.east;
  return (1.0 - omega) * c.middle + omega * (texelFetch(f, t, 0) - offdiag) / texelFetch(A[C], t, 0);
}
//! [stencil]
