// Chapter 12's OpenGL host code, in the order a run uses it: compile the shader with k compiled in
// and allocate the textures (untimed), upload the image (packed into quadrants for the RGBA
// variant, on the host's clock) and the filter, poison the output, draw the full-screen triangle
// `calls` times between GL timer queries, read the output back (unpacked, on the host's clock).
// The shaders are kernels/conv/gl/12_*.frag, embedded at build time. At the end, the list of
// the GL variants (gl_variants()).
#include "gl_variants.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "embedded/_12_01_conv_luminance_frag.hpp"
#include "embedded/_12_02_conv_rgba_quadrants_frag.hpp"
#include "gpgpu/gl/check.hpp"
#include "gpgpu/gl/opener.hpp"
#include "gpgpu/gl/fullscreen.hpp"
#include "gpgpu/gl/program.hpp"
#include "gpgpu/gl/texture.hpp"
#include "gpgpu/gl/timer.hpp"
#include "gpgpu/table.hpp"
#include "gpgpu/timing.hpp"
#include "variants.hpp"

namespace ch12 {

namespace gl = gpgpu::gl;
using gpgpu::blas::Case;
using gpgpu::blas::Routine;

namespace {

std::size_t size(std::int64_t v) { return static_cast<std::size_t>(v); }

}  // namespace

//! [pack]
std::vector<float> QuadrantPacking::pack(std::span<const float> image) const {
  if (image.size() != size(rows * cols)) throw std::invalid_argument("QuadrantPacking::pack: an image of another size");
  const std::int64_t tex_rows = texture_rows(), tex_cols = texture_cols();
  std::vector<float> texels(size(4 * tex_rows * tex_cols), 0.0f);  // the zeros outside the image stay
  for (int c = 0; c < 4; ++c) {
    // Channel c's texel (y, x) holds image pixel (top + y, left + x): its quadrant's corner
    // minus the halo, so the halo holds whatever the image has there.
    const std::int64_t top = (c / 2) * h() - radius, left = (c % 2) * w() - radius;
    const std::int64_t x0 = std::max<std::int64_t>(0, -left), x1 = std::min(tex_cols, cols - left);  // inside the image
    const std::int64_t y0 = std::max<std::int64_t>(0, -top), y1 = std::min(tex_rows, rows - top);
#pragma omp parallel for schedule(static)
    for (std::int64_t y = y0; y < y1; ++y)
      for (std::int64_t x = x0; x < x1; ++x) texels[size(4 * (y * tex_cols + x) + c)] = image[size((top + y) * cols + left + x)];
  }
  return texels;
}
//! [pack]

void QuadrantPacking::unpack(std::span<const float> texels, std::span<float> image) const {
  if (texels.size() != size(4 * h() * w()) || image.size() != size(rows * cols))
    throw std::invalid_argument("QuadrantPacking::unpack: arrays of other sizes than the packing's");
  for (int c = 0; c < 4; ++c) {
    const std::int64_t top = (c / 2) * h(), left = (c % 2) * w();
    const std::int64_t a1 = std::min(h(), rows - top), b1 = std::min(w(), cols - left);  // an odd side's last quadrant is one short
#pragma omp parallel for schedule(static)
    for (std::int64_t a = 0; a < a1; ++a)
      for (std::int64_t b = 0; b < b1; ++b)
        image[size((top + a) * cols + left + b)] = texels[size(4 * (a * w() + b) + c)];
  }
}

namespace {

enum class Layout { luminance, rgba_quadrants };

// The fragment shader of `layout` with the filter side compiled in (the shaders' first lines say why).
gl::Program compile(Layout layout, int k) {
  const std::string head = "#version 330 core\n#define K " + std::to_string(k) + "\n";
  return gl::link_fullscreen_program({{"(chapters/12_gpu_friendly/gl_variants.cpp: #version and K)", head},
                                      layout == Layout::luminance ? gpgpu::embedded::_12_01_conv_luminance_frag
                                                                  : gpgpu::embedded::_12_02_conv_rgba_quadrants_frag});
}

// The textures' sizes in texels (width = columns), input and output.
struct TextureSizes {
  int in_cols, in_rows, out_cols, out_rows;
};
TextureSizes texture_sizes(Layout layout, const Case& c) {
  const QuadrantPacking q(c.m, c.n, static_cast<int>(c.k));
  const auto i = [](std::int64_t v) { return static_cast<int>(std::min<std::int64_t>(v, 1 << 30)); };
  if (layout == Layout::luminance) return {i(c.n + 2 * q.radius), i(c.m + 2 * q.radius), i(c.n), i(c.m)};
  return {i(q.texture_cols()), i(q.texture_rows()), i(q.w()), i(q.h())};
}

class GlConvolution final : public gpgpu::blas::RoutineOperation {
 public:
  GlConvolution(const Case& shape, Layout layout, const gl::ContextInfo& info)
      : layout_(layout),
        packing_(shape.m, shape.n, static_cast<int>(shape.k)),
        k_(static_cast<int>(shape.k)),
        sizes_(texture_sizes(layout, shape)),
        program_(compile(layout, k_)),
        // The luminance image's border of zeros is written here once: upload() writes the interior.
        input_(layout == Layout::luminance
                   ? gl::make_texture(gl::TexelFormat::R32F, sizes_.in_cols, sizes_.in_rows,
                                      std::vector<float>(size(std::int64_t{sizes_.in_cols} * sizes_.in_rows), 0.0f))
                   : gl::make_texture(gl::TexelFormat::RGBA32F, sizes_.in_cols, sizes_.in_rows)),
        output_(gl::make_render_target(gl::make_texture(layout == Layout::luminance ? gl::TexelFormat::R32F : gl::TexelFormat::RGBA32F,
                                                        sizes_.out_cols, sizes_.out_rows))),
        timer_(info) {
    GPGPU_GL(glUseProgram(program_.id()));
    GPGPU_GL(glUniform1i(gl::uniform_location(program_, layout == Layout::luminance ? "image" : "quadrants"), 0));
    taps_ = gl::uniform_location(program_, "taps");
  }

