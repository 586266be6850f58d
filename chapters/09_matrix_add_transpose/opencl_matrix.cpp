// Chapter 09's OpenCL host code: the counterpart of cuda_matrix.cpp's cudaMalloc / cudaMemcpy /
// kernel<<<grid, block>>>(...) / cudaEvent timing, spelled out with handles: buffers, a kernel
// object with its arguments set once, an NDRange enqueued `calls` times with profiling events on
// the first and the last launch, the read-back.
#include "opencl_matrix.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "gpgpu/errors.hpp"
#include "gpgpu/matrix/opencl_kernels.hpp"
#include "gpgpu/opencl/opener.hpp"

namespace ch09 {
namespace {

using gpgpu::matrix::ElementType;
using gpgpu::matrix::HostMatrix;
using gpgpu::matrix::Op;
using gpgpu::matrix::Shape;
using gpgpu::ocl::round_up;

constexpr std::size_t kTile = 32, kRowsPerPass = 8;  // as the .cl files' TILE and ROWS_PER_PASS
constexpr std::size_t kFlatGroup = 256;

std::size_t bytes_of(const Shape& s, ElementType t) {
  return static_cast<std::size_t>(s.elements()) * static_cast<std::size_t>(gpgpu::matrix::type_bytes(t));
}

// The operands and the result of one operation in OpenCL buffers, and the kernel (or, for the copy,
// clEnqueueCopyBuffer) that computes it.
class ClMatrices final : public gpgpu::matrix::Kernel {
 public:
  ClMatrices(gpgpu::ocl::Runtime& runtime, const ClVariant& v, Shape shape, ElementType type,
             std::size_t max_flat_items)
      : runtime_(runtime), variant_(v), shape_(shape), type_(type), bytes_(bytes_of(shape, type)) {
    const cl::Context& context = runtime_.context();
    a_ = GPGPU_CL(cl::Buffer(context, CL_MEM_READ_ONLY, bytes_));
    if (v.op == Op::add) b_ = GPGPU_CL(cl::Buffer(context, CL_MEM_READ_ONLY, bytes_));
    out_ = GPGPU_CL(cl::Buffer(context, CL_MEM_WRITE_ONLY, bytes_));
    if (v.kernel.empty()) return;  // the copy needs no kernel
    const cl::Program& program = runtime_.program(gpgpu::matrix::opencl_kernel(v.file), type_options(type));
    kernel_ = GPGPU_CL(cl::Kernel(program, std::string(v.kernel).c_str()));
    cl_uint arg = 0;
    GPGPU_CL(kernel_.setArg(arg++, a_));
    if (v.op == Op::add) GPGPU_CL(kernel_.setArg(arg++, b_));
    GPGPU_CL(kernel_.setArg(arg++, out_));
    GPGPU_CL(kernel_.setArg(arg++, static_cast<cl_int>(shape.rows)));
    GPGPU_CL(kernel_.setArg(arg++, static_cast<cl_int>(shape.cols)));
    launch_ = cl_launch(v.grid, shape, type, max_flat_items);
  }

  void upload(const gpgpu::matrix::Inputs& in) override {
    cl::CommandQueue& queue = runtime_.queue();
    GPGPU_CL(queue.enqueueWriteBuffer(a_, CL_TRUE, 0, bytes_, in.a.data()));
    if (variant_.op == Op::add) GPGPU_CL(queue.enqueueWriteBuffer(b_, CL_TRUE, 0, bytes_, in.b.data()));
    const auto poison = static_cast<cl_uchar>(gpgpu::matrix::poison_byte(type_));
    GPGPU_CL(queue.enqueueFillBuffer(out_, poison, 0, bytes_));
    GPGPU_CL(queue.finish());
  }

  //! [opencl_run]
  double run(int calls) override {
    cl::CommandQueue& queue = runtime_.queue();
    // Events only on the first and the last call: the device clock from the start of one to the
    // end of the other covers every call, and the calls between carry no profiling cost.
    cl::Event first, last;
    for (int c = 0; c < calls; ++c) {
      cl::Event* event = c == 0 ? &first : (c == calls - 1 ? &last : nullptr);
      if (kernel_())
        GPGPU_CL(queue.enqueueNDRangeKernel(kernel_, cl::NullRange, launch_.global, launch_.local, nullptr, event));
      else
        GPGPU_CL(queue.enqueueCopyBuffer(a_, out_, 0, 0, bytes_, nullptr, event));
    }
    if (calls == 1) last = first;
    GPGPU_CL(last.wait());
    return gpgpu::ocl::profiled_seconds(first, last);
  }
  //! [opencl_run]

  HostMatrix download() override {
    HostMatrix out = HostMatrix::zeros(variant_.op == Op::transpose ? shape_.transposed() : shape_, type_);
    GPGPU_CL(runtime_.queue().enqueueReadBuffer(out_, CL_TRUE, 0, bytes_, out.data()));
    return out;
  }

  [[nodiscard]] std::string launch() const override {
    return kernel_() ? launch_.str() : "clEnqueueCopyBuffer";
  }

