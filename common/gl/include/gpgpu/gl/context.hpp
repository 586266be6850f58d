/// @file context.hpp
/// @brief An OpenGL context without a window (EGL), the loading of GL functions with GLEW, and
/// the description of the context that every GL run prints first.
///
/// HeadlessContext tries, in order:
///  1. an EGL device (EGL_EXT_device_enumeration + EGL_EXT_platform_device): a GPU without any
///     display server, e.g. NVIDIA's EGL on a compute node; hardware devices before software ones;
///  2. Mesa's surfaceless platform (EGL_MESA_platform_surfaceless): llvmpipe on a machine without
///     a GPU, as in CI.
/// and asks for a core-profile OpenGL 4.6 context, then 4.5, ... down to 3.3. When nothing works
/// it throws gpgpu::BackendUnavailable (exit code 77: tests report "skipped").
#pragma once
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "gpgpu/gl/gl.hpp"

namespace gpgpu::gl {

/// Which EGL platform HeadlessContext may use.
enum class EglPlatform { Auto, Device, Surfaceless };

/// Parses "auto", "device" or "surfaceless" (throws UsageError otherwise).
EglPlatform parse_egl_platform(const std::string& text);

/// What the current context runs on.
struct ContextInfo {
  std::string platform;      ///< e.g. "EGL device 1 of 2 (EGL_EXT_platform_device)", "GLFW window (GLX)"
  std::string egl;           ///< EGL vendor and version ("" without EGL)
  std::string vendor;        ///< GL_VENDOR
  std::string renderer;      ///< GL_RENDERER: "NVIDIA H100 80GB HBM3/PCIe/SSE2", "llvmpipe (LLVM 15.0.6, 256 bits)"
  std::string version;       ///< GL_VERSION
  std::string glsl_version;  ///< GL_SHADING_LANGUAGE_VERSION
  int major = 0, minor = 0;  ///< context version
  bool software = false;     ///< a CPU rasteriser (llvmpipe, softpipe, swrast): textures live in host memory
  int max_texture_size = 0;  ///< GL_MAX_TEXTURE_SIZE
  /// GL_TIME_ELAPSED queries that time the GPU's work: offered with a non-zero counter width, and
  /// not a software renderer (llvmpipe's query ends before its rasteriser threads have run: it
  /// reported 0.4 ms for copies that took 61 ms between two glFinish calls).
  bool timer_query = false;
  std::string no_timer_reason;  ///< why timer_query is false ("" when it is true)
  bool compute_shaders = false;  ///< OpenGL 4.3 or later
  /// Dedicated video memory and the part available now, in bytes (GL_NVX_gpu_memory_info only).
  std::optional<double> video_memory_bytes, available_video_memory_bytes;

  /// True when the context version is at least major.minor.
  [[nodiscard]] bool at_least(int want_major, int want_minor) const {
    return major > want_major || (major == want_major && minor >= want_minor);
  }
};

/// Reads the GL strings and limits of the current context (the context must be current and its
/// functions loaded). `platform` and `egl` are copied into the result.
ContextInfo query_context_info(std::string platform, std::string egl);

/// Prints the GL lines of a run's header ("GL:       renderer ...").
void print_context_info(std::ostream& out, const ContextInfo& info);
void to_json(nlohmann::json& j, const ContextInfo& info);

/// How the current context was made; decides which glewInit() results are acceptable.
enum class ContextApi { Egl, Glx };

/// Loads the GL functions of the current context with GLEW and checks that every function the
/// project calls is there (throws ApiError naming the missing ones).
///
/// The system's GLEW is built for GLX: glewInit() first loads the GL functions
/// (glewContextInit) and then looks for a GLX display, which an EGL context does not have, and
/// returns GLEW_ERROR_NO_GLX_DISPLAY. Under EGL exactly that result is accepted; every other
/// error is thrown.
void load_gl_functions(ContextApi api);

/// Throws ApiError unless the compute-shader functions (OpenGL 4.3) are loaded.
void require_compute_functions();

/// Throws UsageError when `bytes` of textures will not fit: in the available video memory when the
/// driver reports it (GL_NVX_gpu_memory_info), in host memory for a software renderer. With
/// neither, GL_OUT_OF_MEMORY from the allocation itself is the check.
void require_texture_memory(const ContextInfo& info, double bytes, const std::string& what);

/// A current OpenGL context that a GL session runs in: the headless one below, or one a chapter
/// makes itself (chapter 02's --window: a GLFW window's context). GL objects must die while it is
/// current, so whatever owns them is destroyed before it.
class Context {
 public:
  Context() = default;
  virtual ~Context() = default;
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  [[nodiscard]] virtual const ContextInfo& info() const = 0;
};

/// A current OpenGL context made with EGL, without any window or display server. One per thread
/// at a time: the destructor leaves the thread with no current context.
class HeadlessContext final : public Context {
 public:
  explicit HeadlessContext(EglPlatform platform = EglPlatform::Auto);
  ~HeadlessContext() override;

  [[nodiscard]] const ContextInfo& info() const override { return info_; }

 private:
  struct Egl;                 // display, context, surface: defined in context.cpp so that
  std::unique_ptr<Egl> egl_;  // <EGL/egl.h> stays out of the project's headers
  ContextInfo info_;
};

}  // namespace gpgpu::gl
