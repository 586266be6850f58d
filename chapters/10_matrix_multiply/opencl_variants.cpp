// Chapter 10's OpenCL host code: cudaMalloc / cudaMemcpy / kernel<<<grid, block>>>(...) / cudaEvent
// timing of cuda_variants.cpp, spelled out with handles: buffers, a kernel object with its arguments
// set once, an NDRange enqueued `calls` times with profiling events on the first and the last
// launch, the read-back. The kernels are compiled from the embedded sources with -DT=float or
// -DT=double -DUSE_FP64, those with 16-byte loads after vector_load.cl.
#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "embedded/_10_03_blocktile_1d_cl.hpp"
#include "embedded/_10_04_blocktile_2d_cl.hpp"
#include "embedded/_10_01_naive_cl.hpp"
#include "embedded/_10_10_prefetch_cl.hpp"
#include "embedded/_10_02_tile16_cl.hpp"
#include "embedded/_10_05_vectorized_cl.hpp"
#include "embedded/_10_06_warptile_cl.hpp"
#include "embedded/vector_load_cl.hpp"
#include "gpgpu/opencl/opener.hpp"
#include "gpgpu/opencl/runtime.hpp"
#include "variants.hpp"

namespace ch10 {
namespace {

using gpgpu::blas::Dims;
using gpgpu::blas::ElementType;
using gpgpu::blas::HostMatrix;
using gpgpu::ocl::round_up;

struct ClVariant {
  const char* name;
  const char* ports;       // the CUDA variant
  const char* paper_name;  // paper 003's name for it, or ""
  const char* description;
  const gpgpu::EmbeddedText* source;
  const char* kernel;
  std::size_t local_x, local_y;  // the work-group
  std::size_t tile_m, tile_n;    // of C per work-group
  bool vector_load = false;      // compiled after kernels/blas/opencl/vector_load.cl (load_segment, load16)
  std::size_t tile_n_f64 = 0;    // in double, where the kernel's tile is narrower (10_10_prefetch.cl); 0: tile_n

