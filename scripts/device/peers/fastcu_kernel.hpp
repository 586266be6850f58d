/// @file fastcu_kernel.hpp
/// @brief A third party's BF16 GEMM for Hopper, the last kernel of pranjalssh/fast.cu (MIT licence),
/// built from its own source when CMake is given a copy of it (GPGPU_FASTCU_DIR; then
/// GPGPU_HAVE_FASTCU=1): fastcu_kernel.cu includes its header and calls its host entry. Chapter 10b
/// times it as one of its rows (fastcu_variant.cpp); scripts/device/peers/fastcu_peer.cu times it
/// in a driver of its own.
#pragma once
#include <string>

#include <cuda_bf16.h>

namespace gpgpu::peers {

/// Why the kernel cannot compute an m x n x k product, or "" when it can: it takes square sizes
/// only, multiples of 256, and a tile schedule of bounded length per cluster of blocks.
std::string fastcu_refusal(long long m, long long n, long long k);

/// C = the product in fast.cu's convention, on the default stream: `a` and `b` both n x n row-major
/// (K-major), C (BF16, FP32 sums) column-major, c[i + j·n] = Σ_k a[i][k]·b[j][k]. Compute capability
/// 9.0 only (sm_90a). Throws std::invalid_argument where fastcu_refusal(n, n, n) is not empty, and
/// gpgpu::ApiError for a failed CUDA call.
void fastcu_bf16_gemm(int n, const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* c);

}  // namespace gpgpu::peers
