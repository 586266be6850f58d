/// @file copy_pass.hpp
/// @brief The bandwidth limit of the GL chapters, measured in the same run: a fragment shader
/// that copies one large RGBA32F texture into another through a framebuffer object
/// (shaders/copy.frag). It is the texture-to-texture equivalent of CUDA's device-to-device copy:
/// every byte is read once and written once, so no Jacobi pass can move its bytes faster. Compute
/// shaders get their own copy (shaders/copy.comp): on a GPU whose pixel path is narrower than its
/// compute path (an H100 runs pixel shaders on a few of its SMs) each launch has its own limit.
#pragma once
#include <string>

#include "gpgpu/gl/context.hpp"
#include "gpgpu/report.hpp"

namespace gpgpu::gl {

/// How the copy is launched.
enum class CopyLaunch {
  Fragment,  ///< a full-screen triangle into a framebuffer (shaders/copy.frag)
  Compute,   ///< glDispatchCompute with imageStore (shaders/copy.comp; OpenGL 4.3)
};

struct CopyBandwidth {
  double gbs = 0;             ///< 1e9 B/s, bytes read + written, best sample
  int width = 0, height = 0;  ///< texture size in texels (RGBA32F: 16 B each)
  int samples = 0;            ///< timed samples (each several copies)
  std::string timer;          ///< GpuTimer::name()
  CopyLaunch launch = CopyLaunch::Fragment;
  /// The row's limit: "GL copy pass RGBA32F 4096x2048" ("GL compute copy ..." for Compute).
  [[nodiscard]] Limit limit() const;
};

/// Texture size for the copy: 4096 x 2048 RGBA32F (128 MiB, 2.5 times an H100's L2 cache) on a
/// GPU, 2048 x 2048 (64 MiB, beyond a CPU's last-level cache) on a software renderer.
void default_copy_size(const ContextInfo& info, int& width, int& height);

/// Copies `width` x `height` texels repeatedly and returns the best rate. The copy is read back
/// and compared with its source (ApiError if it differs), so a driver that skipped the work
/// could not pass for a fast one.
CopyBandwidth measure_copy_bandwidth(const ContextInfo& info, int width, int height, int samples = 3,
                                     CopyLaunch launch = CopyLaunch::Fragment);

}  // namespace gpgpu::gl
