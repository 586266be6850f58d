#include "gpgpu/progress.hpp"

#include <cstdio>

#include <unistd.h>

namespace gpgpu {

bool stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

Progress::Progress(std::string label, double delay_seconds)
    : label_(std::move(label)), delay_(delay_seconds), enabled_(stderr_is_terminal()) {}

Progress::~Progress() {
  if (shown_) std::fprintf(stderr, "\r\033[K");  // erase the line
}

void Progress::update(long long done, long long total) {
  if (!enabled_) return;
  const double now = clock_.seconds();
  if (now < delay_ || now - last_ < 0.25) return;
  last_ = now;
  shown_ = true;
  const double fraction = total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 0.0;
  const double eta = fraction > 0 ? now * (1.0 - fraction) / fraction : 0.0;
  std::fprintf(stderr, "\r\033[K  %s: %lld/%lld (%.0f%%, %.0f s left)", label_.c_str(), done, total, 100.0 * fraction, eta);
  std::fflush(stderr);
}

}  // namespace gpgpu
