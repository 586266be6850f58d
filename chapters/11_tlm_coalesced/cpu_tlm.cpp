// Chapter 11's CPU host code: the fused step on the host, one OpenMP thread per block of rows.
#include "cpu_tlm.hpp"

#include <limits>
#include <stdexcept>
#include <utility>

#include "gpgpu/timing.hpp"
#include "gpgpu/tlm/reference.hpp"

namespace ch11 {

using namespace gpgpu::tlm;

CpuSolver::CpuSolver(const Problem& problem, int threads)
    : problem_(problem), threads_(threads),
      reflected_(static_cast<std::size_t>(kPorts * problem.structure.mesh.nodes())),
      next_(reflected_.size()),
      probe_(static_cast<std::size_t>(kProbeValues) * problem.steps) {}

void CpuSolver::reset(std::span<const float> incident) {
  // The solver keeps reflected pulses; connect, its own inverse, finds the ones that arrive as `incident`.
  connect<float>(problem_.structure, incident, reflected_);
  std::fill(next_.begin(), next_.end(), std::numeric_limits<float>::quiet_NaN());
  std::fill(probe_.begin(), probe_.end(), std::numeric_limits<float>::quiet_NaN());
  step_ = 0;
}

void CpuSolver::step(int n) {
  const Mesh& m = problem_.structure.mesh;
  const Extent e = problem_.structure.extent();
  const IrisTable irises = problem_.structure.iris_table();
  const std::int64_t nodes = m.nodes();
  const std::int64_t stride[3] = {1, m.nx, static_cast<std::int64_t>(m.nx) * m.ny};
  const Drive& d = problem_.drive;
  const std::int64_t source = m.index(d.source.i, d.source.j, d.source.k);
  const std::int64_t probe = m.index(d.probe.i, d.probe.j, d.probe.k);
  const auto value = static_cast<float>(d.value(n));
  const float* in = reflected_.data();
  float* out = next_.data();
  float* probe_out = probe_.data() + static_cast<std::size_t>(kProbeValues) * n;
#pragma omp parallel for collapse(2) schedule(static) num_threads(threads_) if (threads_ > 1)
  for (int k = 0; k < m.nz; ++k)
    for (int j = 0; j < m.ny; ++j)
      for (int i = 0; i < m.nx; ++i) {
        const std::int64_t node = m.index(i, j, k);
        float v[kPorts];
        // Pull: the pulse arriving at port p left the neighbour across p's face from the opposite
        // port last step, or, at a wall, left port p itself and came back inverted.
        for (int p = 0; p < kPorts; ++p) {
          const int axis = port_axis(p), side = port_side(p);
          v[p] = is_wall(e, irises, i, j, k, axis, side)
                     ? kWallReflection * in[p * nodes + node]
                     : in[opposite_port(p) * nodes + node + side * stride[axis]];
        }
        if (node == source) inject(v, d.source.polarisation, value);
        if (node == probe) {
          const NodeFields<float> f = node_fields(v);
          const float fields[kProbeValues] = {f.vx, f.vy, f.vz, f.ix, f.iy, f.iz};
          std::copy(fields, fields + kProbeValues, probe_out);
        }
        scatter(v);
        for (int p = 0; p < kPorts; ++p) out[p * nodes + node] = v[p];
      }
  std::swap(reflected_, next_);
}

double CpuSolver::run(int steps) {
  if (step_ + steps > problem_.steps) throw std::logic_error("CpuSolver::run: more steps than the probe holds");
  const gpgpu::Stopwatch clock;
  for (int s = 0; s < steps; ++s) step(step_++);
  return clock.seconds();
}

std::vector<float> CpuSolver::pulses() {
  std::vector<float> incident(reflected_.size());
  connect<float>(problem_.structure, reflected_, incident);
  return incident;
}

std::vector<float> CpuSolver::probe() { return {probe_.begin(), probe_.begin() + kProbeValues * step_}; }

std::string CpuSolver::launch() const {
  return "12 arrays, pull-scatter-write per node, " + std::to_string(threads_) +
         (threads_ == 1 ? " thread" : " OpenMP threads over the rows");
}

}  // namespace ch11
