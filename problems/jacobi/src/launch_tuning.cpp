// Chapter 07b's tuning loop, shared by chapter 07b's solvers and chapter 13's split ones.
#include "gpgpu/jacobi/launch_tuning.hpp"

#include <cstdio>

namespace gpgpu::jacobi {

//! [fastest_launch]
TunedLaunch fastest_launch(const LaunchShape& first, int iters, const std::function<double(const LaunchShape&)>& time_of) {
  TunedLaunch best{first, time_of(first), 1, {}};
  for (int block : {64, 128, 256})
    for (int rows : {1, 2, 4, 8, 16}) {
      const LaunchShape shape{block, rows};
      const double t = time_of(shape);
      ++best.tried;
      if (t < best.seconds) {
        best.shape = shape;
        best.seconds = t;
      }
    }
  const std::string rows = best.shape.rows_per_thread > 0 ? std::to_string(best.shape.rows_per_thread) + " rows per thread"
                                                           : "rows per thread by chapter 07b's rule";
  char text[200];
  std::snprintf(text, sizeof text, "block %d, %s: %.4f ms/iter, fastest of %d configurations x %d iterations",
                best.shape.block, rows.c_str(), 1e3 * best.seconds / iters, best.tried, iters);
  best.text = text;
  return best;
}
//! [fastest_launch]

}  // namespace gpgpu::jacobi
