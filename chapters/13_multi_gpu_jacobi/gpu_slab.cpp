// One GPU's rows: allocate and upload (untimed), reset, launch the kernels of chapter 07b and 13 on
// a range of its rows, download.
#include "gpu_slab.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "gpgpu/cuda/check.hpp"
#include "gpgpu/jacobi/cuda/chapter_kit.hpp"
#include "gpgpu/jacobi/layouts.hpp"
#include "jacobi/cuda/launchers.hpp"

namespace ch13 {

namespace jc = gpgpu::jacobi::cuda;
using gpgpu::jacobi::kPitchedGhostRows;

DeviceScope::DeviceScope(int device) {
  GPGPU_CUDA_CHECK(cudaGetDevice(&previous_));
  GPGPU_CUDA_CHECK(cudaSetDevice(device));
}

DeviceScope::~DeviceScope() { (void)cudaSetDevice(previous_); }

Stream::Stream(int priority) { GPGPU_CUDA_CHECK(cudaStreamCreateWithPriority(&s_, cudaStreamNonBlocking, priority)); }

Stream::~Stream() {
  if (s_ != nullptr) (void)cudaStreamDestroy(s_);
}

void SyncEvent::record(cudaStream_t s) { GPGPU_CUDA_CHECK(cudaEventRecord(event_.get(), s)); }

void SyncEvent::wait_in(cudaStream_t s) const { GPGPU_CUDA_CHECK(cudaStreamWaitEvent(s, event_.get(), 0)); }

void SyncEvent::synchronize() const { GPGPU_CUDA_CHECK(cudaEventSynchronize(event_.get())); }

namespace {

int make_current(int device) {
  GPGPU_CUDA_CHECK(cudaSetDevice(device));
  return device;
}

int highest_priority() {
  int least = 0, greatest = 0;
  GPGPU_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  return greatest;
}

}  // namespace

GpuSlab::GpuSlab(int device, const SlabInputs& in, NormPath norm)
    : device_(make_current(device)),
      compute_stream(0),
      boundary_stream(highest_priority()),
      norm_stream(0),
      nx_(in.nx),
      rows_(in.rows),
      norm_path_(norm) {
  if (norm_path_ == NormPath::published) {
    published_.emplace();
  } else {
    norm_sum_ = gpgpu::cuda::DeviceBuffer<double>(2);
    norm_host_ = gpgpu::cuda::PinnedBuffer<double>(2);
  }
  const auto nx = static_cast<std::size_t>(nx_);
  const auto width = static_cast<std::size_t>(nx_ + kRowPadding);  // gpu_slab.hpp: why the rows are padded
  const auto stored_rows = static_cast<std::size_t>(rows_.count() + 2 * kPitchedGhostRows);
  // Row `stored.begin` of the grid is local row stored.begin - rows.begin, at buffer row
  // kPitchedGhostRows + that; rows of the grid's edges that do not exist stay zero.
  const auto first = static_cast<std::size_t>(kPitchedGhostRows + in.stored.begin - in.rows.begin);
  for (std::span<const float> a : in.arrays) {
    gpgpu::cuda::PitchedBuffer<float> b(width, stored_rows);
    b.fill_bytes(0);
    b.upload_rows(a, nx, static_cast<std::size_t>(in.stored.count()), first);
    arrays_.push_back(std::move(b));
  }
  for (gpgpu::cuda::PitchedBuffer<float>& x : x_) x = gpgpu::cuda::PitchedBuffer<float>(width, stored_rows);
  pitch_ = static_cast<int>(x_[0].pitch());
  for (const gpgpu::cuda::PitchedBuffer<float>& a : arrays_)
    if (static_cast<int>(a.pitch()) != pitch_) throw std::logic_error("cudaMallocPitch gave arrays of one width different pitches");
  if (pitch_ % 4 != 0) throw std::logic_error("pitch is not a multiple of 16 bytes: the float4 kernels need it");
  GPGPU_CUDA_CHECK(cudaDeviceGetAttribute(&sm_count_, cudaDevAttrMultiProcessorCount, device_));
  set_launch(shape_);
}

void GpuSlab::set_launch(const LaunchShape& shape) {
  const DeviceScope on(device_);
  jc::check_block(shape.block);
  shape_ = shape;
  blocks_per_sm_ = jc::symmetric_blocks_per_sm(shape_.block);
}

GpuSlab::~GpuSlab() { (void)cudaSetDevice(device_); }  // the members are freed on their own device

void GpuSlab::reset(std::span<const float> x0, RowRange x0_rows) {
  const DeviceScope on(device_);
  const auto nx = static_cast<std::size_t>(nx_);
  const auto local = [&](int grid_row) { return static_cast<std::size_t>(kPitchedGhostRows + grid_row - rows_.begin); };
  x_[0].fill_bytes(0);
  x_[0].upload_rows(x0, nx, static_cast<std::size_t>(x0_rows.count()), local(x0_rows.begin));
  // The other iterate: NaN wherever the kernel or a neighbour must write (the part's rows and the
  // ghost rows that have a neighbour), zero elsewhere, so a missed row shows up in the result.
  x_[1].fill_bytes(0);
  x_[1].fill_block_bytes(0xFF, nx, static_cast<std::size_t>(x0_rows.count()), local(x0_rows.begin));
  GPGPU_CUDA_CHECK(cudaDeviceSynchronize());
}

std::vector<float> GpuSlab::download(int b) const {
  const DeviceScope on(device_);
  return x_[static_cast<std::size_t>(b)].download_rows(static_cast<std::size_t>(nx_), static_cast<std::size_t>(rows()),
                                                        kPitchedGhostRows);
}

float* GpuSlab::row(int b, int r) { return x_[static_cast<std::size_t>(b)].row(static_cast<std::size_t>(kPitchedGhostRows + r)); }

jc::SymmetricArgs GpuSlab::args(int in, float omega, int first, int count) {
  const auto at = [&](std::size_t a) { return arrays_[a].row(static_cast<std::size_t>(kPitchedGhostRows + first)); };
  return {at(0), at(1), at(2), at(3), at(4), at(5), row(in, first), row(1 - in, first), nx_, count, pitch_, omega};
}

int GpuSlab::rows_per_thread(int count) const {
  if (shape_.rows_per_thread > 0) return shape_.rows_per_thread;
  return jc::rows_per_thread_for(nx_, count, shape_.block, blocks_per_sm_, sm_count_);
}

void GpuSlab::launch_peer_store(const jc::SymmetricArgs& rows, float* below_ghost, float* above_ghost, cudaStream_t stream) {
  jc::NormPublication publish{};
  if (norm_path_ == NormPath::published) {
    if (const std::optional<CheckSequence::Check> waiting = unpublished_.take_for_launch())
      publish = published_->publication(*waiting);
    if (norm_target_ != nullptr && std::ranges::find(norm_streams_, stream) == norm_streams_.end()) {
      const auto free = std::ranges::find(norm_streams_, nullptr);
      if (free == norm_streams_.end()) throw std::logic_error("an update norm's launches on more than two streams");
      *free = stream;
    }
  }
  jc::launch_jacobi_peer_store({rows, below_ghost, above_ghost, norm_target_, publish}, shape_.block,
                               rows_per_thread(rows.ny), stream);
}

void GpuSlab::compute(int in, float omega, int first, int count, cudaStream_t stream) {
  if (count <= 0) return;
  // The same arithmetic (symmetric_update.hpp), and the norm's sum or an earlier check's publication.
  if (norm_target_ != nullptr || unpublished_.waiting()) {
    launch_peer_store(args(in, omega, first, count), nullptr, nullptr, stream);
    return;
  }
  jc::launch_jacobi_symmetric(args(in, omega, first, count), shape_.block, rows_per_thread(count), stream);
}

void GpuSlab::compute_and_store(int in, float omega, float* below_ghost, float* above_ghost, cudaStream_t stream) {
  launch_peer_store(args(in, omega, 0, rows()), below_ghost, above_ghost, stream);
}

//! [start_norm]
// Published: nothing to enqueue. The check's sum is zero already (its publisher zeroed it after the
// slot's last check); its launches add to it, and the first launch after them publishes it.
void GpuSlab::start_norm() {
  const CheckSequence::Check check = norm_checks_.start();
  if (norm_path_ == NormPath::published) {
    norm_target_ = published_->sum(check);
    norm_streams_ = {};
    return;
  }
  const DeviceScope on(device_);
  norm_target_ = norm_sum_.get() + check.slot;
  GPGPU_CUDA_CHECK(cudaMemsetAsync(norm_target_, 0, sizeof(double), compute_stream.get()));
  norm_zeroed.record(compute_stream.get());
  norm_zeroed.wait_in(boundary_stream.get());
}

void GpuSlab::finish_norm(cudaStream_t into) {
  norm_target_ = nullptr;
  if (norm_path_ == NormPath::published) {
    unpublished_.end(norm_checks_.last_started());
    ended_streams_ = norm_streams_;
    publish_into_ = into;
    return;
  }
  const DeviceScope on(device_);
  const cudaStream_t other = into == compute_stream.get() ? boundary_stream.get() : compute_stream.get();
  norm_added.record(other);
  norm_added.wait_in(into);
}
//! [start_norm]

double* GpuSlab::squared_sum_on_device() {
  if (norm_path_ == NormPath::published) throw std::logic_error("a published update norm has no sum on the GPU to reduce");
  return norm_sum_.get() + norm_checks_.last_started().slot;
}

//! [norm_copy]
// device_sum: the sum's 8 bytes go to pinned memory on a stream of their own: the sweeps' streams
// go on to the next iteration at once, and the host waits for this copy's event alone, when it
// wants the value. A sum is zeroed again two norms later, after the host has read this copy
// (CheckSequence refuses a third norm in flight). Published: a later launch publishes the value
// (gpu_slab.hpp, norm_api); the host waits for it (published_norm.cpp) on the streams of the sweeps.
void GpuSlab::copy_norm_to_host(cudaStream_t after) {
  if (norm_path_ == NormPath::published) return;
  const DeviceScope on(device_);
  const std::size_t slot = norm_checks_.last_started().slot;
  norm_summed_.record(after);
  norm_summed_.wait_in(norm_stream.get());
  GPGPU_CUDA_CHECK(cudaMemcpyAsync(norm_host_.data() + slot, norm_sum_.get() + slot, sizeof(double),
                                   cudaMemcpyDeviceToHost, norm_stream.get()));
  norm_copied_[slot].record(norm_stream.get());
}

double GpuSlab::squared_sum() {
  const CheckSequence::Check check = norm_checks_.read();
  if (norm_path_ == NormPath::published) {
    if (unpublished_.take_for_read(check)) publish_now(check);
    const std::array<cudaStream_t, 2> streams{compute_stream.get(), boundary_stream.get()};
    return published_->wait(check, device_, streams);
  }
  norm_copied_[check.slot].synchronize();
  return norm_host_.data()[check.slot];
}
//! [norm_copy]

// The check the host waits for before it launches anything more (--check-overlap off, the last
// check of a run): no later launch will publish it, so one thread does, in a kernel of its own on
// the stream the check ended on, behind the check's other stream (an event record and a wait,
// which the host does not wait for). One launch, against the device_sum path's copy and event.
void GpuSlab::publish_now(CheckSequence::Check c) {
  const DeviceScope on(device_);
  for (cudaStream_t s : ended_streams_)
    if (s != nullptr && s != publish_into_) {
      norm_added.record(s);
      norm_added.wait_in(publish_into_);
    }
  jc::launch_publish_norm(published_->publication(c), publish_into_);
}

std::string GpuSlab::describe() const {
  return "GPU " + std::to_string(device_) + ": rows " + std::to_string(rows_.begin) + "-" + std::to_string(rows_.end - 1) +
         ", block " + std::to_string(shape_.block) + ", " + std::to_string(rows_per_thread(rows())) + " rows per thread";
}

}  // namespace ch13
