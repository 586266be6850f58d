// Chapter 06 on a GPU (label cuda; skipped without one): the shared-memory kernel through chapter
// 05's host code at the awkward sizes against the CPU double-precision reference (partial blocks
// whose idle threads must still load the tile and reach both barriers: widths no block divides, a
// width of 1 and 2, blocks of 32, 96 and 256), the Solver contract and the usage errors
// (variant_checks.hpp). compute-sanitizer's racecheck and synccheck run this test on the GPU
// machine (scripts/device/cuda.sh).
#include "gpgpu/jacobi/cuda/variant_checks.hpp"
#include "gpgpu/jacobi/cuda/pitched_solver.hpp"

namespace jc = gpgpu::jacobi::cuda;

GPGPU_CUDA_VARIANT_CHECKS(Ch06, ::testing::Values(jc::checks::Factory{"shared", jc::shared_variant},
                                                 jc::checks::Factory{"shared_paper", jc::shared_paper_variant}));
