// Chapter 13's tuning: the one-GPU baseline and every split variant choose their launch the same
// way, by timing, so that an efficiency compares each at its best (a rule tuned for the whole grid
// may not suit a half of it, and the other way round).
#include "scaling_solver.hpp"

#include <cstdio>

namespace ch13 {

//! [tune]
std::string ScalingSolver::tune(int iters, float omega) {
  LaunchShape best{};  // chapter 07b's rule first
  if (!set_launch(best)) return {};
  const auto time_of = [&](const LaunchShape& shape) {
    set_launch(shape);
    (void)timed(1, omega, Mode::full);  // untimed: a CUDA graph is re-captured for a new shape here
    return timed(iters, omega, Mode::full);
  };
  double fastest = time_of(best);
  int tried = 1;
  for (int block : {64, 128, 256})
    for (int rows : {1, 2, 4, 8, 16}) {
      const LaunchShape shape{block, rows};
      const double t = time_of(shape);
      ++tried;
      if (t < fastest) {
        fastest = t;
        best = shape;
      }
    }
  set_launch(best);
  const std::string rows =
      best.rows_per_thread > 0 ? std::to_string(best.rows_per_thread) + " rows per thread" : "rows per thread by chapter 07b's rule";
  char text[200];
  std::snprintf(text, sizeof text, "block %d, %s: %.4f ms/iter, fastest of %d shapes x %d iterations", best.block,
                rows.c_str(), 1e3 * fastest / iters, tried, iters);
  return text;
}
//! [tune]

}  // namespace ch13
