/// @file test_context.hpp
/// @brief For GoogleTest executables of the GL backend: one headless context for the whole
/// executable, made before the first test and released after the last. (The test main has
/// already exited with 77, "skipped", when no EGL context can be made.)
///
/// @code
///   TEST(MyGl, Something) { const auto& info = gpgpu::gl::TestContext::info(); ... }
/// @endcode
#pragma once
#include <memory>

#include <gtest/gtest.h>

#include "gpgpu/gl/context.hpp"

namespace gpgpu::gl {

class TestContext : public ::testing::Environment {
 public:
  void SetUp() override { context_ = std::make_unique<HeadlessContext>(); }
  void TearDown() override { context_.reset(); }
  /// The context of the running test executable.
  static const ContextInfo& info() { return context_->info(); }

 private:
  static inline std::unique_ptr<HeadlessContext> context_;
};

/// Registers the environment once per executable, before main() runs the tests.
inline ::testing::Environment* const kTestContextRegistration = ::testing::AddGlobalTestEnvironment(new TestContext);

}  // namespace gpgpu::gl
