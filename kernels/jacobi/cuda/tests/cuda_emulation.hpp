/// @file cuda_emulation.hpp
/// @brief Just enough of the CUDA thread model on the CPU to run the tutorial's kernels unchanged in a
/// test on a machine without a GPU: blockIdx/threadIdx/blockDim/gridDim, __syncthreads() (the threads
/// of a block run as fibers, a barrier phase per pass over them), dynamic shared memory, __ldg,
/// tex1Dfetch on linear memory, float4 and the warp shuffles __shfl_up_sync/__shfl_down_sync; and a cooperative launch (launch_cooperative), whose blocks
/// all run at once, each with its own dynamic shared memory, meeting at a grid-wide barrier for
/// cooperative_groups::this_grid().sync(). It checks the index arithmetic, the ghost layouts and the
/// barrier placement of every kernel; it says nothing about speed, coalescing or the real memory
/// model, which only the GPU run (tests, compute-sanitizer) can check.
///
/// Include it before the kernel's .cu file, with GPGPU_CUDA_EMULATION defined (which leaves out the
/// launch functions, whose <<<...>>> only nvcc parses).
#pragma once
#include <ucontext.h>

#include <barrier>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
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

/// A block's threads that meet at barriers run as fibers (ucontext) on the calling thread, one
/// after the other until each reaches __syncthreads() or returns: a barrier phase per pass. Cheap
/// (no OS thread per CUDA thread), deterministic, and a barrier that some threads skip is reported
/// (in CUDA it is undefined behaviour, here a std::logic_error). The passes alternate between
/// thread order and its reverse (reverse_pass): a thread that reads another's shared-memory write
/// with no barrier between them runs before that write in one of the two, and reads a stale value.
namespace fibers {

struct Fiber {
  ucontext_t context{};
  uint3 thread{0, 0, 0};
  bool done = false;
};

inline thread_local ucontext_t scheduler{};
/// The running fiber, or nullptr outside launch(): the cooperative launch's real threads have none.
inline thread_local Fiber* current = nullptr;
inline thread_local const std::function<void()>* body = nullptr;
/// Counters that let an observer (kernels/matrix/cuda/tests/shared_banks.hpp) tell the stretches of a
/// run apart: `phase` grows with every pass over a block's threads (one barrier phase),
/// `resumption` every time a thread is resumed, so a thread's accesses between two barriers carry one
/// resumption number.
inline unsigned long long phase = 0;
inline unsigned long long resumption = 0;

/// Whether pass `pass` (0 for a block's first) over the threads of block number `block` (linear:
/// x + gridDim.x (y + gridDim.y z)) runs them last to first. Alternating by pass and by block, every
/// launch of more than one block or barrier phase runs threads in both orders, so a read without a
/// barrier fails whether the reader's index is below or above the writer's (lane 0 reducing the
/// block's partial sums, or the last lane); the blocks themselves still run in order. A launch
/// without barriers (threads one by one) reverses the odd blocks the same way.
inline bool reverse_pass(unsigned long long block, unsigned pass) { return (block + pass) % 2 == 1; }

inline void entry() {
  (*body)();
  current->done = true;  // returning resumes the scheduler (uc_link)
}

/// __syncthreads() inside a fiber: back to the scheduler until every thread of the block arrived.
inline void sync() { swapcontext(&current->context, &scheduler); }

/// Makes `f` start `entry` on `stack` (a function of its own: getcontext returns twice).
[[gnu::noinline]] inline void prepare(Fiber& f, char* stack, std::size_t bytes) {
  getcontext(&f.context);
  f.context.uc_stack.ss_sp = stack;
  f.context.uc_stack.ss_size = bytes;
  f.context.uc_link = &scheduler;
  makecontext(&f.context, entry, 0);
}

}  // namespace fibers

/// A warp shuffle among fibers (launch() with barriers): every thread of the block posts its value,
/// meets the others at a barrier, reads the value of lane + delta of its own warp (its own when that
/// lane lies outside the warp, as CUDA's width 32 has it, or outside a block whose last warp is
/// partial), and meets them again before the slots are reused. Every thread of the block must take
/// part, as a full mask needs every lane of the warp.
inline thread_local std::vector<unsigned long long> shuffle_slots;
template <typename T>
T shuffle(T value, int delta) {
  static_assert(sizeof(T) <= sizeof(unsigned long long) && std::is_trivially_copyable_v<T>);
  if (fibers::current == nullptr) throw std::logic_error("a warp shuffle needs launch() with barriers");
  const unsigned t = thread_idx.x + block_dim.x * (thread_idx.y + block_dim.y * thread_idx.z);
  shuffle_slots.resize(static_cast<std::size_t>(block_dim.x) * block_dim.y * block_dim.z);
  std::memcpy(&shuffle_slots[t], &value, sizeof value);
  fibers::sync();
  const int lane = static_cast<int>(t % 32), source = lane + delta;
  T result = value;
  if (source >= 0 && source < 32 && t - lane + source < shuffle_slots.size()) std::memcpy(&result, &shuffle_slots[t - lane + source], sizeof result);
  fibers::sync();
  return result;
}

