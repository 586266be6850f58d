/// @file work.hpp
/// @brief The work one timed run of a variant does, from which every rate of the tutorial is
/// computed: FLOPs, the bytes that must cross the memory bus at least, the bytes of every load and
/// store the code issues, and the items (node updates, matrix elements) it produces.
///
/// Each problem library keeps one table of these counts per kernel as a function of the problem's
/// size (BabelStream's table is the model: jacobi/work.hpp, matrix/work.hpp, ...). A chapter never
/// writes a count of its own; it asks its problem's table.
#pragma once
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace gpgpu {

/// The work of one timed run.
struct Work {
  std::string kernel;    ///< the row of the problem's work table: "jacobi9", "transpose", ...
  double flops = 0;      ///< floating-point operations
  double bytes_min = 0;  ///< bytes every array is read and written once: what must cross the bus
  double bytes_all = 0;  ///< bytes of all loads and stores the code issues (caches serve the rest)
  double items = 0;      ///< results produced: node updates, elements, ...
  std::string item;      ///< what an item is: "node updates", "elements"
  double steps = 1;      ///< iterations or time steps in one run (1 for a single kernel call)
  std::string step;      ///< "iter", "step", "call"
  int reads = 1;         ///< arrays read (the read side of the limit's mix)
  int writes = 1;        ///< arrays written (the write side)
  /// True for code that keeps data on chip across steps (temporal blocking, chapter 07c): its
  /// bytes_min is still the one-step floor's count, which it may beat, so its rate measures no
  /// memory and the limit rule never lets it raise a limit.
  bool reuses_across_steps = false;
};

/// Rates of a run that took `seconds`, decimal units (1e9).
struct Rates {
  double gflops = 0;       ///< 1e9 FLOP/s
  double gbs_min = 0;      ///< 1e9 B/s of minimum traffic: the rate a limit judges
  double gbs_all = 0;      ///< 1e9 B/s of all accesses
  double items_per_s = 0;  ///< items per second
};
Rates rates(const Work& w, double seconds);

/// The floor: seconds to move the minimum bytes at `limit_gbs` (1e9 B/s). No run that moves them
/// through that memory level can be faster.
[[nodiscard]] double floor_seconds(const Work& w, double limit_gbs);

void to_json(nlohmann::json& j, const Work& w);

}  // namespace gpgpu
