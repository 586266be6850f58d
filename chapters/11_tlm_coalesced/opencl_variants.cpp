// Chapter 11's OpenCL variants and their host code, in the order a run uses it: buffers and kernel
// arguments (untimed), reset, the steps (one or two kernels each, timed by profiling events),
// read-back.
#include "opencl_variants.hpp"

#include <CL/cl_half.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <stdexcept>

#include "gpgpu/errors.hpp"
#include "gpgpu/opencl/opener.hpp"
#include "gpgpu/tlm/reference.hpp"

namespace ch11 {

using namespace gpgpu::tlm;

namespace {

PulseLayout layout_for(const Mesh& mesh) { return segmented(mesh); }

// The irises as scn.cl reads them: k, x0, x1, y0, y1 each (at least one entry: no buffer is empty).
std::vector<cl_int> iris_table(const Structure& s) {
  std::vector<cl_int> t;
  for (const Iris& i : s.irises) t.insert(t.end(), {i.k, i.x0, i.x1, i.y0, i.y1});
  t.resize(std::max<std::size_t>(t.size(), 5), 0);
  return t;
}

// The kernels a step of `kernels` enqueues.
std::vector<const char*> kernel_names(OpenClKernels kernels, Storage storage) {
  if (kernels == OpenClKernels::coalesced) return {"tlm_scatter", "tlm_connect"};
  return {storage == Storage::f16 ? "tlm_fused_half" : "tlm_fused"};
}

// One work-item per node, in work-groups of one row segment: global (nx rounded up, ny, nz).
cl::NDRange node_range(const Mesh& m, std::size_t work_group) {
  return {gpgpu::ocl::round_up(static_cast<std::size_t>(m.nx), work_group), static_cast<std::size_t>(m.ny),
          static_cast<std::size_t>(m.nz)};
}

// A half-precision layout must give every pulse its own half inside the buffer: the host could not
// pack or unpack it otherwise.
void require_one_half_each(const std::vector<std::int32_t>& slots, const PulseLayout& layout) {
  std::vector<std::int64_t> owner(static_cast<std::size_t>(layout.elements()), -1);
  for (std::size_t c = 0; c < slots.size(); ++c) {
    const std::int64_t s = slots[c];
    if (s < 0 || s >= layout.elements())
      throw std::invalid_argument("half_slot: pulse " + std::to_string(c) + " (canonical p·nodes + node) at element " +
                                  std::to_string(s) + ", outside the buffer's " + std::to_string(layout.elements()) +
                                  " halves");
    if (owner[static_cast<std::size_t>(s)] >= 0)
      throw std::invalid_argument("half_slot: pulses " + std::to_string(owner[static_cast<std::size_t>(s)]) + " and " +
                                  std::to_string(c) + " (canonical p·nodes + node) share element " + std::to_string(s));
    owner[static_cast<std::size_t>(s)] = static_cast<std::int64_t>(c);
  }
}

}  // namespace

std::vector<Variant> opencl_variants() {
  return {opencl_variant(OpenClKernels::coalesced), opencl_variant(OpenClKernels::fused)};
}

Variant opencl_variant(OpenClKernels kernels) {
  const bool fused = kernels == OpenClKernels::fused;
  const std::string file = fused ? "kernels/tlm/opencl/11_02_fused.cl" : "kernels/tlm/opencl/11_01_coalesced.cl";
  Variant v;
  v.info = {fused ? "opencl_fused" : "opencl_coalesced", gpgpu::Backend::opencl,
            fused ? "one pull-scatter-write kernel, FP32 (port of cuda_fused)"
                  : "scatter + connect kernels, 64-node segments (port of cuda_coalesced)",
            file, fused ? "" : "OpenCL (Fig. 11)", "OpenCL profiling events"};
  v.opener = gpgpu::ocl::opener;
  v.work = fused ? "scn_fused" : "scn_two_kernel";
  v.make = [kernels, file](const Setup& setup, gpgpu::Session& session) {
    gpgpu::ocl::Runtime& runtime = gpgpu::ocl::runtime_of(session);
    const cl::Program& program = runtime.program(opencl_program(file));
    return std::make_unique<OpenClSolver>(runtime, program, setup, kernels);
  };
  v.check_fits = [kernels, name = v.info.name](const RunSize& size, gpgpu::Session& session) {
    const OpenClBytes need = opencl_device_bytes(kernels, Storage::f32, size.mesh, size.steps);
    gpgpu::ocl::require_device_memory(gpgpu::ocl::runtime_of(session).info(), need.total, need.largest,
                                      "variant " + name + " on mesh " + size.mesh.str());
  };
  v.limitation = [kernels, file](const RunSize&, gpgpu::Session& session) {
    gpgpu::ocl::Runtime& runtime = gpgpu::ocl::runtime_of(session);
    return work_group_limitation(runtime, runtime.program(opencl_program(file)), kernels, Storage::f32);
  };
  return v;
}

std::optional<std::string> work_group_limitation(gpgpu::ocl::Runtime& runtime, const cl::Program& program,
                                                 OpenClKernels kernels, Storage storage, std::size_t work_group) {
  for (const char* name : kernel_names(kernels, storage)) {
    const cl::Kernel k = GPGPU_CL(cl::Kernel(program, name));
    const std::size_t kernel_max = GPGPU_CL(k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(runtime.device()));
    if (work_group > kernel_max)
      return "work-groups of " + std::to_string(work_group) + ": " + runtime.info().name + " runs " + name +
             " in work-groups of at most " + std::to_string(kernel_max);
  }
  return std::nullopt;
}

std::vector<std::int32_t> half_slots(gpgpu::ocl::Runtime& runtime, const cl::Program& program, const Mesh& mesh) {
  const PulseLayout layout = layout_for(mesh);
  OpenClStepArgs args{mesh.nx, mesh.ny, mesh.nz, layout.pitch, static_cast<std::int32_t>(layout.plane), 0, 0, 0, 0.0f, 0, 0};
  std::vector<std::int32_t> slots(static_cast<std::size_t>(kPorts * mesh.nodes()), -1);
  cl::Buffer buffer = GPGPU_CL(cl::Buffer(runtime.context(), CL_MEM_WRITE_ONLY, slots.size() * sizeof(std::int32_t)));
  cl::Kernel kernel = GPGPU_CL(cl::Kernel(program, "tlm_half_slots"));
  GPGPU_CL(kernel.setArg(0, sizeof(args), &args));
  GPGPU_CL(kernel.setArg(1, buffer));
  GPGPU_CL(runtime.queue().enqueueNDRangeKernel(kernel, cl::NullRange, node_range(mesh, kWorkGroup),
                                                cl::NDRange(kWorkGroup, 1, 1)));
  GPGPU_CL(runtime.queue().enqueueReadBuffer(buffer, CL_TRUE, 0, slots.size() * sizeof(std::int32_t), slots.data()));
  return slots;
}

OpenClBytes opencl_device_bytes(OpenClKernels kernels, Storage storage, const Mesh& mesh, int steps) {
  const double buffer = (storage == Storage::f16 ? 2.0 : 4.0) * static_cast<double>(layout_for(mesh).elements());
  const double buffers = kernels == OpenClKernels::fused ? 2 : 1;
  const double probe = 4.0 * kProbeValues * steps;
  return {buffers * buffer + probe, std::max(buffer, probe)};
}

OpenClSolver::OpenClSolver(gpgpu::ocl::Runtime& runtime, const cl::Program& program, const Setup& setup,
                           OpenClKernels kernels, Storage storage, std::size_t work_group)
    : runtime_(runtime), setup_(setup), kernels_(kernels), storage_(storage), layout_(layout_for(setup.structure.mesh)) {
  if (kernels_ == OpenClKernels::coalesced && storage_ != Storage::f32)
    throw std::invalid_argument("OpenClSolver: the paper's kernels store floats");
  if (const std::optional<std::string> why = work_group_limitation(runtime, program, kernels, storage, work_group))
    throw gpgpu::UsageError(*why);
  const cl::Context& context = runtime_.context();
  const Mesh& m = setup.structure.mesh;
  const std::size_t bytes = static_cast<std::size_t>(layout_.elements()) * pulse_bytes();
  for (cl::Buffer& b : pulses_) b = GPGPU_CL(cl::Buffer(context, CL_MEM_READ_WRITE, bytes));
  std::vector<cl_int> irises = iris_table(setup.structure);
  irises_ = GPGPU_CL(cl::Buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, irises.size() * sizeof(cl_int), irises.data()));
  probe_ = GPGPU_CL(cl::Buffer(context, CL_MEM_WRITE_ONLY, std::max<std::size_t>(1, kProbeValues * setup.steps) * sizeof(float)));
  global_ = node_range(m, work_group);
  local_ = cl::NDRange(work_group, 1, 1);
  const Drive& d = setup.drive;
  args_ = {m.nx, m.ny, m.nz, layout_.pitch, static_cast<std::int32_t>(layout_.plane),
           static_cast<std::int32_t>(setup.structure.irises.size()),
           static_cast<std::int32_t>(m.index(d.source.i, d.source.j, d.source.k)), d.source.polarisation, 0.0f,
           static_cast<std::int32_t>(m.index(d.probe.i, d.probe.j, d.probe.k)), 0};
  // Arguments that never change are set once: buffers, irises, probe. StepArgs changes every step.
  auto make = [&](const char* name, const cl::Buffer& in, const cl::Buffer* out) {
    cl::Kernel k = GPGPU_CL(cl::Kernel(program, name));
    cl_uint arg = 0;
    GPGPU_CL(k.setArg(arg++, in));
    if (out != nullptr) GPGPU_CL(k.setArg(arg++, *out));
    GPGPU_CL(k.setArg(arg++, sizeof(args_), &args_));
    GPGPU_CL(k.setArg(arg++, irises_));
    GPGPU_CL(k.setArg(arg++, probe_));
    return k;
  };
  if (storage_ == Storage::f16) {
    half_slots_ = half_slots(runtime_, program, m);
    require_one_half_each(half_slots_, layout_);
  }
  if (kernels_ == OpenClKernels::coalesced) {
    scatter_ = make("tlm_scatter", pulses_[0], nullptr);
    connect_ = make("tlm_connect", pulses_[0], nullptr);
  } else {
    const char* name = storage_ == Storage::f16 ? "tlm_fused_half" : "tlm_fused";
    fused_[0] = make(name, pulses_[0], &pulses_[1]);
    fused_[1] = make(name, pulses_[1], &pulses_[0]);
  }
}

