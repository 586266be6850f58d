/// @file cpu_variants.hpp
/// @brief Chapter 11's CPU variants: the fused step on one thread (cpu_serial, the paper's one CPU
/// of Fig. 7) and on --threads threads (cpu_openmp: 1-4 of them for Fig. 7, all cores now).
#pragma once
#include "gpgpu/tlm/solver.hpp"

namespace ch11 {

/// `cpu_serial` (parallel = false) or `cpu_openmp`.
gpgpu::tlm::VariantSpec cpu_variant(bool parallel);

}  // namespace ch11
