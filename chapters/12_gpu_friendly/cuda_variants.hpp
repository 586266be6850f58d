/// @file cuda_variants.hpp
/// @brief Chapter 12's CUDA host code: a case's operands in device memory, one routine (a kernel of
/// kernels/blas/cuda or kernels/conv/cuda, or a cuBLAS or NPP call) timed by CUDA events, the
/// result back. The CUDA variants that use it are listed in cuda_variants.cpp (our kernels),
/// cublas_variants.cpp and npp_variants.cpp.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpgpu/blas/routine_operation.hpp"
#include "gpgpu/cuda/buffers.hpp"

namespace ch12 {

/// Device pointers of one case: what a Call computes on. Unused arrays are null.
struct DeviceOperands {
  const float* a;  ///< A or the image
  const float* b;  ///< B or the filter
  float* x;        ///< x (sscal scales it in place)
  float* y;        ///< y (saxpy updates it in place)
  float* out;      ///< sgemv's y, sgemm's C, the convolution's output
  const float* factors;  ///< a separable filter's u then v (Case::factors)
  float* scratch;        ///< a variant's own intermediate (the separable convolution's row pass)
  int m, n, k;
  float alpha;
  cudaStream_t stream = nullptr;  ///< where the call enqueues its work (a chunk's stream in overlapped())
};

/// The operands of one case in device memory and the call that computes the routine on them.
/// upload() copies the case's arrays and fills an out-of-place result with NaN (every byte 0xFF);
/// run() enqueues the call `calls` times on the default stream between two CUDA events. `scratch`:
/// floats of device memory the call may use as it likes (DeviceOperands::scratch); `prepare`, if
/// given, runs after every upload of the operands (untimed in run(), timed in with_copies()): a
/// library's own layout of them, such as NPP's padded image.
class DeviceRoutine final : public gpgpu::blas::RoutineOperation {
 public:
  using Call = std::function<void(const DeviceOperands&)>;
  DeviceRoutine(const gpgpu::blas::Case& shape, Call call, std::string launch, std::size_t scratch = 0, Call prepare = {});

  void upload(const gpgpu::blas::Case& c) override;
  double run(int calls) override;
  [[nodiscard]] std::vector<float> download() override;
  [[nodiscard]] std::string launch() const override { return launch_; }
  std::optional<double> with_copies(const gpgpu::blas::Case& c, bool pinned) override;
  /// Only for a call that works on any part of the operands it is given and enqueues on
  /// DeviceOperands::stream (set_chunkable); else nullopt. See chunks.hpp.
  std::optional<double> overlapped(const gpgpu::blas::Case& c) override;
  [[nodiscard]] std::vector<float> copied_result() override;
  void set_chunkable() { chunkable_ = true; }

 private:
  /// The copies and the call of with_copies(), from and to the host arrays given; synchronous.
  void copy_call_copy(const float* a, const float* b, const float* x, const float* y, const float* factors, float* result);
  /// Page-locked copies of the case's operands and a result, made on first use.
  void make_pinned(const gpgpu::blas::Case& c);

  gpgpu::blas::Routine routine_;
  DeviceOperands operands_{};
  Call call_;
  std::string launch_;
  Call prepare_;
  gpgpu::cuda::DeviceBuffer<float> a_, b_, x_, y_, out_, factors_, scratch_;
  gpgpu::cuda::EventTimer timer_;
  std::vector<gpgpu::cuda::PinnedBuffer<float>> pinned_;  // a, b, x, y, factors, result: made on first use
  std::vector<float> pageable_result_;
  bool chunkable_ = false;
  // overlapped(): its streams (copies up, calls, copies down), the convolution's band buffers, and
  // per chunk the events that order the three streams
  std::vector<std::unique_ptr<CUstream_st, void (*)(CUstream_st*)>> streams_;
  std::vector<gpgpu::cuda::DeviceBuffer<float>> bands_;
  std::vector<gpgpu::cuda::Event> uploaded_, computed_, downloaded_;
};

/// The CUDA part of a variant (backend, opener, timer, the GPU's FMA peak, a check_fits that
/// refuses operands the device's free memory cannot hold). The caller adds make.
gpgpu::blas::RoutineVariant cuda_variant(std::string name, gpgpu::blas::Routine routine, std::string description, std::string source);

}  // namespace ch12
