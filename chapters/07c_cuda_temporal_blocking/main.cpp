// Chapter 07c: Temporal blocking: several sweeps per trip to memory.
// The variants this chapter runs, in order, all on 07b's symmetric storage (five diagonals and f,
// 32 bytes per node and sweep when every sweep reads them again); the host code of the two 07b ones is
// problems/jacobi/cuda/src/row_walking_solver.cpp, of the others cuda_variants.cpp:
//   multirow    kernels/jacobi/cuda/07b_03_multirow.cu, chapter 07b's nine diagonals, for comparison
//   symmetric   kernels/jacobi/cuda/07b_04_symmetric.cu, the one-sweep kernel to beat
//   overlapped  kernels/jacobi/cuda/07c_01_overlapped.cu: s sweeps per launch on a tile with an s-ring halo
//   overlapped_columns  kernels/jacobi/cuda/07c_02_overlapped_columns.cu: the same tile, each thread
//               walking a column with its window of rows in registers
//   overlapped_unrolled kernels/jacobi/cuda/07c_03_overlapped_unrolled.cu: the same, its shared
//               memory at constant offsets, 2 or 4 rows per step, no branch: fewer instructions per update
//   wavefront   kernels/jacobi/cuda/07c_04_wavefront.cu: s sweeps per launch, a strip walked up row by row
//   persistent  kernels/jacobi/cuda/07c_05_persistent.cu: one cooperative launch, coefficients on chip
//   overlapped_persistent kernels/jacobi/cuda/07c_06_overlapped_persistent.cu: overlapped_unrolled's
//               tiles, every full trip of s sweeps in one cooperative launch, a grid barrier between trips
//   overlapped_scaled kernels/jacobi/cuda/07c_07_overlapped_scaled.cu: overlapped_unrolled with ω / c
//               on chip in place of c, no division per sweep (not symmetric's bits: within the tolerance)
// The one-sweep floor that the last seven are measured against is the symmetric storage's, at the
// limit of its own read:write mix measured in the same run (time/floor below 1: beyond it).
#include <deque>
#include <iostream>
#include <string>
#include <vector>

#include "gpgpu/errors.hpp"
#include "gpgpu/jacobi/chapter.hpp"
#include "gpgpu/jacobi/cuda/chapter_kit.hpp"
#include "cuda_variants.hpp"
#include "gpgpu/jacobi/cuda/row_walking_solver.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{"07c", "ch07c_cuda_temporal_blocking",
                               "Temporal blocking: several sweeps per trip to memory",
                               "past paper 000: the coefficients never change, so a sweep need not read them"};

}  // namespace

int main(int argc, char** argv) {
  return gpgpu::run_main(kInfo.program, [&] {
    namespace jc = gpgpu::jacobi::cuda;
    jc::CudaOptions options;
    ch07c::TemporalOptions temporal;
    temporal.launch = &options.launch;
    gpgpu::jacobi::Chapter chapter(kInfo, jc::chapter_settings(options, /*width_sweep=*/false));
    jc::add_options(chapter.cli(), options);
    ch07c::add_options(chapter.cli(), temporal);
    chapter.add(jc::multirow_variant(options.launch));
    chapter.add(jc::symmetric_variant(options.launch));
    chapter.add(ch07c::overlapped_variant(temporal));
    chapter.add(ch07c::overlapped_columns_variant(temporal));
    chapter.add(ch07c::overlapped_unrolled_variant(temporal));
    chapter.add(ch07c::wavefront_variant(temporal));
    chapter.add(ch07c::persistent_variant());
    chapter.add(ch07c::overlapped_persistent_variant(temporal));
    chapter.add(ch07c::overlapped_scaled_variant(temporal));
    // A kernel that depends on s runs once per s of a --sweeps-per-trip list, against one reference
    // and one floor.
    std::deque<ch07c::TemporalOptions> per_sweeps;  // the runs' options: they outlive the runs
    return chapter.run(argc, argv, [&](std::ostream& out, const std::vector<const gpgpu::jacobi::Variant*>& chosen) {
      return ch07c::runs_per_sweeps(chosen, temporal, per_sweeps, [&](const std::string& name, const std::string& why) {
        chapter.experiment().skip(out, name, why);
      });
    });
  });
}
