/// @file backend.hpp
/// @brief What the core knows of a backend (the CPU, CUDA, OpenCL, OpenGL): how to open it, what
/// it runs on, and the bandwidth limit it measures for a kernel's read:write mix.
///
/// A backend is opened once per run, by the first variant that needs it. Its BackendOpener adds the
/// backend's device options to the command line (--device, --cl-platform, --threads, ...) and
/// opens a Session after parsing; a backend that is missing at run time (no GPU, no OpenCL
/// platform, no EGL display) throws BackendUnavailable, and the experiment drops its variants and
/// says why. Each backend library provides one opener factory (gpgpu::cpu_opener here,
/// gpgpu::cuda::opener, gpgpu::ocl::opener, gpgpu::gl::opener).
#pragma once
#include <cmath>
#include <cstddef>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace gpgpu {

class Cli;

enum class Backend { cpu, cuda, opencl, gl };

/// "cpu", "cuda", "opencl", "gl".
std::string_view backend_name(Backend b);

/// The memory traffic pattern of a kernel, for the limit that judges it: how many arrays it
/// streams in and out, and how long each one is. A limit kernel with the same mix and the same
/// array length has the same read:write ratio and the same working set, so it lands in the same
/// level of the memory hierarchy (an L2-resident problem gets an L2-resident limit).
struct StreamMix {
  int reads = 1;             ///< arrays read once each
  int writes = 1;            ///< arrays written once each
  std::size_t elements = 0;  ///< elements per array
  int element_bytes = 4;     ///< bytes per element
  int threads = 0;           ///< CPU only: threads of the variant judged (0: the session's count)
  /// The launch path, where a device has several with different limits (OpenGL: "fragment" or
  /// "compute"); empty for the default.
  std::string pipeline;
  [[nodiscard]] double bytes() const {
    return static_cast<double>(reads + writes) * static_cast<double>(elements) * element_bytes;
  }
  /// "11:1 x 1048576 x 4 B" (and ", compute" for a pipeline).
  [[nodiscard]] std::string str() const;
};

/// A bandwidth limit measured in the same run as the variants it judges.
///
/// A backend measures it with its stream kernel (Session::stream_limit). When a verified variant of
/// the same mix and working set moves its bytes faster than that kernel did, the stream kernel was
/// not the limit: settle_limits (limit_rule.hpp) raises `gbs` to that variant's best run and names
/// it in `raised_by`, keeping the stream kernel's own figure in `stream_gbs`.
struct Limit {
  std::string name;                       ///< how it was measured: "stream 11:1, 4 MiB arrays, float4 kernel"
  double gbs = 0;                         ///< 1e9 B/s, bytes read + written, best sample: the limit that judges
  std::string mix;                        ///< StreamMix::str() of the measurement
  std::string working_set;                ///< "L2-resident (48.0 MiB <= 50.0 MiB L2)" or "DRAM (...)"
  double theoretical_gbs = std::nan("");  ///< from the memory clock and bus width where the API reports them
  double stream_gbs = std::nan("");       ///< the stream kernel's best sample (set by settle_limits)
  std::string raised_by;                  ///< the variant whose best run raised `gbs` above it, or ""
};

void to_json(nlohmann::json& j, const Limit& l);

/// An opened backend: the device a run uses and what it reports about it.
class Session {
 public:
  virtual ~Session() = default;
  [[nodiscard]] virtual Backend backend() const = 0;
  /// Short device name for result rows: "NVIDIA H100 80GB HBM3", "CPU, 16 threads".
  [[nodiscard]] virtual std::string device() const = 0;
  /// The device block of the run header (name, limits, versions).
  virtual void print(std::ostream& out) const = 0;
  [[nodiscard]] virtual nlohmann::json json() const = 0;
  /// The bandwidth limit for `mix`, measured now on this device by a vectorised kernel that streams
  /// the same number of arrays in and out (best of a few launch shapes and repetitions).
  virtual Limit stream_limit(const StreamMix& mix) = 0;
  /// The largest cache in front of memory (a GPU's L2, the CPU's last-level cache), in bytes.
  [[nodiscard]] virtual double cache_bytes() const = 0;
  [[nodiscard]] virtual std::string cache_name() const = 0;
};

/// How to open a backend: its command-line options, then its session.
class BackendOpener {
 public:
  virtual ~BackendOpener() = default;
  [[nodiscard]] virtual Backend backend() const = 0;
  /// Adds the backend's device options to the chapter's command line (called once, before parse).
  virtual void add_options(Cli& cli) = 0;
  /// Opens the device the options chose. Throws BackendUnavailable when the machine has none,
  /// UsageError when the options name one that does not exist.
  virtual std::unique_ptr<Session> open() = 0;
};

using OpenerFactory = std::unique_ptr<BackendOpener> (*)();

/// "L2-resident (48.0 MiB <= 50.0 MiB L2)" or "DRAM (805.3 MiB > 50.0 MiB L2)": where a working
/// set of `bytes` lives on a device whose largest cache is `cache_bytes`.
std::string working_set_class(double bytes, double cache_bytes, const std::string& cache_name);

}  // namespace gpgpu
