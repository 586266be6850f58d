// Host code of the ported kernels: the chapter's OpenCL variants, then the OpenCL counterpart of a
// CUDA solver's cudaMalloc(Pitch) / cudaMemcpy(2D) / kernel<<<grid, block, shared>>>(...) /
// cudaEvent timing, spelled out with handles: buffers, kernel arguments, the ping-pong launch loop,
// profiling events and the read-back.
#include "opencl_variants.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <memory>

#include "gpgpu/errors.hpp"
#include "gpgpu/jacobi/layouts.hpp"
#include "gpgpu/opencl/opener.hpp"

namespace ch08 {

//! [variants]
std::vector<gpgpu::jacobi::Variant> opencl_variants(const int& work_group, const Division& division) {
  std::vector<gpgpu::jacobi::Variant> variants;
  for (const Port& port : kPorts) {
    gpgpu::jacobi::Variant v;
    v.info = {std::string(port.name), gpgpu::Backend::opencl,
              std::string(port.description) + " (port of kernels/jacobi/cuda/" + std::string(port.cuda_file) + ")",
              std::string(port.kernel_file), std::string(port.paper_name), "OpenCL profiling events"};
    v.opener = gpgpu::ocl::opener;
    v.make = [&port, &work_group, &division](const gpgpu::jacobi::LinearSystem& sys, gpgpu::Session& session) {
      gpgpu::ocl::Runtime& runtime = gpgpu::ocl::runtime_of(session);
      const cl::Program& program = variant_program(runtime, port, division);
      return std::make_unique<OpenClJacobi>(runtime, program, port, sys, static_cast<std::size_t>(work_group));
    };
    v.check_fits = [&port, &work_group](const gpgpu::jacobi::Grid& grid, gpgpu::Session& session) {
      const gpgpu::ocl::DeviceInfo& device = gpgpu::ocl::runtime_of(session).info();
      const DeviceBytes need = device_bytes(port, grid, device);
      gpgpu::ocl::require_device_memory(device, need.total, need.largest, "grid " + grid.str());
      if (static_cast<std::size_t>(work_group) > device.max_work_group_size)
        throw gpgpu::UsageError("--wg " + std::to_string(work_group) + ": " + device.name +
                                " allows work-groups of at most " + std::to_string(device.max_work_group_size));
    };
    v.limitation = [&port](const gpgpu::jacobi::Grid& grid, gpgpu::Session& session) {
      return device_limitation(port, grid, gpgpu::ocl::runtime_of(session));
    };
    variants.push_back(std::move(v));
  }
  return variants;
}
//! [variants]

namespace {

using gpgpu::jacobi::kPitchedGhostRows;
using gpgpu::ocl::Runtime;

// Groups in NDRange dimension 1, capped like CUDA's gridDim.y; the pitched kernels loop over the rest.
constexpr std::size_t kMaxGroupsY = 65535;

// The rectangle of unknowns inside a pitched buffer, for clEnqueue{Read,Write}BufferRect (the
// OpenCL counterpart of cudaMemcpy2D): nx floats per row, ny rows, starting kPitchedGhostRows rows in.
struct PitchedRect {
  std::array<cl::size_type, 3> buffer_origin, host_origin, region;
  cl::size_type buffer_row_pitch, host_row_pitch;
};
PitchedRect pitched_rect(const gpgpu::jacobi::Grid& g, const DeviceLayout& l) {
  const auto row_bytes = static_cast<cl::size_type>(g.nx) * sizeof(float);
  return {{0, static_cast<cl::size_type>(kPitchedGhostRows), 0},
          {0, 0, 0},
          {row_bytes, static_cast<cl::size_type>(g.ny), 1},
          static_cast<cl::size_type>(l.pitch) * sizeof(float),
          row_bytes};
}

}  // namespace

void require_work_group_size(const Runtime& runtime, const cl::Kernel& kernel, std::size_t work_group) {
  const std::size_t kernel_max = GPGPU_CL(kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(runtime.device()));
  if (work_group > kernel_max)
    throw gpgpu::UsageError("--wg " + std::to_string(work_group) + ": " + runtime.info().name +
                            " runs this kernel in work-groups of at most " + std::to_string(kernel_max));
}

cl::Buffer OpenClJacobi::upload_coefficients(const std::vector<float>& values) {
  const cl::Context& context = runtime_.context();
  if (layout_.kind == Layout::Linear)  // COPY_HOST_PTR copies at creation; the pointer is only read
    return GPGPU_CL(cl::Buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, values.size() * sizeof(float),
                               const_cast<float*>(values.data())));
  cl::Buffer b = GPGPU_CL(cl::Buffer(context, CL_MEM_READ_ONLY, static_cast<std::size_t>(layout_.coef_length) * sizeof(float)));
  write_unknowns(b, values);
  return b;
}

