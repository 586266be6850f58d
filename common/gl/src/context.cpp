#include "gpgpu/gl/context.hpp"

#define EGL_NO_X11  // keep Xlib's macros (None, Bool, Status) out of the project's code
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <map>
#include <mutex>
#include <ostream>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpgpu/errors.hpp"
#include "gpgpu/gl/check.hpp"
#include "gpgpu/memory.hpp"

namespace gpgpu::gl {
namespace {

bool has_token(const char* list, std::string_view name) {
  if (list == nullptr) return false;
  std::string_view rest(list);
  while (!rest.empty()) {
    const std::size_t end = rest.find(' ');
    if (rest.substr(0, end) == name) return true;
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end + 1);
  }
  return false;
}

template <typename Function>
Function egl_function(const char* name) {
  return reinterpret_cast<Function>(eglGetProcAddress(name));
}

// An EGL display is one object per device and platform, shared by every context made on it, and
// eglTerminate() ends it for all of them. Count the users so the last one terminates it.
std::mutex g_display_mutex;
std::map<EGLDisplay, int> g_display_users;

void acquire_display(EGLDisplay d) {
  const std::lock_guard lock(g_display_mutex);
  ++g_display_users[d];
}

void release_display(EGLDisplay d) {
  const std::lock_guard lock(g_display_mutex);
  if (--g_display_users[d] == 0) {
    g_display_users.erase(d);
    eglTerminate(d);
  }
}

// A display that may become the context's, with a name for the run's header.
struct Candidate {
  EGLDisplay display;
  std::string platform;
};

// Every EGL device, hardware before software (Mesa lists its llvmpipe as a device too).
std::vector<Candidate> device_candidates(const char* client_extensions, std::string& why_not) {
  if (!has_token(client_extensions, "EGL_EXT_device_enumeration") ||
      !has_token(client_extensions, "EGL_EXT_platform_device")) {
    why_not = "EGL_EXT_device_enumeration/EGL_EXT_platform_device not offered";
    return {};
  }
  const auto query_devices = egl_function<PFNEGLQUERYDEVICESEXTPROC>("eglQueryDevicesEXT");
  const auto get_display = egl_function<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
  const auto device_string = egl_function<PFNEGLQUERYDEVICESTRINGEXTPROC>("eglQueryDeviceStringEXT");
  if (query_devices == nullptr || get_display == nullptr) {
    why_not = "eglQueryDevicesEXT/eglGetPlatformDisplayEXT not found";
    return {};
  }
  EGLint count = 0;
  GPGPU_EGL(query_devices(0, nullptr, &count));
  std::vector<EGLDeviceEXT> devices(static_cast<std::size_t>(count));
  if (count > 0) GPGPU_EGL(query_devices(count, devices.data(), &count));
  devices.resize(static_cast<std::size_t>(count));
  if (devices.empty()) {
    why_not = "no EGL devices";
    return {};
  }
  struct Device {
    EGLDeviceEXT handle;
    int index;
    bool software;
    std::string file;
  };
  std::vector<Device> ordered;
  for (int i = 0; i < count; ++i) {
    Device d{devices[static_cast<std::size_t>(i)], i, false, ""};
    if (device_string != nullptr && has_token(client_extensions, "EGL_EXT_device_query")) {
      const char* ext = device_string(d.handle, EGL_EXTENSIONS);
      eglGetError();  // a device without an extension string is not an error worth reporting
      d.software = has_token(ext, "EGL_MESA_device_software");
      if (has_token(ext, "EGL_EXT_device_drm")) {
        const char* file = device_string(d.handle, EGL_DRM_DEVICE_FILE_EXT);
        eglGetError();
        if (file != nullptr) d.file = file;
      }
    }
    ordered.push_back(d);
  }
  std::stable_sort(ordered.begin(), ordered.end(), [](const Device& a, const Device& b) { return !a.software && b.software; });
  std::vector<Candidate> out;
  for (const Device& d : ordered) {
    EGLDisplay display = EGL_NO_DISPLAY;
    try {
      display = GPGPU_EGL(get_display(EGL_PLATFORM_DEVICE_EXT, d.handle, nullptr));
    } catch (const ApiError& e) {  // one device failing leaves the others, and the fallback
      why_not += ", device " + std::to_string(d.index) + " failed: " + e.what();
      continue;
    }
    std::string name = "EGL device " + std::to_string(d.index) + " of " + std::to_string(count);
    if (!d.file.empty()) name += " (" + d.file + ")";
    if (d.software) name += " (software)";
    out.push_back({display, name + ", EGL_EXT_platform_device"});
  }
  return out;
}

std::vector<Candidate> surfaceless_candidates(const char* client_extensions, std::string& why_not) {
  if (!has_token(client_extensions, "EGL_MESA_platform_surfaceless")) {
    why_not = "EGL_MESA_platform_surfaceless not offered";
    return {};
  }
  const auto get_display = egl_function<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
  if (get_display == nullptr) {
    why_not = "eglGetPlatformDisplayEXT not found";
    return {};
  }
  const EGLDisplay display = GPGPU_EGL(get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr));
  return {{display, "EGL surfaceless platform (EGL_MESA_platform_surfaceless)"}};
}

