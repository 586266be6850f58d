// fast.cu's last BF16 kernel (pranjalssh/fast.cu, MIT licence; examples/matmul/matmul_12.cuh) behind
// one function of ours (fastcu_kernel.hpp), so that chapter 10b can time it as one of its rows.
// Its source is not part of this repository: CMake compiles this file, for sm_90a alone, only when
// GPGPU_FASTCU_DIR names a copy of it (chapters/10b_tensor_cores/CMakeLists.txt). This file only
// includes the header and calls its host entry, runKernel12, as its own benchmark does; what follows
// is what its header expects of its includer, and what its host entry does not do for a caller that
// multiplies different buffers one after the other.
#include "fastcu_kernel.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "gpgpu/cuda/check.hpp"
#include "gpgpu/cuda/tensor_map.hpp"

// The names its header uses without defining them (its benchmark defines the same three): the
// element type, a rounding-up division, and a check of CUDA calls, here ours, which throws.
typedef __nv_bfloat16 bf16;
#define CEIL_DIV(M, N) (((M) + (N) - 1) / (N))
#define cudaCheck(call) GPGPU_CUDA_CHECK(call)
// Its tensor maps are encoded by the driver's cuTensorMapEncodeTiled, called by name: reached
// through the runtime instead, as ours are (nothing links libcuda), and checked, since the header
// only asserts the status.
#define cuTensorMapEncodeTiled ::gpgpu::cuda::checked_encode_tiled
// Its asserts are for its own benchmark's debug builds: one names a variable that is not declared,
// so the header compiles only with them off, whatever this build's type.
#ifndef NDEBUG
#define NDEBUG
#endif
#include <cassert>

namespace {  // its functions and globals stay in this file
#include "examples/matmul/matmul_12.cuh"
}  // namespace

#undef cuTensorMapEncodeTiled
#undef cudaCheck
#undef CEIL_DIV

namespace gpgpu::peers {
namespace {

// runKernel12's launch (read from its header): tiles of 128 x 256 of C, two blocks along M in a
// cluster (so 256 x 256 per cluster), 128 persistent blocks, i.e. 64 clusters, each given at most
// SPACE_LEN tiles by a host-made schedule.
constexpr long long kClusterTile = 256;
constexpr long long kClusters = 128 / 2;

}  // namespace

std::string fastcu_refusal(long long m, long long n, long long k) {
  if (m != n || n != k)
    return "fast.cu's kernel takes square products only (m = n = k), got " + std::to_string(m) + " x " + std::to_string(n) + " x " +
           std::to_string(k);
  if (n < kClusterTile || n % kClusterTile != 0)
    return "fast.cu's kernel needs m = n = k a multiple of 256 (its clusters' 256 x 256 tiles, no partial ones), got " +
           std::to_string(n);
  const long long most_tiles = kClusters * M12::SPACE_LEN;
  if ((n / kClusterTile) * (n / kClusterTile) > most_tiles) {
    long long side = 1;  // the most tiles along each side of C
    while ((side + 1) * (side + 1) <= most_tiles) ++side;
    return "fast.cu's kernel schedules at most " + std::to_string(M12::SPACE_LEN) + " tiles of 256 x 256 on each of its " +
           std::to_string(kClusters) + " clusters, so n <= " + std::to_string(side * kClusterTile) + "; got n = " + std::to_string(n);
  }
  return "";
}

void fastcu_bf16_gemm(int n, const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* c) {
  if (const std::string why = fastcu_refusal(n, n, n); !why.empty()) throw std::invalid_argument(why);
  // runKernel12 encodes its three tensor maps (which hold the buffers' addresses) and its tile
  // schedule at its first call, and again only when M changes: a call with other buffers of the
  // same size would read and write through the old addresses. So the maps are made anew, by telling
  // it that M changed, whenever the buffers or the size do. It allocates a new schedule on the
  // device each time: the old one is freed here first (after the device is idle, since a kernel
  // may still read it). Its host copy of the schedule (64 KiB) is not freed by runKernel12; that is
  // lost once per new set of buffers, not per call.
  struct Encoded {
    int n = 0;
    const void* a = nullptr;
    const void* b = nullptr;
    const void* c = nullptr;
  };
  static Encoded encoded;
  if (encoded.n != n || encoded.a != a || encoded.b != b || encoded.c != c) {
    if (M12::_dspace != nullptr) {
      GPGPU_CUDA_CHECK(cudaDeviceSynchronize());
      GPGPU_CUDA_CHECK(cudaFree(M12::_dspace));
      M12::_dspace = nullptr;
    }
    M12::_prev_m = 0;
    encoded = {n, a, b, c};
  }
  // Its signature takes non-const inputs; it only reads them.
  M12::runKernel12(n, n, n, const_cast<bf16*>(a), const_cast<bf16*>(b), c, nullptr);
  GPGPU_CUDA_CHECK_LAUNCH("fast.cu matmulKernel12");
}

}  // namespace gpgpu::peers
