/// @file operation_timing.hpp
/// @brief How a variant that applies one operation to operands it was given is timed (matrix add
/// and transpose, matrix multiply): its first call alone on the host's clock, then the timed calls
/// on the operation's own clock, then the paper's kind of time with the copies.
#pragma once
#include <functional>
#include <vector>

#include "gpgpu/cli.hpp"
#include "gpgpu/timing.hpp"

namespace gpgpu {

/// What time_operation() measured.
template <class Result>
struct OperationTimes {
  double first_call_s = 0;            ///< host clock: the first call after the upload (not in the samples)
  std::vector<double> samples;        ///< the operation's own clock: each timed run of `calls` calls
  Result result{};                    ///< downloaded after the timed runs
  std::vector<double> with_copies_s;  ///< host clock: the operands up, one call, the result down
};

/// Times `op`, which has upload(in) (operands to the device, the result poisoned), run(calls) (the
/// seconds of `calls` calls on its own clock) and download() (the result back):
///  - the first call on the host's clock: CUDA loads a kernel's module at its first launch (lazy
///    loading), a library picks its algorithm, an OpenCL driver may finish compiling; the timed
///    runs leave that out;
///  - `after_first_call`, if given (chapter 10's --tune tries its configurations there);
///  - the operands uploaded again (the result poisoned again: the timed runs must write every
///    element themselves), --warmup then --repeat runs of `calls` calls, the result downloaded;
///  - --repeat times the operands up, one call and the result down on the host's clock.
template <class Op, class Inputs>
auto time_operation(Op& op, const Inputs& in, const CoreOptions& core, int calls,
                    const std::function<void()>& after_first_call = {}) {
  OperationTimes<decltype(op.download())> t;
  op.upload(in);
  Stopwatch first;
  (void)op.run(1);
  t.first_call_s = first.seconds();
  if (after_first_call) after_first_call();
  op.upload(in);
  t.samples = repeat_runs(core.warmup, core.repeat, [&] { return op.run(calls); });
  t.result = op.download();
  t.with_copies_s = repeat_runs(0, core.repeat, [&] {
    Stopwatch clock;
    op.upload(in);
    op.run(1);
    (void)op.download();
    return clock.seconds();
  });
  return t;
}

}  // namespace gpgpu
