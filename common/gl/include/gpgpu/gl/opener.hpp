/// @file opener.hpp
/// @brief OpenGL as a backend of the core (gpgpu::Backend::gl): the --egl option, a session that
/// owns the context, and the stream limits measured in that context.
///
/// The opener adds, in the group "OpenGL":
///   --egl auto|device|surfaceless   the EGL platform of the headless context (default auto)
/// and opens a Session on a headless EGL context (HeadlessContext). A chapter that needs another
/// context (chapter 02's --window: a window's) derives from Opener and overrides open_context();
/// its factory then names its own opener class, and main() stays free of #ifdef.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <tuple>

#include "gpgpu/backend.hpp"
#include "gpgpu/gl/context.hpp"
#include "gpgpu/gl/stream.hpp"

namespace gpgpu::gl {

/// An open GL backend: its context, and the limits measured in it (each mix once).
class Session final : public gpgpu::Session {
 public:
  explicit Session(std::unique_ptr<Context> context);
  ~Session() override;

  [[nodiscard]] Backend backend() const override { return Backend::gl; }
  /// GL_RENDERER: "NVIDIA H100 80GB HBM3/PCIe/SSE2", "llvmpipe (LLVM 15.0.6, 256 bits)".
  [[nodiscard]] std::string device() const override { return info().renderer; }
  /// The renderer, GL version, timer and context lines of the run's header.
  void print(std::ostream& out) const override;
  /// The context's description and every stream limit measured so far.
  [[nodiscard]] nlohmann::json json() const override;
  /// The stream shader (stream.hpp) with the mix's reads and writes on RGBA32F textures of
  /// mix.elements values each, through the mix's pipeline ("fragment" or "" for the fragment path,
  /// "compute"). On a software renderer, whose two paths run on the same CPU cores, a compute mix
  /// is judged against the faster of the two, and the limit's name says which it is.
  /// theoretical_gbs is NaN (GL reports no memory clock or bus width).
  Limit stream_limit(const StreamMix& mix) override;
  /// A software renderer's textures live in host memory, behind the host's last-level cache; for a
  /// GPU, whose cache sizes GL does not report, an assumed 50 MiB L2 (an H100's).
  [[nodiscard]] double cache_bytes() const override;
  [[nodiscard]] std::string cache_name() const override;

  [[nodiscard]] const ContextInfo& info() const { return context_->info(); }
  [[nodiscard]] Context& context() { return *context_; }

 private:
  // The measurement of `mix` through `pipeline`, made on first use.
  const StreamMeasurement& measured(const StreamMix& mix, Pipeline pipeline);

  std::unique_ptr<Context> context_;
  std::map<std::tuple<int, int, int, int, Pipeline>, StreamMeasurement> measured_;
};

/// The GL driver: --egl, and a session on the headless context it selects.
class Opener : public gpgpu::BackendOpener {
 public:
  [[nodiscard]] Backend backend() const override { return Backend::gl; }
  void add_options(Cli& cli) override;
  /// A Session on open_context(). Throws BackendUnavailable where no context can be made.
  std::unique_ptr<gpgpu::Session> open() final;

 protected:
  /// The context of the session: a HeadlessContext on the --egl platform. Override it to supply
  /// another one; the override may add options of its own in add_options (call this class's too).
  virtual std::unique_ptr<Context> open_context();
  /// The --egl choice.
  [[nodiscard]] EglPlatform egl_platform() const { return parse_egl_platform(egl_); }

 private:
  std::string egl_ = "auto";
};

/// The driver of chapters whose GL variants run headless.
std::unique_ptr<gpgpu::BackendOpener> opener();

/// The GL session behind a session of the core (std::logic_error when it is another backend's).
Session& session(gpgpu::Session& s);

}  // namespace gpgpu::gl
