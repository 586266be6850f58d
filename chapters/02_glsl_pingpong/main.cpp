// Chapter 02: weighted Jacobi as GLSL fragment-shader ping-pong (paper 000, section 5), with the
// paper's luminance textures (one unknown per texel) and RGBA textures (four per texel), plus the
// same stencil as a compute shader. Headless through EGL by default; --window shows the field
// converging; every variant is verified against the CPU double-precision reference and judged
// against a stream shader with its read:write mix, measured in the same run through its pipeline.
// The variants it runs, in order (gl_variants.cpp: the variants; ping_pong.cpp: the solver that draws them):
//   luminance     kernels/jacobi/gl/02_01_luminance.frag: one unknown per GL_R32F texel (paper Fig. 7)
//   rgba          kernels/jacobi/gl/02_02_rgba.frag: four unknowns per GL_RGBA32F texel (paper Figs. 8-9)
//   rgba_compute  kernels/jacobi/gl/02_03_rgba.comp: the rgba stencil as a compute shader (past the paper)
//
// The run is gpgpu::jacobi::Chapter's, step by step, because the chapter adds to it: the window
// (sized for the grid, redrawn during the iterations), the host clock beside the GPU timer, and
// the last variant's field after the table (--png, --screenshot, the window until it is closed).
#include <algorithm>
#include <cstddef>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "field_view.hpp"
#include "field_window.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/gl/opener.hpp"
#include "gpgpu/gl/timer.hpp"
#include "gpgpu/jacobi/chapter.hpp"
#include "gpgpu/progress.hpp"
#include "gpgpu/timing.hpp"
#include "gpgpu/png.hpp"
#include "gl_variants.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{"02", "ch02_glsl_pingpong", "GLSL fragment-shader ping-pong: luminance and RGBA textures",
                               "paper 000 (weighted Jacobi for the bidomain equations), section 5, Figs. 6-9, "
                               "Tables 3, 5, 7 and 8"};

// Host memory the chapter adds per node: one packed texture at a time, the read-back iterate and
// its unpacked copy.
constexpr double kHostBytesPerNode = 3 * 4;

// The variant that runs now. Its solver outlives the variant's row (the chapter run drops its own
// handle then): the last one's field is drawn after the table.
struct Current {
  std::string name;
  std::shared_ptr<ch02::PingPongSolver> solver;
  std::vector<double> wall;  // host clock after glFinish of every run, the warm-up runs first
};

// The solver the chapter run times: the current variant's, reporting progress, keeping the host
// clock of every run and, with --window, drawing the field every --draw-every iterations.
class ShownSolver final : public gpgpu::jacobi::Solver {
 public:
  // `scale`: the colour scale of the window (0: the iterate's own largest magnitude).
  ShownSolver(Current& current, ch02::FieldWindow* window, float scale) : c_(current), window_(window), scale_(scale) {}
  void reset(std::span<const float> x0) override { c_.solver->reset(x0); }
  double iterate(int iters, float omega) override {
    gpgpu::Progress progress(c_.name);
    c_.solver->observe([&](int done, int total) {
      progress.update(done, total);
      return window_ != nullptr && draw(done, total);
    });
    const double seconds = c_.solver->iterate(iters, omega);
    c_.solver->observe({});
    c_.wall.push_back(c_.solver->last_timing().wall_seconds);
    return seconds;
  }
  [[nodiscard]] std::vector<float> solution() override { return c_.solver->solution(); }
  [[nodiscard]] std::string launch() const override { return c_.solver->launch(); }

 private:
  // A frame every K iterations and after the last (captured for --screenshot); true when it drew.
  bool draw(int done, int total) {
    const ch02::WindowOptions& o = window_->options();
    if (done % o.draw_every != 0 && done != total) return false;
    const float scale = scale_ > 0 ? scale_ : ch02::colour_scale(c_.solver->solution());
    window_->show(c_.solver->current(), c_.solver->layout(), scale,
                  c_.name + ", iteration " + std::to_string(done) + " of " + std::to_string(total),
                  done == total && !o.screenshot.empty());
    return true;
  }

  Current& c_;
  ch02::FieldWindow* window_;
  float scale_;
};

}  // namespace

