// Chapter 13: the Jacobi solver of chapters 03-07b on several GPUs. The grid's rows are split over
// G GPUs; each holds its rows and one ghost row on each side, and after every iteration the
// boundary rows must reach the neighbours' ghost rows. The variants this chapter runs, in order:
//   one_cpu      chapter 01's loop, one process, every core (the baseline of mpi_cpu)   cpu_variants.cpp
//   mpi_cpu      the same loop on each MPI rank's rows, MPI_Sendrecv                     cpu_part.cpp
//   one_gpu      chapter 07b's symmetric kernel on one GPU (the baseline of the rest)   multi_gpu_solvers.cpp
//   host_staged  one host thread, G GPUs: boundary rows through the host               multi_gpu_solvers.cpp
//   peer_copy    cudaMemcpyPeerAsync straight into the neighbours' ghost rows          multi_gpu_solvers.cpp
//   peer_store   the kernel stores its boundary rows on the neighbours' GPUs           kernels/jacobi/cuda/13_peer_store.cu
//   overlap      boundary rows first, copied while the interior computes               multi_gpu_solvers.cpp
//   nccl         one MPI rank per GPU, the overlap with ncclSend/ncclRecv              gpu_parts.cpp
//   nccl_graph   nccl, one CUDA graph per iteration                                    gpu_parts.cpp
//   mpi          one MPI rank per GPU, MPI_Sendrecv                                    gpu_parts.cpp
// Every split variant must equal its baseline bit for bit (splitting rows changes no arithmetic)
// and the CPU double-precision reference within the chapter's bound. Run the distributed ones with
// `mpirun -np 2 ch13_multi_gpu_jacobi`: rank 0 runs the chapter, the other ranks serve it.
#include "distributed_solver.hpp"
#include "gpgpu/errors.hpp"
#include "scaling_chapter.hpp"
#include "variants.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{"13", "ch13_multi_gpu_jacobi",
                               "The Jacobi solver on several GPUs: host staging, peer copies and stores, NCCL and MPI",
                               "past the papers: domain decomposition of chapter 07b's solver"};

}  // namespace

//! [main]
int main(int argc, char** argv) {
  ch13::MpiSession mpi(argc, argv);
  if (mpi.rank() != 0) return ch13::serve(mpi);  // ranks 1..P-1 serve rank 0's run
  const ch13::WorkerRelease release(mpi);          // ... until it ends, however it ends
  return gpgpu::run_main(kInfo.program, [&] {
    ch13::Chapter chapter(kInfo);
    chapter.problem().set_catalogue([&chapter](const std::string& name) { return &chapter.variant(name); });
    chapter.add(ch13::cpu_variants(mpi));
    chapter.add(ch13::one_process_variants(chapter.problem()));
    chapter.add(ch13::distributed_gpu_variants(mpi));
    return chapter.run(argc, argv);
  });
}
//! [main]
