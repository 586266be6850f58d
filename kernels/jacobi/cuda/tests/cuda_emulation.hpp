/// @file cuda_emulation.hpp
/// @brief Just enough of the CUDA thread model on the CPU to run the tutorial's kernels unchanged in a
/// test on a machine without a GPU: blockIdx/threadIdx/blockDim/gridDim, __syncthreads() (the threads
/// of a block run as real threads meeting at a std::barrier), dynamic shared memory, __ldg,
/// tex1Dfetch on linear memory and float4; and a cooperative launch (launch_cooperative), whose blocks
/// all run at once, each with its own dynamic shared memory, meeting at a grid-wide barrier for
/// cooperative_groups::this_grid().sync(). It checks the index arithmetic, the ghost layouts and the
/// barrier placement of every kernel; it says nothing about speed, coalescing or the real memory
/// model, which only the GPU run (tests, compute-sanitizer) can check.
///
/// Include it before the kernel's .cu file, with GPGPU_CUDA_EMULATION defined (which leaves out the
/// launch functions, whose <<<...>>> only nvcc parses).
#pragma once
#include <barrier>
#include <deque>
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
inline thread_local std::barrier<>* block_barrier = nullptr;
inline std::barrier<>* grid_barrier = nullptr;
/// The dynamic shared memory of the calling thread's block (kernels/jacobi/cuda/block_shared.hpp).
inline thread_local float* block_shared = nullptr;
/// The one buffer of launch(), whose blocks run one after the other (1 MiB: the tests' tiles fit).
inline std::vector<float4> sequential_shared(1 << 16);

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
          block_shared = reinterpret_cast<float*>(sequential_shared.data());
          thread_idx = {t % block.x, t / block.x % block.y, t / (block.x * block.y)};
          body();
        };
        if (!barriers) {
          for (unsigned t = 0; t < threads; ++t) run_thread(t);
          continue;
        }
        std::barrier<> sync(threads);
        std::vector<std::jthread> pool;
        for (unsigned t = 0; t < threads; ++t)
          pool.emplace_back([&, t] {
            block_barrier = &sync;
            run_thread(t);
          });
      }
}

/// A cooperative launch of a 1D grid: every thread of every block runs at once (keep grids small),
/// each block with its own barrier and `shared_floats` floats of shared memory, all meeting at one
/// grid barrier.
inline void launch_cooperative(unsigned blocks, unsigned block, std::size_t shared_floats,
                               const std::function<void()>& body) {
  grid_dim = dim3(blocks);
  block_dim = dim3(block);
  std::barrier<> grid(static_cast<std::ptrdiff_t>(blocks) * block);
  grid_barrier = &grid;
  std::vector<std::vector<float4>> shared(blocks, std::vector<float4>((shared_floats + 3) / 4));
  std::deque<std::barrier<>> barriers;  // a barrier cannot move: a deque never moves its elements
  for (unsigned b = 0; b < blocks; ++b) barriers.emplace_back(block);
  {
    std::vector<std::jthread> pool;
    for (unsigned b = 0; b < blocks; ++b)
      for (unsigned t = 0; t < block; ++t)
        pool.emplace_back([&, b, t] {
          block_idx = {b, 0, 0};
          thread_idx = {t, 0, 0};
          block_barrier = &barriers[b];
          block_shared = reinterpret_cast<float*>(shared[b].data());
          body();
        });
  }
  grid_barrier = nullptr;
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
/// A load that bypasses L1 on the GPU; on the CPU, a load.
template <typename T>
T __ldcg(const T* p) {
  return *p;
}
inline int min(int a, int b) { return a < b ? a : b; }

namespace cooperative_groups {
struct grid_group {
  void sync() const { emu::grid_barrier->arrive_and_wait(); }
};
inline grid_group this_grid() { return {}; }
}  // namespace cooperative_groups