  void upload(const Case& c) override {
    send(c);
    gl::poison(output_);
  }

  //! [gl_run]
  double run(int calls) override {
    GPGPU_GL(glUseProgram(program_.id()));
    GPGPU_GL(glActiveTexture(GL_TEXTURE0));
    GPGPU_GL(glBindTexture(GL_TEXTURE_2D, input_.id()));
    pass_.bind(output_);
    return timer_.time([&] {
      for (int i = 0; i < calls; ++i) pass_.draw();  // one fragment per output texel
    }).gpu_seconds;
  }
  //! [gl_run]

  std::vector<float> download() override {
    std::vector<float> texels = gl::read_back(output_.texture);
    if (layout_ == Layout::luminance) return texels;
    gpgpu::Stopwatch clock;
    std::vector<float> image(size(packing_.rows * packing_.cols), std::nanf(""));
    packing_.unpack(texels, image);
    unpack_ms_ = 1e3 * clock.seconds();
    return image;
  }

  [[nodiscard]] std::string launch() const override {
    const auto texels = [](int cols, int rows) { return std::to_string(cols) + "x" + std::to_string(rows); };
    const std::string common = "K = " + std::to_string(k_) + " compiled in, a full-screen triangle";
    if (layout_ == Layout::luminance)
      return "R32F " + texels(sizes_.in_cols, sizes_.in_rows) + " in (zero border), 1 pixel per fragment, " + common;
    const auto ms = [](double v) { return std::isnan(v) ? std::string("-") : gpgpu::format_cell("%.1f", v); };
    return "RGBA32F " + texels(sizes_.in_cols, sizes_.in_rows) + " in (quadrants with halo), 4 pixels per fragment, " + common +
           "; host packing " + ms(pack_ms_) + " ms, unpacking " + ms(unpack_ms_) + " ms";
  }

  // Paper 001's "GPU w. TX": the image up (packed), one draw, the result back (unpacked). GL copies
  // from any host memory; a page-locked path (a persistently mapped buffer) is not shown, so
  // `pinned` has no measurement.
  std::optional<double> with_copies(const Case& c, bool pinned) override {
    if (pinned) return std::nullopt;
    gpgpu::Stopwatch clock;
    send(c);
    (void)run(1);
    (void)download();
    return clock.seconds();
  }

