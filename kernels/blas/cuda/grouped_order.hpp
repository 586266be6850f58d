/// @file grouped_order.hpp
/// @brief The grouped order of the tiles of C, shared by chapter 10's step 10 (10_10_prefetch.cu: one
/// block per tile, numbered by the grid) and chapter 10b's persistent steps (10b_08_persistent.cu,
/// 10b_09_cluster.cu: a block walks tile numbers; tc::tile_of). Tiles are numbered row by row of
/// blocks; each group of `group_m` tile rows is walked column by column, group_m tiles down each
/// column, so the blocks running at the same time read few rows of A and few columns of B, and
/// find them in L2. The last group may have fewer rows. Every tile gets exactly one number
/// (tested on the CPU: test_tensor_core_layout, test_gemm_kernels_emulated).
#pragma once

#include <cuda_runtime_api.h>  // __host__ __device__

namespace gpgpu::blas::cuda {

//! [grouped_position]
/// The tile (tile_m, tile_n) that tile number `id` of a grid of tiles_m x tiles_n tiles computes.
constexpr __host__ __device__ void grouped_position(int id, int tiles_m, int tiles_n, int group_m, int& tile_m, int& tile_n) {
  const int per_group = group_m * tiles_n;
  const int group = id / per_group, first = group * group_m;
  const int rows = tiles_m - first < group_m ? tiles_m - first : group_m;
  const int in_group = id - group * per_group;
  tile_m = first + in_group % rows;
  tile_n = in_group / rows;
}
//! [grouped_position]

}  // namespace gpgpu::blas::cuda
