/// @file matrix_emulation.hpp
/// @brief The CPU emulation of the CUDA thread model (kernels/jacobi/cuda/tests/cuda_emulation.hpp)
/// made ready for the matrix kernels: static shared memory, and blocks with barriers run as fibers.
///
/// - `__shared__ T tile[32][33]` becomes a static array of the kernel (one per template
///   instantiation). Blocks run one after another and the threads of a block share it, which is
///   what shared memory is.
/// - emu::launch_with_barriers() (cuda_emulation.hpp's launch with barriers) runs the threads of a
///   block as fibers (ucontext) on the calling thread: each runs until it reaches __syncthreads()
///   or returns, then the next (in thread order or its reverse, alternating by block and barrier
///   phase, so that a read of another thread's shared write without a barrier between them fails);
///   when all have arrived, they go on. That is thousands of times cheaper than an OS thread per
///   CUDA thread, so tiles of 32 x 32 threads can be emulated, and it catches what an OS barrier
///   would hang on: a barrier that some threads of the block reach and others skip (undefined in
///   CUDA) throws std::logic_error naming the block.
///
/// Include it before the kernel's .cu file, with GPGPU_CUDA_EMULATION defined.
#pragma once
#include <functional>

#include "jacobi/cuda/tests/cuda_emulation.hpp"

#undef __shared__
#define __shared__ static
#undef __host__
#define __host__

namespace emu {

/// Every thread of `grid` blocks of `block` threads, the threads of a block as fibers that meet at
/// __syncthreads(): cuda_emulation.hpp's launch with barriers (see the file comment).
inline void launch_with_barriers(dim3 grid, dim3 block, const std::function<void()>& body) {
  launch(grid, block, true, body);
}

}  // namespace emu
