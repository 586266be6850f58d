#include "gpgpu/conv/conv2d.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "gpgpu/cpu_backend.hpp"

namespace gpgpu::conv {
namespace {

// The columns j of an output row that tap q reads inside the image: j + q - r in [0, cols).
struct Span {
  std::int64_t begin, end;
};
Span columns_inside(const Shape& s, int q) {
  const std::int64_t shift = q - s.radius();
  return {std::max<std::int64_t>(0, -shift), std::min(s.cols, s.cols - shift)};
}

void check_sizes(std::span<const float> image, std::span<const float> filter, const Shape& s) {
  validate(s);
  if (static_cast<std::int64_t>(image.size()) != s.pixels() || static_cast<int>(filter.size()) != s.k * s.k)
    throw std::invalid_argument("conv2d: image of " + std::to_string(image.size()) + " and filter of " +
                                std::to_string(filter.size()) + " values for " + s.str());
}

}  // namespace

std::string Shape::str() const { return std::to_string(rows) + "x" + std::to_string(cols) + ", k = " + std::to_string(k); }

void validate(const Shape& s) {
  if (s.rows < 1 || s.cols < 1) throw std::invalid_argument("conv2d: image " + s.str() + " is empty");
  if (s.k < 1 || s.k > kMaxFilter || s.k % 2 == 0)
    throw std::invalid_argument("conv2d: filter side " + std::to_string(s.k) + " is not odd in [1, " +
                                std::to_string(kMaxFilter) + "]");
}

// Row by row, tap by tap: output row i gathers, for each tap (p, q), input row i + p - r shifted by
// q - r. Rows outside the image contribute nothing (zero padding), and columns_inside() cuts the
// shifted row to the image, so no test sits in the innermost loop.
Reference reference(std::span<const float> image, std::span<const float> filter, const Shape& s) {
  check_sizes(image, filter, s);
  Reference ref{std::vector<double>(static_cast<std::size_t>(s.pixels())), std::vector<double>(static_cast<std::size_t>(s.pixels()))};
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < s.rows; ++i) {
    double* value = ref.value.data() + i * s.cols;
    double* magnitude = ref.magnitude.data() + i * s.cols;
    for (int p = 0; p < s.k; ++p) {
      const std::int64_t row = i + p - s.radius();
      if (row < 0 || row >= s.rows) continue;
      for (int q = 0; q < s.k; ++q) {
        const double w = filter[static_cast<std::size_t>(p * s.k + q)], aw = std::fabs(w);
        const float* in = image.data() + row * s.cols + (q - s.radius());
        const Span c = columns_inside(s, q);
        for (std::int64_t j = c.begin; j < c.end; ++j) {
          value[j] += w * static_cast<double>(in[j]);
          magnitude[j] += aw * std::fabs(static_cast<double>(in[j]));
        }
      }
    }
  }
  return ref;
}

//! [cpu_conv]
void convolve_openmp(std::span<const float> image, std::span<const float> filter, std::span<float> out, const Shape& s,
                     int threads) {
  check_sizes(image, filter, s);
  if (static_cast<std::int64_t>(out.size()) != s.pixels()) throw std::invalid_argument("conv2d: output size");
  const int team = threads > 0 ? threads : default_cpu_threads();
#pragma omp parallel for num_threads(team) schedule(static)
  for (std::int64_t i = 0; i < s.rows; ++i) {
    float* o = out.data() + i * s.cols;
    std::fill(o, o + s.cols, 0.0f);
    for (int p = 0; p < s.k; ++p) {
      const std::int64_t row = i + p - s.radius();
      if (row < 0 || row >= s.rows) continue;  // zero padding: rows above and below add nothing
      for (int q = 0; q < s.k; ++q) {
        const float w = filter[static_cast<std::size_t>(p * s.k + q)];
        const float* in = image.data() + row * s.cols + (q - s.radius());
        const Span c = columns_inside(s, q);   // zero padding: columns left and right add nothing
#pragma omp simd
        for (std::int64_t j = c.begin; j < c.end; ++j) o[j] += w * in[j];
      }
    }
  }
}
//! [cpu_conv]

std::vector<float> make_filter(int k, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> f(static_cast<std::size_t>(k * k));
  for (float& w : f) w = dist(rng) / static_cast<float>(k);
  f[f.size() / 2] += 1.0f;  // the centre tap keeps the image's scale
  return f;
}

SeparableFilter make_separable_filter(int k, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  const auto factor = [&] {
    std::vector<float> v(static_cast<std::size_t>(k));
    float sum = 0;
    for (float& x : v) sum += std::fabs(x = dist(rng));
    for (float& x : v) x /= sum > 0 ? sum : 1.0f;
    return v;
  };
  SeparableFilter f{factor(), factor(), std::vector<float>(static_cast<std::size_t>(k * k))};
  for (int p = 0; p < k; ++p)
    for (int q = 0; q < k; ++q) f.filter[static_cast<std::size_t>(p * k + q)] = f.col[static_cast<std::size_t>(p)] * f.row[static_cast<std::size_t>(q)];
  return f;
}

Work conv2d_separable_work(const Shape& s, int calls) {
  Work w = conv2d_work(s, calls);
  const double pixels = static_cast<double>(s.pixels());
  w.kernel = "conv2d_separable_k" + std::to_string(s.k);
  w.flops = 2 * 2.0 * s.k * pixels * calls;
  w.bytes_min = 4 * (2 * pixels + 2.0 * s.k) * calls;
  w.bytes_all = 4 * (4 * pixels + 2.0 * s.k) * calls;  // the intermediate written once and read once
  return w;
}

Work conv2d_work(const Shape& s, int calls) {
  const double pixels = static_cast<double>(s.pixels()), taps = static_cast<double>(s.k) * s.k;
  Work w;
  w.kernel = "conv2d_k" + std::to_string(s.k);
  w.flops = 2 * taps * pixels * calls;
  w.bytes_min = 4 * (2 * pixels + taps) * calls;
  w.bytes_all = w.bytes_min;  // each kernel's own reuse of the image through caches is not counted
  w.items = pixels * calls;
  w.item = "pixels";
  w.steps = calls;
  w.step = "call";
  w.reads = 1;
  w.writes = 1;
  return w;
}

}  // namespace gpgpu::conv
