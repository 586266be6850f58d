/// @file half_model.hpp
/// @brief Half-precision storage on the CPU, for tests that need no CUDA toolkit: IEEE binary16
/// rounding in software, and a solver that does what cuda_fused_half does (kernels/tlm/cuda/11_02_fused.cu
/// with half storage: FP32 arithmetic, every reflected pulse stored rounded to half after each step).
///
/// The emulated kernel test (kernels/tlm/cuda/tests/test_kernels_emulated.cpp) checks that
/// round_to_half agrees with the toolkit's __float2half_rn and that this model's pulses are the
/// kernel's, bit for bit.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <vector>

#include "gpgpu/tlm/reference.hpp"
#include "gpgpu/tlm/solver.hpp"

namespace gpgpu::tlm::checks {

/// `x` rounded to the nearest binary16 value, ties to even (__float2half_rn, OpenCL's
/// vstore_half_rte): 11 significant bits from half's smallest normal number 2⁻¹⁴ up, a fixed
/// spacing of 2⁻²⁴ below it (so |x| <= 2⁻²⁵ flushes to zero), infinity from 65520 up.
inline float round_to_half(float x) {
  if (!std::isfinite(x) || x == 0.0f) return x;
  const double a = std::abs(static_cast<double>(x));
  if (a >= 65520.0) return std::copysign(std::numeric_limits<float>::infinity(), x);
  int e = 0;
  std::frexp(a, &e);  // a = m·2^e, m in [½, 1): a's binade starts at 2^(e−1)
  const double spacing = std::ldexp(1.0, std::max(e - 1, -14) - 10);
  return static_cast<float>(std::copysign(std::nearbyint(a / spacing) * spacing, static_cast<double>(x)));
}

/// The fused step with half storage, on whole arrays: connect the stored reflected pulses (a
/// permutation and signs, exact), add the source, record the probe, scatter in FP32, store each
/// reflected pulse rounded to half.
class HalfStorageModel final : public Solver {
 public:
  explicit HalfStorageModel(const Setup& s)
      : s_(s), reflected_(static_cast<std::size_t>(kPorts * s.structure.mesh.nodes())), incident_(reflected_.size()),
        probe_(static_cast<std::size_t>(kProbeValues) * s.steps) {}

  void reset(std::span<const float> incident) override {
    connect<float>(s_.structure, incident, reflected_);  // connect is its own inverse
    std::transform(reflected_.begin(), reflected_.end(), reflected_.begin(), round_to_half);
    std::fill(probe_.begin(), probe_.end(), std::numeric_limits<float>::quiet_NaN());
    step_ = 0;
  }

  double run(int steps) override {
    for (int s = 0; s < steps; ++s) step();
    return 0.0;
  }

  std::vector<float> pulses() override {
    std::vector<float> incident(reflected_.size());
    connect<float>(s_.structure, reflected_, incident);
    return incident;
  }
  std::vector<float> probe() override { return {probe_.begin(), probe_.begin() + kProbeValues * step_}; }

 private:
  void step() {
    const Mesh& m = s_.structure.mesh;
    const Drive& d = s_.drive;
    const std::int64_t nodes = m.nodes();
    const std::int64_t source = m.index(d.source.i, d.source.j, d.source.k);
    const std::int64_t probe = m.index(d.probe.i, d.probe.j, d.probe.k);
    connect<float>(s_.structure, reflected_, incident_);
    for (std::int64_t node = 0; node < nodes; ++node) {
      float v[kPorts];
      for (int p = 0; p < kPorts; ++p) v[p] = incident_[static_cast<std::size_t>(p * nodes + node)];
      if (node == source) inject(v, d.source.polarisation, static_cast<float>(d.value(step_)));
      if (node == probe) {
        const NodeFields<float> f = node_fields(v);
        float* out = probe_.data() + static_cast<std::size_t>(kProbeValues) * step_;
        out[0] = f.vx, out[1] = f.vy, out[2] = f.vz, out[3] = f.ix, out[4] = f.iy, out[5] = f.iz;
      }
      scatter(v);
      for (int p = 0; p < kPorts; ++p) reflected_[static_cast<std::size_t>(p * nodes + node)] = round_to_half(v[p]);
    }
    ++step_;
  }

  const Setup& s_;
  std::vector<float> reflected_, incident_, probe_;
  int step_ = 0;
};

}  // namespace gpgpu::tlm::checks
