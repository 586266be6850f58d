// main() of every GoogleTest executable: skip the whole suite with exit code 77 when its backend is
// missing at run time (CTest then reports "Skipped" rather than a pass that tested nothing). Listing
// the tests (--gtest_list_tests) runs none, so it works without the backend.
#include <iostream>

#include <gtest/gtest.h>

#include "harness.hpp"

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  if (GTEST_FLAG_GET(list_tests)) return RUN_ALL_TESTS();
  if (const auto why = gpgpu::harness::backend_missing()) {
    std::cout << "SKIPPED: " << *why << '\n';
    return 77;
  }
  return RUN_ALL_TESTS();
}