  [[nodiscard]] std::size_t tile_n_of(ElementType type) const {
    return type == ElementType::f64 && tile_n_f64 != 0 ? tile_n_f64 : tile_n;
  }
};

constexpr std::array kVariants{
    ClVariant{"cl_naive", "cuda_naive", "OpenCL", "one work-item per element of C (paper Obr. 9)",
              &gpgpu::embedded::_10_01_naive_cl, "gemm_naive", 16, 16, 16, 16},
    ClVariant{"cl_tile16", "cuda_tile16", "OPT OpenCL", "16 x 16 tiles in __local memory (paper Obr. 10 in OpenCL)",
              &gpgpu::embedded::_10_02_tile16_cl, "gemm_tile16", 16, 16, 16, 16},
    ClVariant{"cl_blocktile_1d", "cuda_blocktile_1d", "", "64 x 64 tile per work-group of 256, 16 elements per work-item",
              &gpgpu::embedded::_10_03_blocktile_1d_cl, "gemm_blocktile_1d", 256, 1, 64, 64},
    ClVariant{"cl_blocktile_2d", "cuda_blocktile_2d", "", "128 x 128 tile per work-group, 8 x 8 per work-item",
              &gpgpu::embedded::_10_04_blocktile_2d_cl, "gemm_blocktile_2d", 256, 1, 128, 128},
    ClVariant{"cl_vectorized", "cuda_vectorized", "", "the 8 x 8 blocking with 16-byte loads and a transposed A tile",
              &gpgpu::embedded::_10_05_vectorized_cl, "gemm_vectorized", 256, 1, 128, 128, true},
    ClVariant{"cl_warptile", "cuda_warptile", "", "the vectorized kernel with 32 x 64 warp tiles (32-wide warps assumed)",
              &gpgpu::embedded::_10_06_warptile_cl, "gemm_warptile", 256, 1, 128, 128, true},
    ClVariant{"cl_prefetch", "cuda_prefetch", "",
              "the next tiles through registers, fragments prefetched, A in a padded tile, work-groups grouped "
              "(128 x 256, 8 x 16 per work-item; double 128 x 128, 8 x 8)",
              &gpgpu::embedded::_10_10_prefetch_cl, "gemm_prefetch", 256, 1, 128, 256, true, 128},
};

// The program of a variant: its kernel file, after vector_load.cl where it uses it (as the CUDA
// kernels include vector_load.hpp), with #line directives so that compiler messages name the right
// file and line. One text per kernel file, kept for the life of the process.
const gpgpu::EmbeddedText& program_source(const ClVariant& v) {
  if (!v.vector_load) return *v.source;
  struct Joined {
    std::string text;
    gpgpu::EmbeddedText embedded;
  };
  static std::mutex mutex;
  static std::map<std::string_view, Joined> programs;  // by kernel file; a map's entries stay where they are
  const std::lock_guard lock(mutex);
  auto [it, added] = programs.try_emplace(v.source->path);
  if (added) {
    const gpgpu::EmbeddedText& prelude = gpgpu::embedded::vector_load_cl;
    it->second.text = "#line 1 \"" + std::string(prelude.path) + "\"\n" + std::string(prelude.text) + "\n#line 1 \"" +
                      std::string(v.source->path) + "\"\n" + std::string(v.source->text);
    it->second.embedded = {v.source->path, it->second.text};
  }
  return it->second.embedded;
}

// The element type, its 16-byte vector (TV, L lanes), and whether every row starts on 16 bytes (k
// and n multiples of L: 10_05_vectorized.cl and the kernels after it then load whole vectors; the
// earlier kernels ignore it).
std::string type_options(ElementType type, bool aligned = false) {
  return (type == ElementType::f64 ? "-DT=double -DUSE_FP64 -DTV=double2 -DL=2" : "-DT=float -DTV=float4 -DL=4") +
         std::string(aligned ? " -DALIGNED=1" : " -DALIGNED=0");
}
bool rows_aligned(const Dims& d, ElementType type) {
  const int lanes = type == ElementType::f64 ? 2 : 4;
  return d.k % lanes == 0 && d.n % lanes == 0;
}

class ClGemm final : public gpgpu::blas::GemmOperation {
 public:
  ClGemm(gpgpu::ocl::Runtime& runtime, const ClVariant& v, Dims d, ElementType type)
      : runtime_(runtime), dims_(d), type_(type), element_(static_cast<std::size_t>(gpgpu::matrix::type_bytes(type))) {
    const cl::Context& context = runtime_.context();
    a_ = GPGPU_CL(cl::Buffer(context, CL_MEM_READ_ONLY, bytes(d.m * d.k)));
    b_ = GPGPU_CL(cl::Buffer(context, CL_MEM_READ_ONLY, bytes(d.k * d.n)));
    c_ = GPGPU_CL(cl::Buffer(context, CL_MEM_WRITE_ONLY, bytes(d.m * d.n)));
    kernel_ = GPGPU_CL(cl::Kernel(runtime_.program(program_source(v), type_options(type, rows_aligned(d, type))), v.kernel));
    cl_uint arg = 0;
    for (const cl::Buffer* buffer : {&a_, &b_, &c_}) GPGPU_CL(kernel_.setArg(arg++, *buffer));
    for (std::int64_t size : {d.m, d.n, d.k}) GPGPU_CL(kernel_.setArg(arg++, static_cast<cl_int>(size)));
    // One work-group per tile of C: dimension 0 along the columns, 1 down the rows (10_10_prefetch.cl maps
    // each work-group to its tile in the grouped order, as its CUDA kernel maps blocks).
    const std::size_t tile_n = v.tile_n_of(type);
    const std::size_t groups_x = round_up(static_cast<std::size_t>(d.n), tile_n) / tile_n;
    const std::size_t groups_y = round_up(static_cast<std::size_t>(d.m), v.tile_m) / v.tile_m;
    global_ = cl::NDRange(groups_x * v.local_x, groups_y * v.local_y);
    local_ = cl::NDRange(v.local_x, v.local_y);
  }

  void upload(const gpgpu::blas::Operands& in) override {
    cl::CommandQueue& queue = runtime_.queue();
    GPGPU_CL(queue.enqueueWriteBuffer(a_, CL_TRUE, 0, bytes(dims_.m * dims_.k), in.a.data()));
    GPGPU_CL(queue.enqueueWriteBuffer(b_, CL_TRUE, 0, bytes(dims_.k * dims_.n), in.b.data()));
    GPGPU_CL(queue.enqueueFillBuffer(c_, cl_uchar{0xFF}, 0, bytes(dims_.m * dims_.n)));  // NaN until written
    GPGPU_CL(queue.finish());
  }