 private:
  gpgpu::ocl::Runtime& runtime_;
  const ClVariant& variant_;
  Shape shape_;
  ElementType type_;
  std::size_t bytes_;
  cl::Buffer a_, b_, out_;
  cl::Kernel kernel_;
  ClLaunch launch_;
};

gpgpu::matrix::VariantSpec spec_of(const ClVariant& v, std::size_t max_flat_items) {
  gpgpu::matrix::VariantSpec s;
  s.info = {std::string(v.name), gpgpu::Backend::opencl,
            std::string(v.description) + (v.ports.empty() ? "" : " (port of " + std::string(v.ports) + ")"),
            v.kernel.empty() ? "chapters/09_matrix_add_transpose/opencl_matrix.cpp" : std::string(v.file),
            std::string(v.paper_name)};
  s.opener = gpgpu::ocl::opener;
  s.op = v.op;
  s.timer = "OpenCL profiling events";
  s.ports = std::string(v.ports);
  s.make = [&v, max_flat_items](const Shape& shape, ElementType type, gpgpu::Session& session) {
    return std::make_unique<ClMatrices>(gpgpu::ocl::runtime_of(session), v, shape, type, max_flat_items);
  };
  s.check_fits = [&v](const Shape& shape, ElementType type, gpgpu::Session& session) {
    const double matrix = static_cast<double>(bytes_of(shape, type));
    gpgpu::ocl::require_device_memory(gpgpu::ocl::runtime_of(session).info(), (v.op == Op::add ? 3 : 2) * matrix, matrix,
                                      std::string(v.name) + " on a " + shape.str() + " matrix");
  };
  s.limitation = [&v](const Shape&, ElementType type, gpgpu::Session& session) {
    return cl_limitation(v, type, gpgpu::ocl::runtime_of(session));
  };
  return s;
}

}  // namespace


std::string type_options(ElementType type) {
  switch (type) {
    case ElementType::f32: return "-DT=float -DT16=float4";
    case ElementType::f64: return "-DT=double -DT16=double2 -DUSE_FP64";
    case ElementType::i32: break;
  }
  return "-DT=int -DT16=int4";
}

std::string ClLaunch::str() const {
  std::string s = "global " + std::to_string(global[0]);
  if (global.dimensions() > 1) s += " x " + std::to_string(global[1]);
  s += ", local " + std::to_string(local[0]);
  if (local.dimensions() > 1) s += " x " + std::to_string(local[1]);
  return s;
}

ClLaunch cl_launch(ClGrid grid, const Shape& shape, ElementType type, std::size_t max_flat_items) {
  const auto rows = static_cast<std::size_t>(shape.rows), cols = static_cast<std::size_t>(shape.cols);
  switch (grid) {
    case ClGrid::rows_cols: return {cl::NDRange(round_up(cols, 32), round_up(rows, 8)), cl::NDRange(32, 8)};
    case ClGrid::cols_rows: return {cl::NDRange(round_up(rows, 32), round_up(cols, 8)), cl::NDRange(32, 8)};
    case ClGrid::tiles:
      return {cl::NDRange(round_up(cols, kTile), round_up(rows, kTile)), cl::NDRange(kTile, kTile)};
    case ClGrid::tiles_multi:
      return {cl::NDRange(round_up(cols, kTile), round_up(rows, kTile) / kTile * kRowsPerPass),
              cl::NDRange(kTile, kRowsPerPass)};
    case ClGrid::flat: break;
  }
  // A work-item per vector (at least one group: the tail), at most max_flat_items in whole groups.
  // A few looping groups per compute unit reached 94% of the 2:1 limit in CUDA on the H100, and
  // 93.8% here in NVIDIA's OpenCL; a vector per work-item is the shape the limit itself runs best in.
  const std::size_t vectors = std::max<std::size_t>(1, bytes_of(shape, type) / 16);
  const std::size_t most = std::max(kFlatGroup, max_flat_items / kFlatGroup * kFlatGroup);
  return {cl::NDRange(std::min(round_up(vectors, kFlatGroup), most)), cl::NDRange(kFlatGroup)};
}

std::optional<std::string> cl_limitation(const ClVariant& v, ElementType type, gpgpu::ocl::Runtime& runtime) {
  if (type == ElementType::f64 && GPGPU_CL(runtime.device().getInfo<CL_DEVICE_DOUBLE_FP_CONFIG>()) == 0)
    return "the device has no double precision (cl_khr_fp64)";
  if (v.kernel.empty()) return std::nullopt;
  const cl::Program& program = runtime.program(gpgpu::matrix::opencl_kernel(v.file), type_options(type));
  const cl::Kernel kernel = GPGPU_CL(cl::Kernel(program, std::string(v.kernel).c_str()));
  const std::size_t kernel_max = GPGPU_CL(kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(runtime.device()));
  const ClLaunch launch = cl_launch(v.grid, {1, 1}, type);
  std::size_t group = 1;
  for (std::size_t d = 0; d < launch.local.dimensions(); ++d) group *= launch.local[d];
  if (group > kernel_max)
    return "needs work-groups of " + std::to_string(group) + " work-items; the device runs this kernel in at most " +
           std::to_string(kernel_max);
  return std::nullopt;
}

std::vector<gpgpu::matrix::VariantSpec> opencl_variants() {
  std::vector<gpgpu::matrix::VariantSpec> specs;
  for (const ClVariant& v : kClVariants) specs.push_back(spec_of(v, kClFlatMaxItems));
  return specs;
}

gpgpu::matrix::VariantSpec opencl_variant(const ClVariant& v, std::size_t max_flat_items) {
  return spec_of(v, max_flat_items);
}

}  // namespace ch09
