/// @file gpu_slab.hpp
/// @brief One GPU's share of the grid: its rows in chapter 07b's symmetric storage, with ghost
/// rows, two streams, and the launch of the symmetric kernel on any of its rows.
///
/// Part p holds rows [begin, end) of the grid as local rows 0 .. rows-1. Around them, as in chapter
/// 05's pitched layout, kPitchedGhostRows = 2 rows of storage on each side. Of x only the inner one
/// is a ghost row: local row -1 receives the last row of the GPU below, local row `rows` the first
/// row of the GPU above, every iteration; the outer one (-2, rows+1) stays zero. The coefficients of
/// local rows -2 .. rows+1 are copied from the whole grid once (the symmetric kernel reads the
/// couplings of row -1 as its row 0's lower couplings); they never change.
/// Every row is padded (kRowPadding, below).
#pragma once
#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>

#include "decomposition.hpp"
#include "gpgpu/cuda/buffers.hpp"
#include "jacobi/cuda/jacobi_args.hpp"
#include "norm_slots.hpp"
#include "published_norm.hpp"
#include "scaling_solver.hpp"

namespace ch13 {

/// Makes `device` current for its lifetime and restores the one that was (RAII).
class DeviceScope {
 public:
  explicit DeviceScope(int device);
  ~DeviceScope();
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_ = 0;
};

/// A CUDA stream of the current device with a priority (0 is the default, lower numbers are higher).
class Stream {
 public:
  explicit Stream(int priority = 0);
  ~Stream();
  Stream(Stream&& o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
  Stream& operator=(Stream&&) = delete;
  Stream(const Stream&) = delete;
  [[nodiscard]] cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

/// An event used only to order streams (no timing: cheaper to record and wait on).
class SyncEvent {
 public:
  void record(cudaStream_t s);
  /// Makes `s` wait (on the GPU) for the work before the last record().
  void wait_in(cudaStream_t s) const;
  /// Makes the host wait for the work before the last record().
  void synchronize() const;

 private:
  gpgpu::cuda::Event event_{cudaEventDisableTiming};
};

/// The rows of the grid a slab is built from: `arrays` are C, E, NW, N, NE and f (the order of
/// parts.hpp's system_arrays), each rows `stored` = with_ghosts(part, 2) of the whole grid.
struct SlabInputs {
  int nx = 0;
  RowRange rows{};    ///< the part's own rows
  RowRange stored{};  ///< rows of `arrays`
  std::vector<std::span<const float>> arrays;
};

//! [padding]
// The kernel reads one value beyond each end of a row: the left neighbour of column 0 and the right
// neighbour of the last column, which it multiplies by a zero coupling. In rows without padding
// those are the last value of the row below and the first of the row above. For the interior's
// first and last rows that is a ghost row, which the overlapping variants receive while the
// interior computes: a race, harmless while the value is finite (0 * x = 0), but a NaN there (the
// poison of reset(), before a copy has landed) makes the result NaN (0 * NaN = NaN). At least 4
// floats of padding per row (the 16-byte loads round a row up to 4 values, and one more is read
// beyond that) keep both reads in the row's own zeros.
inline constexpr int kRowPadding = 4;
//! [padding]

/// How a slab's update norm reaches the host (GpuSlab's norm_api).
enum class NormPath {
  published,   ///< a later launch's thread writes it into mapped host memory: no API call per check
  device_sum,  ///< the sum stays in device memory (for ncclAllReduce), then an event-ordered copy
};

class GpuSlab {
  int device_;  // first: the members below are created with this device current

 public:
  /// Makes `device` current, allocates and uploads there (untimed); leaves `device` current.
  GpuSlab(int device, const SlabInputs& in, NormPath norm = NormPath::device_sum);
  ~GpuSlab();
  GpuSlab(GpuSlab&&) noexcept = default;
  GpuSlab& operator=(GpuSlab&&) = delete;
  GpuSlab(const GpuSlab&) = delete;

  [[nodiscard]] int device() const { return device_; }
  [[nodiscard]] int rows() const { return rows_.count(); }
  [[nodiscard]] int nx() const { return nx_; }
  /// Bytes of one exchanged row (nx floats).
  [[nodiscard]] std::size_t row_bytes() const { return static_cast<std::size_t>(nx_) * sizeof(float); }

  /// Iterate 0 from x0 (rows with_ghosts(part, 1): the part's rows and the neighbours' boundary
  /// rows), iterate 1 poisoned with NaN where a kernel or an exchange must write.
  void reset(std::span<const float> x0, RowRange x0_rows);
  /// The part's rows of iterate b.
  [[nodiscard]] std::vector<float> download(int b) const;

  /// Local row r of iterate b (r = -1 and r = rows() are the ghost rows).
  [[nodiscard]] float* row(int b, int r);
  /// The symmetric kernel's arguments for local rows [first, first+count) from iterate `in` into 1-in.
  [[nodiscard]] gpgpu::jacobi::cuda::SymmetricArgs args(int in, float omega, int first, int count);
  /// Launches the symmetric kernel (07b_04_symmetric.cu) on local rows [first, first+count).
  void compute(int in, float omega, int first, int count, cudaStream_t stream);
  /// Launches the peer-store kernel (13_peer_store.cu) on all rows, its first and last rows also
  /// stored at `below_ghost` and `above_ghost` (other GPUs' memory, or nullptr).
  void compute_and_store(int in, float omega, float* below_ghost, float* above_ghost, cudaStream_t stream);
  //! [norm_api]
  /// The update norm of one iteration. start_norm() starts a check, and every launch until
  /// finish_norm() is the peer-store kernel's norm variant, adding its rows' Σ (x_new − x)² to the
  /// check's sum; squared_sum() returns the oldest check's sum not yet read. Two checks may be in
  /// flight: a check every iteration starts the next before the host reads the last. How the sum
  /// reaches the host is the slab's NormPath:
  ///  - published: the first launch after finish_norm() publishes the check (13_peer_store.cu,
  ///    publish_norm), so it must come after every launch of the check, on every stream, as the
  ///    next iteration's first launch does (multi_gpu_solvers.cpp: the streams are joined between
  ///    iterations). squared_sum() waits for the value in mapped host memory; if no launch has
  ///    published it yet, it first launches the publish kernel on finish_norm's `into`, after the
  ///    check's other stream (an event). No API call for a check that a later launch publishes:
  ///    start_norm and finish_norm only note it, and copy_norm_to_host has nothing to do.
  ///  - device_sum: start_norm() zeroes the sum (on the compute stream, which the boundary stream
  ///    then waits for); finish_norm(into) joins the other stream into `into`, where the sum is then
  ///    complete (squared_sum_on_device, for NCCL); copy_norm_to_host(after) copies it to pinned
  ///    memory on the norm's own stream, behind the work enqueued so far on `after`; squared_sum()
  ///    waits for the oldest such copy not yet read.
  void start_norm();
  void finish_norm(cudaStream_t into);
  [[nodiscard]] double* squared_sum_on_device();
  void copy_norm_to_host(cudaStream_t after);
  [[nodiscard]] double squared_sum();
  [[nodiscard]] NormPath norm_path() const { return norm_path_; }
  //! [norm_api]
  /// Launches from now on with `shape` (ScalingSolver::tune tries them).
  void set_launch(const LaunchShape& shape);
  /// "GPU 1: rows 8192-16383, block 128, 4 rows per thread".
  [[nodiscard]] std::string describe() const;

  Stream compute_stream;   ///< the interior (or everything)
  Stream boundary_stream;  ///< the boundary rows and their exchange, at the highest priority
  SyncEvent computed, boundary_done, sent;
  SyncEvent norm_zeroed, norm_added;  ///< order the norm's sum between the two streams
  Stream norm_stream;                 ///< the norm's copy to the host, beside the sweeps (device_sum)

 private:
  [[nodiscard]] int rows_per_thread(int count) const;
  /// published: the publish kernel for check `c`, which no launch has published (squared_sum).
  void publish_now(CheckSequence::Check c);
  /// The peer-store kernel on `rows` (its norm variant while a check is started), publishing the
  /// check that waits for its publisher, if one does.
  void launch_peer_store(const gpgpu::jacobi::cuda::SymmetricArgs& rows, float* below_ghost, float* above_ghost,
                         cudaStream_t stream);

  int nx_;
  RowRange rows_;
  LaunchShape shape_{};
  int blocks_per_sm_ = 1, sm_count_ = 1;  // of shape_.block
  std::vector<gpgpu::cuda::PitchedBuffer<float>> arrays_;  // C, E, NW, N, NE, f
  std::array<gpgpu::cuda::PitchedBuffer<float>, 2> x_;
  int pitch_ = 0;
  NormPath norm_path_;
  CheckSequence norm_checks_;
  double* norm_target_ = nullptr;  // the sum the launches add to; nullptr: no norm
  std::optional<PublishedNorms> published_;  // published: slots and sums
  PendingPublication unpublished_;           // published: the check the next launch publishes
  // published: the streams of the current check's launches, and of the last check ended, whose
  // publish kernel goes on publish_into_ after the others (squared_sum).
  std::array<cudaStream_t, 2> norm_streams_{}, ended_streams_{};
  cudaStream_t publish_into_ = nullptr;
  gpgpu::cuda::DeviceBuffer<double> norm_sum_;                // device_sum: one sum per slot
  gpgpu::cuda::PinnedBuffer<double> norm_host_;               // device_sum: their copies
  SyncEvent norm_summed_;                 // device_sum: the sum is complete, the norm stream may copy it
  std::array<SyncEvent, 2> norm_copied_;  // device_sum: the host waits for these (cudaEventSynchronize)
};

}  // namespace ch13