int main(int argc, char** argv) {
  return gpgpu::run_main(kInfo.program, [&] {
    gpgpu::jacobi::ChapterSettings settings;
    settings.quick = {{190, 130}, 100};
    settings.host_bytes_per_node = kHostBytesPerNode;
    gpgpu::jacobi::Chapter chapter(kInfo, settings);
    for (const ch02::GlVariant& v : ch02::kVariants) chapter.add(ch02::jacobi_variant(v, ch02::opener));
    std::string png;
    chapter.cli().group("Output")
        .add_option("--png", png, "write the final field of the last variant as a colour-mapped PNG")
        ->check(gpgpu::writable_path());
    chapter.cli().on_parsed([&](const gpgpu::Cli&) {
      if (!png.empty() && !gpgpu::png_supported())
        throw gpgpu::UsageError("--png: this build has no libpng (install libpng-dev and reconfigure)");
    });
    chapter.parse(argc, argv);

    std::ostream& out = std::cout;
    const std::vector<const gpgpu::jacobi::Variant*> variants = chapter.open(out);
    const gpgpu::jacobi::Grid grid = chapter.problem().options().grid;
    gpgpu::Session* gl = chapter.experiment().session(gpgpu::Backend::gl);
    ch02::FieldWindow* window = gl != nullptr ? ch02::window_of(*gl) : nullptr;
    if (window != nullptr) window->fit(grid, kInfo.program + " " + grid.str());
    chapter.measure_limits(out, variants);
    chapter.prepare(out, variants);

    const float scale = chapter.problem().reference().empty() ? 0.0f : ch02::colour_scale(chapter.problem().reference());
    const int warmup = chapter.experiment().options().warmup;
    Current current;  // declared after the chapter: its textures go before the session's context
    nlohmann::json wall_json = nlohmann::json::object();
    out << "Verification:\n";
    for (const gpgpu::jacobi::Variant* v : variants) {
      const gpgpu::gl::ContextInfo& info = gpgpu::gl::session(chapter.experiment().session_of(v->info)).info();
      gpgpu::jacobi::Variant spec = *v;
      spec.info.timer = gpgpu::gl::GpuTimer::name(info) +
                   (window != nullptr ? ", incl. window redraws every " + std::to_string(window->options().draw_every) + " it." : "");
      spec.make = [&, &variant = ch02::variant(v->info.name)](const gpgpu::jacobi::LinearSystem& sys, gpgpu::Session&)
          -> std::unique_ptr<gpgpu::jacobi::Solver> {
        current = Current{};  // the previous variant's textures go first: one variant in memory at a time
        current.name = variant.name;
        current.solver = ch02::make_solver(variant, sys, info);
        return std::make_unique<ShownSolver>(current, window, scale);
      };
      const gpgpu::ResultRow& row = chapter.run_variant(out, spec);
      const std::vector<double> wall(current.wall.begin() + std::min<std::ptrdiff_t>(warmup, std::ssize(current.wall)),
                                     current.wall.end());
      if (info.timer_query)
        out << "                host clock after glFinish: median " << gpgpu::median(wall) << " s (GPU timer "
            << row.seconds() << " s)\n";
      wall_json[v->info.name] = wall;
    }

    if (!png.empty() && current.solver) {
      const ch02::FieldView view;
      const float png_scale = ch02::colour_scale(current.solver->solution());
      gpgpu::write_png(png, grid.nx, grid.ny, view.render(current.solver->current(), current.solver->layout(), png_scale));
      out << "PNG:      " << png << " (" << current.name << ", " << grid.str()
          << ", blue < 0 < red, full colour at |x| = " << png_scale << ")\n";
    }
    if (window != nullptr && current.solver && !window->options().screenshot.empty()) {
      int width = 0, height = 0;
      const auto& pixels = window->screenshot(width, height);
      gpgpu::write_png(window->options().screenshot, width, height, pixels);
      out << "Screenshot: " << window->options().screenshot << " (" << width << "x" << height << " window)\n";
    }
    chapter.experiment().add_json("host_clock_seconds", wall_json);
    chapter.experiment().add_json("window", window != nullptr);
    const int code = chapter.finish(out);

    if (window != nullptr && current.solver && window->options().screenshot.empty()) {
      out << "Window:   close it (or press Esc) to exit\n" << std::flush;
      window->wait_until_closed(current.solver->current(), current.solver->layout(),
                                scale > 0 ? scale : ch02::colour_scale(current.solver->solution()),
                                current.name + ", final iterate");
    }
    return code;
  });
}
