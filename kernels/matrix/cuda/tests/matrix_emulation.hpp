/// @file matrix_emulation.hpp
/// @brief The CPU emulation of the CUDA thread model (kernels/jacobi/cuda/tests/cuda_emulation.hpp)
/// made ready for the matrix kernels: static shared memory, and blocks with barriers run as fibers.
///
/// - `__shared__ T tile[32][33]` becomes a static array of the kernel (one per template
///   instantiation). Blocks run one after another and the threads of a block share it, which is
///   what shared memory is.
/// - emu::launch_with_barriers() runs the threads of a block as fibers (ucontext) on the calling
///   thread: each runs until it reaches __syncthreads() or returns, then the next; when all have
///   arrived, they go on. That is thousands of times cheaper than an OS thread per CUDA thread, so
///   tiles of 32 x 32 threads can be emulated, and it catches what an OS barrier would hang on: a
///   barrier that some threads of the block reach and others skip (undefined in CUDA) throws
///   std::logic_error naming the block.
///
/// Include it before the kernel's .cu file, with GPGPU_CUDA_EMULATION defined.
#pragma once
#include <ucontext.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "jacobi/cuda/tests/cuda_emulation.hpp"

#undef __shared__
#define __shared__ static
#undef __host__
#define __host__

namespace emu {
namespace fibers {

struct Fiber {
  ucontext_t context{};
  uint3 thread{0, 0, 0};
  bool done = false;
};

inline ucontext_t scheduler{};
inline Fiber* current = nullptr;
inline const std::function<void()>* body = nullptr;
/// Counters that let an observer (shared_banks.hpp) tell the stretches of a run apart: `phase` grows
/// with every pass over a block's threads (one barrier phase), `resumption` every time a thread is
/// resumed, so a thread's accesses between two barriers carry one resumption number.
inline unsigned long long phase = 0;
inline unsigned long long resumption = 0;

inline void entry() {
  (*body)();
  current->done = true;  // returning resumes the scheduler (uc_link)
}

/// __syncthreads() inside a fiber: back to the scheduler until every thread of the block arrived.
inline void sync() { swapcontext(&current->context, &scheduler); }

/// Makes `f` start `entry` on `stack` (its own function: getcontext returns twice, like setjmp).
[[gnu::noinline]] inline void prepare(Fiber& f, char* stack, std::size_t bytes) {
  getcontext(&f.context);
  f.context.uc_stack.ss_sp = stack;
  f.context.uc_stack.ss_size = bytes;
  f.context.uc_link = &scheduler;
  makecontext(&f.context, entry, 0);
}

}  // namespace fibers

/// Runs `body` as every thread of `grid` blocks of `block` threads, the threads of a block as fibers
/// that meet at __syncthreads() (see the file comment).
inline void launch_with_barriers(dim3 grid, dim3 block, const std::function<void()>& body) {
  constexpr std::size_t kStackBytes = 64 * 1024;
  grid_dim = grid;
  block_dim = block;
  const unsigned threads = block.x * block.y * block.z;
  static std::vector<std::unique_ptr<char[]>> stacks;  // kept for the next launch
  while (stacks.size() < threads) stacks.emplace_back(new char[kStackBytes]);
  std::vector<fibers::Fiber> team(threads);
  fibers::body = &body;
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx) {
        block_idx = {bx, by, bz};
        for (unsigned t = 0; t < threads; ++t) {
          fibers::Fiber& f = team[t];
          f.thread = {t % block.x, t / block.x % block.y, t / (block.x * block.y)};
          f.done = false;
          fibers::prepare(f, stacks[t].get(), kStackBytes);
        }
        for (;;) {  // one pass per barrier phase
          unsigned waiting = 0, returned = 0;
          ++fibers::phase;
          for (fibers::Fiber& f : team) {
            if (f.done) continue;
            ++fibers::resumption;
            fibers::current = &f;
            thread_idx = f.thread;
            swapcontext(&fibers::scheduler, &f.context);
            (f.done ? returned : waiting) += 1;
          }
          if (waiting == 0) break;
          if (returned > 0)
            throw std::logic_error("__syncthreads() reached by " + std::to_string(waiting) + " of the " +
                                   std::to_string(threads) + " threads of block (" + std::to_string(bx) + ", " +
                                   std::to_string(by) + "): the others returned");
        }
      }
}

}  // namespace emu

// Kernels call __syncthreads(); in this emulation that is the fibers' barrier (a macro, so it
// takes the place of cuda_emulation.hpp's function in the kernels included after this header).
#define __syncthreads() ::emu::fibers::sync()
