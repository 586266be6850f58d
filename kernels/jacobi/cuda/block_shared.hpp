/// @file block_shared.hpp
/// @brief The dynamic shared memory of a block, as a pointer. On the GPU it is the kernel's
/// `extern __shared__` array; on the CPU emulation of the thread model (tests/cuda_emulation.hpp),
/// where several blocks of one cooperative launch run at once, each block's own buffer, which the
/// emulation sets for every thread it starts.
#pragma once

namespace gpgpu::jacobi::cuda {

#ifndef GPGPU_CUDA_EMULATION
/// The block's dynamic shared memory, aligned to 16 bytes (float4 stores).
__device__ __forceinline__ float* block_shared() {
  extern __shared__ float4 block_shared_memory[];
  return reinterpret_cast<float*>(block_shared_memory);
}
#else
inline float* block_shared() { return ::emu::block_shared; }
#endif

}  // namespace gpgpu::jacobi::cuda
