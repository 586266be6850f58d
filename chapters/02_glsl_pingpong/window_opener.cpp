// Chapter 02's GL driver: the core's GL driver, whose context becomes a window's with --window.
#include <CLI/CLI.hpp>

#include "field_window.hpp"
#include "gpgpu/cli.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/gl/opener.hpp"
#include "gpgpu/png.hpp"

namespace ch02 {
namespace {

class WindowOpener final : public gpgpu::gl::Opener {
 public:
  void add_options(gpgpu::Cli& cli) override {
    gpgpu::gl::Opener::add_options(cli);
    CLI::Option_group& window = cli.group("Window");
    window.add_flag("--window", options_.show, "show the field converging in a window (needs a display)");
    window.add_option("--draw-every", options_.draw_every, "with --window: redraw every K iterations")
        ->check(gpgpu::integer_in_range(1))
        ->capture_default_str();
    window.add_option("--screenshot", options_.screenshot, "with --window: save the last frame as a PNG and close the window")
        ->check(gpgpu::writable_path());
    cli.on_parsed([this](const gpgpu::Cli&) {
      if (!options_.screenshot.empty() && !options_.show) throw gpgpu::UsageError("--screenshot needs --window");
      if (!options_.screenshot.empty() && !gpgpu::png_supported())
        throw gpgpu::UsageError("--screenshot: this build has no libpng (install libpng-dev and reconfigure)");
    });
  }

 protected:
  std::unique_ptr<gpgpu::gl::Context> open_context() override {
    if (!options_.show) return gpgpu::gl::Opener::open_context();
    return std::make_unique<FieldWindow>(options_);
  }

 private:
  WindowOptions options_;
};

}  // namespace

std::unique_ptr<gpgpu::BackendOpener> opener() { return std::make_unique<WindowOpener>(); }

FieldWindow* window_of(gpgpu::Session& gl_session) {
  return dynamic_cast<FieldWindow*>(&gpgpu::gl::session(gl_session).context());
}

}  // namespace ch02
