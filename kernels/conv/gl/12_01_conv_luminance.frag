// Chapter 12: paper 001's convolution as a fragment shader (sec. 4.2, the NV44's "GPU" variant),
// luminance layout: one float per texel (GL_R32F), one output pixel per fragment.
//
// The host puts two lines before this file (chapters/12_gpu_friendly/gl_variants.cpp):
//   #version 330 core
//   #define K <k>          the filter side, odd, compiled in so that both loops unroll
// `image` holds the rows x cols image inside a border of R = K / 2 zero texels on every side, so
// tap (p, q) of output (i, j) reads texel (j + q, i + p) with no bounds test: that border IS the
// zero padding of the CPU reference. Texel row y holds image row y - R (GL's rows run bottom-up;
// the host uploads and reads back in the same order, so the image is never flipped).
uniform sampler2D image;
// f(p, q) is component t % 4 of taps[t / 4], t = p K + q: vec4s, because a uniform float array
// may take a whole vec4 slot per element, and 31² taps must fit the 256 vec4s every GL 3.3 has.
uniform vec4 taps[(K * K + 3) / 4];
out float result;  // written to the GL_R32F texture of the framebuffer, one texel per pixel

float tap(int t) { return taps[t / 4][t % 4]; }

//! [luminance]
void main() {
  ivec2 o = ivec2(gl_FragCoord.xy);  // pixel centre (j + 0.5, i + 0.5) -> output (i, j)
  float sum = 0.0;
  for (int p = 0; p < K; ++p)
    for (int q = 0; q < K; ++q)
      sum += tap(p * K + q) * texelFetch(image, o + ivec2(q, p), 0).r;
  result = sum;
}
//! [luminance]
