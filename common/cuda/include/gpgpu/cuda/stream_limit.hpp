/// @file stream_limit.hpp
/// @brief The bandwidth limit of the CUDA chapters, for any read:write mix: a float4 kernel that
/// streams the same number of arrays in and out as the kernel it judges, with arrays of the same
/// length, measured on the GPU in the same run.
///
/// The 1:1 mix is a device-to-device copy; a Jacobi kernel with nine diagonals reads 11 arrays for
/// the one it writes (work.hpp of problems/jacobi), and a DRAM system that only reads in long runs
/// delivers more than one that turns from reading to writing and back every few bytes. Judging such a
/// kernel against a copy let it reach 103% of its "limit"; against an 11:1 stream it cannot.
#pragma once
#include "gpgpu/backend.hpp"

namespace gpgpu::cuda {

/// The widest mix the kernel supports: 16 arrays read, 12 written (as the CPU limit).
inline constexpr int kMaxStreamReads = 16;
inline constexpr int kMaxStreamWrites = 12;

/// The best launch of a stream measurement.
struct StreamMeasurement {
  double gbs = 0;     ///< 1e9 B/s, bytes read + written (StreamMix::bytes()), best sample
  int threads = 0;    ///< block size of the best launch shape; 0: cudaMemcpyAsync (1:1 mix only)
  int blocks = 0;     ///< grid size of the best launch shape
  int unroll = 1;     ///< grid-stride steps each thread loads before it stores (1 or 2)
  int passes = 1;     ///< sweeps of the arrays inside one launch (1 unless measured inside the cache)
  bool hints = false; ///< loads with the L2::256B prefetch size
  std::size_t elements_measured = 0;  ///< elements per array of the best measurement
  int shapes = 0;     ///< launch shapes tried
  int launches = 0;   ///< launches back to back in each timed sample of the best shape
};

/// Measures `mix` on the current device (`sm_count` multiprocessors, a cache of `cache_bytes`):
/// mix.reads arrays are read and mix.writes arrays written, mix.elements elements of
/// mix.element_bytes each, by a grid-stride kernel with float4 loads and stores (a scalar tail for
/// the last elements), launched back to back as the chapters' iterations are. After about 50 ms of
/// untimed work (clocks up), several launch shapes (256 and 512 threads x 2 to 8 blocks per SM, with
/// one or two grid-stride steps per thread in flight, and one thread per float4 in blocks of 64, 128
/// and 256; each with plain
/// read-only loads and with the L2's 256-byte prefetch) are each timed with CUDA events, the best
/// sample kept; for the 1:1 mix cudaMemcpyAsync device to device is one more shape. When the working set fits the cache, arrays of half the cache in all are measured too,
/// each launch sweeping them for about 1 ms (rotated each pass so that the L2, not a block's L1, serves
/// them): the cache's bandwidth without launch gaps, which the variant's own size may straddle, and the
/// better of the two counts. Throws UsageError when the arrays do not
/// fit into free device memory, std::invalid_argument for a mix outside 1..16 reads and 1..12 writes.
StreamMeasurement measure_stream(const StreamMix& mix, int sm_count, double cache_bytes);

}  // namespace gpgpu::cuda
