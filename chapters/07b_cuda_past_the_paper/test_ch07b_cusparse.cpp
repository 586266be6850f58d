// Chapter 07b's library peer on a GPU (label cuda; skipped without one; built only with cuSPARSE):
// cusparseSpMV on the CSR matrix at the awkward sizes against the CPU double-precision reference
// (one unknown, single rows and columns, a grid beyond the L2, odd and even iteration counts), the
// Solver contract, a change of ω (the matrix depends on it and is rebuilt), and the memory check.
// The CSR matrix itself is tested without a GPU in test_csr_matrix.cpp.
#include "gpgpu/jacobi/cuda/variant_checks.hpp"
#include "cusparse_variants.hpp"

namespace jc = gpgpu::jacobi::cuda;

namespace gpgpu::jacobi::cuda::checks {
INSTANTIATE_TEST_SUITE_P(Ch07bCusparse, CudaVariantCases,
                         ::testing::Combine(::testing::Values(Factory{"cusparse", [](const LaunchOptions&) { return ch07b::cusparse_variant(); }}),
                                            ::testing::ValuesIn(gpgpu::jacobi::checks::awkward_cases(true))),
                         case_param_name);
// The contract suite (CudaVariant) runs the hand-written kernels; this binary checks the contract
// of the library peer in a test of its own below.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CudaVariant);
}  // namespace gpgpu::jacobi::cuda::checks

namespace {

const jc::checks::Factory kCusparse{"cusparse", [](const jc::LaunchOptions&) { return ch07b::cusparse_variant(); }};

TEST(Ch07bCusparse, KeepsTheSolverContract) {
  for (const gpgpu::jacobi::Grid g : {gpgpu::jacobi::Grid{37, 19}, gpgpu::jacobi::Grid{45, 30}}) {
    const auto sys = gpgpu::jacobi::assemble_bidomain(g);
    EXPECT_TRUE(gpgpu::jacobi::checks::keeps_the_solver_contract(*jc::checks::solver(kCusparse, sys), sys)) << g.str();
  }
}

TEST(Ch07bCusparse, RebuildsTheMatrixWhenOmegaChanges) {
  const auto sys = gpgpu::jacobi::assemble_bidomain({29, 23});
  const auto x0 = gpgpu::jacobi::checks::random_guess(sys.grid.nodes(), 4);
  const auto s = jc::checks::solver(kCusparse, sys);
  for (float omega : {0.8f, 0.5f}) {
    s->reset(x0);
    s->iterate(6, omega);
    const auto reference = gpgpu::jacobi::jacobi_reference(sys, x0, 6, omega);
    EXPECT_TRUE(gpgpu::compare_normwise(s->solution(), reference, gpgpu::jacobi::jacobi_tolerance(6)).pass) << omega;
  }
  EXPECT_NE(s->launch().find("cusparseSpMV"), std::string::npos) << s->launch();
}

TEST(Ch07bCusparse, RefusesGridsTheDeviceCannotHold) {
  const gpgpu::jacobi::Variant spec = ch07b::cusparse_variant();
  EXPECT_THROW(spec.check_fits({100000, 100000}, jc::checks::session()), gpgpu::UsageError);
  EXPECT_NO_THROW(spec.check_fits({64, 64}, jc::checks::session()));
}

}  // namespace
