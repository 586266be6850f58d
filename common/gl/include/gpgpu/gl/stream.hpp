/// @file stream.hpp
/// @brief The bandwidth limit of the GL chapters, measured in the same run by a shader with the
/// same read:write mix as the kernel it judges: every invocation reads one RGBA32F texel from each
/// of `reads` textures and writes their sum into each of `writes` outputs.
///
/// Two launch paths, because they need not reach the same bandwidth (an H100 runs pixel shaders
/// on 4 of its 132 SMs, compute shaders on all of them):
///  - fragment: a full-screen triangle into a framebuffer with `writes` colour attachments
///    (multiple render targets, at most GL_MAX_DRAW_BUFFERS);
///  - compute: glDispatchCompute with 16 x 16 invocations per group, imageStore into `writes`
///    images (OpenGL 4.3).
/// The 1:1 fragment case is the texture copy that served as the limit before read:write mixes.
/// The shader is generated for the mix (GLSL 3.30 indexes sampler arrays with constants only, so
/// every fetch is written out). The outputs are read back and compared with the sums computed on
/// the host, so a pass the driver skipped cannot pass for a fast one.
#pragma once
#include <cstddef>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "gpgpu/gl/context.hpp"

namespace gpgpu::gl {

enum class Pipeline { Fragment, Compute };

/// "" or "fragment" -> Fragment, "compute" -> Compute (StreamMix::pipeline); std::invalid_argument otherwise.
Pipeline parse_pipeline(const std::string& name);
/// "fragment" or "compute".
std::string pipeline_name(Pipeline p);

/// Texture size in RGBA32F texels.
struct StreamShape {
  int width = 0;
  int height = 0;
  [[nodiscard]] std::size_t texels() const { return static_cast<std::size_t>(width) * static_cast<std::size_t>(height); }
};

/// The texture that holds `floats` values four to a texel as chapter 02's RGBA layout holds a
/// square grid of that many unknowns: rows of ceil(n / 4) texels for n = ceil(sqrt(floats)), and
/// as many rows as it takes (wider rows where that would exceed `max_texture_size`); only the last
/// row may be partly padding. Throws UsageError when no texture of max_texture_size² texels holds them.
StreamShape stream_shape(std::size_t floats, int max_texture_size);

/// One measurement of the stream shader.
struct StreamMeasurement {
  double gbs = 0;  ///< 1e9 B/s, bytes read + written (all texels of every texture), best sample
  int reads = 1, writes = 1;
  StreamShape shape;
  Pipeline pipeline = Pipeline::Fragment;
  int samples = 0;            ///< timed samples
  int passes_per_sample = 0;  ///< back-to-back passes in each (about 50 ms of work, 1 to 1000)
  std::string timer;          ///< GpuTimer::name()
  [[nodiscard]] double bytes_per_pass() const { return 16.0 * (reads + writes) * static_cast<double>(shape.texels()); }
  /// "GL fragment stream 11:1, RGBA32F 256x1024".
  [[nodiscard]] std::string name() const;
};
void to_json(nlohmann::json& j, const StreamMeasurement& m);

/// Measures the stream shader on the current context: a warm-up pass, then the best of `samples`
/// samples of back-to-back passes, timed by GpuTimer (GL_TIME_ELAPSED where it is usable, the host
/// clock after glFinish otherwise). Throws std::invalid_argument for a mix beyond the context's
/// limits (texture units, draw buffers, image units; compute without OpenGL 4.3), UsageError when
/// the textures do not fit in memory, ApiError when an output differs from the sum of the inputs.
StreamMeasurement measure_stream(const ContextInfo& info, int reads, int writes, StreamShape shape, Pipeline pipeline,
                                 int samples = 10);

}  // namespace gpgpu::gl
