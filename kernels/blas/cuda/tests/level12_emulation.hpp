/// @file level12_emulation.hpp
/// @brief What chapter 12's kernels use beyond the matrix emulation (matrix_emulation.hpp: fibers
/// meeting at __syncthreads(), static shared memory, warp shuffles): atomicAdd, constant memory,
/// __launch_bounds__ and fmaf.
///
/// - __shfl_down_sync: the Jacobi emulation's (cuda_emulation.hpp, through matrix_emulation.hpp): it
///   is only right where the whole block shuffles together, which the kernels guarantee (no thread
///   returns before the shuffles), and a kernel that shuffles in divergent code fails there with the
///   fibers' barrier error.
/// - atomicAdd: the fibers run one at a time, so a plain add is atomic. It also counts its calls
///   (emu::atomic_adds), for a check that a kernel adds once per column and block, say.
/// - __constant__: a global array, filled by the test as cudaMemcpyToSymbol would be.
#pragma once
#include <cmath>
#include <vector>

#include "matrix/cuda/tests/matrix_emulation.hpp"

#ifndef __launch_bounds__
#define __launch_bounds__(...)
#endif
#undef __constant__
#define __constant__

using std::fmaf;

namespace emu {
/// The atomicAdd calls since a test last set it to zero.
inline long long atomic_adds = 0;
}  // namespace emu

inline float atomicAdd(float* address, float value) {
  ++::emu::atomic_adds;
  const float old = *address;
  *address = old + value;
  return old;
}
