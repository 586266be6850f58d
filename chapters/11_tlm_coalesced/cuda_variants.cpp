// Chapter 11's CUDA variants and their host code, in the order a run uses it: allocate (untimed),
// reset the pulses, run the steps (one or two launches each, timed by CUDA events), read the pulses
// and the probe back.
#include "cuda_variants.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "gpgpu/cuda/check.hpp"
#include "gpgpu/cuda/device.hpp"
#include "gpgpu/cuda/opener.hpp"
#include "gpgpu/tlm/reference.hpp"

namespace ch11 {

using namespace gpgpu::tlm;
namespace tc = gpgpu::tlm::cuda;

namespace {

PulseLayout layout_for(CudaKernels kernels, const Mesh& mesh) {
  return kernels == CudaKernels::aos ? array_of_structures(mesh) : segmented(mesh);
}

bool is_fused(CudaKernels k) { return k != CudaKernels::aos && k != CudaKernels::coalesced; }

bool is_half(CudaKernels k) {
  return k == CudaKernels::fused_half || k == CudaKernels::fused_half_x2 || k == CudaKernels::fused_half_x4 ||
         k == CudaKernels::fused_half_loads_first;
}

/// Nodes of a row per thread: 1 for the kernels of 11_01, 11_02 and 11_04, 2 or 4 for 11_03_fused_vector.cu.
int nodes_per_thread(CudaKernels k) {
  if (k == CudaKernels::fused_x2 || k == CudaKernels::fused_half_x2) return 2;
  if (k == CudaKernels::fused_x4 || k == CudaKernels::fused_half_x4) return 4;
  return 1;
}

}  // namespace

std::vector<Variant> cuda_variants() {
  return {cuda_variant(CudaKernels::aos),           cuda_variant(CudaKernels::coalesced),
          cuda_variant(CudaKernels::fused),         cuda_variant(CudaKernels::fused_half),
          cuda_variant(CudaKernels::fused_x2),      cuda_variant(CudaKernels::fused_x4),
          cuda_variant(CudaKernels::fused_half_x2), cuda_variant(CudaKernels::fused_half_x4),
          cuda_variant(CudaKernels::fused_half_loads_first)};
}

Variant cuda_variant(CudaKernels kernels) {
  struct Row {
    const char *name, *description, *file, *paper, *work;
  };
  static constexpr Row kRows[] = {
      {"cuda_aos", "scatter + connect kernels, a node's 12 pulses together", "11_01_scatter_connect.cu",
       "GPU non-coalesced (Fig. 7)", "scn_two_kernel"},
      {"cuda_coalesced", "scatter + connect kernels, 12 link-line arrays in 64-node segments", "11_01_scatter_connect.cu",
       "GPU coalesced (Fig. 7)", "scn_two_kernel"},
      {"cuda_fused", "one pull-scatter-write kernel, FP32 pulses", "11_02_fused.cu", "", "scn_fused"},
      {"cuda_fused_half", "one pull-scatter-write kernel, FP16 pulses, FP32 arithmetic", "11_02_fused.cu", "",
       "scn_fused_half"},
      {"cuda_fused_x2", "the fused kernel, 2 nodes per thread, FP32 pulses in float2 words", "11_03_fused_vector.cu",
       "", "scn_fused"},
      {"cuda_fused_x4", "the fused kernel, 4 nodes per thread, FP32 pulses in float4 words", "11_03_fused_vector.cu",
       "", "scn_fused"},
      {"cuda_fused_half_x2", "the fused kernel, 2 nodes per thread, FP16 pulses in 4-byte words",
       "11_03_fused_vector.cu", "", "scn_fused_half"},
      {"cuda_fused_half_x4", "the fused kernel, 4 nodes per thread, FP16 pulses in 8-byte words",
       "11_03_fused_vector.cu", "", "scn_fused_half"},
      {"cuda_fused_half_loads_first", "cuda_fused_half with its 12 loads issued before any conversion",
       "11_04_fused_loads_first.cu", "", "scn_fused_half"},
  };
  const Row& r = kRows[static_cast<int>(kernels)];
  Variant v;
  v.info = {r.name, gpgpu::Backend::cuda, r.description, std::string("kernels/tlm/cuda/") + r.file, r.paper,
            "CUDA events"};
  v.opener = gpgpu::cuda::opener;
  v.work = r.work;
  v.storage = is_half(kernels) ? Storage::f16 : Storage::f32;
  v.make = [kernels](const Setup& setup, gpgpu::Session&) { return std::make_unique<CudaSolver>(setup, kernels); };
  v.check_fits = [kernels, name = std::string(r.name)](const RunSize& size, gpgpu::Session&) {
    gpgpu::cuda::require_device_memory(cuda_device_bytes(kernels, size.mesh, size.steps),
                                       "variant " + name + " on mesh " + size.mesh.str());
  };
  return v;
}

double cuda_device_bytes(CudaKernels kernels, const Mesh& mesh, int steps) {
  const double pulse_bytes = is_half(kernels) ? 2 : 4;
  const double buffers = is_fused(kernels) ? 2 : 1;
  return buffers * pulse_bytes * static_cast<double>(layout_for(kernels, mesh).elements()) + 4.0 * kProbeValues * steps;
}

CudaSolver::CudaSolver(const Setup& setup, CudaKernels kernels)
    : setup_(setup), kernels_(kernels), layout_(layout_for(kernels, setup.structure.mesh)) {
  const auto n = static_cast<std::size_t>(layout_.elements());
  const int buffers = fused() ? 2 : 1;
  for (int b = 0; b < buffers; ++b) {
    if (is_half(kernels_))
      halves_[b] = gpgpu::cuda::DeviceBuffer<__half>(n);
    else
      pulses_[b] = gpgpu::cuda::DeviceBuffer<float>(n);
  }
  probe_ = gpgpu::cuda::DeviceBuffer<float>(static_cast<std::size_t>(kProbeValues) * setup.steps);
}

void CudaSolver::reset(std::span<const float> incident) {
  // The paper's kernels keep incident pulses; the fused ones keep the reflected pulses those came
  // from, which connect (its own inverse) recovers.
  std::vector<float> start(incident.begin(), incident.end());
  if (fused()) connect<float>(setup_.structure, incident, start);
  const std::vector<float> stored = to_layout(layout_, start);  // padding NaN
  if (is_half(kernels_)) {
    std::vector<__half> halves(stored.size());
    std::transform(stored.begin(), stored.end(), halves.begin(), [](float x) { return __float2half_rn(x); });
    halves_[0].upload(halves);
    halves_[1].fill_bytes(0xFF);  // NaN: a pulse the kernel does not write shows up
  } else {
    pulses_[0].upload(stored);
    if (fused()) pulses_[1].fill_bytes(0xFF);
  }
  probe_.fill_bytes(0xFF);
  current_ = step_ = 0;
}

tc::StepArgs CudaSolver::args(int n) {
  const Mesh& m = setup_.structure.mesh;
  const Drive& d = setup_.drive;
  tc::StepArgs a;
  a.extent = setup_.structure.extent();
  a.irises = setup_.structure.iris_table();
  a.pitch = layout_.pitch;
  a.plane = static_cast<int>(layout_.plane);
  a.source_node = static_cast<int>(m.index(d.source.i, d.source.j, d.source.k));
  a.source_polarisation = d.source.polarisation;
  a.source_value = static_cast<float>(d.value(n));
  a.probe_node = static_cast<int>(m.index(d.probe.i, d.probe.j, d.probe.k));
  a.probe = probe_.get() + static_cast<std::size_t>(kProbeValues) * n;
  return a;
}

//! [cuda_step]
void CudaSolver::step(int n) {
  const tc::StepArgs a = args(n);
  switch (kernels_) {
    case CudaKernels::aos:  // the paper's two kernels, in place on one buffer
      tc::launch_paper_step_aos(pulses_[0].get(), a, nullptr);
      break;
    case CudaKernels::coalesced:
      tc::launch_paper_step_coalesced(pulses_[0].get(), a, nullptr);
      break;
    case CudaKernels::fused:  // one kernel from one buffer into the other; they swap roles
      tc::launch_fused(pulses_[current_].get(), pulses_[1 - current_].get(), a, nullptr);
      current_ = 1 - current_;
      break;
    case CudaKernels::fused_half:
      tc::launch_fused_half(halves_[current_].get(), halves_[1 - current_].get(), a, nullptr);
      current_ = 1 - current_;
      break;
    case CudaKernels::fused_half_loads_first:  // the same step, every load issued before a conversion
      tc::launch_fused_half_loads_first(halves_[current_].get(), halves_[1 - current_].get(), a, nullptr);
      current_ = 1 - current_;
      break;
    case CudaKernels::fused_x2:  // the same step, 2 or 4 nodes per thread
    case CudaKernels::fused_x4:
      tc::launch_fused_vector(pulses_[current_].get(), pulses_[1 - current_].get(), nodes_per_thread(kernels_), a, nullptr);
      current_ = 1 - current_;
      break;
    case CudaKernels::fused_half_x2:
    case CudaKernels::fused_half_x4:
      tc::launch_fused_vector_half(halves_[current_].get(), halves_[1 - current_].get(), nodes_per_thread(kernels_), a,
                                   nullptr);
      current_ = 1 - current_;
      break;
  }
}
//! [cuda_step]

double CudaSolver::run(int steps) {
  if (step_ + steps > setup_.steps) throw std::logic_error("CudaSolver::run: more steps than the probe holds");
  timer_.start();
  for (int s = 0; s < steps; ++s) step(step_++);  // launches queue up; the host does not wait
  timer_.stop();
  return timer_.seconds();
}

std::vector<float> CudaSolver::pulses() {
  const auto n = static_cast<std::size_t>(layout_.elements());
  std::vector<float> stored(n);
  if (is_half(kernels_)) {
    const std::vector<__half> halves = halves_[current_].download(0, n);
    std::transform(halves.begin(), halves.end(), stored.begin(), [](__half h) { return __half2float(h); });
  } else {
    stored = pulses_[current_].download(0, n);
  }
  std::vector<float> canonical = from_layout(layout_, stored);
  if (!fused()) return canonical;
  std::vector<float> incident(canonical.size());
  connect<float>(setup_.structure, canonical, incident);
  return incident;
}

std::vector<float> CudaSolver::probe() { return probe_.download(0, static_cast<std::size_t>(kProbeValues) * step_); }

std::string CudaSolver::launch() const {
  const Extent e = setup_.structure.extent();
  const int w = nodes_per_thread(kernels_);
  const tc::LaunchShape s = w > 1 ? tc::fused_vector_shape(e, w) : fused() ? tc::fused_shape(e) : tc::paper_step_shape(e);
  const std::string block = w > 1 ? std::to_string(s.block.x) + " x " + std::to_string(s.block.y) + " (" +
                                        std::to_string(w) + " nodes of a row per thread)"
                                  : std::to_string(s.block.x);
  return layout_.str() + "; grid " + std::to_string(s.grid.x) + " x " + std::to_string(s.grid.y) + " x " +
         std::to_string(s.grid.z) + ", block " + block +
         (fused() ? ", 1 launch per step" : ", 2 launches per step (scatter, connect)");
}

}  // namespace ch11
