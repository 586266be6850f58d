// The GPU parts of the distributed variants: one MPI rank per GPU, each with its slab of rows.
// NCCL: chapter 13's overlap (boundary rows first on a high-priority stream, exchanged while the
// interior computes) with ncclSend/ncclRecv in place of the peer copies; then the same iteration
// captured once in a CUDA graph. MPI: compute, then MPI_Sendrecv of the boundary rows, on device
// memory where the MPI library is CUDA-aware and through pinned host buffers where it is not.
#include <array>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's MPIX_CUDA_AWARE_SUPPORT and MPIX_Query_cuda_support
#endif
#if GPGPU_HAVE_NCCL
#include <nccl.h>
#endif

#include "gpgpu/cuda/check.hpp"
#include "gpgpu/jacobi/convergence.hpp"
#include "gpgpu/errors.hpp"
#include "gpu_slab.hpp"
#include "parts.hpp"

namespace ch13 {
namespace {

int rank_device(const MpiSession& mpi) {
  int count = 0;
  GPGPU_CUDA_CHECK(cudaGetDeviceCount(&count));
  return mpi.local_rank() % count;
}

SlabInputs slab_inputs(const PartInputs& in) { return {in.nx, in.split.part(in.part), in.stored, in.arrays}; }

int current_device() {
  int device = 0;
  GPGPU_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

// A rank's neighbours, MPI_PROC_NULL at the grid's edges.
int below(const PartInputs& in) { return in.split.has_below(in.part) ? in.part - 1 : MPI_PROC_NULL; }
int above(const PartInputs& in) { return in.split.has_above(in.part) ? in.part + 1 : MPI_PROC_NULL; }

// Whether this MPI library moves device memory itself (checked at run time: the same build may
// run with a CUDA-aware Open MPI on a cluster and a plain one here).
bool cuda_aware_mpi() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

// What every GPU part has: its slab on this rank's GPU, its neighbours, and which iterate is current.
// Its norm stays in device memory (NormPath::device_sum), not published by a later launch as the
// one-process variants' is: NCCL's allreduce must find the GPU's complete sum in device memory, in
// stream order, which a sum that a later launch hands to the host and zeroes is not; mpi's rank
// drives one GPU alone and waits for its compute stream at every exchange anyway, so the copy rides
// on a wait it pays already (the one-process variants' cost is one host thread serving every GPU).
class GpuPart : public Part {
 public:
  explicit GpuPart(const PartInputs& in)
      : slab_(current_device(), slab_inputs(in)),
        x0_rows_(in.split.with_ghosts(in.part, 1)),
        below_(below(in)),
        above_(above(in)) {}

  void reset(std::span<const float> x0) override {
    slab_.reset(x0, x0_rows_);
    in_ = 0;
  }
  std::vector<float> rows() override { return slab_.download(in_); }
  bool set_launch(const LaunchShape& shape) override {
    slab_.set_launch(shape);
    return true;
  }

 protected:
  GpuSlab slab_;
  RowRange x0_rows_;  // the rows reset() receives: the part's and the neighbours' boundary rows
  int below_, above_;
  int in_ = 0;  // the current iterate
};

//! [mpi_gpu]
class MpiGpuPart final : public GpuPart {
 public:
  explicit MpiGpuPart(const PartInputs& in)
      : GpuPart(in), cuda_aware_(cuda_aware_mpi()), send_(2 * static_cast<std::size_t>(in.nx)),
        recv_(2 * static_cast<std::size_t>(in.nx)) {}

  // A checked iteration's sum is copied to the host right behind its compute, before the exchange
  // (whose wait for the compute stream it then barely outlasts); MPI_Iallreduce sums the ranks'
  // while the next iteration computes and exchanges, and MPI_Wait ends it after that iteration.
  Stop iterate(int iters, float omega, Mode mode, const Convergence& check) override {
    const cudaStream_t stream = slab_.compute_stream.get();
    const auto run = [&](int count, bool norm_wanted) {
      for (int it = 0; it < count; ++it, in_ = 1 - in_) {
        const bool checked = norm_wanted && it + 1 == count;
        if (checked) slab_.start_norm();
        if (mode != Mode::exchange_only) slab_.compute(in_, omega, 0, slab_.rows(), stream);
        if (checked) {
          slab_.finish_norm(stream);
          slab_.copy_norm_to_host(stream);
        }
        if (mode != Mode::compute_only) exchange(1 - in_);
      }
      if (norm_wanted) norm_.start(slab_.squared_sum());
    };
    const Stop stop = gpgpu::jacobi::iterate_checked(iters, check, run, [&] { return norm_.wait(); }, [&] { in_ = 1 - in_; });
    GPGPU_CUDA_CHECK(cudaStreamSynchronize(stream));
    return stop;
  }

  [[nodiscard]] std::string launch() const override {
    return slab_.describe() + (cuda_aware_ ? ", MPI_Sendrecv of device memory (CUDA-aware MPI)"
                                           : ", MPI_Sendrecv through pinned host memory (the MPI is not CUDA-aware)");
  }


 private:
  // The first row down and the upper neighbour's first row into the ghost row above; then the
  // last row up and the lower neighbour's last row into the ghost row below.
  void exchange(int b) {
    const cudaStream_t stream = slab_.compute_stream.get();
    const int nx = slab_.nx(), last = slab_.rows() - 1;
    const std::size_t bytes = slab_.row_bytes();
    GPGPU_CUDA_CHECK(cudaStreamSynchronize(stream));  // the rows are computed (and last time's uploads done)
    if (cuda_aware_) {
      CH13_MPI_CHECK(MPI_Sendrecv(slab_.row(b, 0), nx, MPI_FLOAT, below_, 0, slab_.row(b, last + 1), nx, MPI_FLOAT, above_,
                                  0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      CH13_MPI_CHECK(MPI_Sendrecv(slab_.row(b, last), nx, MPI_FLOAT, above_, 1, slab_.row(b, -1), nx, MPI_FLOAT, below_, 1,
                                  MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      return;
    }
    float* send = send_.data();
    float* recv = recv_.data();
    GPGPU_CUDA_CHECK(cudaMemcpyAsync(send, slab_.row(b, 0), bytes, cudaMemcpyDeviceToHost, stream));
    GPGPU_CUDA_CHECK(cudaMemcpyAsync(send + nx, slab_.row(b, last), bytes, cudaMemcpyDeviceToHost, stream));
    GPGPU_CUDA_CHECK(cudaStreamSynchronize(stream));
    CH13_MPI_CHECK(MPI_Sendrecv(send, nx, MPI_FLOAT, below_, 0, recv + nx, nx, MPI_FLOAT, above_, 0, MPI_COMM_WORLD,
                                MPI_STATUS_IGNORE));
    CH13_MPI_CHECK(MPI_Sendrecv(send + nx, nx, MPI_FLOAT, above_, 1, recv, nx, MPI_FLOAT, below_, 1, MPI_COMM_WORLD,
                                MPI_STATUS_IGNORE));
    if (below_ != MPI_PROC_NULL) GPGPU_CUDA_CHECK(cudaMemcpyAsync(slab_.row(b, -1), recv, bytes, cudaMemcpyHostToDevice, stream));
    if (above_ != MPI_PROC_NULL)
      GPGPU_CUDA_CHECK(cudaMemcpyAsync(slab_.row(b, last + 1), recv + nx, bytes, cudaMemcpyHostToDevice, stream));
  }

  bool cuda_aware_;
  gpgpu::cuda::PinnedBuffer<float> send_, recv_;  // [first row | last row], [from below | from above]
  NormOverRanks norm_;
};
//! [mpi_gpu]

#if GPGPU_HAVE_NCCL

void nccl_check(ncclResult_t status, const char* call, const char* file, int line) {
  if (status == ncclSuccess) return;
  throw gpgpu::ApiError(gpgpu::describe_failed_call(call, file, line, std::string("NCCL: ") + ncclGetErrorString(status)));
}
#define CH13_NCCL_CHECK(call) nccl_check((call), #call, __FILE__, __LINE__)

//! [nccl_comm]
/// One NCCL communicator over every rank (RAII): rank 0 asks NCCL for a unique id, MPI broadcasts
/// it, and every rank joins the communicator with it, on the GPU that is current (rank_device).
class NcclComm {
 public:
  explicit NcclComm(const MpiSession& mpi) {
    ncclUniqueId id{};
    if (mpi.rank() == 0) CH13_NCCL_CHECK(ncclGetUniqueId(&id));
    CH13_MPI_CHECK(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD));
    CH13_NCCL_CHECK(ncclCommInitRank(&comm_, mpi.size(), id, mpi.rank()));
  }
  ~NcclComm() {
    if (comm_ != nullptr) (void)ncclCommDestroy(comm_);
  }
  NcclComm(const NcclComm&) = delete;
  NcclComm& operator=(const NcclComm&) = delete;
  [[nodiscard]] ncclComm_t get() const { return comm_; }

 private:
  ncclComm_t comm_ = nullptr;
};
//! [nccl_comm]

class NcclPart : public GpuPart {
 public:
  NcclPart(const PartInputs& in, const MpiSession& mpi) : GpuPart(in), comm_(mpi) {}

  Stop iterate(int iters, float omega, Mode mode, const Convergence& check) override {
    const auto run = [&](int count, bool norm_wanted) {
      const int plain = norm_wanted ? count - 1 : count;
      for (int it = 0; it < plain; ++it, in_ = 1 - in_) step(in_, omega, mode);
      if (norm_wanted) checked_step(omega);
    };
    const Stop stop = gpgpu::jacobi::iterate_checked(iters, check, run, [&] { return wait_norm(); }, [&] { in_ = 1 - in_; });
    synchronize();
    return stop;
  }

  [[nodiscard]] std::string launch() const override {
    return slab_.describe() + ", boundary rows on a high-priority stream, ncclSend/ncclRecv";
  }


 protected:
  void synchronize() {
    GPGPU_CUDA_CHECK(cudaStreamSynchronize(slab_.boundary_stream.get()));
    GPGPU_CUDA_CHECK(cudaStreamSynchronize(slab_.compute_stream.get()));
  }

  //! [nccl_norm]
  // One iteration with the norm: the sweep's launches add this GPU's Σ (x_new − x)²; ncclAllReduce
  // sums the GPUs' on the boundary stream once the interior has added its rows (in the stream order
  // of the communicator's operations: after this iteration's exchange, before the next one's), and the
  // sum goes to pinned memory on the norm's own stream. Nothing waits here: the host reads the sum
  // in wait_norm(), before launching the next iteration (--check-overlap off) or once it is under
  // way (on), while that iteration's interior runs beside the allreduce.
  void checked_step(float omega) {
    slab_.start_norm();
    step(in_, omega, Mode::full);
    in_ = 1 - in_;
    const cudaStream_t stream = slab_.boundary_stream.get();
    slab_.finish_norm(stream);
    double* sum = slab_.squared_sum_on_device();
    CH13_NCCL_CHECK(ncclAllReduce(sum, sum, 1, ncclDouble, ncclSum, comm_.get(), stream));
    slab_.copy_norm_to_host(stream);
  }
  double wait_norm() { return std::sqrt(slab_.squared_sum()); }
  //! [nccl_norm]

  //! [nccl]
  // The boundary rows, then their exchange with both neighbours as one NCCL group, on `boundary`.
  void boundary(int in, float omega, Mode mode, cudaStream_t stream) {
    const int out = 1 - in, last = slab_.rows() - 1, nx = slab_.nx();
    if (mode != Mode::exchange_only) {
      slab_.compute(in, omega, 0, 1, stream);
      if (last > 0) slab_.compute(in, omega, last, 1, stream);
    }
    slab_.boundary_done.record(stream);
    if (mode == Mode::compute_only) return;
    CH13_NCCL_CHECK(ncclGroupStart());
    if (below_ != MPI_PROC_NULL) {
      CH13_NCCL_CHECK(ncclSend(slab_.row(out, 0), nx, ncclFloat, below_, comm_.get(), stream));
      CH13_NCCL_CHECK(ncclRecv(slab_.row(out, -1), nx, ncclFloat, below_, comm_.get(), stream));
    }
    if (above_ != MPI_PROC_NULL) {
      CH13_NCCL_CHECK(ncclSend(slab_.row(out, last), nx, ncclFloat, above_, comm_.get(), stream));
      CH13_NCCL_CHECK(ncclRecv(slab_.row(out, last + 1), nx, ncclFloat, above_, comm_.get(), stream));
    }
    CH13_NCCL_CHECK(ncclGroupEnd());
  }

  void step(int in, float omega, Mode mode) {
    const cudaStream_t boundary_stream = slab_.boundary_stream.get(), interior = slab_.compute_stream.get();
    slab_.computed.wait_in(boundary_stream);  // the last interior read the rows overwritten now
    slab_.boundary_done.wait_in(interior);    // the last boundary rows, read by this interior
    boundary(in, omega, mode, boundary_stream);
    if (mode != Mode::exchange_only) slab_.compute(in, omega, 1, slab_.rows() - 2, interior);
    slab_.computed.record(interior);
  }
  //! [nccl]

  NcclComm comm_;
};

//! [nccl_graph]
// The NCCL iteration captured once per parity of `in` and replayed: one cudaGraphLaunch per
// iteration instead of some ten calls (launches, event records and waits, NCCL's group).
class NcclGraphPart final : public NcclPart {
 public:
  NcclGraphPart(const PartInputs& in, const MpiSession& mpi, float omega) : NcclPart(in, mpi), omega_(omega) {}
  ~NcclGraphPart() override {
    for (cudaGraphExec_t g : graphs_)
      if (g != nullptr) (void)cudaGraphExecDestroy(g);
  }
  NcclGraphPart(const NcclGraphPart&) = delete;
  NcclGraphPart& operator=(const NcclGraphPart&) = delete;

  // A checked iteration runs outside the graphs, as nccl's checked_step: its launches are the norm
  // kernels, and its norm must reach the host, which decides whether another graph is launched (a
  // graph could hold the norm's kernels and the allreduce, not the decision). Its wait overlaps as
  // nccl's does: the next graph is launched before the host reads the norm. That graph, its
  // interior too, starts after the allreduce (stream order), so the host's round trip is hidden
  // and the allreduce itself is not.
  Stop iterate(int iters, float omega, Mode mode, const Convergence& check) override {
    if (mode != Mode::full) return NcclPart::iterate(iters, omega, mode, check);
    if (graphs_[0] == nullptr || omega != omega_ || stale_) capture(omega);
    const cudaStream_t stream = slab_.boundary_stream.get();
    const auto run = [&](int count, bool norm_wanted) {
      const int graphed = norm_wanted ? count - 1 : count;
      for (int it = 0; it < graphed; ++it, in_ = 1 - in_)
        GPGPU_CUDA_CHECK(cudaGraphLaunch(graphs_[static_cast<std::size_t>(in_)], stream));
      if (!norm_wanted) return;
      // The graphs end on the boundary stream: the un-captured interior must wait for them, and its
      // event's last record was made at capture time.
      slab_.boundary_done.record(stream);
      checked_step(omega);
    };
    const Stop stop = gpgpu::jacobi::iterate_checked(iters, check, run, [&] { return wait_norm(); }, [&] { in_ = 1 - in_; });
    synchronize();
    return stop;
  }

  [[nodiscard]] std::string launch() const override { return NcclPart::launch() + ", one CUDA graph per iteration"; }
  bool set_launch(const LaunchShape& shape) override {
    stale_ = true;  // the graphs hold the old launches
    return NcclPart::set_launch(shape);
  }

 private:
  // Within a graph the interior forks off the boundary stream and joins it at the end; graph
  // launches on one stream run one after the other, which orders one iteration after the last.
  // That order is stricter than nccl's: the next graph, its interior included, starts only once
  // this one's exchange has ended, where nccl's next interior waits only for the boundary rows.
  void capture(float omega) {
    omega_ = omega;
    stale_ = false;
    const cudaStream_t boundary_stream = slab_.boundary_stream.get(), interior = slab_.compute_stream.get();
    for (int in = 0; in < 2; ++in) {
      cudaGraph_t graph = nullptr;
      const gpgpu::cuda::CaptureScope capturing;  // no synchronising launch checks while recording
      GPGPU_CUDA_CHECK(cudaStreamBeginCapture(boundary_stream, cudaStreamCaptureModeThreadLocal));
      fork_.record(boundary_stream);
      fork_.wait_in(interior);
      boundary(in, omega, Mode::full, boundary_stream);
      slab_.compute(in, omega, 1, slab_.rows() - 2, interior);
      join_.record(interior);
      join_.wait_in(boundary_stream);
      GPGPU_CUDA_CHECK(cudaStreamEndCapture(boundary_stream, &graph));
      cudaGraphExec_t& exec = graphs_[static_cast<std::size_t>(in)];
      if (exec != nullptr) GPGPU_CUDA_CHECK(cudaGraphExecDestroy(exec));
      const cudaError_t status = cudaGraphInstantiate(&exec, graph, 0);
      (void)cudaGraphDestroy(graph);
      GPGPU_CUDA_CHECK(status);
    }
    // The events' last records were inside the capture, where they only ordered the graph's nodes;
    // record them again so that the un-captured iteration (compute or exchange alone) can wait on them.
    slab_.boundary_done.record(boundary_stream);
    slab_.computed.record(interior);
  }

  float omega_;
  bool stale_ = true;
  SyncEvent fork_, join_;
  std::array<cudaGraphExec_t, 2> graphs_{nullptr, nullptr};
};
//! [nccl_graph]

#endif  // GPGPU_HAVE_NCCL

}  // namespace

std::unique_ptr<Part> make_gpu_part(PartKind kind, const PartInputs& in, const MpiSession& mpi) {
  GPGPU_CUDA_CHECK(cudaSetDevice(rank_device(mpi)));
  switch (kind) {
    case PartKind::mpi_gpu: return std::make_unique<MpiGpuPart>(in);
#if GPGPU_HAVE_NCCL
    case PartKind::nccl: return std::make_unique<NcclPart>(in, mpi);
    case PartKind::nccl_graph: return std::make_unique<NcclGraphPart>(in, mpi, 0.0f);
#endif
    default:
      throw std::logic_error("this build has no part of that kind (NCCL not found at configure time)");
  }
}

}  // namespace ch13
