// Chapter 12's CUDA host code, in the order a run uses it: allocate (untimed), upload the case's
// arrays and poison the result, call `calls` times between two CUDA events, download the result.
// Every variant is one Call on the same buffers: a launch from kernels/blas/cuda or
// kernels/conv/cuda, or a cuBLAS or NPP call (cublas_variants.cpp, npp_variants.cpp). At the end,
// the list of our kernels' variants (cuda_variants()).
#include "cuda_variants.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <utility>

#include "blas/cuda/launchers.hpp"
#include "blas/cuda/level12.hpp"
#include "chunks.hpp"
#include "conv/cuda/conv_args.hpp"
#include "gpgpu/blas/cuda/fma_peak.hpp"
#include "gpgpu/cuda/check.hpp"
#include "gpgpu/cuda/device.hpp"
#include "gpgpu/cuda/opener.hpp"
#include "gpgpu/timing.hpp"
#include "variants.hpp"

namespace ch12 {

namespace bc = gpgpu::blas::cuda;
namespace cc = gpgpu::conv::cuda;
using gpgpu::blas::Case;
using gpgpu::blas::Routine;

namespace {

std::size_t count(const std::vector<float>& v) { return v.size(); }
bool in_place(Routine r) { return r == Routine::saxpy || r == Routine::sscal; }
std::size_t out_size(const Case& c) { return in_place(c.routine) ? 0 : static_cast<std::size_t>(c.output_size()); }

// Elements of each array of a case, from its sizes alone (make_case's arrays, before they exist).
struct Sizes {
  std::size_t a = 0, b = 0, x = 0, y = 0, out = 0, factors = 0;
  [[nodiscard]] double bytes() const { return 4.0 * static_cast<double>(a + b + x + y + out + factors); }
};
Sizes sizes_of(const Case& c) {
  Sizes s;
  const auto z = [](std::int64_t v) { return static_cast<std::size_t>(v); };
  switch (c.routine) {
    case Routine::saxpy: s.x = s.y = z(c.n); break;
    case Routine::sscal: s.x = z(c.n); break;
    case Routine::sgemv: s.a = z(c.m * c.n); s.x = z(c.n); break;
    case Routine::sgemv_t: s.a = z(c.m * c.n); s.x = z(c.m); break;
    case Routine::sgemm: s.a = z(c.m * c.k); s.b = z(c.k * c.n); break;
    case Routine::conv2d: s.a = z(c.m * c.n); s.b = z(c.k * c.k); s.factors = c.separable ? z(2 * c.k) : 0; break;
  }
  s.out = out_size(c);
  return s;
}

}  // namespace

DeviceRoutine::DeviceRoutine(const Case& shape, Call call, std::string launch, std::size_t scratch, Call prepare)
    : routine_(shape.routine), call_(std::move(call)), launch_(std::move(launch)), prepare_(std::move(prepare)) {
  const Sizes s = sizes_of(shape);
  a_ = gpgpu::cuda::DeviceBuffer<float>(s.a);
  b_ = gpgpu::cuda::DeviceBuffer<float>(s.b);
  x_ = gpgpu::cuda::DeviceBuffer<float>(s.x);
  y_ = gpgpu::cuda::DeviceBuffer<float>(s.y);
  out_ = gpgpu::cuda::DeviceBuffer<float>(s.out);
  factors_ = gpgpu::cuda::DeviceBuffer<float>(s.factors);
  scratch_ = gpgpu::cuda::DeviceBuffer<float>(scratch);
  operands_ = {a_.get(), b_.get(), x_.get(), y_.get(), out_.get(), factors_.get(), scratch_.get(),
               static_cast<int>(shape.m), static_cast<int>(shape.n), static_cast<int>(shape.k), shape.alpha, nullptr};
}

void DeviceRoutine::upload(const Case& c) {
  if (count(c.a) != a_.size() || count(c.b) != b_.size() || count(c.x) != x_.size() || count(c.y) != y_.size() ||
      count(c.factors) != factors_.size())
    throw std::invalid_argument("DeviceRoutine::upload: a case of other sizes than the buffers'");
  a_.upload(c.a);
  b_.upload(c.b);
  x_.upload(c.x);
  y_.upload(c.y);
  factors_.upload(c.factors);
  if (scratch_.size() > 0) scratch_.fill_bytes(0xFF);  // NaN: a pass that reads what another did not write fails
  if (out_.size() > 0) out_.fill_bytes(0xFF);  // NaN in every element until the routine writes it
  if (prepare_) prepare_(operands_);
  GPGPU_CUDA_CHECK(cudaDeviceSynchronize());   // the operands and the poison are in place
}

//! [cuda_run]
double DeviceRoutine::run(int calls) {
  timer_.start();
  for (int c = 0; c < calls; ++c) call_(operands_);
  timer_.stop();
  return timer_.seconds();
}
//! [cuda_run]

std::vector<float> DeviceRoutine::download() {
  if (routine_ == Routine::saxpy) return y_.download(0, y_.size());
  if (routine_ == Routine::sscal) return x_.download(0, x_.size());
  return out_.download(0, out_.size());
}

//! [copies]
void DeviceRoutine::copy_call_copy(const float* a, const float* b, const float* x, const float* y, const float* factors,
                                   float* result) {
  const auto up = [](gpgpu::cuda::DeviceBuffer<float>& d, const float* host) {
    if (d.size() > 0) GPGPU_CUDA_CHECK(cudaMemcpyAsync(d.get(), host, d.bytes(), cudaMemcpyHostToDevice, nullptr));
  };
  up(a_, a);
  up(b_, b);
  up(x_, x);
  up(y_, y);
  up(factors_, factors);
  if (prepare_) prepare_(operands_);
  call_(operands_);
  const gpgpu::cuda::DeviceBuffer<float>& r = routine_ == Routine::saxpy ? y_ : routine_ == Routine::sscal ? x_ : out_;
  GPGPU_CUDA_CHECK(cudaMemcpyAsync(result, r.get(), r.bytes(), cudaMemcpyDeviceToHost, nullptr));
  GPGPU_CUDA_CHECK(cudaStreamSynchronize(nullptr));
}

void DeviceRoutine::make_pinned(const Case& c) {
  if (!pinned_.empty()) return;
  for (const std::vector<float>* v : {&c.a, &c.b, &c.x, &c.y, &c.factors}) {
    pinned_.emplace_back(v->size());
    std::copy(v->begin(), v->end(), pinned_.back().data());
  }
  pinned_.emplace_back(static_cast<std::size_t>(c.output_size()));
}

std::optional<double> DeviceRoutine::with_copies(const Case& c, bool pinned) {
  if (!pinned) {
    pageable_result_.resize(static_cast<std::size_t>(c.output_size()));
    gpgpu::Stopwatch clock;
    copy_call_copy(c.a.data(), c.b.data(), c.x.data(), c.y.data(), c.factors.data(), pageable_result_.data());
    return clock.seconds();
  }
  make_pinned(c);  // page-locked copies of the operands, as an application would keep them
  gpgpu::Stopwatch clock;
  copy_call_copy(pinned_[0].data(), pinned_[1].data(), pinned_[2].data(), pinned_[3].data(), pinned_[4].data(), pinned_[5].data());
  return clock.seconds();
}
//! [copies]

namespace {

constexpr int kOverlapChunks = 8;
constexpr std::size_t kBands = 3;  // the convolution's band buffers: one computed, one copied down, one spare

void destroy_stream(CUstream_st* s) { (void)cudaStreamDestroy(s); }

// Device bytes the overlapped run adds to the operands: the convolution's band buffers.
double overlap_bytes(const Case& c) {
  return c.routine == Routine::conv2d ? 4.0 * kBands * static_cast<double>(largest_band(plan_chunks(c, kOverlapChunks))) : 0.0;
}

}  // namespace

//! [overlapped]
std::optional<double> DeviceRoutine::overlapped(const Case& c) {
  const std::vector<Chunk> plan = chunkable_ ? plan_chunks(c, kOverlapChunks) : std::vector<Chunk>{};
  if (plan.empty()) return std::nullopt;
  make_pinned(c);
  if (streams_.empty()) {  // untimed, once: the three streams, the convolution's band buffers
    for (int s = 0; s < 3; ++s) {
      cudaStream_t stream = nullptr;
      GPGPU_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
      streams_.emplace_back(stream, destroy_stream);
    }
    if (routine_ == Routine::conv2d)
      for (std::size_t b = 0; b < kBands; ++b) bands_.emplace_back(static_cast<std::size_t>(largest_band(plan)));
  }
  for (std::vector<gpgpu::cuda::Event>* events : {&uploaded_, &computed_, &downloaded_})
    if (events->size() < plan.size()) events->resize(plan.size());
  const auto device = [this](Array a) { return a == Array::a ? a_.get() : a == Array::b ? b_.get() : a == Array::x ? x_.get() : y_.get(); };
  const auto host = [this](Array a) { return pinned_[static_cast<std::size_t>(a)].data(); };
  float* result = pinned_[5].data();
  std::fill(result, result + pinned_[5].size(), std::numeric_limits<float>::quiet_NaN());  // untimed: a part no chunk copies fails
  // One stream per job. The copies up go in order on one stream: copies up issued from three streams
  // at once share the bus and took longer in all than the same bytes in one stream. In order, chunk
  // i's upload also means every earlier chunk's is done, which covers the shared operands and the
  // halo rows (Chunk::waits).
  cudaStream_t up = streams_[0].get(), compute = streams_[1].get(), down = streams_[2].get();
  gpgpu::Stopwatch clock;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const Chunk& ch = plan[i];
    for (const Copy& copy : ch.uploads)
      GPGPU_CUDA_CHECK(cudaMemcpyAsync(device(copy.array) + copy.first, host(copy.array) + copy.first, sizeof(float) * copy.count,
                                       cudaMemcpyHostToDevice, up));
    GPGPU_CUDA_CHECK(cudaEventRecord(uploaded_[i].get(), up));
    GPGPU_CUDA_CHECK(cudaStreamWaitEvent(compute, uploaded_[i].get(), 0));
    const std::size_t band = i % kBands;  // a band buffer is free again once its last chunk is copied down
    if (routine_ == Routine::conv2d && i >= kBands) GPGPU_CUDA_CHECK(cudaStreamWaitEvent(compute, downloaded_[i - kBands].get(), 0));
    DeviceOperands d = operands_;  // the chunk's part of the operands, on the compute stream
    d.stream = compute;
    d.a = a_.get() + ch.a_first;
    d.x = routine_ == Routine::sgemv ? x_.get() : x_.get() + ch.x_first;  // SGEMV's x is shared by every band
    if (routine_ == Routine::saxpy) d.y = y_.get() + ch.x_first;
    d.out = routine_ == Routine::conv2d ? bands_[band].get() : out_.get() + ch.out_first;
    d.m = static_cast<int>(ch.m);
    d.n = static_cast<int>(ch.n);
    call_(d);
    GPGPU_CUDA_CHECK(cudaEventRecord(computed_[i].get(), compute));
    GPGPU_CUDA_CHECK(cudaStreamWaitEvent(down, computed_[i].get(), 0));
    const float* part = routine_ == Routine::saxpy   ? d.y
                        : routine_ == Routine::sscal ? d.x
                        : routine_ == Routine::sgemv ? d.out
                                                     : bands_[band].get() + ch.band_skip * ch.n;
    GPGPU_CUDA_CHECK(cudaMemcpyAsync(result + ch.result_first, part, sizeof(float) * ch.result_count, cudaMemcpyDeviceToHost, down));
    GPGPU_CUDA_CHECK(cudaEventRecord(downloaded_[i].get(), down));
  }
  GPGPU_CUDA_CHECK(cudaStreamSynchronize(down));
  return clock.seconds();
}
//! [overlapped]