bool is_software_renderer(std::string renderer) {
  std::transform(renderer.begin(), renderer.end(), renderer.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const char* name : {"llvmpipe", "softpipe", "swrast", "software rasterizer", "swiftshader"})
    if (renderer.find(name) != std::string::npos) return true;
  return false;
}

std::string gl_string(GLenum name) {
  const GLubyte* s = GPGPU_GL(glGetString(name));
  return s != nullptr ? reinterpret_cast<const char*>(s) : "";
}

bool has_gl_extension(std::string_view name) {
  GLint count = 0;
  GPGPU_GL(glGetIntegerv(GL_NUM_EXTENSIONS, &count));
  for (GLint i = 0; i < count; ++i) {
    const GLubyte* e = GPGPU_GL(glGetStringi(GL_EXTENSIONS, static_cast<GLuint>(i)));
    if (e != nullptr && name == reinterpret_cast<const char*>(e)) return true;
  }
  return false;
}

// One GL function pointer by name, for require_functions().
struct FunctionPointer {
  const char* name;
  const void* pointer;
};
#define GPGPU_GL_FUNCTION(f) \
  FunctionPointer { #f, reinterpret_cast<const void*>(f) }

// Throws ApiError listing every function whose pointer is null ("OpenGL <need> functions missing").
void require_functions(std::initializer_list<FunctionPointer> functions, const char* need) {
  std::string missing;
  for (const FunctionPointer& f : functions)
    if (f.pointer == nullptr) missing += (missing.empty() ? "" : ", ") + std::string(f.name);
  if (!missing.empty())
    throw ApiError(describe_failed_call("load_gl_functions()", __FILE__, __LINE__,
                                        std::string("OpenGL ") + need + " functions missing after glewInit: " + missing));
}

}  // namespace

EglPlatform parse_egl_platform(const std::string& text) {
  if (text == "auto") return EglPlatform::Auto;
  if (text == "device") return EglPlatform::Device;
  if (text == "surfaceless") return EglPlatform::Surfaceless;
  throw UsageError("unknown EGL platform '" + text + "' (expected auto, device or surfaceless)");
}

