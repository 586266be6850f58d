#include "gpgpu/sysinfo.hpp"

#include <fstream>
#include <ostream>
#include <thread>

#include <nlohmann/json.hpp>
#include <sys/utsname.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "build_info.hpp"
#include "gpgpu/memory.hpp"

namespace gpgpu {
namespace {

std::string read_cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0 || line.rfind("Model", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  }
  return "unknown CPU";
}

std::uint64_t total_memory() {
  return static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace

HostInfo host_info() {
  HostInfo h;
  h.cpu_model = read_cpu_model();
  h.logical_cpus = static_cast<int>(std::thread::hardware_concurrency());
#ifdef _OPENMP
  h.openmp_threads = omp_get_max_threads();
#endif
  h.memory_bytes = total_memory();
  utsname u{};
  if (uname(&u) == 0) h.os = std::string(u.sysname) + " " + u.release;
  h.compiler = GPGPU_BUILD_COMPILER;
  h.build_type = std::string(GPGPU_BUILD_TYPE) + (GPGPU_BUILD_NATIVE_CPU ? ", -march=native" : "");
  h.git_revision = GPGPU_GIT_REVISION;
  return h;
}

void print_host_info(std::ostream& out, const HostInfo& h) {
  out << "Host:     " << h.cpu_model << ", " << h.logical_cpus << " hardware threads ("
      << h.openmp_threads << " OpenMP), " << format_bytes(static_cast<double>(h.memory_bytes)) << " RAM\n"
      << "Build:    " << h.compiler << ", " << h.build_type << ", " << h.os << ", revision " << h.git_revision << "\n";
}

void to_json(nlohmann::json& j, const HostInfo& h) {
  j = {{"cpu_model", h.cpu_model},     {"logical_cpus", h.logical_cpus}, {"openmp_threads", h.openmp_threads},
       {"memory_bytes", h.memory_bytes}, {"os", h.os},                   {"compiler", h.compiler},
       {"build_type", h.build_type},   {"git_revision", h.git_revision}};
}

}  // namespace gpgpu
