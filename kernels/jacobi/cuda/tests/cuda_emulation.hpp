/// @file cuda_emulation.hpp
/// @brief Just enough of the CUDA thread model on the CPU to run the tutorial's kernels unchanged in a
/// test on a machine without a GPU: blockIdx/threadIdx/blockDim/gridDim, __syncthreads() (the threads
/// of a block run as real threads meeting at a std::barrier), dynamic shared memory, __ldg,
/// tex1Dfetch on linear memory and float4. It checks the index arithmetic, the ghost layouts and the
/// barrier placement of every kernel; it says nothing about speed, coalescing or the real memory
/// model, which only the GPU run (tests, compute-sanitizer) can check.
///
/// Include it before the kernel's .cu file, with GPGPU_CUDA_EMULATION defined (which leaves out the
/// launch functions, whose <<<...>>> only nvcc parses).
#pragma once
#include <barrier>
#include <functional>
#include <thread>
#include <vector>

#include <cuda_runtime_api.h>  // dim3, uint3, float4, cudaTextureObject_t
#include <vector_functions.h>  // make_float4

namespace emu {

inline thread_local uint3 thread_idx{0, 0, 0};
inline thread_local uint3 block_idx{0, 0, 0};
inline dim3 block_dim{1, 1, 1};
inline dim3 grid_dim{1, 1, 1};
inline std::barrier<>* block_barrier = nullptr;

/// Runs `body` as every thread of a grid of `grid` blocks of `block` threads. Blocks run one after
/// the other (CUDA promises no order, and the Jacobi kernels need none); within a block the threads
/// run concurrently when `barriers` is true, so __syncthreads() really waits, otherwise one by one.
inline void launch(dim3 grid, dim3 block, bool barriers, const std::function<void()>& body) {
  grid_dim = grid;
  block_dim = block;
  const unsigned threads = block.x * block.y * block.z;
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx) {
        const uint3 b{bx, by, bz};
        const auto run_thread = [&, b](unsigned t) {
          block_idx = b;
          thread_idx = {t % block.x, t / block.x % block.y, t / (block.x * block.y)};
          body();
        };
        if (!barriers) {
          for (unsigned t = 0; t < threads; ++t) run_thread(t);
          continue;
        }
        std::barrier<> sync(threads);
        block_barrier = &sync;
        std::vector<std::jthread> pool;
        for (unsigned t = 0; t < threads; ++t) pool.emplace_back(run_thread, t);
      }
}

}  // namespace emu

#undef __global__
#undef __device__
#undef __forceinline__
#undef __shared__
#define __global__
#define __device__
#define __forceinline__ inline
#define __shared__
#define threadIdx (::emu::thread_idx)
#define blockIdx (::emu::block_idx)
#define blockDim (::emu::block_dim)
#define gridDim (::emu::grid_dim)

inline void __syncthreads() { emu::block_barrier->arrive_and_wait(); }
template <typename T>
T __ldg(const T* p) {
  return *p;
}
/// In the emulation a texture object over linear memory is simply the address of its first element.
template <typename T>
T tex1Dfetch(cudaTextureObject_t tex, int i) {
  return reinterpret_cast<const T*>(tex)[i];
}
inline int min(int a, int b) { return a < b ? a : b; }
