// Chapter 09's CPU variants: plain loops over the row-major arrays. The add walks the three arrays
// once in memory order (one thread as the paper's CPU code, or --threads with OpenMP). The
// transpose walks 32 x 32 blocks: a row-by-row transpose would read each input row once but
// write each output element a whole output row apart, touching a new cache line per element, and
// with rows longer than the cache those lines are gone before their neighbours are written.
#include <algorithm>
#include <memory>
#include <string>

#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/timing.hpp"
#include "variants.hpp"

namespace ch09 {
namespace {

using gpgpu::matrix::ElementType;
using gpgpu::matrix::HostMatrix;
using gpgpu::matrix::Op;
using gpgpu::matrix::Shape;

// Edge of the transpose's blocks, in elements: a 32 x 32 block of doubles (8 KiB) and the rows it
// writes stay in a 48 KiB L1 data cache while it is transposed.
constexpr int kCpuTransposeBlock = 32;

//! [cpu_add]
template <typename T>
void add(const T* a, const T* b, T* c, std::int64_t n, int threads) {
#pragma omp parallel for simd schedule(static) num_threads(threads)
  for (std::int64_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
}
//! [cpu_add]

//! [cpu_transpose_blocked]
template <typename T>
void transpose_blocked(const T* in, T* out, std::int64_t rows, std::int64_t cols, int threads) {
  constexpr std::int64_t B = kCpuTransposeBlock;
#pragma omp parallel for collapse(2) schedule(static) num_threads(threads)
  for (std::int64_t r0 = 0; r0 < rows; r0 += B)
    for (std::int64_t c0 = 0; c0 < cols; c0 += B)
      for (std::int64_t c = c0; c < std::min(c0 + B, cols); ++c)      // one output row of the block
        for (std::int64_t r = r0; r < std::min(r0 + B, rows); ++r)  // read down B input rows
          out[c * rows + r] = in[r * cols + c];
}
//! [cpu_transpose_blocked]

// The operands as the operation's own copies (its "device" memory), the output poisoned by upload().
class HostOperation final : public gpgpu::matrix::Operation {
 public:
  HostOperation(Op op, Shape shape, ElementType type, int threads) : op_(op), shape_(shape), type_(type), threads_(threads) {}
  void upload(const gpgpu::matrix::Inputs& in) override {
    a_ = in.a;
    if (op_ == Op::add) b_ = in.b;
    out_ = gpgpu::matrix::poisoned(op_ == Op::transpose ? shape_.transposed() : shape_, type_);
  }
  double run(int calls) override {
    gpgpu::Stopwatch clock;
    for (int c = 0; c < calls; ++c)
      gpgpu::matrix::dispatch(type_, [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* out = out_.as<T>().data();
        if (op_ == Op::add)
          add(a_.as<T>().data(), b_.as<T>().data(), out, shape_.elements(), threads_);
        else
          transpose_blocked(a_.as<T>().data(), out, shape_.rows, shape_.cols, threads_);
      });
    return clock.seconds();
  }
  HostMatrix download() override { return out_; }
  [[nodiscard]] std::string launch() const override {
    return std::to_string(threads_) + (threads_ == 1 ? " thread" : " threads") +
           (op_ == Op::transpose ? ", blocks of " + std::to_string(kCpuTransposeBlock) + " x " +
                                       std::to_string(kCpuTransposeBlock)
                                 : "");
  }

 private:
  Op op_;
  Shape shape_;
  ElementType type_;
  int threads_;
  HostMatrix a_, b_, out_;
};

gpgpu::matrix::Variant cpu_variant(std::string name, Op op, std::string description, std::string paper_name,
                                   bool parallel) {
  gpgpu::matrix::Variant v;
  v.info = {std::move(name), gpgpu::Backend::cpu, std::move(description), "chapters/09_matrix_add_transpose/cpu_variants.cpp",
            std::move(paper_name), "steady_clock", parallel ? 0 : 1};  // threads 0: the session's --threads
  v.opener = gpgpu::cpu_opener;
  v.op = op;
  v.make = [op, parallel](const gpgpu::matrix::Inputs& in, gpgpu::Session& cpu) {
    return std::make_unique<HostOperation>(op, in.a.shape(), in.a.type(), parallel ? gpgpu::cpu_threads(cpu) : 1);
  };
  return v;
}

}  // namespace

std::vector<gpgpu::matrix::Variant> cpu_variants() {
  return {cpu_variant("cpu_add", Op::add, "C = A + B in memory order, one thread (the paper's CPU row)", "CPU", false),
          cpu_variant("cpu_add_openmp", Op::add, "C = A + B in memory order, OpenMP", "", true),
          cpu_variant("cpu_transpose_blocked", Op::transpose, "transpose by 32 x 32 blocks, OpenMP", "", true)};
}

}  // namespace ch09
