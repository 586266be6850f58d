// Chapter 11's CPU variants and their host code: the fused step on the host, one OpenMP thread per
// block of rows.
#include "cpu_variants.hpp"

#include <limits>
#include <memory>
#include <stdexcept>
#include <utility>

#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/timing.hpp"
#include "gpgpu/tlm/reference.hpp"

namespace ch11 {

using namespace gpgpu::tlm;

std::vector<Variant> cpu_variants() {
  std::vector<Variant> list;
  for (const bool parallel : {false, true}) {
    Variant v;
    v.info = {parallel ? "cpu_openmp" : "cpu_serial", gpgpu::Backend::cpu,
              parallel ? "fused pull step, OpenMP over the rows (--threads)" : "fused pull step, one thread",
              "chapters/11_tlm_coalesced/cpu_variants.cpp", "CPU", "steady_clock", parallel ? 0 : 1};
    v.opener = gpgpu::cpu_opener;
    v.make = [parallel](const Setup& setup, gpgpu::Session& cpu) {
      return std::make_unique<CpuSolver>(setup, parallel ? gpgpu::cpu_threads(cpu) : 1);
    };
    list.push_back(std::move(v));
  }
  return list;
}

CpuSolver::CpuSolver(const Setup& setup, int threads, bool vectorise)
    : setup_(setup), threads_(threads), vectorise_(vectorise),
      reflected_(static_cast<std::size_t>(kPorts * setup.structure.mesh.nodes())),
      next_(reflected_.size()),
      probe_(static_cast<std::size_t>(kProbeValues) * setup.steps) {
  // A row is "mixed" where an iris's window edge crosses it: its z faces are walls for some nodes
  // and open for others, so it takes the node-by-node path.
  const Structure& s = setup.structure;
  const Mesh& m = s.mesh;
  mixed_rows_.assign(static_cast<std::size_t>(m.ny) * m.nz, false);
  for (int k = 0; k < m.nz; ++k)
    for (int j = 0; j < m.ny; ++j)
      for (int side : {-1, 1})
        for (int i = 1; i < m.nx; ++i)
          if (s.wall(i, j, k, 2, side) != s.wall(0, j, k, 2, side)) mixed_rows_[static_cast<std::size_t>(k * m.ny + j)] = true;
}

void CpuSolver::reset(std::span<const float> incident) {
  // The solver keeps reflected pulses; connect, its own inverse, finds the ones that arrive as `incident`.
  connect<float>(setup_.structure, incident, reflected_);
  std::fill(next_.begin(), next_.end(), std::numeric_limits<float>::quiet_NaN());
  std::fill(probe_.begin(), probe_.end(), std::numeric_limits<float>::quiet_NaN());
  step_ = 0;
}

namespace {

// What one step of every node reads: the last step's reflected pulses, where they are, the walls.
struct StepView {
  const float* in;
  float* out;
  std::int64_t nodes;
  std::int64_t stride[3];  // index distance to the next node along x, y, z
  Extent extent;
  IrisTable irises;
};

//! [cpu_node]
// One node, as the GPU's fused kernel does it: pull the 12 incident pulses, scatter, write the 12
// reflected ones. `source` and `probe` are null except at their nodes.
void node_step(const StepView& s, int i, int j, int k, std::int64_t node, const Point* source, float value,
               float* probe) {
  float v[kPorts];
  // The pulse arriving at port p left the neighbour across p's face from the opposite port last
  // step, or, at a wall, left port p itself and came back inverted.
  for (int p = 0; p < kPorts; ++p) {
    const int axis = port_axis(p), side = port_side(p);
    v[p] = is_wall(s.extent, s.irises, i, j, k, axis, side) ? kWallReflection * s.in[p * s.nodes + node]
                                                             : s.in[opposite_port(p) * s.nodes + node + side * s.stride[axis]];
  }
  if (source != nullptr) inject(v, source->polarisation, value);
  if (probe != nullptr) {
    const NodeFields<float> f = node_fields(v);
    const float fields[kProbeValues] = {f.vx, f.vy, f.vz, f.ix, f.iy, f.iz};
    std::copy(fields, fields + kProbeValues, probe);
  }
  scatter(v);
  for (int p = 0; p < kPorts; ++p) s.out[p * s.nodes + node] = v[p];
}
//! [cpu_node]

// The inner nodes 1 .. nx-2 of a row whose y and z faces are all walls or all open: no node there
// touches an x wall, so each port reads one unit-stride stream (its wall's sign fixed per row) and
// the loop vectorises: the arithmetic of node_step, 16 nodes per AVX-512 instruction. The ports are
// a parameter pack, so the compiler sees twelve named streams, not an array of pointers.
template <std::size_t... P>
void inner_row(const StepView& s, int j, int k, std::int64_t row, std::index_sequence<P...>) {
  const float* const from[kPorts] = {(is_wall(s.extent, s.irises, 1, j, k, port_axis(P), port_side(P)) && port_axis(P) != 0
                                           ? s.in + P * s.nodes + row
                                           : s.in + opposite_port(P) * s.nodes + row + port_side(P) * s.stride[port_axis(P)])...};
  const float sign[kPorts] = {(port_axis(P) != 0 && is_wall(s.extent, s.irises, 1, j, k, port_axis(P), port_side(P))
                                   ? static_cast<float>(kWallReflection)
                                   : 1.0f)...};
  float* const to[kPorts] = {(s.out + P * s.nodes + row)...};
#pragma omp simd
  for (int i = 1; i < s.extent.nx - 1; ++i) {
    float v[kPorts] = {(sign[P] * from[P][i])...};
    scatter(v);
    ((to[P][i] = v[P]), ...);
  }
}

}  // namespace

void CpuSolver::step(int n) {
  const Mesh& m = setup_.structure.mesh;
  const StepView view{reflected_.data(), next_.data(), m.nodes(), {1, m.nx, static_cast<std::int64_t>(m.nx) * m.ny},
                      setup_.structure.extent(), setup_.structure.iris_table()};
  const Drive& d = setup_.drive;
  const auto value = static_cast<float>(d.value(n));
  float* probe_out = probe_.data() + static_cast<std::size_t>(kProbeValues) * n;
#pragma omp parallel for collapse(2) schedule(static) num_threads(threads_) if (threads_ > 1)
  for (int k = 0; k < m.nz; ++k)
    for (int j = 0; j < m.ny; ++j) {
      const std::int64_t row = m.index(0, j, k);
      const bool source_row = j == d.source.j && k == d.source.k, probe_row = j == d.probe.j && k == d.probe.k;
      const bool fast = vectorise_ && m.nx > 2 && !source_row && !probe_row && !mixed_rows_[static_cast<std::size_t>(k * m.ny + j)];
      if (fast) {  // the row's ends node by node (x walls), the inside vectorised
        node_step(view, 0, j, k, row, nullptr, value, nullptr);
        inner_row(view, j, k, row, std::make_index_sequence<kPorts>{});
        node_step(view, m.nx - 1, j, k, row + m.nx - 1, nullptr, value, nullptr);
        continue;
      }
      for (int i = 0; i < m.nx; ++i) {
        const bool at_source = source_row && i == d.source.i, at_probe = probe_row && i == d.probe.i;
        node_step(view, i, j, k, row + i, at_source ? &d.source : nullptr, value, at_probe ? probe_out : nullptr);
      }
    }
  std::swap(reflected_, next_);
}

double CpuSolver::run(int steps) {
  if (step_ + steps > setup_.steps) throw std::logic_error("CpuSolver::run: more steps than the probe holds");
  const gpgpu::Stopwatch clock;
  for (int s = 0; s < steps; ++s) step(step_++);
  return clock.seconds();
}

std::vector<float> CpuSolver::pulses() {
  std::vector<float> incident(reflected_.size());
  connect<float>(setup_.structure, reflected_, incident);
  return incident;
}

std::vector<float> CpuSolver::probe() { return {probe_.begin(), probe_.begin() + kProbeValues * step_}; }

std::string CpuSolver::launch() const {
  return "12 arrays, pull-scatter-write per node, " + std::to_string(threads_) +
         (threads_ == 1 ? " thread" : " OpenMP threads over the rows");
}

}  // namespace ch11
