// The GPU variants, in the order the chapter teaches them: the one-GPU baseline, four ways for one
// host thread to exchange boundary rows between its GPUs, then one MPI rank per GPU with NCCL or MPI.
#include <memory>
#include <string>

#include "distributed_solver.hpp"
#include "gpgpu/cuda/device.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/jacobi/cuda/chapter_kit.hpp"
#include "multi_gpu_solvers.hpp"
#include "variants.hpp"

namespace ch13 {
namespace {

namespace jc = gpgpu::jacobi::cuda;
using gpgpu::jacobi::Grid;
using gpgpu::jacobi::LinearSystem;

// Device bytes of one part: 5 stored diagonals, f and two iterates, pitched, with ghost rows.
double part_bytes(const Grid& grid, int parts) {
  return 8.0 * 4.0 * (grid.nx + 128.0) * ((grid.ny + parts - 1) / parts + 4.0);
}

// The GPUs of the one-process variants: --gpus, or every GPU of the machine.
int gpus_of(const Problem& problem) { return problem.gpus() > 0 ? problem.gpus() : gpgpu::cuda::device_count(); }

Variant gpu_variant(std::string name, std::string description, std::string source) {
  Variant v;
  static_cast<gpgpu::jacobi::Variant&>(v) =
      jc::cuda_variant(std::move(name), std::move(description), std::move(source), "", "jacobi9_symmetric");
  v.info.timer = "steady_clock (every GPU synchronised)";
  return v;
}

Variant one_process(std::string name, std::string description, Exchange exchange, const Problem& problem) {
  Variant v = gpu_variant(std::move(name), std::move(description), "chapters/13_multi_gpu_jacobi/multi_gpu_solvers.cpp");
  v.baseline = "one_gpu";
  v.make = [&problem, exchange](const LinearSystem& sys, gpgpu::Session&) {
    return std::make_unique<MultiGpuSolver>(sys, gpus_of(problem), exchange);
  };
  v.limitation = [&problem, exchange](const Grid&, gpgpu::Session&) -> std::optional<std::string> {
    const int count = gpgpu::cuda::device_count(), gpus = gpus_of(problem);
    if (gpus < 2) return "needs 2 or more GPUs (this machine has " + std::to_string(count) + "; --gpus)";
    if (exchange == Exchange::peer_store)
      for (int g = 0; g + 1 < gpus && g + 1 < count; ++g)
        if (!peers(g, g + 1))
          return "GPUs " + std::to_string(g) + " and " + std::to_string(g + 1) + " cannot reach each other's memory (cudaDeviceCanAccessPeer)";
    return std::nullopt;
  };
  v.check_fits = [&problem](const Grid& grid, gpgpu::Session&) {
    const int count = gpgpu::cuda::device_count(), gpus = gpus_of(problem);
    if (gpus > count) throw gpgpu::UsageError("--gpus " + std::to_string(gpus) + ": this machine has " + std::to_string(count));
    (void)Decomposition(grid.ny, gpus);
    gpgpu::cuda::require_device_memory(part_bytes(grid, gpus), "one GPU's part of grid " + grid.str());
  };
  return v;
}

Variant distributed(std::string name, std::string description, PartKind kind, const MpiSession& mpi) {
  Variant v = gpu_variant(std::move(name), std::move(description), "chapters/13_multi_gpu_jacobi/gpu_parts.cpp");
  v.info.timer = "steady_clock (MPI_Barrier before and after)";
  v.baseline = "one_gpu";
  v.make = [&mpi, kind](const LinearSystem& sys, gpgpu::Session&) { return std::make_unique<DistributedSolver>(kind, sys, mpi); };
  v.limitation = [&mpi, kind](const Grid&, gpgpu::Session&) -> std::optional<std::string> {
    if (kind != PartKind::mpi_gpu && !GPGPU_HAVE_NCCL)
      return std::string("built without NCCL (nccl.h and libnccl were not found when CMake configured the build)");
    if (auto why = needs_ranks(mpi)) return why;
    if (mpi.local_size() > gpgpu::cuda::device_count())
      return std::to_string(mpi.local_size()) + " ranks on this host for " + std::to_string(gpgpu::cuda::device_count()) +
             " GPUs: one rank per GPU";
    return std::nullopt;
  };
  v.check_fits = [&mpi](const Grid& grid, gpgpu::Session&) {
    (void)Decomposition(grid.ny, mpi.size());
    gpgpu::cuda::require_device_memory(part_bytes(grid, mpi.size()), "one rank's part of grid " + grid.str());
  };
  return v;
}

}  // namespace

//! [variants]
std::vector<Variant> one_process_variants(const Problem& problem) {
  Variant one = gpu_variant("one_gpu", "chapter 07b's symmetric kernel on one GPU, the whole grid (the baseline)",
                            "kernels/jacobi/cuda/07b_04_symmetric.cu");
  one.make = [](const LinearSystem& sys, gpgpu::Session&) { return std::make_unique<MultiGpuSolver>(sys, 1, Exchange::none); };
  one.check_fits = [](const Grid& grid, gpgpu::Session&) {
    gpgpu::cuda::require_device_memory(part_bytes(grid, 1), "grid " + grid.str());
  };
  return {one,
          one_process("host_staged", "boundary rows through pinned host memory, the host waits every iteration",
                      Exchange::host_staged, problem),
          one_process("peer_copy", "cudaMemcpyPeerAsync into the neighbours' ghost rows, events order the GPUs",
                      Exchange::peer_copy, problem),
          one_process("peer_store", "the kernel stores its boundary rows into the neighbours' ghost rows (13_peer_store.cu)",
                      Exchange::peer_store, problem),
          one_process("overlap", "boundary rows first on a high-priority stream, copied while the interior computes",
                      Exchange::overlap, problem)};
}

std::vector<Variant> distributed_gpu_variants(const MpiSession& mpi) {
  return {distributed("nccl", "one rank per GPU, overlap with ncclSend/ncclRecv", PartKind::nccl, mpi),
          distributed("nccl_graph", "nccl, each iteration one CUDA graph launch", PartKind::nccl_graph, mpi),
          distributed("mpi", "one rank per GPU, MPI_Sendrecv (device memory if CUDA-aware, else pinned host)",
                      PartKind::mpi_gpu, mpi)};
}
//! [variants]

}  // namespace ch13
