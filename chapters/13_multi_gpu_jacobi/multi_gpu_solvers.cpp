// Chapter 13's one-process solvers, in the order the chapter teaches them. Each iteration every
// GPU computes its rows from iterate `in` into `out`, and its first and last rows must reach the
// neighbours' ghost rows of `out` before they compute the next iteration. Streams and events order
// the work on the GPUs; the host only enqueues, except in host_staged, where it waits every time.
#include "multi_gpu_solvers.hpp"

#include <cmath>
#include <set>
#include <utility>

#include "gpgpu/cuda/check.hpp"
#include "gpgpu/timing.hpp"
#include "parts.hpp"

namespace ch13 {

using gpgpu::jacobi::LinearSystem;

namespace {

// The symmetric storage's rows `stored` (the part's and its ghost rows).
std::vector<std::span<const float>> slab_arrays(const LinearSystem& sys, RowRange stored) {
  std::vector<std::span<const float>> arrays = symmetric_storage(sys);
  for (std::span<const float>& a : arrays) a = rows_of(a, sys.grid.nx, stored);
  return arrays;
}

}  // namespace

void enable_peer_access(int a, int b) {
  // Enabling a pair twice is an error (cudaErrorPeerAccessAlreadyEnabled, which compute-sanitizer
  // reports): remember what this process has enabled.
  static std::set<std::pair<int, int>> enabled;
  for (const auto& [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
    if (!enabled.insert({from, to}).second) continue;
    const DeviceScope on(from);
    GPGPU_CUDA_CHECK(cudaDeviceEnablePeerAccess(to, 0));
  }
}

bool peers(int a, int b) {
  int ab = 0, ba = 0;
  GPGPU_CUDA_CHECK(cudaDeviceCanAccessPeer(&ab, a, b));
  GPGPU_CUDA_CHECK(cudaDeviceCanAccessPeer(&ba, b, a));
  return ab != 0 && ba != 0;
}

MultiGpuSolver::MultiGpuSolver(const LinearSystem& sys, int gpus, Exchange exchange)
    : split_(sys.grid.ny, gpus), exchange_(exchange) {
  GPGPU_CUDA_CHECK(cudaGetDevice(&initial_device_));
  slabs_.reserve(static_cast<std::size_t>(gpus));
  for (int g = 0; g < gpus; ++g) {
    const RowRange stored = split_.with_ghosts(g, 2);
    // The norm published into mapped host memory by a later launch, with no API call per check,
    // wherever the GPU can map host memory; where it cannot, the sum is copied as NCCL's and MPI's are.
    const NormPath norm = can_map_host_memory(g) ? NormPath::published : NormPath::device_sum;
    slabs_.emplace_back(g, SlabInputs{sys.grid.nx, split_.part(g), stored, slab_arrays(sys, stored)}, norm);
    if (exchange_ == Exchange::host_staged)
      for (int parity = 0; parity < 2; ++parity) staging_.emplace_back(2 * static_cast<std::size_t>(sys.grid.nx));
  }
  for (int g = 0; g + 1 < gpus; ++g)
    if (peers(g, g + 1)) enable_peer_access(g, g + 1);
  GPGPU_CUDA_CHECK(cudaSetDevice(initial_device_));
}

MultiGpuSolver::~MultiGpuSolver() = default;

void MultiGpuSolver::reset(std::span<const float> x0) {
  for (std::size_t g = 0; g < slabs_.size(); ++g) {
    const RowRange rows = split_.with_ghosts(static_cast<int>(g), 1);
    slabs_[g].reset(rows_of(x0, slabs_[g].nx(), rows), rows);
  }
  current_ = 0;
}

double MultiGpuSolver::timed(int iters, float omega, Mode mode) {
  if (mode == Mode::exchange_only && exchange_ == Exchange::peer_store) return std::nan("");
  const DeviceScope restore(initial_device_);
  synchronize_all();
  const gpgpu::Stopwatch clock;
  const auto run = [&](int count, bool norm_wanted) {
    for (int it = 0; it < count; ++it) {
      const bool last = it + 1 == count;
      if (norm_wanted && last) start_norms();
      step(current_, omega, mode);
      current_ = 1 - current_;
    }
    if (norm_wanted) finish_norms();
  };
  // A stop found one sweep late: that sweep wrote the other buffer, and x_k is still in this one.
  const auto step_back = [&] { current_ = 1 - current_; };
  const Stop stop = gpgpu::jacobi::iterate_checked(iters, check_for(mode), run, [&] { return combined_norm(); }, step_back);
  synchronize_all();
  const double seconds = clock.seconds();
  if (mode == Mode::full) stop_ = stop;
  return seconds;
}

//! [host_norm]
// One process holds every GPU: the host adds their sums. Each GPU's first launch after the checked
// iteration (the next iteration's) publishes that GPU's sum to mapped host memory; the host makes
// no call for it, and waits for it (squared_sum) only when it wants the value. Synchronous
// (--check-overlap off), the host waits at once, before any later launch: it launches a one-thread
// publish kernel, and the GPUs idle from the end of the checked iteration until it has decided and
// launched the next; overlapped, it launches the next iteration first (which publishes) and waits
// while that iteration runs.
void MultiGpuSolver::start_norms() {
  for (GpuSlab& s : slabs_) s.start_norm();
}

void MultiGpuSolver::finish_norms() {
  for (GpuSlab& s : slabs_) {  // nothing to enqueue on the published path: the next launch publishes
    s.finish_norm(s.compute_stream.get());
    s.copy_norm_to_host(s.compute_stream.get());
  }
}

double MultiGpuSolver::combined_norm() {
  double sum = 0.0;
  for (GpuSlab& s : slabs_) sum += s.squared_sum();
  return std::sqrt(sum);
}
//! [host_norm]

bool MultiGpuSolver::set_launch(const LaunchShape& shape) {
  for (GpuSlab& s : slabs_) s.set_launch(shape);
  return true;
}

void MultiGpuSolver::synchronize_all() {
  for (GpuSlab& s : slabs_) {
    GPGPU_CUDA_CHECK(cudaSetDevice(s.device()));
    GPGPU_CUDA_CHECK(cudaStreamSynchronize(s.compute_stream.get()));
    GPGPU_CUDA_CHECK(cudaStreamSynchronize(s.boundary_stream.get()));
  }
}

void MultiGpuSolver::step(int in, float omega, Mode mode) {
  switch (exchange_) {
    case Exchange::none:
      GPGPU_CUDA_CHECK(cudaSetDevice(slabs_[0].device()));
      slabs_[0].compute(in, omega, 0, slabs_[0].rows(), slabs_[0].compute_stream.get());
      return;
    case Exchange::host_staged: return step_host_staged(in, omega, mode);
    case Exchange::peer_copy: return step_peer_copy(in, omega, mode);
    case Exchange::peer_store: return step_peer_store(in, omega, mode);
    case Exchange::overlap: return step_overlap(in, omega, mode);
  }
}

//! [host_staged]
void MultiGpuSolver::step_host_staged(int in, float omega, Mode mode) {
  const int out = 1 - in;
  const std::size_t n = slabs_.size(), nx = static_cast<std::size_t>(slabs_[0].nx()), bytes = slabs_[0].row_bytes();
  const auto staged = [&](std::size_t g) { return staging_[2 * g + static_cast<std::size_t>(in)].data(); };
  for (std::size_t g = 0; g < n; ++g) {  // compute, then the first and last row down to the host
    GpuSlab& s = slabs_[g];
    GPGPU_CUDA_CHECK(cudaSetDevice(s.device()));
    const cudaStream_t stream = s.compute_stream.get();
    if (mode != Mode::exchange_only) s.compute(in, omega, 0, s.rows(), stream);
    if (mode == Mode::compute_only) continue;
    GPGPU_CUDA_CHECK(cudaMemcpyAsync(staged(g), s.row(out, 0), bytes, cudaMemcpyDeviceToHost, stream));
    GPGPU_CUDA_CHECK(cudaMemcpyAsync(staged(g) + nx, s.row(out, s.rows() - 1), bytes, cudaMemcpyDeviceToHost, stream));
  }
  if (mode == Mode::compute_only) return;
  for (GpuSlab& s : slabs_) GPGPU_CUDA_CHECK(cudaStreamSynchronize(s.compute_stream.get()));  // the host waits
  for (std::size_t g = 0; g < n; ++g) {  // then up into the neighbours' ghost rows
    GpuSlab& s = slabs_[g];
    GPGPU_CUDA_CHECK(cudaSetDevice(s.device()));
    const cudaStream_t stream = s.compute_stream.get();
    if (g > 0)  // the last row of the GPU below
      GPGPU_CUDA_CHECK(cudaMemcpyAsync(s.row(out, -1), staged(g - 1) + nx, bytes, cudaMemcpyHostToDevice, stream));
    if (g + 1 < n)  // the first row of the GPU above
      GPGPU_CUDA_CHECK(cudaMemcpyAsync(s.row(out, s.rows()), staged(g + 1), bytes, cudaMemcpyHostToDevice, stream));
  }
}
//! [host_staged]

void MultiGpuSolver::push_boundary_rows(std::size_t g, int b, cudaStream_t stream) {
  GpuSlab& s = slabs_[g];
  if (g > 0) {  // my first row becomes the ghost row above the GPU below
    GpuSlab& below = slabs_[g - 1];
    GPGPU_CUDA_CHECK(cudaMemcpyPeerAsync(below.row(b, below.rows()), below.device(), s.row(b, 0), s.device(), s.row_bytes(), stream));
  }
  if (g + 1 < slabs_.size()) {  // my last row becomes the ghost row below the GPU above
    GpuSlab& above = slabs_[g + 1];
    GPGPU_CUDA_CHECK(cudaMemcpyPeerAsync(above.row(b, -1), above.device(), s.row(b, s.rows() - 1), s.device(), s.row_bytes(), stream));
  }
}

//! [peer_copy]
void MultiGpuSolver::step_peer_copy(int in, float omega, Mode mode) {
  const int out = 1 - in;
  // First every GPU's waits: its neighbours' copies of the last iteration, into its ghost rows, must
  // have landed before it computes. (All waits before any new record: an event names its last record.)
  for (std::size_t g = 0; g < slabs_.size(); ++g) {
    GPGPU_CUDA_CHECK(cudaSetDevice(slabs_[g].device()));
    if (g > 0) slabs_[g - 1].sent.wait_in(slabs_[g].compute_stream.get());
    if (g + 1 < slabs_.size()) slabs_[g + 1].sent.wait_in(slabs_[g].compute_stream.get());
  }
  for (std::size_t g = 0; g < slabs_.size(); ++g) {  // then compute and push, each GPU on its own stream
    GpuSlab& s = slabs_[g];
    GPGPU_CUDA_CHECK(cudaSetDevice(s.device()));
    const cudaStream_t stream = s.compute_stream.get();
    if (mode != Mode::exchange_only) s.compute(in, omega, 0, s.rows(), stream);
    if (mode != Mode::compute_only) push_boundary_rows(g, out, stream);
    s.sent.record(stream);
  }
}
//! [peer_copy]

//! [peer_store]
void MultiGpuSolver::step_peer_store(int in, float omega, Mode mode) {
  const int out = 1 - in;
  for (std::size_t g = 0; g < slabs_.size(); ++g) {  // the neighbours' last kernels have stored into my ghost rows
    GPGPU_CUDA_CHECK(cudaSetDevice(slabs_[g].device()));
    if (g > 0) slabs_[g - 1].computed.wait_in(slabs_[g].compute_stream.get());
    if (g + 1 < slabs_.size()) slabs_[g + 1].computed.wait_in(slabs_[g].compute_stream.get());
  }
  for (std::size_t g = 0; g < slabs_.size(); ++g) {
    GpuSlab& s = slabs_[g];
    GPGPU_CUDA_CHECK(cudaSetDevice(s.device()));
    const bool store = mode != Mode::compute_only;
    float* below = store && g > 0 ? slabs_[g - 1].row(out, slabs_[g - 1].rows()) : nullptr;
    float* above = store && g + 1 < slabs_.size() ? slabs_[g + 1].row(out, -1) : nullptr;
    s.compute_and_store(in, omega, below, above, s.compute_stream.get());
    s.computed.record(s.compute_stream.get());
  }
}
//! [peer_store]

//! [overlap]
void MultiGpuSolver::step_overlap(int in, float omega, Mode mode) {
  const int out = 1 - in;
  for (std::size_t g = 0; g < slabs_.size(); ++g) {
    GpuSlab& s = slabs_[g];
    GPGPU_CUDA_CHECK(cudaSetDevice(s.device()));
    const cudaStream_t boundary = s.boundary_stream.get(), interior = s.compute_stream.get();
    // My interior of the last iteration read the rows I overwrite now. (With this wait the first
    // launch below comes after all of the last iteration's launches: it publishes their norm.)
    s.computed.wait_in(boundary);
    if (g > 0) slabs_[g - 1].sent.wait_in(boundary);  // my ghost rows have landed
    if (g + 1 < slabs_.size()) slabs_[g + 1].sent.wait_in(boundary);
    s.boundary_done.wait_in(interior);  // my boundary rows of the last iteration, read by the interior
  }
  for (std::size_t g = 0; g < slabs_.size(); ++g) {
    GpuSlab& s = slabs_[g];
    GPGPU_CUDA_CHECK(cudaSetDevice(s.device()));
    const cudaStream_t boundary = s.boundary_stream.get(), interior = s.compute_stream.get();
    const int last = s.rows() - 1;
    if (mode != Mode::exchange_only) {  // the two boundary rows first, at the highest priority
      s.compute(in, omega, 0, 1, boundary);
      if (last > 0) s.compute(in, omega, last, 1, boundary);
    }
    s.boundary_done.record(boundary);
    if (mode != Mode::compute_only) push_boundary_rows(g, out, boundary);  // copied while ...
    s.sent.record(boundary);
    if (mode != Mode::exchange_only) s.compute(in, omega, 1, last - 1, interior);  // ... the interior computes
    s.computed.record(interior);
  }
}
//! [overlap]

std::vector<float> MultiGpuSolver::solution() {
  std::vector<float> x;
  for (const GpuSlab& s : slabs_) {
    const std::vector<float> rows = s.download(current_);
    x.insert(x.end(), rows.begin(), rows.end());
  }
  return x;
}

std::string MultiGpuSolver::launch() const {
  std::string s;
  for (const GpuSlab& slab : slabs_) {
    s += (s.empty() ? "" : "; ") + slab.describe();
    if (slab.norm_path() == NormPath::device_sum) s += " (the norm copied: this GPU cannot map host memory)";
  }
  return s;
}

}  // namespace ch13
