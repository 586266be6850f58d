#include "port_report.hpp"

#include <algorithm>
#include <ostream>

#include "gpgpu/matrix/paper003.hpp"
#include "gpgpu/table.hpp"
#include "gpgpu/tlm/paper002.hpp"
#include "ports.hpp"

namespace ch08 {
namespace {

namespace paper002 = gpgpu::tlm::paper002;
namespace paper003 = gpgpu::matrix::paper003;

std::string fixed(double value, int digits) {
  constexpr const char* kFormats[] = {"%.0f", "%.1f", "%.2f", "%.3f", "%.4f"};
  return gpgpu::format_cell(kFormats[std::clamp(digits, 0, 4)], value);
}

const gpgpu::ResultRow* find_row(const std::vector<gpgpu::ResultRow>& rows, const std::string& variant) {
  for (const gpgpu::ResultRow& r : rows)
    if (r.variant == variant) return &r;
  return nullptr;
}

}  // namespace

void print_startup_table(std::ostream& out, const gpgpu::ocl::StartupTimes& s) {
  out << "Start-up (host clock; paper 003, sec. 6.6: OpenCL's initialisation averaged about "
      << paper003::kOpenClStartupSeconds << " s, CUDA's was negligible):\n";
  std::vector<std::vector<std::string>> t{{"step", "seconds"},
                                          {"platform and device discovery", fixed(s.discovery_s, 4)},
                                          {"context", fixed(s.context_s, 4)},
                                          {"command queue (profiling on)", fixed(s.queue_s, 4)}};
  for (const auto& [path, seconds] : s.builds) t.push_back({"build " + path, fixed(seconds, 4)});
  t.push_back({"total", fixed(s.total(), 4)});
  gpgpu::print_text_table(out, t, 1);
  out << "  Builds compile OpenCL C at run time; drivers may cache the binaries, so a second run can\n"
         "  build faster (NVIDIA: ~/.nv/ComputeCache, PoCL: ~/.cache/pocl). The stream kernel that\n"
         "  measures the limit below is built apart and is not counted here.\n";
}

void print_cpu_comparison(std::ostream& out, const std::vector<gpgpu::ResultRow>& rows,
                          const gpgpu::jacobi::CpuBaseline& b) {
  const double openmp_ms = 1e3 * b.multi_thread_s_per_iter;
  out << "\nOpenCL on the CPU beside chapter 01's C++ (same system, same machine; faster layout of ch01):\n";
  std::vector<std::vector<std::string>> t{{"code", "ms/iter", "time vs ch01 OpenMP"}};
  t.push_back({"ch01 C++, 1 thread", fixed(1e3 * b.single_thread_s_per_iter, 4),
               fixed(1e3 * b.single_thread_s_per_iter / openmp_ms, 2) + "x"});
  t.push_back({"ch01 C++ + OpenMP, " + std::to_string(b.threads) + " threads", fixed(openmp_ms, 4), "1.00x"});
  for (const gpgpu::ResultRow& r : rows)
    if (r.backend == "opencl")
      t.push_back({"OpenCL " + r.variant, fixed(r.ms_per_step(), 4), fixed(r.ms_per_step() / openmp_ms, 2) + "x"});
  gpgpu::print_text_table(out, t, 1);
  out << "  Above 1x the OpenCL kernel is slower than the OpenMP loop: PoCL turns each work-group into a loop\n"
         "  over its work-items and vectorises across them; local memory and barriers are emulated in RAM.\n";
}

nlohmann::json baseline_json(const gpgpu::jacobi::CpuBaseline& b) {
  return {{"threads", b.threads},
          {"sample_iters", b.sample_iters},
          {"single_thread_s_per_iter", b.single_thread_s_per_iter},
          {"multi_thread_s_per_iter", b.multi_thread_s_per_iter}};
}

void to_json(nlohmann::json& j, const CudaComparison& c) {
  j = {{"variant", c.variant},
       {"cuda_variant", c.cuda_variant},
       {"cuda_source", c.cuda_source},
       {"opencl_ms_per_iter", c.opencl_ms_per_iter},
       {"cuda_ms_per_iter", c.cuda_ms_per_iter},
       {"opencl_over_cuda", c.ratio()},
       {"goal", 1.0 + kPortGoal},
       {"met", c.ratio() <= 1.0 + kPortGoal}};
}

std::vector<CudaComparison> cuda_comparison(const std::vector<gpgpu::ResultRow>& rows) {
  std::vector<CudaComparison> pairs;
  for (const Port& v : kPorts) {
    const gpgpu::ResultRow* opencl = find_row(rows, std::string(v.name));
    const gpgpu::ResultRow* cuda = find_row(rows, "cuda_" + std::string(v.cuda_variant));
    if (opencl == nullptr || cuda == nullptr || opencl->backend != "opencl") continue;
    // Only the same GPU through both APIs compares the APIs: OpenCL on PoCL against CUDA on the
    // GPU compares a CPU with a GPU. The OpenCL row's device is "<name> (OpenCL)".
    if (opencl->device != cuda->device + " (OpenCL)") continue;
    pairs.push_back({opencl->variant, cuda->variant, cuda->source, opencl->ms_per_step(), cuda->ms_per_step()});
  }
  return pairs;
}

void print_cuda_comparison(std::ostream& out, const std::vector<CudaComparison>& pairs) {
  if (pairs.empty()) return;
  out << "\nOpenCL against CUDA, same run (goal: OpenCL within " << static_cast<int>(kPortGoal * 100)
      << "% of CUDA's time):\n";
  std::vector<std::vector<std::string>> t{
      {"OpenCL variant", "CUDA variant", "OpenCL ms/iter", "CUDA ms/iter", "OpenCL/CUDA", "goal", "met"}};
  for (const CudaComparison& c : pairs)
    t.push_back({c.variant, c.cuda_variant, fixed(c.opencl_ms_per_iter, 4), fixed(c.cuda_ms_per_iter, 4),
                 fixed(c.ratio(), 3), "<= " + fixed(1.0 + kPortGoal, 2), c.ratio() <= 1.0 + kPortGoal ? "yes" : "no"});
  gpgpu::print_text_table(out, t, 2);
}

nlohmann::json print_papers_beside_us(std::ostream& out, const gpgpu::ocl::StartupTimes& startup,
                            const gpgpu::jacobi::Grid& grid, const std::vector<CudaComparison>& pairs) {
  out << "\nThe papers' CUDA-versus-OpenCL observations beside this run:\n";
  out << "  paper 003 (sec. 6.6, Fig. 21): OpenCL start-up about " << paper003::kOpenClStartupSeconds << " s -> now "
      << fixed(startup.total(), 3) << " s (" << fixed(startup.build_s(), 3) << " s of it compiling kernels)\n";
  const auto [lo, hi] = std::minmax_element(paper003::kOpenClOverCuda.begin(), paper003::kOpenClOverCuda.end(),
                                            [](const auto& a, const auto& b) { return a.ratio < b.ratio; });
  out << "  paper 003 (Tabs. 6-8, 10): OpenCL took " << lo->ratio << "x (" << lo->table << ", " << lo->gpu << ") to "
      << hi->ratio << "x (" << hi->table << ", " << hi->gpu << ") CUDA's time at the largest sizes -> now ";
  if (pairs.empty()) {
    out << "not measured in this run (the CUDA originals run as variants cuda_* in a build with CUDA, on a GPU)\n";
  } else {
    const auto [tlo, thi] = std::minmax_element(pairs.begin(), pairs.end(),
                                                [](const auto& a, const auto& b) { return a.ratio() < b.ratio(); });
    out << fixed(tlo->ratio(), 3) << "x (" << tlo->variant << ") to " << fixed(thi->ratio(), 3) << "x ("
        << thi->variant << ")\n";
  }
  out << "  paper 002 (sec. V, Fig. 11): OpenCL matched CUDA's speed from about "
      << paper002::kOpenClMatchesCudaFromNodes / 1e6 << " million nodes -> this run: "
      << fixed(static_cast<double>(grid.nodes()) / 1e6, 2) << " million unknowns\n";
  return {{"paper003_opencl_startup_s", paper003::kOpenClStartupSeconds},
          {"startup_s", startup.total()},
          {"paper002_opencl_matches_cuda_from_nodes", paper002::kOpenClMatchesCudaFromNodes},
          {"nodes", grid.nodes()}};
}

}  // namespace ch08
