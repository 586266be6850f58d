// Every exception a process reports becomes one line and the project's exit code, whichever
// process reports it (run_main, or chapter 13's MPI ranks through current_failure).
#include <new>
#include <stdexcept>

#include <gtest/gtest.h>

#include "gpgpu/errors.hpp"

namespace gpgpu {
namespace {

template <class E>
Failure failure_of(E e) {
  try {
    throw e;
  } catch (...) {
    return current_failure();
  }
}

TEST(Errors, OutOfHostMemoryIsAUsageErrorNotAnUnknownFailure) {
  const Failure f = failure_of(std::bad_alloc());
  EXPECT_EQ(f.code, kExitUsage);
  EXPECT_NE(f.message.find("out of host memory"), std::string::npos) << f.message;
}

TEST(Errors, EachKindHasItsCodeAndOneLine) {
  EXPECT_EQ(failure_of(UsageError("bad")).code, kExitUsage);
  EXPECT_EQ(failure_of(BackendUnavailable("none")).code, kExitBackendMissing);
  EXPECT_EQ(failure_of(ApiError("call failed")).code, kExitVerificationFailed);
  EXPECT_EQ(failure_of(std::runtime_error("two\nlines")).message, "two lines");
  EXPECT_EQ(failure_of(42).code, kExitVerificationFailed);
}

TEST(Errors, RunMainReturnsTheCode) {
  EXPECT_EQ(run_main("prog", [] () -> int { throw std::bad_alloc(); }), kExitUsage);
  EXPECT_EQ(run_main("prog", [] { return 0; }), 0);
}

}  // namespace
}  // namespace gpgpu