void load_gl_functions(ContextApi api) {
  glewExperimental = GL_TRUE;  // load every function by name, not only those of advertised extensions
  const GLenum result = glewInit();
  if (result == GLEW_ERROR_NO_GLX_DISPLAY && api == ContextApi::Egl) {
    // Expected with a GLX build of GLEW under EGL: the GL functions were loaded before GLEW went
    // looking for a GLX display. require_functions() below proves they are there.
  } else if (result != GLEW_OK) {
    throw ApiError(describe_failed_call("glewInit()", __FILE__, __LINE__,
                                        reinterpret_cast<const char*>(glewGetErrorString(result))));
  }
  // GLEW probes with calls a core profile may reject (GL_INVALID_ENUM); those flags are GLEW's,
  // not the project's, and must not be blamed on the next checked call.
  while (glGetError() != GL_NO_ERROR) {
  }
  // Every function the GL layer and the chapters call beyond OpenGL 1.1 (whose functions libGL
  // and libOpenGL export directly, so they cannot be missing). Compute: require_compute_functions().
  require_functions({GPGPU_GL_FUNCTION(glActiveTexture),
                     GPGPU_GL_FUNCTION(glAttachShader),
                     GPGPU_GL_FUNCTION(glBeginQuery),
                     GPGPU_GL_FUNCTION(glBindFramebuffer),
                     GPGPU_GL_FUNCTION(glBindVertexArray),
                     GPGPU_GL_FUNCTION(glCheckFramebufferStatus),
                     GPGPU_GL_FUNCTION(glClearBufferfv),
                     GPGPU_GL_FUNCTION(glCompileShader),
                     GPGPU_GL_FUNCTION(glCreateProgram),
                     GPGPU_GL_FUNCTION(glCreateShader),
                     GPGPU_GL_FUNCTION(glDeleteFramebuffers),
                     GPGPU_GL_FUNCTION(glDeleteProgram),
                     GPGPU_GL_FUNCTION(glDeleteQueries),
                     GPGPU_GL_FUNCTION(glDeleteShader),
                     GPGPU_GL_FUNCTION(glDeleteVertexArrays),
                     GPGPU_GL_FUNCTION(glDrawBuffers),
                     GPGPU_GL_FUNCTION(glEndQuery),
                     GPGPU_GL_FUNCTION(glFramebufferTexture2D),
                     GPGPU_GL_FUNCTION(glGenFramebuffers),
                     GPGPU_GL_FUNCTION(glGenQueries),
                     GPGPU_GL_FUNCTION(glGenVertexArrays),
                     GPGPU_GL_FUNCTION(glGetProgramInfoLog),
                     GPGPU_GL_FUNCTION(glGetProgramiv),
                     GPGPU_GL_FUNCTION(glGetQueryObjectui64v),
                     GPGPU_GL_FUNCTION(glGetQueryiv),
                     GPGPU_GL_FUNCTION(glGetShaderInfoLog),
                     GPGPU_GL_FUNCTION(glGetShaderiv),
                     GPGPU_GL_FUNCTION(glGetStringi),
                     GPGPU_GL_FUNCTION(glGetUniformLocation),
                     GPGPU_GL_FUNCTION(glLinkProgram),
                     GPGPU_GL_FUNCTION(glShaderSource),
                     GPGPU_GL_FUNCTION(glUniform1f),
                     GPGPU_GL_FUNCTION(glUniform1i),
                     GPGPU_GL_FUNCTION(glUniform2f),
                     GPGPU_GL_FUNCTION(glUniform2i),
                     GPGPU_GL_FUNCTION(glUseProgram)},
                    "3.3 core");
}

void require_compute_functions() {
  require_functions({GPGPU_GL_FUNCTION(glDispatchCompute),
                     GPGPU_GL_FUNCTION(glBindImageTexture),
                     GPGPU_GL_FUNCTION(glMemoryBarrier)},
                    "4.3 compute");
}

ContextInfo query_context_info(std::string platform, std::string egl) {
  ContextInfo info;
  info.platform = std::move(platform);
  info.egl = std::move(egl);
  info.vendor = gl_string(GL_VENDOR);
  info.renderer = gl_string(GL_RENDERER);
  info.version = gl_string(GL_VERSION);
  info.glsl_version = gl_string(GL_SHADING_LANGUAGE_VERSION);
  GPGPU_GL(glGetIntegerv(GL_MAJOR_VERSION, &info.major));
  GPGPU_GL(glGetIntegerv(GL_MINOR_VERSION, &info.minor));
  GPGPU_GL(glGetIntegerv(GL_MAX_TEXTURE_SIZE, &info.max_texture_size));
  info.software = is_software_renderer(info.renderer);
  info.compute_shaders = info.at_least(4, 3);
  // GL_TIME_ELAPSED is core since 3.3 (an older context is refused by its maker); an implementation
  // may still offer it with a 0-bit counter, i.e. without a timer.
  GLint bits = 0;
  if (info.at_least(3, 3)) GPGPU_GL(glGetQueryiv(GL_TIME_ELAPSED, GL_QUERY_COUNTER_BITS, &bits));
  info.timer_query = bits > 0 && !info.software;
  info.no_timer_reason = bits == 0       ? "GL_TIME_ELAPSED has a 0-bit counter"
                         : info.software ? "a software renderer's GL_TIME_ELAPSED does not time its rasteriser"
                                         : "";
  if (has_gl_extension("GL_NVX_gpu_memory_info")) {
    GLint total_kib = 0, free_kib = 0;
    GPGPU_GL(glGetIntegerv(GL_GPU_MEMORY_INFO_DEDICATED_VIDMEM_NVX, &total_kib));
    GPGPU_GL(glGetIntegerv(GL_GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX, &free_kib));
    info.video_memory_bytes = 1024.0 * total_kib;
    info.available_video_memory_bytes = 1024.0 * free_kib;
  }
  return info;
}