std::vector<float> OpenClSolver::stored_order(std::span<const float> canonical) const {
  if (storage_ == Storage::f32) return to_layout(layout_, canonical);
  std::vector<float> stored(static_cast<std::size_t>(layout_.elements()), std::numeric_limits<float>::quiet_NaN());
  for (std::size_t c = 0; c < canonical.size(); ++c) stored[static_cast<std::size_t>(half_slots_[c])] = canonical[c];
  return stored;
}

std::vector<float> OpenClSolver::canonical_order(std::span<const float> stored) const {
  if (storage_ == Storage::f32) return from_layout(layout_, stored);
  std::vector<float> canonical(half_slots_.size());
  for (std::size_t c = 0; c < canonical.size(); ++c) canonical[c] = stored[static_cast<std::size_t>(half_slots_[c])];
  return canonical;
}

void OpenClSolver::write(const cl::Buffer& buffer, std::span<const float> values) {
  cl::CommandQueue& queue = runtime_.queue();
  if (storage_ == Storage::f32) {
    GPGPU_CL(queue.enqueueWriteBuffer(buffer, CL_TRUE, 0, values.size_bytes(), values.data()));
    return;
  }
  std::vector<cl_half> halves(values.size());  // rounded to nearest, ties to even, as vstore_half_rte
  std::transform(values.begin(), values.end(), halves.begin(), [](float x) { return cl_half_from_float(x, CL_HALF_RTE); });
  GPGPU_CL(queue.enqueueWriteBuffer(buffer, CL_TRUE, 0, halves.size() * sizeof(cl_half), halves.data()));
}

