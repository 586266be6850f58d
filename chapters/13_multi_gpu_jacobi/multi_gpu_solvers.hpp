/// @file multi_gpu_solvers.hpp
/// @brief Chapter 13's one-process solvers: one host thread drives G GPUs, each holding a slab of
/// rows (gpu_slab.hpp), and the variants differ only in how the boundary rows reach the
/// neighbours' ghost rows after every iteration. Each is a small diff from the one before it.
#pragma once
#include <string>
#include <vector>

#include "decomposition.hpp"
#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/jacobi/bidomain.hpp"
#include "gpu_slab.hpp"
#include "scaling_solver.hpp"

namespace ch13 {

/// The one-process variants.
enum class Exchange {
  none,         ///< one GPU, the whole grid: chapter 07b's symmetric kernel (the baseline)
  host_staged,  ///< boundary rows down to pinned host memory, the host waits, then up to the neighbours
  peer_copy,    ///< cudaMemcpyPeerAsync straight into the neighbours' ghost rows, ordered by events
  peer_store,   ///< the kernel itself stores its boundary rows into the neighbours' ghost rows
  overlap,      ///< boundary rows first on a high-priority stream and copied while the interior computes
};

class MultiGpuSolver final : public ScalingSolver {
 public:
  /// Splits the grid's rows over GPUs 0 .. gpus-1 and uploads each GPU's slab (untimed).
  MultiGpuSolver(const gpgpu::jacobi::LinearSystem& sys, int gpus, Exchange exchange);
  ~MultiGpuSolver() override;
  MultiGpuSolver(const MultiGpuSolver&) = delete;
  MultiGpuSolver& operator=(const MultiGpuSolver&) = delete;

  void reset(std::span<const float> x0) override;
  double timed(int iters, float omega, Mode mode) override;
  [[nodiscard]] std::vector<float> solution() override;
  [[nodiscard]] std::string launch() const override;
  [[nodiscard]] int parts() const override { return split_.parts(); }
  bool set_launch(const LaunchShape& shape) override;

 private:
  /// One iteration from iterate `in` on every GPU.
  void step(int in, float omega, Mode mode);
  void step_host_staged(int in, float omega, Mode mode);
  void step_peer_copy(int in, float omega, Mode mode);
  void step_peer_store(int in, float omega, Mode mode);
  void step_overlap(int in, float omega, Mode mode);
  /// Copies slab g's boundary rows of iterate b into the neighbours' ghost rows (cudaMemcpyPeerAsync).
  void push_boundary_rows(std::size_t g, int b, cudaStream_t stream);
  void synchronize_all();
  /// The update norm of the next step(): a check started on every GPU, every launch adding to it.
  void start_norms();
  /// After that step: the check ended on every GPU (nothing waits).
  void finish_norms();
  /// The oldest norm started and not yet read: waits for every GPU's sum, adds the sums on the
  /// host, takes the square root.
  double combined_norm();

  Decomposition split_;
  Exchange exchange_;
  int initial_device_ = 0;
  std::vector<GpuSlab> slabs_;
  /// host_staged: per GPU and iteration parity, its first and last row in pinned host memory.
  std::vector<gpgpu::cuda::PinnedBuffer<float>> staging_;
  int current_ = 0;
};

/// Whether GPU `a` can store to and copy from GPU `b` directly (cudaDeviceCanAccessPeer both ways).
[[nodiscard]] bool peers(int a, int b);
/// Peer access both ways, so that kernels and copies on either GPU reach the other's memory over
/// NVLink (each pair enabled once per process).
void enable_peer_access(int a, int b);

}  // namespace ch13