void print_context_info(std::ostream& out, const ContextInfo& info) {
  out << "GPU:      GL_RENDERER " << info.renderer;
  if (info.software) out << ": a software rasteriser on the CPU, not a GPU";
  if (info.video_memory_bytes)
    out << ", " << format_bytes(*info.video_memory_bytes) << " video memory ("
        << format_bytes(*info.available_video_memory_bytes) << " free)";
  out << "\nGL:       GL_VENDOR " << info.vendor << ", GL_VERSION " << info.version << ", GLSL " << info.glsl_version
      << ", max texture " << info.max_texture_size << "\n"
      << "Timer:    " << (info.timer_query ? "GL_TIME_ELAPSED queries (GPU time), host clock after glFinish beside them"
                                           : "host clock after glFinish (" + info.no_timer_reason + ")")
      << "\n"
      << "Context:  " << info.platform;
  if (!info.egl.empty()) out << ", " << info.egl;
  out << "\n";
}

void to_json(nlohmann::json& j, const ContextInfo& info) {
  j = {{"kind", "gl"},
       {"platform", info.platform},
       {"egl", info.egl},
       {"gl_vendor", info.vendor},
       {"gl_renderer", info.renderer},
       {"gl_version", info.version},
       {"glsl_version", info.glsl_version},
       {"software_renderer", info.software},
       {"max_texture_size", info.max_texture_size},
       {"timer_query", info.timer_query},
       {"no_timer_reason", info.no_timer_reason},
       {"compute_shaders", info.compute_shaders}};
  if (info.video_memory_bytes) {
    j["video_memory_bytes"] = *info.video_memory_bytes;
    j["available_video_memory_bytes"] = *info.available_video_memory_bytes;
  }
}

void require_texture_memory(const ContextInfo& info, double bytes, const std::string& what) {
  if (info.available_video_memory_bytes) {
    if (bytes > 0.9 * *info.available_video_memory_bytes)
      throw UsageError(what + " needs " + format_bytes(bytes) + " of video memory, but only " +
                       format_bytes(*info.available_video_memory_bytes) + " is free on " + info.renderer);
  } else if (info.software) {
    require_host_memory(bytes, what + " (textures of the software renderer)");
  }
}