// Pitched: zeros everywhere (ghost rows, padding columns), then the rows of unknowns.
void OpenClJacobi::write_unknowns(const cl::Buffer& buffer, std::span<const float> values) {
  cl::CommandQueue& queue = runtime_.queue();
  const std::size_t bytes = static_cast<std::size_t>(layout_.coef_length) * sizeof(float);
  GPGPU_CL(queue.enqueueFillBuffer(buffer, 0.0f, 0, bytes));
  const PitchedRect r = pitched_rect(grid_, layout_);
  GPGPU_CL(queue.enqueueWriteBufferRect(buffer, CL_TRUE, r.buffer_origin, r.host_origin, r.region, r.buffer_row_pitch,
                                        0, r.host_row_pitch, 0, values.data()));
}

OpenClJacobi::OpenClJacobi(Runtime& runtime, const cl::Program& program, const Port& variant,
                           const gpgpu::jacobi::LinearSystem& system, std::size_t work_group)
    : runtime_(runtime), variant_(variant), grid_(system.grid), layout_(device_layout(variant, system.grid, runtime.info())) {
  using gpgpu::ocl::round_up;
  if (layout_.kind == Layout::Linear) {
    global_ = cl::NDRange(round_up(static_cast<std::size_t>(grid_.nodes()), work_group));
    local_ = cl::NDRange(work_group);
  } else {  // 2D NDRange of 1D work-groups: columns in dimension 0, rows in dimension 1
    global_ = cl::NDRange(round_up(static_cast<std::size_t>(grid_.nx), work_group),
                          std::min(static_cast<std::size_t>(grid_.ny), kMaxGroupsY));
    local_ = cl::NDRange(work_group, 1);
  }
  for (std::size_t d = 0; d < diagonals_.size(); ++d) diagonals_[d] = upload_coefficients(system.A.diag[d]);
  rhs_ = upload_coefficients(system.rhs);
  const cl::Context& context = runtime_.context();
  const std::size_t x_bytes = static_cast<std::size_t>(layout_.x_length) * sizeof(float);
  for (std::size_t i = 0; i < 2; ++i) {
    x_[i] = GPGPU_CL(cl::Buffer(context, CL_MEM_READ_WRITE, x_bytes));
    if (variant_.x_access == XAccess::Image)
      x_image_[i] = GPGPU_CL(cl::Image1DBuffer(context, CL_MEM_READ_ONLY, kFloatTexels,
                                               static_cast<std::size_t>(layout_.x_length), x_[i]));
  }

  //! [arguments]
  // Two kernel objects with fixed arguments, one per direction of the ping-pong, so the launch
  // loop only alternates between them (CUDA passes the arguments with every launch instead).
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
    if (layout_.kind == Layout::Linear) {
      GPGPU_CL(k.setArg(arg++, static_cast<cl_int>(grid_.nodes())));
      GPGPU_CL(k.setArg(arg++, static_cast<cl_int>(layout_.ghost)));
    } else {
      GPGPU_CL(k.setArg(arg++, static_cast<cl_int>(grid_.ny)));
      GPGPU_CL(k.setArg(arg++, static_cast<cl_int>(layout_.pitch)));
      GPGPU_CL(k.setArg(arg++, static_cast<cl_int>(layout_.origin)));
    }
    omega_arg_ = arg;
    GPGPU_CL(k.setArg(arg++, 0.0f));  // set by iterate()
    if (variant_.local_tile)          // CUDA: the third launch parameter, dynamic shared memory
      GPGPU_CL(k.setArg(arg++, cl::Local(3 * (work_group + 2) * sizeof(float))));
  }
  //! [arguments]
  require_work_group_size(runtime_, step_[0], work_group);
}