std::vector<float> DeviceRoutine::copied_result() {
  if (pinned_.size() < 6) return {};
  return {pinned_[5].data(), pinned_[5].data() + pinned_[5].size()};
}

gpgpu::blas::RoutineVariant cuda_variant(std::string name, Routine routine, std::string description, std::string source) {
  gpgpu::blas::RoutineVariant v;
  v.info = {.name = name, .backend = gpgpu::Backend::cuda, .description = std::move(description), .source = std::move(source),
            .timer = "CUDA events"};
  v.opener = gpgpu::cuda::opener;
  v.routine = routine;
  v.peak = gpgpu::blas::cuda::fma_peak;
  v.check_fits = gpgpu::blas::for_case(routine, [name](const Case& c, gpgpu::Session&) {
    gpgpu::cuda::require_device_memory(sizes_of(c).bytes() + overlap_bytes(c), name + " on " + c.size_str());
  });
  return v;
}

namespace {

using Launch = std::function<void(const DeviceOperands&, int sm_count)>;

struct KernelVariant {
  const char* name;
  Routine routine;
  const char* file;  // under kernels/
  const char* description;
  const char* launch;
  Launch call;
};

// Every variant's make() refers to its entry: a function's static, made on first use, lives to the
// end of the program.
const std::vector<KernelVariant>& kernels() {
  //! [cuda_calls]
  static const std::vector<KernelVariant> list{
    {"cuda_saxpy", Routine::saxpy, "blas/cuda/12_01_saxpy.cu", "y = a x + y, a float4 per thread", "256 threads, a float4 per thread",
     [](const DeviceOperands& d, int) { bc::launch_saxpy({d.x, d.y, d.alpha, d.n}, d.stream); }},
    {"cuda_sscal", Routine::sscal, "blas/cuda/12_02_sscal.cu", "x = a x, a float4 per thread", "256 threads, a float4 per thread",
     [](const DeviceOperands& d, int) { bc::launch_sscal({nullptr, d.x, d.alpha, d.n}, d.stream); }},
    {"cuda_sgemv_warp", Routine::sgemv, "blas/cuda/12_03_sgemv_rows.cu", "y = A x, a warp per row, float4 when n % 4 = 0",
     "8 rows (warps) per block",
     [](const DeviceOperands& d, int) { bc::launch_sgemv_rows({d.a, d.x, d.out, d.m, d.n}, d.stream); }},
    {"cuda_sgemv_t_tiled", Routine::sgemv_t, "blas/cuda/12_04_sgemv_t_columns.cu", "y = Aᵀ x, 32 columns x 256 rows per block, atomicAdd",
     "32 x 8 threads, 32 columns x 256 rows per block",
     [](const DeviceOperands& d, int) { bc::launch_sgemv_t_columns({d.a, d.x, d.out, d.m, d.n}, d.stream); }},
    {"cuda_sgemm", Routine::sgemm, "blas/cuda/10_07_double_buffer.cu", "chapter 10's step 7: warp tiles, cp.async double buffer",
     "128 x 128 of C per block, 256 threads",
     [](const DeviceOperands& d, int) { bc::launch_double_buffer<float>({d.a, d.b, d.out, d.m, d.n, d.k}, d.stream); }},
    {"cuda_conv2d_naive", Routine::conv2d, "conv/cuda/12_01_conv_naive.cu", "a thread per pixel, image and filter from global memory",
     "32 x 8 threads", [](const DeviceOperands& d, int) { cc::launch_conv_naive({d.a, d.b, d.out, d.m, d.n, d.k}, d.stream); }},
    {"cuda_conv2d_constant", Routine::conv2d, "conv/cuda/12_02_conv_constant.cu", "the naive kernel, filter in constant memory",
     "32 x 8 threads", [](const DeviceOperands& d, int) { cc::launch_conv_constant({d.a, d.b, d.out, d.m, d.n, d.k}, d.stream); }},
    {"cuda_conv2d_tiled", Routine::conv2d, "conv/cuda/12_03_conv_tiled.cu", "shared-memory tile with its halo, filter in constant memory",
     "32 x 8 threads, (8 + k - 1) x (32 + k - 1) tile",
     [](const DeviceOperands& d, int) { cc::launch_conv_tiled({d.a, d.b, d.out, d.m, d.n, d.k}, d.stream); }},
    {"cuda_conv2d_register", Routine::conv2d, "conv/cuda/12_04_conv_register.cu", "the tile, 8 outputs per thread down a column, k compiled in",
     "32 x 8 threads, 32 x 64 pixels per block",
     [](const DeviceOperands& d, int) { cc::launch_conv_register({d.a, d.b, d.out, d.m, d.n, d.k}, d.stream); }},
    {"cuda_conv2d_float4", Routine::conv2d, "conv/cuda/12_05_conv_float4.cu",
     "4 x 4 outputs per thread (4 along a row, 16-byte shared loads), the filter-row loop rolled, k compiled in",
     "32 x 8 threads, 128 x 32 pixels per block",
     [](const DeviceOperands& d, int) { cc::launch_conv_float4({d.a, d.b, d.out, d.m, d.n, d.k}, d.stream); }},
    {"cuda_conv2d_aligned", Routine::conv2d, "conv/cuda/12_07_conv_aligned.cu",
     "4 x 4 outputs per thread, the tile loaded and the outputs stored 16 bytes at a time when cols % 4 = 0, k compiled in",
     "32 x 8 threads, 128 x 32 pixels per block",
     [](const DeviceOperands& d, int) { cc::launch_conv_aligned({d.a, d.b, d.out, d.m, d.n, d.k}, d.stream); }},
  };
  //! [cuda_calls]
  return list;
}

// Our kernels put row blocks on gridDim.y, which is at most 65535 on every GPU.
std::optional<std::string> grid_limitation(const Case& c) {
  constexpr long long kMaxGridY = 65535;
  if (c.routine == Routine::conv2d && c.m > kMaxGridY * cc::kBlockY)  // the register tile's blocks are taller
    return "an image of more than " + std::to_string(kMaxGridY * cc::kBlockY) + " rows needs more than 65535 block rows";
  if (c.routine == Routine::sgemv_t && c.m > kMaxGridY * bc::kGemvTRows)
    return "A of more than " + std::to_string(kMaxGridY * bc::kGemvTRows) + " rows needs more than 65535 block rows";
  return std::nullopt;
}

// The separable convolution needs what the other variants do not: the filter's factors, an
// intermediate image, and its own work table. The factors come with the case (make_case fills them
// for --filter separable) rather than from a rank test of the k x k filter: whoever builds a
// separable filter (a box, a Gaussian, Sobel's) builds it from its factors, which is also what the
// libraries' separable calls take (NPP's nppiFilterRow/nppiFilterColumn); factors recovered from
// the rounded filter would differ from these by rounding, one more error term for the bound.
gpgpu::blas::RoutineVariant separable_variant() {
  gpgpu::blas::RoutineVariant v = cuda_variant("cuda_conv2d_separable", Routine::conv2d, "rank-one filter: a row pass, then a column pass",
                                               "kernels/conv/cuda/12_06_conv_separable.cu");
  //! [cuda_separable]
  v.make = [](const Case& c, gpgpu::Session&) -> std::unique_ptr<gpgpu::blas::RoutineOperation> {
    const auto call = [](const DeviceOperands& d) {
      cc::launch_conv_separable({d.a, d.factors, d.scratch, d.out, d.m, d.n, d.k}, d.stream);
    };
    return std::make_unique<DeviceRoutine>(c, call, "32 x 8 threads; rows: 8 x 128, columns: 32 x 32 pixels per block",
                                           static_cast<std::size_t>(c.m * c.n));  // the row pass's output
  };
  v.work = [](const Case& c, int calls) { return gpgpu::conv::conv2d_separable_work(c.image_shape(), calls); };
  v.limitation = gpgpu::blas::for_case(Routine::conv2d, [](const Case& c, gpgpu::Session&) -> std::optional<std::string> {
    if (!c.separable) return "the filter is not separable (--filter separable makes a rank-one one)";
    return grid_limitation(c);
  });
  v.check_fits = gpgpu::blas::for_case(Routine::conv2d, [](const Case& c, gpgpu::Session&) {
    gpgpu::cuda::require_device_memory(sizes_of(c).bytes() + 4.0 * static_cast<double>(c.m * c.n),
                                       "cuda_conv2d_separable on " + c.size_str());
  });
  //! [cuda_separable]
  return v;
}

}  // namespace

std::vector<gpgpu::blas::RoutineVariant> cuda_variants() {
  std::vector<gpgpu::blas::RoutineVariant> v;
  for (const KernelVariant& k : kernels()) {
    v.push_back(cuda_variant(k.name, k.routine, k.description, std::string("kernels/") + k.file));
    v.back().make = [&k](const Case& c, gpgpu::Session& session) -> std::unique_ptr<gpgpu::blas::RoutineOperation> {
      const int sms = gpgpu::cuda::device_info(session).sm_count;
      auto routine = std::make_unique<DeviceRoutine>(c, [&k, sms](const DeviceOperands& d) { k.call(d, sms); }, k.launch);
      routine->set_chunkable();  // each launch works on the operands it is given, on their stream
      return routine;
    };
    v.back().limitation = gpgpu::blas::for_case(k.routine, [](const Case& c, gpgpu::Session&) { return grid_limitation(c); });
  }
  for (gpgpu::blas::RoutineVariant& r : v)  // the paper's tuned G80 convolution used shared memory (sec. 5.2)
    if (r.info.name == "cuda_conv2d_tiled") r.info.paper_name = "GPU (CUDA, shared memory)";
  v.push_back(separable_variant());
  return v;
}

}  // namespace ch12
