// Chapter 01: weighted Jacobi for the bidomain FEM system on the CPU, in the paper's two storage
// layouts (separate diagonals, interleaved rows), on one thread as in the paper and on every core
// with OpenMP. The run (gpgpu::jacobi::Chapter) verifies each against the double-precision
// reference and judges it against the host's bandwidth for the same read:write mix, measured now.
// `--threads 1,2,4` runs each OpenMP variant once per count (rows separate_openmp_t1, _t2, _t4), so
// one run shows where adding cores stops paying.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cpu_jacobi.hpp"
#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/jacobi/chapter.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{
    "01", "ch01_cpu_jacobi", "CPU weighted Jacobi: separate diagonals and interleaved rows, serial and OpenMP",
    "paper 000 (weighted Jacobi for the bidomain equations), sections 2-4, Tables 3, 4 and 6"};

// A storage layout: its solver, made for a given thread count.
struct CpuLayout {
  const char* description;
  const char* source;
  std::unique_ptr<gpgpu::jacobi::Solver> (*make)(const gpgpu::jacobi::LinearSystem&, int threads);
};

template <typename Solver>
std::unique_ptr<gpgpu::jacobi::Solver> make_solver(const gpgpu::jacobi::LinearSystem& sys, int threads) {
  return std::make_unique<Solver>(sys, threads);
}

const CpuLayout kSeparate{"nine separate diagonal arrays (paper Fig. 2)", "jacobi_separate.cpp",
                          make_solver<ch01::SeparateDiagonalsSolver>};
const CpuLayout kInterleaved{"interleaved rows (paper Fig. 4)", "jacobi_interleaved.cpp",
                             make_solver<ch01::InterleavedRowsSolver>};

// One variant: a layout on `threads` threads (1: the paper's CPU code; 0: the OpenMP variant, one
// run per --threads count, see runs_per_count()).
gpgpu::jacobi::VariantSpec cpu_variant(std::string name, const CpuLayout& layout, int threads) {
  gpgpu::jacobi::VariantSpec v;
  v.info = {std::move(name), gpgpu::Backend::cpu,
            std::string(layout.description) + (threads == 1 ? ", one thread" : ", OpenMP"),
            std::string("chapters/01_cpu_jacobi/") + layout.source, "CPU"};
  v.opener = gpgpu::cpu_opener;
  v.timer = "steady_clock";
  v.threads = threads;
  v.make = [&layout, threads](const gpgpu::jacobi::LinearSystem& sys, gpgpu::Session& cpu) {
    return layout.make(sys, threads > 0 ? threads : gpgpu::cpu_threads(cpu));
  };
  return v;
}

// The chosen variants as they run: the serial ones once, each OpenMP one once per --threads count,
// named <name>_t<count> when there are several counts (the device column says the count anyway).
std::vector<gpgpu::jacobi::VariantSpec> runs_per_count(gpgpu::jacobi::Chapter& chapter,
                                                       const std::vector<const gpgpu::jacobi::VariantSpec*>& chosen) {
  std::vector<gpgpu::jacobi::VariantSpec> runs;
  for (const gpgpu::jacobi::VariantSpec* v : chosen) {
    if (v->threads > 0) {
      runs.push_back(*v);
      continue;
    }
    const CpuLayout& layout = v->info.source.ends_with(kSeparate.source) ? kSeparate : kInterleaved;
    const std::vector<int> counts = gpgpu::cpu_thread_counts(chapter.session_of(*v));
    for (int threads : counts)
      runs.push_back(cpu_variant(counts.size() > 1 ? v->info.name + "_t" + std::to_string(threads) : v->info.name,
                                 layout, threads));
  }
  return runs;
}

}  // namespace

int main(int argc, char** argv) {
  return gpgpu::run_main(kInfo.program, [&] {
    gpgpu::jacobi::Chapter chapter(kInfo, {.host_bytes_per_node = ch01::kHostBytesPerNode});
    chapter.add(cpu_variant("separate", kSeparate, 1));
    chapter.add(cpu_variant("interleaved", kInterleaved, 1));
    chapter.add(cpu_variant("separate_openmp", kSeparate, 0));
    chapter.add(cpu_variant("interleaved_openmp", kInterleaved, 0));
    chapter.parse(argc, argv);
    std::ostream& out = std::cout;
    const std::vector<gpgpu::jacobi::VariantSpec> runs = runs_per_count(chapter, chapter.open(out));
    std::vector<const gpgpu::jacobi::VariantSpec*> variants;
    for (const gpgpu::jacobi::VariantSpec& v : runs) variants.push_back(&v);
    chapter.check_fits(variants);
    chapter.measure_limits(out, variants);
    chapter.prepare(out);
    out << "Verification:\n";
    for (const gpgpu::jacobi::VariantSpec* v : variants) chapter.run_variant(out, *v);
    return chapter.finish(out);
  });
}
