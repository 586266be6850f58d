/// @file variants.hpp
/// @brief Chapter 13's variants, in the order main() runs them, each with the file that holds its
/// exchange. The one-process variants need CUDA and two GPUs or more; the distributed ones one MPI
/// rank per GPU (mpirun -np G), and NCCL for two of them.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "gpgpu/variant.hpp"
#include "mpi_session.hpp"
#include "scaling_chapter.hpp"

namespace ch13 {

/// Why a distributed variant cannot run with this many ranks ("needs 2 or more MPI ranks"), or nullopt.
[[nodiscard]] std::optional<std::string> needs_ranks(const MpiSession& mpi);

/// `one_cpu`: chapter 01's separate-diagonal loop on every core, the whole grid in one process
/// (the baseline of mpi_cpu); `mpi_cpu`: the same loop on each MPI rank's rows, MPI_Sendrecv of
/// the boundary rows (cpu_part.cpp).
std::vector<Variant> cpu_variants(const MpiSession& mpi);

#if GPGPU_BUILT_CUDA
/// `one_gpu` (chapter 07b's symmetric kernel on one GPU, the baseline), then one host thread
/// driving --gpus GPUs: `host_staged`, `peer_copy`, `peer_store`, `overlap` (multi_gpu_solvers.cpp).
/// `problem` is read when a solver is made (its --gpus): it must outlive the variants.
std::vector<Variant> one_process_variants(const Problem& problem);
/// One MPI rank per GPU: `nccl`, `nccl_graph` (gpu_parts.cpp; notes when NCCL was not found) and
/// `mpi`.
std::vector<Variant> distributed_gpu_variants(const MpiSession& mpi);
#else
inline gpgpu::NotBuilt one_process_variants(const Problem&) { return {gpgpu::Backend::cuda, GPGPU_WHY_CUDA}; }
inline std::vector<Variant> distributed_gpu_variants(const MpiSession&) { return {}; }  // the note above says why
#endif

}  // namespace ch13
