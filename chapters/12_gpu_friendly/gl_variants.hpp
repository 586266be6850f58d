/// @file gl_variants.hpp
/// @brief Chapter 12's OpenGL host code: paper 001's own GPU technique (sec. 4.2, Fig. 2), the
/// convolution as a fragment shader, on a luminance texture (one pixel per texel) and on the RGBA
/// four-quadrant packing (four pixels per texel, one from each quadrant of the image). The packing
/// is here (its test checks it without a GL context); the variants are listed in gl_variants.cpp.
#pragma once
#include <cstdint>
#include <span>
#include <vector>


namespace ch12 {

/// Paper 001's Fig. 2, with the halo the paper leaves out: the rows x cols image cut into four
/// quadrants of h x w = ceil(rows / 2) x ceil(cols / 2) pixels, quadrant (qi, qj) in channel
/// 2 qi + qj of a (h + 2r) x (w + 2r) RGBA texture, each channel with its own border of r = k / 2
/// pixels taken from the image around its quadrant (neighbouring quadrants' pixels at the seams,
/// zeros outside the image). kernels/conv/gl/12_02_conv_rgba_quadrants.frag says why.
struct QuadrantPacking {
  std::int64_t rows = 1, cols = 1;
  int radius = 0;
  QuadrantPacking(std::int64_t image_rows, std::int64_t image_cols, int k)
      : rows(image_rows), cols(image_cols), radius(k / 2) {}
  [[nodiscard]] std::int64_t h() const { return (rows + 1) / 2; }  ///< quadrant rows
  [[nodiscard]] std::int64_t w() const { return (cols + 1) / 2; }  ///< quadrant columns
  [[nodiscard]] std::int64_t texture_rows() const { return h() + 2 * radius; }
  [[nodiscard]] std::int64_t texture_cols() const { return w() + 2 * radius; }

  /// The input texture's contents: texture_rows() x texture_cols() texels of 4 floats, row by row.
  [[nodiscard]] std::vector<float> pack(std::span<const float> image) const;
  /// The output image (rows x cols) from the output texture's h() x w() texels of 4 floats; every
  /// pixel of `image` is written, the texels' outputs past an odd side are dropped.
  void unpack(std::span<const float> texels, std::span<float> image) const;
};

}  // namespace ch12
