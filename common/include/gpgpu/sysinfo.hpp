/// @file sysinfo.hpp
/// @brief What a run runs on: the host's CPU, memory, compiler and source revision.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace gpgpu {

struct HostInfo {
  std::string cpu_model;        ///< from /proc/cpuinfo
  int logical_cpus = 0;         ///< hardware threads online
  int openmp_threads = 1;       ///< threads an OpenMP parallel region uses (1 without OpenMP)
  std::uint64_t memory_bytes = 0;
  std::string os;               ///< kernel name and release
  std::string compiler;         ///< compiler the project was built with
  std::string build_type;       ///< CMake build type and CPU flags
  std::string git_revision;     ///< source revision at configure time
};

HostInfo host_info();
/// Prints the host block that opens every run.
void print_host_info(std::ostream& out, const HostInfo& info);
void to_json(nlohmann::json& j, const HostInfo& info);

}  // namespace gpgpu
