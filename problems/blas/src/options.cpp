#include "gpgpu/blas/options.hpp"

#include <memory>

#include <CLI/CLI.hpp>

#include "gpgpu/errors.hpp"
#include "gpgpu/matrix/options.hpp"

namespace gpgpu::blas {

void add_options(Cli& cli, Options& o, std::int64_t default_n) {
  o.dims = {default_n, default_n, default_n};
  auto type = std::make_shared<std::string>("float");
  CLI::Option_group& g = cli.group("Matrix multiply");
  g.add_option("--n", o.dims.n, "columns of B and C; alone, square n x n matrices")->check(integer_in_range(1))->capture_default_str();
  g.add_option("--m", o.dims.m, "rows of A and C (default: n; with --quick and no --n, the quick size)")
      ->check(integer_in_range(1));
  g.add_option("--k", o.dims.k, "columns of A, rows of B (default: n; with --quick and no --n, the quick size)")
      ->check(integer_in_range(1));
  g.add_option("--type", *type, "element type: float or double")->check(CLI::IsMember({"float", "double"}))->capture_default_str();
  g.add_option("--calls", o.calls, "products per timed run")->check(integer_in_range(1, 100000))->capture_default_str();
  g.add_flag("--tune", o.tune,
             "variants with several compiled configurations (tile shapes, stages: cuda_three_stage, cuda_prefetch) "
             "verify each against the reference, time it, and run the fastest");
  cli.on_parsed([&o, type](const Cli& c) {
    o.type = matrix::parse_type(*type);
    const bool quick = c.options().quick;
    if (quick && !c.given("--n")) o.dims.n = kQuickDims.n;
    // An --m or --k not given follows --n (--n alone: the square of the paper), or, under --quick
    // without --n, keeps its quick size: --quick --m 5 is 5 x 129 x 93, not 5 x 4096 x 4096.
    const bool follow_n = c.given("--n") || !quick;
    if (!c.given("--m")) o.dims.m = follow_n ? o.dims.n : kQuickDims.m;
    if (!c.given("--k")) o.dims.k = follow_n ? o.dims.n : kQuickDims.k;
    if (quick && !c.given("--calls")) o.calls = 2;
    for (const Shape& s : {o.dims.a(), o.dims.b(), o.dims.c()})
      if (s.rows > matrix::kMaxElements / s.cols)
        throw UsageError("matrix " + s.str() + " has more than " + std::to_string(matrix::kMaxElements) +
                         " elements (2^31 - 2^25: the kernels index with 32-bit ints)");
    if (o.tune && !c.options().verify)
      throw UsageError("--tune verifies every configuration before timing it: it cannot run with --no-verify");
    if (o.dims.k > kMaxK)
      throw UsageError("--k " + std::to_string(o.dims.k) + " is above " + std::to_string(kMaxK) +
                       ": the FP32 error bound k u / (1 - k u) would say nothing");
  });
}

}  // namespace gpgpu::blas
