/// @file simple_variant.hpp
/// @brief Chapter 03's variant, `simple`: the paper's first CUDA kernel on chapter 01's layout, for
/// this chapter's run, for the later chapters that run it beside theirs, and for chapter 08's CUDA
/// twin of the OpenCL port.
#pragma once
#include "cuda_chapter.hpp"
#include "gpgpu/jacobi/solver.hpp"

namespace ch03 {

/// kernels/jacobi/cuda/03_simple.cu on a LinearSolver with the paper's offset nx+1 (blocks of 64
/// threads unless --block says otherwise). `launch` is read when the solver is made, after parsing:
/// it must outlive the spec.
gpgpu::jacobi::VariantSpec simple_variant(const LaunchOptions& launch);

}  // namespace ch03
