// The GPU's FMA peak: the kernel of kernels/blas/cuda/10_fma_peak.cu on every SM at full
// occupancy, timed by CUDA events, the best of five launches after one to warm up.
#include "gpgpu/blas/cuda/fma_peak.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>

#include "blas/cuda/launchers.hpp"
#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/cuda/opener.hpp"

namespace gpgpu::blas::cuda {

//! [fma_peak_host]
Peak fma_peak(ElementType type, Session& session) {
  const FmaShape shape = fma_peak_shape(gpgpu::cuda::device_info(session).sm_count);
  constexpr int kIterations = 4096;  // FMAs per chain: long enough for the events' resolution, short for the run
  const double flops = 2.0 * shape.blocks * shape.threads * shape.chains * kIterations;
  const auto best_seconds = [&](auto tag) {
    using T = typename decltype(tag)::type;
    gpgpu::cuda::DeviceBuffer<T> out(static_cast<std::size_t>(shape.blocks) * shape.threads);
    gpgpu::cuda::EventTimer timer;
    double best = INFINITY;
    for (int rep = 0; rep < 6; ++rep) {  // the first is a warm-up (module load, clocks)
      timer.start();
      launch_fma_peak<T>(out.get(), shape, kIterations, T(1), nullptr);
      timer.stop();
      if (rep > 0) best = std::min(best, timer.seconds());
    }
    return best;
  };
  const double seconds = type == ElementType::f64 ? best_seconds(std::type_identity<double>{}) : best_seconds(std::type_identity<float>{});
  return {"FMA kernel, " + std::to_string(shape.blocks) + " blocks x " + std::to_string(shape.threads) + " threads x " +
              std::to_string(shape.chains) + " chains, " + std::string(matrix::type_name(type)),
          flops / seconds / 1e9};
}
//! [fma_peak_host]

}  // namespace gpgpu::blas::cuda
