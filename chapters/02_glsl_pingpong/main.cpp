// Chapter 02: weighted Jacobi as GLSL fragment-shader ping-pong (paper 000, section 5), with the
// paper's luminance textures (one unknown per texel) and RGBA textures (four per texel), plus the
// same stencil as a compute shader. Headless through EGL by default; --window shows the field
// converging; every variant is verified against the CPU double-precision reference.
#include <algorithm>
#include <iostream>
#include <optional>
#include <string>

#include "field_view.hpp"
#include "field_window.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/experiment.hpp"
#include "gpgpu/gl/context.hpp"
#include "gpgpu/gl/copy_pass.hpp"
#include "gpgpu/gl/timer.hpp"
#include "gpgpu/paper000.hpp"
#include "gpgpu/progress.hpp"
#include "gpgpu/work_counts.hpp"
#include "png_image.hpp"
#include "variants.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{"02", "ch02_glsl_pingpong",
                               "GLSL fragment-shader ping-pong: luminance and RGBA textures",
                               "paper 000 (weighted Jacobi for the bidomain equations), section 5, Figs. 6-9, "
                               "Tables 3, 5, 7 and 8"};

// Host memory the chapter adds per node: one packed texture at a time, the read-back iterate and
// its unpacked copy.
constexpr double kHostBytesPerNode = 3 * 4;

struct Options {
  std::string png;         // --png FILE
  bool window = false;     // --window
  int draw_every = 10;     // --draw-every K
  std::string screenshot;  // --screenshot FILE
  std::string egl = "auto";
};

void add_options(CLI::App& app, Options& o) {
  app.add_option("--png", o.png, "write the final field of the last variant as a colour-mapped PNG")
      ->check(gpgpu::writable_path());
  app.add_flag("--window", o.window, "show the field converging in a window (needs a display)");
  app.add_option("--draw-every", o.draw_every, "with --window: redraw every K iterations")
      ->check(gpgpu::integer_in_range(1))
      ->capture_default_str();
  app.add_option("--screenshot", o.screenshot, "with --window: save the last frame as a PNG and close the window")
      ->check(gpgpu::writable_path());
  app.add_option("--egl", o.egl, "EGL platform of the headless context: auto, device or surfaceless")
      ->check(CLI::IsMember({"auto", "device", "surfaceless"}))
      ->capture_default_str();
}

void validate(const Options& o) {
  if (!o.screenshot.empty() && !o.window) throw gpgpu::UsageError("--screenshot needs --window");
  if ((!o.png.empty() || !o.screenshot.empty()) && !ch02::png_supported())
    throw gpgpu::UsageError("--png/--screenshot: this build has no libpng (install libpng-dev and reconfigure)");
}

// Refuses, before any allocation, grids whose textures exceed the GL limits of this context.
void require_fits(const gpgpu::gl::ContextInfo& info, const gpgpu::CommonOptions& opt) {
  double bytes = 0;
  for (const std::string& name : opt.variants) {
    const ch02::VariantInfo& v = ch02::variant(name);
    const ch02::FieldLayout layout{opt.grid, v.unknowns_per_texel};
    if (layout.texture_width() > info.max_texture_size || layout.texture_height() > info.max_texture_size)
      throw gpgpu::UsageError("grid " + opt.grid.str() + ": the " + name + " variant needs " +
                              std::to_string(layout.texture_width()) + "x" + std::to_string(layout.texture_height()) +
                              " textures, more than GL_MAX_TEXTURE_SIZE " + std::to_string(info.max_texture_size) +
                              " of " + info.renderer);
    bytes = std::max(bytes, ch02::texture_bytes(v, opt.grid));  // one variant's textures at a time
  }
  gpgpu::gl::require_texture_memory(info, bytes, "grid " + opt.grid.str());
}

bool uses_compute(const std::vector<std::string>& variants) {
  return std::any_of(variants.begin(), variants.end(),
                     [](const std::string& v) { return ch02::variant(v).launch == ch02::Launch::Compute; });
}