/// Runs `body` as every thread of a grid of `grid` blocks of `block` threads. Blocks run one after
/// the other (CUDA promises no order, and the Jacobi kernels need none); within a block the threads
/// run as fibers meeting at __syncthreads() when `barriers` is true, otherwise one by one; forward
/// or backward by fibers::reverse_pass (CUDA promises no order among them either).
inline void launch(dim3 grid, dim3 block, bool barriers, const std::function<void()>& body) {
  constexpr std::size_t kStackBytes = 64 * 1024;
  grid_dim = grid;
  block_dim = block;
  const unsigned threads = block.x * block.y * block.z;
  static std::vector<std::unique_ptr<char[]>> stacks;  // kept for the next launch
  if (barriers)
    while (stacks.size() < threads) stacks.emplace_back(new char[kStackBytes]);
  std::vector<fibers::Fiber> team(barriers ? threads : 0);
  fibers::body = &body;
  block_shared = reinterpret_cast<float*>(sequential_shared.data());
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx) {
        block_idx = {bx, by, bz};
        const unsigned long long linear_block = bx + static_cast<unsigned long long>(grid.x) * (by + grid.y * bz);
        if (!barriers) {
          const bool reverse = fibers::reverse_pass(linear_block, 0);
          for (unsigned i = 0; i < threads; ++i) {
            const unsigned t = reverse ? threads - 1 - i : i;
            thread_idx = {t % block.x, t / block.x % block.y, t / (block.x * block.y)};
            body();
          }
          continue;
        }
        for (unsigned t = 0; t < threads; ++t) {
          team[t].thread = {t % block.x, t / block.x % block.y, t / (block.x * block.y)};
          team[t].done = false;
          fibers::prepare(team[t], stacks[t].get(), kStackBytes);
        }
        for (unsigned pass = 0;; ++pass) {  // one pass per barrier phase
          unsigned waiting = 0, returned = 0;
          ++fibers::phase;
          const bool reverse = fibers::reverse_pass(linear_block, pass);
          for (unsigned i = 0; i < threads; ++i) {
            fibers::Fiber& f = team[reverse ? threads - 1 - i : i];
            if (f.done) continue;
            ++fibers::resumption;
            fibers::current = &f;
            thread_idx = f.thread;
            swapcontext(&fibers::scheduler, &f.context);
            (f.done ? returned : waiting) += 1;
          }
          fibers::current = nullptr;
          if (waiting == 0) break;
          if (returned > 0)
            throw std::logic_error("__syncthreads() reached by " + std::to_string(waiting) + " of the " +
                                   std::to_string(threads) + " threads of block (" + std::to_string(bx) + ", " +
                                   std::to_string(by) + "): the others returned");
        }
      }
}

/// A cooperative launch of a 1D grid of blocks of `block` threads (1D, 2D or 3D): every thread of
/// every block runs at once (keep grids small), each block with its own barrier and `shared_floats`
/// floats of shared memory, all meeting at one grid barrier.
inline void launch_cooperative(unsigned blocks, dim3 block, std::size_t shared_floats,
                               const std::function<void()>& body) {
  grid_dim = dim3(blocks);
  block_dim = block;
  const unsigned threads = block.x * block.y * block.z;
  std::barrier<> grid(static_cast<std::ptrdiff_t>(blocks) * threads);
  grid_barrier = &grid;
  std::vector<std::vector<float4>> shared(blocks, std::vector<float4>((shared_floats + 3) / 4));
  std::deque<std::barrier<>> barriers;  // a barrier cannot move: a deque never moves its elements
  for (unsigned b = 0; b < blocks; ++b) barriers.emplace_back(threads);
  {
    std::vector<std::jthread> pool;
    for (unsigned b = 0; b < blocks; ++b)
      for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back([&, b, t] {
          block_idx = {b, 0, 0};
          thread_idx = {t % block.x, t / block.x % block.y, t / (block.x * block.y)};
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
#ifndef __launch_bounds__  // a register budget for ptxas; nothing on the CPU
#define __launch_bounds__(...)
#endif
#define threadIdx (::emu::thread_idx)
#define blockIdx (::emu::block_idx)
#define blockDim (::emu::block_dim)
#define gridDim (::emu::grid_dim)

inline void __syncthreads() {
  if (emu::fibers::current != nullptr)
    emu::fibers::sync();  // launch(): the block's threads are fibers
  else
    emu::block_barrier->arrive_and_wait();  // launch_cooperative(): real threads
}
template <typename T>
T __shfl_up_sync(unsigned /*mask*/, T value, unsigned delta) {
  return emu::shuffle(value, -static_cast<int>(delta));
}
template <typename T>
T __shfl_down_sync(unsigned /*mask*/, T value, unsigned delta) {
  return emu::shuffle(value, static_cast<int>(delta));
}
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