std::vector<float> OpenClSolver::read(const cl::Buffer& buffer) {
  cl::CommandQueue& queue = runtime_.queue();
  std::vector<float> values(static_cast<std::size_t>(layout_.elements()));
  if (storage_ == Storage::f32) {
    GPGPU_CL(queue.enqueueReadBuffer(buffer, CL_TRUE, 0, values.size() * sizeof(float), values.data()));
    return values;
  }
  std::vector<cl_half> halves(values.size());
  GPGPU_CL(queue.enqueueReadBuffer(buffer, CL_TRUE, 0, halves.size() * sizeof(cl_half), halves.data()));
  std::transform(halves.begin(), halves.end(), values.begin(), [](cl_half h) { return cl_half_to_float(h); });
  return values;
}

void OpenClSolver::reset(std::span<const float> incident) {
  // The paper's kernels keep incident pulses; the fused one keeps the reflected pulses they came
  // from (connect is its own inverse). Every other buffer the steps write starts as NaN.
  std::vector<float> start(incident.begin(), incident.end());
  if (kernels_ == OpenClKernels::fused) connect<float>(setup_.structure, incident, start);
  write(pulses_[0], stored_order(start));
  const std::vector<float> poison(static_cast<std::size_t>(layout_.elements()), std::numeric_limits<float>::quiet_NaN());
  if (kernels_ == OpenClKernels::fused) write(pulses_[1], poison);
  const std::vector<float> probe_poison(static_cast<std::size_t>(kProbeValues) * setup_.steps, std::numeric_limits<float>::quiet_NaN());
  if (!probe_poison.empty())
    GPGPU_CL(runtime_.queue().enqueueWriteBuffer(probe_, CL_TRUE, 0, probe_poison.size() * sizeof(float), probe_poison.data()));
  current_ = step_ = 0;
}