// The bandwidth limits, measured now: a copy through each launch path the variants use. A
// software renderer gets the fragment copy only: its compute path costs about 0.1 µs per
// invocation whatever the invocation does, so a compute copy would time that, not memory.
std::vector<gpgpu::gl::CopyBandwidth> measure_limits(const gpgpu::gl::ContextInfo& info,
                                                     const std::vector<std::string>& variants) {
  int width = 0, height = 0;
  gpgpu::gl::default_copy_size(info, width, height);
  std::vector<gpgpu::gl::CopyBandwidth> copies{gpgpu::gl::measure_copy_bandwidth(info, width, height)};
  if (info.compute_shaders && !info.software && uses_compute(variants))
    copies.push_back(gpgpu::gl::measure_copy_bandwidth(info, width, height, 3, gpgpu::gl::CopyLaunch::Compute));
  for (const auto& c : copies)
    std::cout << "Limit:    " << c.limit().name << ": " << c.gbs << " GB/s (read + write, best of " << c.samples
              << " samples, " << c.timer << ")\n";
  return copies;
}

// The limit of a variant: the copy through its own launch path (the fragment copy where only
// that one was measured).
gpgpu::Limit limit_of(const std::vector<gpgpu::gl::CopyBandwidth>& copies, ch02::Launch launch) {
  const auto want = launch == ch02::Launch::Compute ? gpgpu::gl::CopyLaunch::Compute : gpgpu::gl::CopyLaunch::Fragment;
  for (const auto& c : copies)
    if (c.launch == want) return c.limit();
  return copies.front().limit();
}

// The warm-up and timed runs of one variant: GPU time per run (the samples), the host clock
// after glFinish in `wall`, and the final iterate. Only the iterations are timed.
gpgpu::VariantResult run(ch02::PingPongSolver& solver, const gpgpu::JacobiExperiment& exp, gpgpu::gl::GpuTimer& timer,
                         const std::string& name, const ch02::StepObserver& after_step, std::vector<double>& wall) {
  const gpgpu::CommonOptions& opt = exp.options();
  gpgpu::VariantResult result;
  result.samples = gpgpu::repeat_runs(opt, [&] {
    solver.reset(exp.initial_guess());
    gpgpu::Progress progress(name);
    const gpgpu::gl::GlTiming t = timer.time([&] {
      solver.iterate(opt.iters, static_cast<float>(opt.omega), [&](int done, int total) {
        progress.update(done, total);
        return after_step(done, total);
      });
    });
    wall.push_back(t.wall_seconds);
    return t.gpu_seconds;
  });
  wall.erase(wall.begin(), wall.begin() + opt.warmup);  // keep the timed runs only
  result.solution = solver.solution();
  return result;
}

std::string iteration_status(const std::string& variant, int done, int total) {
  return variant + ", iteration " + std::to_string(done) + " of " + std::to_string(total);
}

}  // namespace

