// Chapter 12: paper 001's convolution on the RGBA four-quadrant packing (sec. 4.2 and Fig. 2, the
// NV44's "GPU4" variant): one fragment computes four output pixels, one in each quadrant of the
// image, with the same instructions on vec4s. The change from 12_01_conv_luminance.frag: float -> vec4.
//
// The host puts two lines before this file (chapters/12_gpu_friendly/gl_variants.cpp):
//   #version 330 core
//   #define K <k>          the filter side, odd, compiled in so that both loops unroll
// The image (rows x cols) is cut into four quadrants of h x w = ceil(rows / 2) x ceil(cols / 2)
// pixels; channel c = 2 qi + qj (R G B A) holds quadrant (qi, qj), the one whose pixel (a, b) is
// image pixel (qi h + a, qj w + b). A filter of side K reaches R = K / 2 pixels past its
// quadrant, into the NEIGHBOURING quadrant at the seams (another channel of other texels) and into
// zero padding at the image's border. So each channel carries its own halo: `quadrants` is
// (h + 2R) x (w + 2R) texels, and channel c of texel (b + R + dx, a + R + dy) holds image pixel
// (qi h + a + dy, qj w + b + dx), or 0 where that is outside the image. Every tap of all four
// outputs is then ONE fetch at the same texel, with no bounds test and no channel shuffle; the
// cost is 4 (h + 2R)(w + 2R) floats instead of rows x cols. (An odd side leaves the last row or
// column of the lower or right quadrants outside the image: those texels hold 0 and their outputs
// are dropped on unpacking.)
uniform sampler2D quadrants;
// f(p, q) is component t % 4 of taps[t / 4], t = p K + q (as in the luminance shader).
uniform vec4 taps[(K * K + 3) / 4];
out vec4 result;  // four outputs: channel c is quadrant c's pixel

float tap(int t) { return taps[t / 4][t % 4]; }

//! [rgba_quadrants]
void main() {
  ivec2 o = ivec2(gl_FragCoord.xy);  // pixel (b, a) of each quadrant
  vec4 sum = vec4(0.0);
  for (int p = 0; p < K; ++p)
    for (int q = 0; q < K; ++q)
      sum += tap(p * K + q) * texelFetch(quadrants, o + ivec2(q, p), 0);
  result = sum;
}
//! [rgba_quadrants]
