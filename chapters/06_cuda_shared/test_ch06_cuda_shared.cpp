// Chapter 06 on a GPU (label cuda; skipped without one): the shared-memory kernel through chapter
// 05's host code at the awkward sizes against the CPU double-precision reference (partial blocks
// whose idle threads must still load the tile and reach both barriers: widths no block divides, a
// width of 1 and 2, blocks of 32, 96 and 256), the Solver contract and the usage errors
// (cuda_variant_checks.hpp). compute-sanitizer's racecheck and synccheck run this test on the GPU
// machine (scripts/device/cuda.sh).
#include "cuda_variant_checks.hpp"
#include "shared_variant.hpp"

CH03_CUDA_VARIANT_CHECKS(Ch06, ::testing::Values(ch03::checks::Factory{"shared", ch06::shared_variant},
                                                 ch03::checks::Factory{"shared_paper", ch06::shared_paper_variant}));
