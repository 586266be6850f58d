/// @file limit_rule.hpp
/// @brief The rule that makes a limit a limit: no rate is judged against a bandwidth that the same
/// run has seen beaten.
///
/// A backend's stream kernel measures what a read:write mix can move through a working set of a
/// given size (Session::stream_limit). It is usually the fastest code in the run, but not always:
/// a 16-thread host loop whose arrays sit in the last-level cache, or a GPU kernel whose launch
/// shape suits the device better than the stream kernel's, can beat it. Then the stream kernel was
/// not the limit, and a share above 100% would say nothing true. So the limit of a mix is the best
/// rate that any verified code reached for that mix and working set in this run: the stream
/// kernel's best sample, or a variant's best run where it was faster. The variant is named beside
/// the limit, so the reader sees that our stream kernel lost, and to what.
///
/// Shares are medians over this maximum of best samples, so none can exceed 100%.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "gpgpu/backend.hpp"

namespace gpgpu {

/// One rate judged against a limit: a row of a chapter's table or a point of a sweep.
struct Judged {
  std::string backend;  ///< backend_name() of the variant: limits of different backends never mix
  std::string variant;  ///< who reached `best_gbs`
  double best_gbs = 0;  ///< minimum-traffic GB/s of its fastest timed run
  bool trusted = true;  ///< false for a FAIL (a wrong result proves no bandwidth) and for a rate of
                        ///< code that reuses data across steps (Work::reuses_across_steps)
  Limit* limit = nullptr;
};

/// Applies the rule to every judged rate: within each class (backend, limit name, mix, working set)
/// the limit becomes the larger of the stream kernel's best sample and the best trusted rate of the
/// class, and `raised_by` names the variant when it is the latter. Idempotent: calling it again
/// after more rates arrive re-judges them all.
void settle_limits(const std::vector<Judged>& judged);

/// The footer line of a limit: "stream 2:1 float4 kernel: 3021.4 GB/s, memory (...)", and when a
/// variant raised it, "; raised to 3026.0 GB/s by cl_add_vec4's best run".
[[nodiscard]] std::string describe_limit(const Limit& l);

/// Prints, once each and indented, the limits a variant raised: a sweep's footer.
void print_raised_limits(std::ostream& out, const std::vector<const Limit*>& limits);

}  // namespace gpgpu