 private:
  //! [gl_upload]
  // The image and the filter to the GPU.
  void send(const Case& c) {
    if (layout_ == Layout::luminance) {  // as it is, into the interior of the zero border
      GPGPU_GL(glBindTexture(GL_TEXTURE_2D, input_.id()));
      GPGPU_GL(glPixelStorei(GL_UNPACK_ALIGNMENT, 4));
      GPGPU_GL(glTexSubImage2D(GL_TEXTURE_2D, 0, packing_.radius, packing_.radius, sizes_.out_cols, sizes_.out_rows, GL_RED,
                               GL_FLOAT, c.a.data()));
    } else {  // four quadrants into four channels, each with its halo (Fig. 2)
      gpgpu::Stopwatch clock;
      const std::vector<float> texels = packing_.pack(c.a);
      pack_ms_ = 1e3 * clock.seconds();
      gl::upload(input_, texels);
    }
    std::vector<float> taps(size(4 * ((k_ * k_ + 3) / 4)), 0.0f);  // k² taps, four to a vec4
    std::copy(c.b.begin(), c.b.end(), taps.begin());
    GPGPU_GL(glUseProgram(program_.id()));
    GPGPU_GL(glUniform4fv(taps_, static_cast<GLsizei>(taps.size() / 4), taps.data()));
  }
  //! [gl_upload]

  Layout layout_;
  QuadrantPacking packing_;
  int k_;
  TextureSizes sizes_;
  gl::Program program_;
  gl::Texture2D input_;
  gl::RenderTarget output_;
  gl::FullscreenPass pass_;
  gl::GpuTimer timer_;
  GLint taps_ = -1;
  double pack_ms_ = std::nan(""), unpack_ms_ = std::nan("");
};

gpgpu::blas::RoutineVariant gl_variant(std::string name, Layout layout, std::string description, std::string source,
                                       std::string paper_name) {
  gpgpu::blas::RoutineVariant v;
  v.info = {.name = name, .backend = gpgpu::Backend::gl, .description = std::move(description), .source = std::move(source),
            .paper_name = std::move(paper_name),
            .timer = "GL_TIME_ELAPSED (the host clock after glFinish where the context has none: llvmpipe)"};
  v.opener = gl::opener;
  v.routine = Routine::conv2d;
  v.make = [layout](const Case& c, gpgpu::Session& s) -> std::unique_ptr<gpgpu::blas::RoutineOperation> {
    return std::make_unique<GlConvolution>(c, layout, gl::session(s).info());
  };
  v.limitation = gpgpu::blas::for_case(Routine::conv2d, [layout](const Case& c, gpgpu::Session& s) -> std::optional<std::string> {
    const int most = gl::session(s).info().max_texture_size;
    const TextureSizes t = texture_sizes(layout, c);
    if (std::max(t.in_cols, t.in_rows) > most)
      return "a texture of " + std::to_string(t.in_cols) + "x" + std::to_string(t.in_rows) + " texels, past GL_MAX_TEXTURE_SIZE " +
             std::to_string(most);
    return std::nullopt;
  });
  v.check_fits = gpgpu::blas::for_case(Routine::conv2d, [layout, name](const Case& c, gpgpu::Session& s) {
    const TextureSizes t = texture_sizes(layout, c);
    const double floats = static_cast<double>(t.in_cols) * t.in_rows + static_cast<double>(t.out_cols) * t.out_rows;
    gl::require_texture_memory(gl::session(s).info(), (layout == Layout::luminance ? 4.0 : 16.0) * floats, name + " on " + c.size_str());
  });
  return v;
}

}  // namespace

std::vector<gpgpu::blas::RoutineVariant> gl_variants() {
  std::vector<gpgpu::blas::RoutineVariant> v;
  v.push_back(gl_variant("gl_conv2d_luminance", Layout::luminance, "fragment shader, R32F texture, one pixel per fragment",
                         "kernels/conv/gl/12_01_conv_luminance.frag", "GPU (Cg, NV44)"));
  v.push_back(gl_variant("gl_conv2d_rgba_quadrants", Layout::rgba_quadrants,
                         "fragment shader, RGBA32F four-quadrant packing (Fig. 2), four pixels per fragment",
                         "kernels/conv/gl/12_02_conv_rgba_quadrants.frag", "GPU4 (Cg, NV44)"));
  return v;
}

}  // namespace ch12
