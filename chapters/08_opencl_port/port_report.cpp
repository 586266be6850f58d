#include "port_report.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>

#include "gpgpu/paper002.hpp"
#include "gpgpu/paper003.hpp"
#include "gpgpu/report.hpp"

namespace ch08 {
namespace {

std::string fixed(double value, int digits) {
  constexpr const char* kFormats[] = {"%.0f", "%.1f", "%.2f", "%.3f", "%.4f"};
  return gpgpu::format_cell(kFormats[std::clamp(digits, 0, 4)], value);
}

}  // namespace

void print_startup_table(std::ostream& out, const gpgpu::ocl::StartupTimes& s) {
  out << "Start-up (host clock; paper 003, sec. 6.6: OpenCL's initialisation averaged about "
      << gpgpu::paper003::kOpenClStartupSeconds << " s, CUDA's was negligible):\n";
  std::vector<std::vector<std::string>> t{{"step", "seconds"},
                                          {"platform and device discovery", fixed(s.discovery_s, 4)},
                                          {"context", fixed(s.context_s, 4)},
                                          {"command queue (profiling on)", fixed(s.queue_s, 4)}};
  for (const auto& [path, seconds] : s.builds) t.push_back({"build " + path, fixed(seconds, 4)});
  t.push_back({"total", fixed(s.total(), 4)});
  gpgpu::print_text_table(out, t, 1);
  out << "  Builds compile OpenCL C at run time; drivers may cache the binaries, so a second run can\n"
         "  build faster (NVIDIA: ~/.nv/ComputeCache, PoCL: ~/.cache/pocl).\n";
}

nlohmann::json startup_json(const gpgpu::ocl::StartupTimes& s) {
  nlohmann::json builds = nlohmann::json::array();
  for (const auto& [path, seconds] : s.builds) builds.push_back({{"source", path}, {"seconds", seconds}});
  return {{"discovery_s", s.discovery_s}, {"context_s", s.context_s}, {"queue_s", s.queue_s},
          {"builds", builds},           {"build_s", s.build_s()},     {"total_s", s.total()},
          {"paper003_opencl_startup_s", gpgpu::paper003::kOpenClStartupSeconds}};
}

void print_cpu_comparison(std::ostream& out, const std::vector<gpgpu::ResultRow>& rows,
                          const ch01::CpuBaseline& b) {
  const double openmp_ms = 1e3 * b.multi_thread_s_per_iter;
  out << "\nOpenCL on the CPU beside chapter 01's C++ (same system, same machine; faster layout of ch01):\n";
  std::vector<std::vector<std::string>> t{{"code", "ms/iter", "time vs ch01 OpenMP"}};
  t.push_back({"ch01 C++, 1 thread", fixed(1e3 * b.single_thread_s_per_iter, 4),
               fixed(1e3 * b.single_thread_s_per_iter / openmp_ms, 2) + "x"});
  t.push_back({"ch01 C++ + OpenMP, " + std::to_string(b.threads) + " threads", fixed(openmp_ms, 4), "1.00x"});
  for (const gpgpu::ResultRow& r : rows)
    t.push_back({"OpenCL " + r.variant, fixed(r.ms_per_iter(), 4), fixed(r.ms_per_iter() / openmp_ms, 2) + "x"});
  gpgpu::print_text_table(out, t, 1);
  out << "  Above 1x the OpenCL kernel is slower than the OpenMP loop: PoCL turns each work-group into a loop\n"
         "  over its work-items and vectorises across them; local memory and barriers are emulated in RAM.\n";
}

void print_cuda_comparison(std::ostream& out, const std::vector<TwinTiming>& twins) {
  if (twins.empty()) return;
  out << "\nOpenCL against CUDA on the same GPU, same run (goal: OpenCL within "
      << static_cast<int>(kPortGoal * 100) << "% of CUDA's time):\n";
  std::vector<std::vector<std::string>> t{
      {"OpenCL variant", "CUDA kernel", "OpenCL ms/iter", "CUDA ms/iter", "OpenCL/CUDA", "goal"}};
  for (const TwinTiming& w : twins)
    t.push_back({w.variant, w.cuda_kernel, fixed(w.opencl_ms_per_iter, 4), fixed(w.cuda_ms_per_iter, 4),
                 fixed(w.ratio(), 3), w.ratio() <= 1.0 + kPortGoal ? "met" : "missed"});
  gpgpu::print_text_table(out, t, 2);
}

nlohmann::json device_json(const gpgpu::ocl::DeviceInfo& device, const gpgpu::ocl::StartupTimes& startup,
                           const gpgpu::ocl::CopyBandwidth& copy, int work_group, const nlohmann::json& skipped,
                           const std::vector<TwinTiming>& twins) {
  nlohmann::json j = device;
  j["startup"] = startup_json(startup);
  j["copy_bandwidth"] = {{"bytes", copy.bytes}, {"command_gbs", copy.command_gbs}, {"kernel_gbs", copy.kernel_gbs}};
  j["work_group_size"] = work_group;
  j["skipped_variants"] = skipped;
  j["cuda_comparison"] = nlohmann::json::array();
  for (const TwinTiming& t : twins)
    j["cuda_comparison"].push_back({{"variant", t.variant},
                                    {"cuda_kernel", t.cuda_kernel},
                                    {"opencl_ms_per_iter", t.opencl_ms_per_iter},
                                    {"cuda_ms_per_iter", t.cuda_ms_per_iter},
                                    {"opencl_over_cuda", t.ratio()}});
  return j;
}

void print_papers_beside_us(std::ostream& out, const gpgpu::ocl::StartupTimes& startup, const gpgpu::Grid& grid,
                            const std::vector<TwinTiming>& twins) {
  out << "\nThe papers' CUDA-versus-OpenCL observations beside this run:\n";
  out << "  paper 003 (sec. 6.6, Fig. 21): OpenCL start-up about " << gpgpu::paper003::kOpenClStartupSeconds
      << " s -> now " << fixed(startup.total(), 3) << " s (" << fixed(startup.build_s(), 3)
      << " s of it compiling kernels)\n";
  const auto [lo, hi] = std::minmax_element(gpgpu::paper003::kOpenClOverCuda.begin(),
                                            gpgpu::paper003::kOpenClOverCuda.end(),
                                            [](const auto& a, const auto& b) { return a.ratio < b.ratio; });
  out << "  paper 003 (Tabs. 6-8, 10): OpenCL took " << lo->ratio << "x (" << lo->table << ", " << lo->gpu << ") to "
      << hi->ratio << "x (" << hi->table << ", " << hi->gpu << ") CUDA's time at the largest sizes -> now ";
  if (twins.empty()) {
    out << "not measured in this run (--compare-cuda, in a build with the CUDA kernels)\n";
  } else {
    const auto [tlo, thi] = std::minmax_element(twins.begin(), twins.end(),
                                                [](const auto& a, const auto& b) { return a.ratio() < b.ratio(); });
    out << fixed(tlo->ratio(), 3) << "x (" << tlo->variant << ") to " << fixed(thi->ratio(), 3) << "x ("
        << thi->variant << ")\n";
  }
  out << "  paper 002 (sec. V, Fig. 11): OpenCL matched CUDA's speed from about "
      << gpgpu::paper002::kOpenClMatchesCudaFromNodes / 1e6 << " million nodes -> this run: "
      << fixed(static_cast<double>(grid.nodes()) / 1e6, 2) << " million unknowns\n";
}

}  // namespace ch08