  double run(int calls) override {
    cl::CommandQueue& queue = runtime_.queue();
    cl::Event first, last;  // on the first and the last call only (see chapter 09's opencl_run)
    for (int c = 0; c < calls; ++c)
      GPGPU_CL(queue.enqueueNDRangeKernel(kernel_, cl::NullRange, global_, local_, nullptr,
                                          c == 0 ? &first : (c == calls - 1 ? &last : nullptr)));
    if (calls == 1) last = first;
    GPGPU_CL(last.wait());
    return gpgpu::ocl::profiled_seconds(first, last);
  }

  HostMatrix download() override {
    HostMatrix c = HostMatrix::zeros(dims_.c(), type_);
    GPGPU_CL(runtime_.queue().enqueueReadBuffer(c_, CL_TRUE, 0, c.bytes(), c.data()));
    return c;
  }

  [[nodiscard]] std::string launch() const override {
    return "global " + std::to_string(global_[0]) + " x " + std::to_string(global_[1]) + ", local " +
           std::to_string(local_[0]) + " x " + std::to_string(local_[1]);
  }

 private:
  [[nodiscard]] std::size_t bytes(std::int64_t elements) const { return static_cast<std::size_t>(elements) * element_; }

  gpgpu::ocl::Runtime& runtime_;
  Dims dims_;
  ElementType type_;
  std::size_t element_;
  cl::Buffer a_, b_, c_;
  cl::Kernel kernel_;
  cl::NDRange global_, local_;
};

std::optional<std::string> limitation(const ClVariant& v, ElementType type, gpgpu::ocl::Runtime& runtime) {
  if (type == ElementType::f64 && GPGPU_CL(runtime.device().getInfo<CL_DEVICE_DOUBLE_FP_CONFIG>()) == 0)
    return "the device has no double precision (cl_khr_fp64)";
  const cl::Kernel kernel = GPGPU_CL(cl::Kernel(runtime.program(program_source(v), type_options(type)), v.kernel));
  const std::size_t most = GPGPU_CL(kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(runtime.device()));
  if (v.local_x * v.local_y > most)
    return "needs work-groups of " + std::to_string(v.local_x * v.local_y) + "; the device runs this kernel in at most " +
           std::to_string(most);
  const std::vector<std::size_t> sides = GPGPU_CL(runtime.device().getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>());
  if (sides.size() < 2 || v.local_x > sides[0] || v.local_y > sides[1])
    return "needs work-groups of " + std::to_string(v.local_x) + " x " + std::to_string(v.local_y) +
           " work-items; the device's largest sides are " + std::to_string(sides.empty() ? 0 : sides[0]) + " x " +
           std::to_string(sides.size() < 2 ? 0 : sides[1]);
  return std::nullopt;
}

gpgpu::blas::GemmVariant variant_of(const ClVariant& v) {
  gpgpu::blas::GemmVariant s;
  s.info = {.name = v.name, .backend = gpgpu::Backend::opencl, .description = std::string(v.description) + " (port of " + v.ports + ")",
            .source = std::string(v.source->path), .paper_name = v.paper_name, .timer = "OpenCL profiling events"};
  s.opener = gpgpu::ocl::opener;
  s.ports = v.ports;
  s.make = [&v](const gpgpu::blas::GemmSize& size, gpgpu::Session& session) {
    return std::make_unique<ClGemm>(gpgpu::ocl::runtime_of(session), v, size.dims, size.type);
  };
  s.check_fits = [&v](const gpgpu::blas::GemmSize& size, gpgpu::Session& session) {
    const Dims& d = size.dims;
    const double s = gpgpu::matrix::type_bytes(size.type);
    const double largest = s * static_cast<double>(std::max({d.m * d.k, d.k * d.n, d.m * d.n}));
    gpgpu::ocl::require_device_memory(gpgpu::ocl::runtime_of(session).info(),
                                      s * static_cast<double>(d.m * d.k + d.k * d.n + d.m * d.n), largest,
                                      std::string(v.name) + " on " + d.str());
  };
  s.limitation = [&v](const gpgpu::blas::GemmSize& size, gpgpu::Session& session) {
    return limitation(v, size.type, gpgpu::ocl::runtime_of(session));
  };
  return s;
}

}  // namespace

std::vector<gpgpu::blas::GemmVariant> opencl_variants() {
  std::vector<gpgpu::blas::GemmVariant> variants;
  for (const ClVariant& v : kVariants) variants.push_back(variant_of(v));
  return variants;
}

}  // namespace ch10