//! [opencl_steps]
void OpenClSolver::enqueue(cl::Kernel& kernel, int n, cl::Event* event) {
  args_.source_value = static_cast<float>(setup_.drive.value(n));
  args_.probe_offset = kProbeValues * n;
  GPGPU_CL(kernel.setArg(kernels_ == OpenClKernels::fused ? 2 : 1, sizeof(args_), &args_));
  GPGPU_CL(runtime_.queue().enqueueNDRangeKernel(kernel, cl::NullRange, global_, local_, nullptr, event));
}

double OpenClSolver::run(int steps) {
  if (steps < 1) return 0.0;
  if (step_ + steps > setup_.steps) throw std::logic_error("OpenClSolver::run: more steps than the probe holds");
  // Events only on the first and the last launch: the device clock from the start of one to the
  // end of the other covers every step.
  cl::Event first, last;
  for (int s = 0; s < steps; ++s, ++step_) {
    cl::Event* start = s == 0 ? &first : nullptr;
    cl::Event* end = s == steps - 1 ? &last : nullptr;
    if (kernels_ == OpenClKernels::coalesced) {
      enqueue(scatter_, step_, start);
      enqueue(connect_, step_, end);
    } else {
      enqueue(fused_[current_], step_, start != nullptr ? start : end);
      current_ = 1 - current_;
    }
  }
  if (kernels_ == OpenClKernels::fused && steps == 1) last = first;
  GPGPU_CL(last.wait());
  return gpgpu::ocl::profiled_seconds(first, last);
}
//! [opencl_steps]

std::vector<float> OpenClSolver::pulses() {
  std::vector<float> canonical = canonical_order(read(pulses_[current_]));
  if (kernels_ == OpenClKernels::coalesced) return canonical;
  std::vector<float> incident(canonical.size());
  connect<float>(setup_.structure, canonical, incident);
  return incident;
}

std::vector<float> OpenClSolver::probe() {
  std::vector<float> values(static_cast<std::size_t>(kProbeValues) * step_);
  if (!values.empty())
    GPGPU_CL(runtime_.queue().enqueueReadBuffer(probe_, CL_TRUE, 0, values.size() * sizeof(float), values.data()));
  return values;
}

std::string OpenClSolver::launch() const {
  return (storage_ == Storage::f16 ? "half precision where half_slot() puts it" : layout_.str()) + "; global " + std::to_string(global_[0]) +
         " x " + std::to_string(global_[1]) + " x " + std::to_string(global_[2]) + ", local " + std::to_string(local_[0]) +
         (kernels_ == OpenClKernels::fused ? ", 1 kernel per step" : ", 2 kernels per step (scatter, connect)");
}

}  // namespace ch11
