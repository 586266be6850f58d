/// @file conv2d.hpp
/// @brief The 2D convolution of paper 001 (sec. 3): an image of rows x cols floats, a k x k filter
/// (k odd), zero padding at the borders:
///
///     out(i, j) = sum over p, q in [0, k) of  f(p, q) * in(i + p - r, j + q - r),   r = k / 2,
///
/// where in(.) is 0 outside the image. (Image processing calls this a correlation; the filters of
/// the chapter are symmetric, and every library it is compared with computes this form.)
///
/// Work table, per call (every rate of the convolution is computed from it):
///   FLOPs        2 k^2 rows cols      (a multiply and an add per filter tap and pixel)
///   bytes (min)  4 (2 rows cols + k^2) the image read once, the output written once, the filter
///   reads:writes 1:1                  (the filter's k^2 floats stay in a cache or constant memory)
///   items        rows cols            pixels
/// Arithmetic intensity 2 k^2 / 8 = k^2 / 4 FLOP per byte: 2.25 at k = 3, 72 at k = 17. Paper 001's
/// Table 1 calls the convolution's input reuse "low"; each pixel is read by k^2 outputs, which is
/// what this number says (tested in the chapter's roofline).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gpgpu/work.hpp"

namespace gpgpu::conv {

/// The largest filter side: the chapter's constant-memory kernel holds 31^2 floats (3.8 KiB of
/// the 64 KiB), and a shared tile of (block + k - 1)^2 floats stays small.
inline constexpr int kMaxFilter = 31;

/// An image of rows x cols and a k x k filter.
struct Shape {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  int k = 3;
  [[nodiscard]] std::int64_t pixels() const { return rows * cols; }
  [[nodiscard]] int radius() const { return k / 2; }
  /// "8192x8192, k = 3"
  [[nodiscard]] std::string str() const;
};

/// Throws std::invalid_argument unless rows, cols >= 1 and k is odd in [1, kMaxFilter].
void validate(const Shape& s);

/// The result of the FP64 reference: out(i, j), and sum |f(p, q)| |in(...)| (the scale of the
/// error bound: a computed k^2-term sum is within γ_{k^2} of it, see blas::error_bound).
struct Reference {
  std::vector<double> value;
  std::vector<double> magnitude;
};
/// The convolution in double from the float inputs (exact products, 53-bit sums), OpenMP over rows.
Reference reference(std::span<const float> image, std::span<const float> filter, const Shape& s);

/// The chapter's CPU variant: out = in (*) f in float, OpenMP over rows; the interior's inner loop
/// runs along a row without a border test, so the compiler vectorises it. `threads` 0: OpenMP's default.
void convolve_openmp(std::span<const float> image, std::span<const float> filter, std::span<float> out, const Shape& s,
                     int threads = 0);

/// A k x k filter of both signs that sums to about 1 (a blur with a sharpening ring), so that the
/// output's magnitude is the image's: deterministic from `seed`.
std::vector<float> make_filter(int k, unsigned seed);

/// A rank-one (separable) k x k filter, f(p, q) = col[p] row[q] rounded to float: two random
/// factors of both signs, each scaled to sum |.| = 1 (so sum |f| is about 1 and the output keeps the
/// image's scale), deterministic from `seed`. A convolution with it is a row pass with `row` then a
/// column pass with `col`: 2k FLOPs per pixel and pass instead of 2k².
struct SeparableFilter {
  std::vector<float> col;     ///< k values: the column factor u (along p, down the image)
  std::vector<float> row;     ///< k values: the row factor v (along q, across the image)
  std::vector<float> filter;  ///< k x k: fl(u_p v_q), what every 2D variant and the reference use
};
SeparableFilter make_separable_filter(int k, unsigned seed);

/// The work of `calls` convolutions of shape `s`.
Work conv2d_work(const Shape& s, int calls);

/// The work of `calls` two-pass separable convolutions: FLOPs as done, 2k per pixel and pass (4k per
/// pixel, not the 2k² of conv2d_work); the minimum bytes are conv2d_work's (image in, output out, the
/// 2k factors), and bytes_all adds the intermediate image the row pass writes and the column pass reads.
Work conv2d_separable_work(const Shape& s, int calls);

}  // namespace gpgpu::conv
