// The part every CUDA solver shares: the iteration loop over two buffers, timed with CUDA events.
#pragma once
#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/cuda_jacobi.hpp"

namespace gpgpu::cuda_jacobi {

class PingPongSolver : public Solver {
 public:
  /// Launches `iters` iterations back to back between two CUDA events; the host does not wait
  /// between launches, so the GPU time is the kernels' time plus the gaps between them.
  double run(int iters, float omega) final {
    timer_.start();
    for (int it = 0; it < iters; ++it) {
      launch(current_, omega);
      current_ ^= 1;  // the output becomes the next input: swap roles, not data
    }
    timer_.stop();
    return timer_.seconds();
  }

 protected:
  /// One iteration from buffer `in` into buffer 1 - in.
  virtual void launch(int in, float omega) = 0;
  int current_ = 0;  ///< the buffer that holds the current iterate

 private:
  cuda::EventTimer timer_;
};

/// Threads per block must be 1 .. 1024 in all (a hardware limit); throws UsageError otherwise.
void check_block(const VariantInfo& info, int block_x, int block_y);

}  // namespace gpgpu::cuda_jacobi