// The EGL objects of one context. The delegating constructor initialises the display; once it has
// returned, the destructor runs even if the body throws, releasing whatever the body had made.
struct HeadlessContext::Egl {
  struct Initialise {};
  EGLDisplay display;
  EGLContext context = EGL_NO_CONTEXT;
  EGLSurface surface = EGL_NO_SURFACE;
  Egl(EGLDisplay d, Initialise) : display(d) {
    EGLint major = 0, minor = 0;
    GPGPU_EGL(eglInitialize(display, &major, &minor));
    acquire_display(display);
  }
  // Initialises the display and makes the newest core-profile context it offers current.
  explicit Egl(EGLDisplay d) : Egl(d, Initialise{}) {
    GPGPU_EGL(eglBindAPI(EGL_OPENGL_API));
    const char* extensions = GPGPU_EGL(eglQueryString(display, EGL_EXTENSIONS));
    const EGLint wanted[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint configs = 0;
    GPGPU_EGL(eglChooseConfig(display, wanted, &config, 1, &configs));
    if (configs == 0) {
      if (!has_token(extensions, "EGL_KHR_no_config_context"))
        throw BackendUnavailable("no EGL config renders OpenGL into a pbuffer");
      config = EGL_NO_CONFIG_KHR;
    }
    // Newest first: a driver may refuse a version it does not have (EGL_BAD_MATCH).
    const std::pair<int, int> versions[] = {{4, 6}, {4, 5}, {4, 4}, {4, 3}, {4, 2}, {4, 1}, {4, 0}, {3, 3}};
    std::string refused;
    for (const auto& [major, minor] : versions) {
      const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, major, EGL_CONTEXT_MINOR_VERSION, minor,
                                   EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
      context = eglCreateContext(display, config, EGL_NO_CONTEXT, attributes);
      const EGLint error = eglGetError();  // expected for versions the driver lacks
      if (context != EGL_NO_CONTEXT) break;
      refused = egl_error_name(error);
    }
    if (context == EGL_NO_CONTEXT)
      throw BackendUnavailable("no core-profile OpenGL 3.3+ context (eglCreateContext: " + refused + ")");
    if (!has_token(extensions, "EGL_KHR_surfaceless_context")) {
      // Without surfaceless contexts a context needs some surface to be current: a 1x1 pbuffer.
      const EGLint size[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
      surface = GPGPU_EGL(eglCreatePbufferSurface(display, config, size));
    }
    GPGPU_EGL(eglMakeCurrent(display, surface, surface, context));
  }
  Egl(const Egl&) = delete;
  Egl& operator=(const Egl&) = delete;
  ~Egl() {
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (context != EGL_NO_CONTEXT) eglDestroyContext(display, context);
    if (surface != EGL_NO_SURFACE) eglDestroySurface(display, surface);
    release_display(display);
    eglReleaseThread();
  }
};

HeadlessContext::HeadlessContext(EglPlatform platform) {
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  eglGetError();  // NULL with EGL_BAD_DISPLAY means "no client extensions": handled below
  if (client == nullptr) throw BackendUnavailable("no EGL client extensions (EGL 1.5 / EGL_EXT_client_extensions)");

  // A platform whose listing fails is reported like one that is absent: the other may still work.
  const auto list = [client](auto&& list_platform, std::string& why_not) -> std::vector<Candidate> {
    why_not = "listed";
    try {
      return list_platform(client, why_not);
    } catch (const ApiError& e) {
      why_not = e.what();
      return {};
    }
  };
  std::vector<Candidate> candidates;
  std::string why_device = "not tried", why_surfaceless = "not tried";
  if (platform != EglPlatform::Surfaceless) candidates = list(device_candidates, why_device);
  if (platform != EglPlatform::Device) {
    auto more = list(surfaceless_candidates, why_surfaceless);
    candidates.insert(candidates.end(), more.begin(), more.end());
  }
  std::string failures, name;
  for (const Candidate& c : candidates) {
    try {
      egl_ = std::make_unique<Egl>(c.display);
      name = c.platform;
      break;
    } catch (const std::exception& e) {  // ApiError or BackendUnavailable: try the next display
      failures += "; " + c.platform + ": " + e.what();
    }
  }
  if (!egl_)
    throw BackendUnavailable("no EGL display with an OpenGL 3.3+ core context (device platform: " + why_device +
                             "; surfaceless platform: " + why_surfaceless + failures + ")");
  load_gl_functions(ContextApi::Egl);
  const std::string egl = std::string(GPGPU_EGL(eglQueryString(egl_->display, EGL_VENDOR))) + " EGL " +
                          GPGPU_EGL(eglQueryString(egl_->display, EGL_VERSION));
  info_ = query_context_info(name, egl);
  if (!info_.at_least(3, 3))
    throw BackendUnavailable("OpenGL " + info_.version + " is older than the 3.3 core profile this project needs");
}

HeadlessContext::~HeadlessContext() = default;

}  // namespace gpgpu::gl