int main(int argc, char** argv) {
  return gpgpu::run_main(kInfo.program, [&] {
    gpgpu::ChapterCli cli(kInfo.program, "Chapter 02: " + kInfo.title, ch02::variant_names(),
                          {.repeat = 3, .warmup = 1, .quick_grid = {190, 130}, .quick_iters = 100});
    Options o;
    add_options(cli.app(), o);
    const gpgpu::CommonOptions& opt = cli.parse(argc, argv);
    validate(o);

    gpgpu::JacobiExperiment exp(kInfo, opt, kHostBytesPerNode);
    exp.print_header(std::cout);
    // The context: a window's, or a headless one through EGL (BackendUnavailable -> exit 77).
    std::optional<ch02::FieldWindow> window;
    std::optional<gpgpu::gl::HeadlessContext> headless;
    if (o.window)
      window.emplace(opt.grid, kInfo.program + " " + opt.grid.str());
    else
      headless.emplace(gpgpu::gl::parse_egl_platform(o.egl));
    const gpgpu::gl::ContextInfo& info = window ? window->info() : headless->info();
    gpgpu::gl::print_context_info(std::cout, info);
    require_fits(info, opt);

    const std::vector<gpgpu::gl::CopyBandwidth> copies = measure_limits(info, opt.variants);
    exp.prepare(std::cout);

    gpgpu::gl::GpuTimer timer(info);
    const float window_scale = ch02::colour_scale(exp.reference());
    nlohmann::json wall_json = nlohmann::json::object();
    std::optional<ch02::PingPongSolver> last;  // the last variant's field, for --png and the window
    std::string last_name;
    std::cout << "Verification:\n";
    for (const std::string& name : opt.variants) {
      const ch02::VariantInfo& v = ch02::variant(name);
      if (!ch02::supported(v, info)) {
        std::cout << "  " << name << ": skipped, needs OpenGL 4.3 compute shaders (this context: " << info.version << ")\n";
        continue;
      }
      last.reset();  // its textures go before the next variant's: one variant in memory at a time
      ch02::PingPongSolver solver = ch02::make_solver(v, exp.system());
      // Called after every iteration: the progress line, and with --window a frame every K iterations.
      const auto after_step = [&](int done, int total) {
        if (!window || (done % o.draw_every != 0 && done != total)) return false;
        const float scale = opt.verify ? window_scale : ch02::colour_scale(solver.solution());
        window->show(solver.current(), solver.layout(), scale, iteration_status(name, done, total),
                     done == total && !o.screenshot.empty());
        return true;
      };
      std::vector<double> wall;
      gpgpu::VariantResult result = run(solver, exp, timer, name, after_step, wall);

      gpgpu::ResultRow row;
      row.variant = name;
      row.description = std::string(v.description);
      row.device = info.renderer;
      row.timer = timer.name() + (window ? ", incl. window redraws every " + std::to_string(o.draw_every) + " it." : "");
      row.work = gpgpu::work_counts("jacobi9");
      row.limit = limit_of(copies, v.launch);
      const gpgpu::ResultRow& kept = exp.record(std::cout, row, std::move(result));
      if (timer.uses_query())
        std::cout << "                host clock after glFinish: median " << gpgpu::median(wall) << " s (GPU timer "
                  << kept.seconds() << " s)\n";
      wall_json[name] = wall;
      last.emplace(std::move(solver));
      last_name = name;
    }

    if (!o.png.empty() && last) {
      const ch02::FieldView view;
      const float scale = ch02::colour_scale(last->solution());
      ch02::write_png(o.png, opt.grid.nx, opt.grid.ny, view.render(last->current(), last->layout(), scale));
      std::cout << "PNG:      " << o.png << " (" << last_name << ", " << opt.grid.str()
                << ", blue < 0 < red, full colour at |x| = " << scale << ")\n";
    }
    if (!o.screenshot.empty() && last) {
      int width = 0, height = 0;
      const auto& pixels = window->screenshot(width, height);
      ch02::write_png(o.screenshot, width, height, pixels);
      std::cout << "Screenshot: " << o.screenshot << " (" << width << "x" << height << " window)\n";
    }

    nlohmann::json device = info;
    for (const auto& c : copies)
      device[c.launch == gpgpu::gl::CopyLaunch::Compute ? "compute_copy" : "copy_pass"] = {
          {"gbs", c.gbs}, {"width", c.width}, {"height", c.height}, {"samples", c.samples}, {"timer", c.timer}};
    device["host_clock_seconds"] = wall_json;
    device["window"] = o.window;
    exp.set_device_json(device);
    std::vector<gpgpu::ThenNowRow> then = gpgpu::paper000::then_rows("OGL Luminance");
    for (auto& r : gpgpu::paper000::then_rows("OGL RGBA")) then.push_back(r);
    const int code = exp.finish(std::cout, then);

    if (window && last && o.screenshot.empty()) {
      std::cout << "Window:   close it (or press Esc) to exit\n" << std::flush;
      window->wait_until_closed(last->current(), last->layout(), opt.verify ? window_scale : ch02::colour_scale(last->solution()),
                                last_name + ", final iterate");
    }
    return code;
  });
}
