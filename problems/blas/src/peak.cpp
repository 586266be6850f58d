// The compute roof of chapters 10 and 12: the CPU's FMA peak, and the rule that a roof a verified
// run beat was not the roof.
#include "gpgpu/blas/peak.hpp"

#include <ostream>

#include "gpgpu/blas/routines.hpp"
#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/table.hpp"
#include "gpgpu/work.hpp"

namespace gpgpu::blas {

Peak cpu_fma_peak(ElementType, Session& cpu) {
  const int threads = cpu_threads(cpu);
  return {"FMA chains in registers, " + std::to_string(threads) + " threads, float", cpu_fma_peak_gflops(threads)};
}

PeakRun peak_run(const ResultRow& row) {
  return {row.backend, row.variant, rates(row.work, row.min_seconds()).gflops, !row.check.checked || row.check.pass};
}

void settle_peak(std::ostream& out, Backend backend, Peak& peak, const std::vector<PeakRun>& runs) {
  // On the CPU a library can beat our FMA kernel: OpenBLAS picks its vector width at run time, and
  // a build for an older target gives the kernel narrower vectors. The roof is then the library's
  // best run, named, so that no share passes 100% and the reader sees who set the roof.
  const PeakRun* best = nullptr;
  for (const PeakRun& r : runs)
    if (r.backend == backend_name(backend) && r.trusted && r.gflops > peak.gflops && (best == nullptr || r.gflops > best->gflops)) best = &r;
  if (best == nullptr) return;
  const std::string kernel = format_cell("%.1f", peak.gflops);
  out << "Ceilings: " << backend_name(backend) << ": the FMA kernel's " << kernel << " GFLOP/s was beaten by "
      << best->variant << "'s best run, " << format_cell("%.1f", best->gflops) << " GFLOP/s, which is the compute ceiling\n";
  peak.name += "; beaten by " + best->variant + "'s best run (the FMA kernel: " + kernel + " GFLOP/s)";
  peak.gflops = best->gflops;
}

}  // namespace gpgpu::blas
