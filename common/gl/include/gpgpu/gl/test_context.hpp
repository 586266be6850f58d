/// @file test_context.hpp
/// @brief For GoogleTest executables of the GL backend: one GL session on a headless context for
/// the whole executable, opened before the first test and closed after the last. (The test main
/// has already exited with 77, "skipped", when no EGL context can be made.)
///
/// @code
///   TEST(MyGl, Something) { const auto& info = gpgpu::gl::TestContext::info(); ... }
/// @endcode
#pragma once
#include <memory>

#include <gtest/gtest.h>

#include "gpgpu/gl/opener.hpp"

namespace gpgpu::gl {

class TestContext : public ::testing::Environment {
 public:
  void SetUp() override { session_ = std::make_unique<Session>(std::make_unique<HeadlessContext>()); }
  void TearDown() override { session_.reset(); }
  /// The context of the running test executable.
  static const ContextInfo& info() { return session_->info(); }
  /// Its session (stream limits, the header block).
  static Session& session() { return *session_; }

 private:
  static inline std::unique_ptr<Session> session_;
};

/// Registers the environment once per executable, before main() runs the tests.
inline ::testing::Environment* const kTestContextRegistration = ::testing::AddGlobalTestEnvironment(new TestContext);

}  // namespace gpgpu::gl
