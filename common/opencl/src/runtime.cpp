// Context, queue and program build, each step timed for the start-up table.
#include "gpgpu/opencl/runtime.hpp"

#include <algorithm>
#include <iostream>
#include <regex>

#include <nlohmann/json.hpp>

#include "gpgpu/memory.hpp"
#include "gpgpu/timing.hpp"

namespace gpgpu::ocl {

Runtime::Runtime(const DeviceOptions& options) {
  Stopwatch clock;
  const Selection selection = select_device(options);
  info_ = describe(selection);
  device_ = selection.device;
  startup_.discovery_s = clock.seconds();

  clock.restart();
  context_ = GPGPU_CL(cl::Context(device_));
  startup_.context_s = clock.seconds();

  clock.restart();
  queue_ = GPGPU_CL(cl::CommandQueue(context_, device_, CL_QUEUE_PROFILING_ENABLE));
  startup_.queue_s = clock.seconds();
}

cl::Program Runtime::build(const EmbeddedText& source, const std::string& options) {
  Compiled c = compile(source, options);
  startup_.builds.emplace_back(std::string(source.path), c.seconds);
  return std::move(c.program);
}

const cl::Program& Runtime::program(const EmbeddedText& source, const std::string& options) {
  const std::string key = std::string(source.path) + '\n' + options;
  auto it = programs_.find(key);
  if (it == programs_.end()) it = programs_.emplace(key, build(source, options)).first;
  return it->second;
}

Runtime::Compiled Runtime::compile(const EmbeddedText& source, const std::string& options) {
  Stopwatch clock;
  const std::string text = "#line 1 \"" + std::string(source.path) + "\"\n" + std::string(source.text);
  cl::Program program = GPGPU_CL(cl::Program(context_, text));
  const std::string all_options = "-cl-std=CL1.2 " + options;
  try {
    program.build(std::vector<cl::Device>{device_}, all_options.c_str());
  } catch (const cl::BuildError& e) {
    std::string log;
    for (const auto& [device, device_log] : e.getBuildLog()) log += log_with_file_lines(device_log, std::string(source.path));
    std::cerr << source.path << ": OpenCL C build failed for " << info_.name << " (options: " << all_options
              << "), build log:\n"
              << log << (log.empty() || log.back() == '\n' ? "" : "\n") << std::flush;
    throw BuildFailed("building " + std::string(source.path) + " for " + info_.name + " failed: " +
                          describe_error(e) + " (the build log is printed above)",
                      log);
  } catch (const cl::Error& e) {
    throw_failed_call("program.build(...)", __FILE__, __LINE__, e);
  }
  return {program, clock.seconds()};
}

void to_json(nlohmann::json& j, const StartupTimes& s) {
  nlohmann::json builds = nlohmann::json::array();
  for (const auto& [path, seconds] : s.builds) builds.push_back({{"source", path}, {"seconds", seconds}});
  j = {{"discovery_s", s.discovery_s}, {"context_s", s.context_s}, {"queue_s", s.queue_s},
       {"builds", builds},           {"build_s", s.build_s()},     {"total_s", s.total()}};
}

std::string log_with_file_lines(const std::string& log, const std::string& path) {
  static const std::regex kernel_line("<kernel>:([0-9]+)");
  std::string out;
  auto last = log.cbegin();
  for (std::sregex_iterator it(log.begin(), log.end(), kernel_line), end; it != end; ++it) {
    out.append(last, (*it)[0].first);
    out += path + ":" + std::to_string(std::max(1, std::stoi((*it)[1].str()) - 1));
    last = (*it)[0].second;
  }
  out.append(last, log.cend());
  return out;
}

Runtime& shared_runtime() {
  static Runtime runtime(device_options_from_environment());
  return runtime;
}

double profiled_seconds(const cl::Event& first, const cl::Event& last) {
  const cl_ulong start = GPGPU_CL(first.getProfilingInfo<CL_PROFILING_COMMAND_START>());
  const cl_ulong end = GPGPU_CL(last.getProfilingInfo<CL_PROFILING_COMMAND_END>());
  return static_cast<double>(end - start) * 1e-9;
}

void require_device_memory(const DeviceInfo& device, double total_bytes, double largest_buffer_bytes,
                           const std::string& what) {
  if (largest_buffer_bytes > static_cast<double>(device.max_alloc_bytes))
    throw UsageError(what + " needs a buffer of " + format_bytes(largest_buffer_bytes) + "; " + device.name +
                     " allows at most " + format_bytes(static_cast<double>(device.max_alloc_bytes)) +
                     " per buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE)");
  const double usable = 0.9 * static_cast<double>(device.global_mem_bytes);
  if (total_bytes > usable)
    throw UsageError(what + " needs " + format_bytes(total_bytes) + " of device memory; " + device.name + " has " +
                     format_bytes(static_cast<double>(device.global_mem_bytes)) + " (90% usable)");
}

}  // namespace gpgpu::ocl
