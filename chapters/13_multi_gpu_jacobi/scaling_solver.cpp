// Chapter 13's tuning: the one-GPU baseline and every split variant choose their launch the same
// way, by timing, so that an efficiency compares each at its best (a rule tuned for the whole grid
// may not suit a half of it, and the other way round).
#include "scaling_solver.hpp"

namespace ch13 {

//! [tune]
std::string ScalingSolver::tune(int iters, float omega) {
  if (!set_launch(LaunchShape{})) return {};  // chapter 07b's rule first; nothing to shape on the CPU
  const gpgpu::jacobi::TunedLaunch best = gpgpu::jacobi::fastest_launch(LaunchShape{}, iters, [&](const LaunchShape& shape) {
    set_launch(shape);
    (void)timed(1, omega, Mode::full);  // untimed: a CUDA graph is re-captured for a new shape here
    return timed(iters, omega, Mode::full);
  });
  set_launch(best.shape);
  return best.text;
}
//! [tune]

}  // namespace ch13