void OpenClJacobi::reset(std::span<const float> x0) {
  cl::CommandQueue& queue = runtime_.queue();
  const std::vector<float> poison(static_cast<std::size_t>(grid_.nodes()), std::numeric_limits<float>::quiet_NaN());
  if (layout_.kind == Layout::Pitched) {
    write_unknowns(x_[0], x0);
    write_unknowns(x_[1], poison);
  } else {
    const auto start = gpgpu::jacobi::make_ghost_padded<float>(grid_, x0, layout_.ghost, 32);
    const auto poisoned = gpgpu::jacobi::make_ghost_padded<float>(grid_, poison, layout_.ghost, 32);
    const std::size_t bytes = start.data.size() * sizeof(float);
    GPGPU_CL(queue.enqueueWriteBuffer(x_[0], CL_TRUE, 0, bytes, start.data.data()));
    GPGPU_CL(queue.enqueueWriteBuffer(x_[1], CL_TRUE, 0, bytes, poisoned.data.data()));
  }
  current_ = 0;
}

//! [iterate]
double OpenClJacobi::iterate(int iters, float omega) {
  if (iters < 1) return 0.0;
  for (cl::Kernel& k : step_) GPGPU_CL(k.setArg(omega_arg_, omega));
  cl::CommandQueue& queue = runtime_.queue();
  // Events only on the first and the last launch: the device clock from the start of one to the
  // end of the other covers every iteration, and the launches between carry no profiling cost.
  cl::Event first, last;
  for (int it = 0; it < iters; ++it) {
    cl::Event* event = it == 0 ? &first : (it == iters - 1 ? &last : nullptr);
    GPGPU_CL(queue.enqueueNDRangeKernel(step_[static_cast<std::size_t>(current_)], cl::NullRange, global_, local_,
                                        nullptr, event));
    current_ = 1 - current_;
  }
  if (iters == 1) last = first;
  GPGPU_CL(last.wait());
  return gpgpu::ocl::profiled_seconds(first, last);
}
//! [iterate]

std::vector<float> OpenClJacobi::solution() {
  std::vector<float> out(static_cast<std::size_t>(grid_.nodes()));
  cl::CommandQueue& queue = runtime_.queue();
  const cl::Buffer& x = x_[static_cast<std::size_t>(current_)];
  if (layout_.kind == Layout::Pitched) {
    const PitchedRect r = pitched_rect(grid_, layout_);
    GPGPU_CL(queue.enqueueReadBufferRect(x, CL_TRUE, r.buffer_origin, r.host_origin, r.region, r.buffer_row_pitch, 0,
                                         r.host_row_pitch, 0, out.data()));
  } else {
    GPGPU_CL(queue.enqueueReadBuffer(x, CL_TRUE, static_cast<std::size_t>(layout_.ghost) * sizeof(float),
                                     out.size() * sizeof(float), out.data()));
  }
  return out;
}

std::string OpenClJacobi::launch() const {
  std::string s = "global ";
  s += std::to_string(global_[0]);
  if (layout_.kind == Layout::Pitched) s += " x " + std::to_string(global_[1]);
  s += ", local " + std::to_string(local_[0]);
  if (layout_.kind == Layout::Pitched)
    s += ", pitch " + std::to_string(layout_.pitch) + " floats";
  else
    s += ", ghost offset " + std::to_string(layout_.ghost);
  return s;
}

}  // namespace ch08
