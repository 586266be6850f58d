// Host code of the ported kernels: the OpenCL counterpart of a CUDA chapter's cudaMalloc /
// cudaMemcpy / kernel<<<grid, block>>>(...) / cudaEvent timing, spelled out with handles.
#include "opencl_jacobi.hpp"

#include <limits>

#include "gpgpu/errors.hpp"
#include "gpgpu/layouts.hpp"
#include "opencl_kernels.hpp"

namespace ch08 {
namespace {

using gpgpu::ocl::Runtime;

const cl::ImageFormat kFloatTexels(CL_R, CL_FLOAT);  // one float per texel, as tex1Dfetch<float>

bool float_texels_supported(const cl::Context& context) {
  std::vector<cl::ImageFormat> formats;
  GPGPU_CL(context.getSupportedImageFormats(CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE1D_BUFFER, &formats));
  for (const cl::ImageFormat& f : formats)
    if (f.image_channel_order == kFloatTexels.image_channel_order &&
        f.image_channel_data_type == kFloatTexels.image_channel_data_type)
      return true;
  return false;
}

cl::Buffer upload(const cl::Context& context, const std::vector<float>& values) {
  // COPY_HOST_PTR copies at creation; the API takes a non-const pointer but only reads it.
  return GPGPU_CL(cl::Buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, values.size() * sizeof(float),
                             const_cast<float*>(values.data())));
}

}  // namespace

const cl::Program& ProgramCache::program(const Variant& v) {
  const std::string options = v.local_tile ? "-DWG_SIZE=" + std::to_string(work_group_) : "";
  const std::string key = std::string(v.kernel_file) + " " + options;
  auto it = programs_.find(key);
  if (it == programs_.end())
    it = programs_.emplace(key, runtime_.build(gpgpu::ocl::kernel_source(v.kernel_file), options)).first;
  return it->second;
}

std::optional<std::string> device_limitation(const Variant& v, const gpgpu::Grid& grid, const Runtime& runtime) {
  if (auto reason = device_limitation(v, grid, runtime.info())) return reason;
  if (v.x_access == XAccess::Image && !float_texels_supported(runtime.context()))
    return "the device has no CL_R / CL_FLOAT format for 1D buffer images";
  return std::nullopt;
}

void require_work_group_size(const Runtime& runtime, const cl::Kernel& kernel, std::size_t work_group) {
  const std::size_t kernel_max = GPGPU_CL(kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(runtime.device()));
  if (work_group > kernel_max)
    throw gpgpu::UsageError("--wg " + std::to_string(work_group) + ": " + runtime.info().name +
                            " runs this kernel in work-groups of at most " + std::to_string(kernel_max));
}

OpenClJacobi::OpenClJacobi(Runtime& runtime, const cl::Program& program, const Variant& variant,
                           const gpgpu::LinearSystem& system, std::size_t work_group)
    : runtime_(runtime),
      variant_(variant),
      grid_(system.grid),
      ghost_(ghost_offset(variant, system.grid)),
      x_length_(gpgpu::ghost_padded_length(system.grid, ghost_)),
      work_group_(work_group),
      global_(gpgpu::ocl::round_up(static_cast<std::size_t>(system.grid.nodes()), work_group)) {
  const cl::Context& context = runtime_.context();
  for (std::size_t d = 0; d < diagonals_.size(); ++d) diagonals_[d] = upload(context, system.A.diag[d]);
  rhs_ = upload(context, system.rhs);
  const std::size_t x_bytes = static_cast<std::size_t>(x_length_) * sizeof(float);
  for (std::size_t i = 0; i < 2; ++i) {
    x_[i] = GPGPU_CL(cl::Buffer(context, CL_MEM_READ_WRITE, x_bytes));
    if (variant_.x_access == XAccess::Image)
      x_image_[i] = GPGPU_CL(cl::Image1DBuffer(context, CL_MEM_READ_ONLY, kFloatTexels,
                                               static_cast<std::size_t>(x_length_), x_[i]));
  }

  // Two kernel objects with fixed arguments, one per direction of the ping-pong, so the launch
  // loop only alternates between them (CUDA passes arguments with every launch instead).
  for (std::size_t i = 0; i < 2; ++i) {
    cl::Kernel& k = step_[i];
    k = GPGPU_CL(cl::Kernel(program, std::string(variant_.kernel_name).c_str()));
    cl_uint arg = 0;
    for (const cl::Buffer& d : diagonals_) GPGPU_CL(k.setArg(arg++, d));
    GPGPU_CL(k.setArg(arg++, rhs_));
    if (variant_.x_access == XAccess::Image)
      GPGPU_CL(k.setArg(arg++, x_image_[i]));
    else
      GPGPU_CL(k.setArg(arg++, x_[i]));
    GPGPU_CL(k.setArg(arg++, x_[1 - i]));
    GPGPU_CL(k.setArg(arg++, static_cast<cl_int>(grid_.nx)));
    GPGPU_CL(k.setArg(arg++, static_cast<cl_int>(grid_.nodes())));
    GPGPU_CL(k.setArg(arg++, static_cast<cl_int>(ghost_)));
    GPGPU_CL(k.setArg(arg++, 0.0f));  // omega, set by iterate()
    if (variant_.local_tile) GPGPU_CL(k.setArg(arg++, static_cast<cl_int>(x_length_)));
  }
  require_work_group_size(runtime_, step_[0], work_group_);
}

void OpenClJacobi::reset(std::span<const float> x0) {
  cl::CommandQueue& queue = runtime_.queue();
  const auto start = gpgpu::make_ghost_padded<float>(grid_, x0, ghost_);
  auto poisoned = gpgpu::make_ghost_padded_zero<float>(grid_, ghost_);
  std::fill(poisoned.interior(), poisoned.interior() + grid_.nodes(), std::numeric_limits<float>::quiet_NaN());
  const std::size_t bytes = static_cast<std::size_t>(x_length_) * sizeof(float);
  GPGPU_CL(queue.enqueueWriteBuffer(x_[0], CL_TRUE, 0, bytes, start.data.data()));
  GPGPU_CL(queue.enqueueWriteBuffer(x_[1], CL_TRUE, 0, bytes, poisoned.data.data()));
  current_ = 0;
}

double OpenClJacobi::iterate(int iters, float omega) {
  constexpr cl_uint kOmegaArg = 15;
  for (cl::Kernel& k : step_) GPGPU_CL(k.setArg(kOmegaArg, omega));
  cl::CommandQueue& queue = runtime_.queue();
  const cl::NDRange global(global_), local(work_group_);
  // Events only on the first and the last launch: the device clock from the start of one to the
  // end of the other covers every iteration, and the launches between carry no profiling cost.
  cl::Event first, last;
  for (int it = 0; it < iters; ++it) {
    cl::Event* event = it == 0 ? &first : (it == iters - 1 ? &last : nullptr);
    GPGPU_CL(queue.enqueueNDRangeKernel(step_[static_cast<std::size_t>(current_)], cl::NullRange, global, local,
                                        nullptr, event));
    current_ = 1 - current_;
  }
  if (iters == 1) last = first;
  GPGPU_CL(last.wait());
  return gpgpu::ocl::profiled_seconds(first, last);
}

std::vector<float> OpenClJacobi::solution() {
  std::vector<float> out(static_cast<std::size_t>(grid_.nodes()));
  GPGPU_CL(runtime_.queue().enqueueReadBuffer(x_[static_cast<std::size_t>(current_)], CL_TRUE,
                                              static_cast<std::size_t>(ghost_) * sizeof(float),
                                              out.size() * sizeof(float), out.data()));
  return out;
}

}  // namespace ch08
