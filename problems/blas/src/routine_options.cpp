#include "gpgpu/blas/routine_options.hpp"

#include <algorithm>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "gpgpu/errors.hpp"
#include "gpgpu/matrix/options.hpp"

namespace gpgpu::blas {

void add_routine_options(Cli& cli, RoutineOptions& o) {
  auto routines = std::make_shared<std::vector<std::string>>(std::vector<std::string>{"all"});
  auto filter = std::make_shared<std::string>("random");
  std::vector<std::string> names{"all"};
  for (Routine r : kRoutines) names.emplace_back(routine_name(r));
  RoutineSizes& s = o.sizes;
  CLI::Option_group& g = cli.group("Paper 001's routines");
  g.add_option("--routine", *routines, "routines to run: saxpy, sscal, sgemv, sgemv_t, sgemm, conv2d or all")
      ->delimiter(',')
      ->check(CLI::IsMember(names));
  g.add_option("--vector", s.vector, "n of saxpy and sscal")->check(integer_in_range(1))->capture_default_str();
  g.add_option("--gemv-rows", s.gemv_m, "rows m of A for sgemv and sgemv_t")->check(integer_in_range(1))->capture_default_str();
  g.add_option("--gemv-cols", s.gemv_n, "columns n of A for sgemv and sgemv_t")->check(integer_in_range(1))->capture_default_str();
  g.add_option("--gemm", s.gemm, "n of the square sgemm")->check(integer_in_range(1, kMaxGemm))->capture_default_str();
  g.add_option("--image-rows", s.image.rows, "rows of the conv2d image")->check(integer_in_range(1))->capture_default_str();
  g.add_option("--image-cols", s.image.cols, "columns of the conv2d image")->check(integer_in_range(1))->capture_default_str();
  g.add_option("--k", s.image.k, "side of the conv2d filter (odd, 1 ... 31)")->check(integer_in_range(1, conv::kMaxFilter))->capture_default_str();
  g.add_option("--filter", *filter, "conv2d's filter: random, or separable (rank one, u vᵀ: the separable variants run)")
      ->check(CLI::IsMember({"random", "separable"}))
      ->capture_default_str();
  g.add_option("--calls", o.calls, "calls per timed run")->check(integer_in_range(1, 100000))->capture_default_str();
  cli.on_parsed([&o, routines, filter](const Cli& c) {
    o.sizes.separable = *filter == "separable";
    o.routines.clear();
    for (const std::string& name : *routines) {
      if (name == "all") {
        o.routines.assign(std::begin(kRoutines), std::end(kRoutines));
        break;
      }
      const Routine r = *parse_routine(name);
      if (std::find(o.routines.begin(), o.routines.end(), r) == o.routines.end()) o.routines.push_back(r);
    }
    RoutineSizes& s = o.sizes;
    if (c.options().quick) {
      if (!c.given("--vector")) s.vector = kQuickRoutineSizes.vector;
      if (!c.given("--gemv-rows")) s.gemv_m = kQuickRoutineSizes.gemv_m;
      if (!c.given("--gemv-cols")) s.gemv_n = kQuickRoutineSizes.gemv_n;
      if (!c.given("--gemm")) s.gemm = kQuickRoutineSizes.gemm;
      if (!c.given("--image-rows")) s.image.rows = kQuickRoutineSizes.image.rows;
      if (!c.given("--image-cols")) s.image.cols = kQuickRoutineSizes.image.cols;
      if (!c.given("--k")) s.image.k = kQuickRoutineSizes.image.k;
      if (!c.given("--calls")) o.calls = 2;
    }
    if (s.image.k % 2 == 0) throw UsageError("--k " + std::to_string(s.image.k) + " is even: the filter needs a centre tap");
    const auto too_large = [](std::int64_t rows, std::int64_t cols, const std::string& what) {
      if (rows > matrix::kMaxElements / cols)
        throw UsageError(what + " " + std::to_string(rows) + "x" + std::to_string(cols) + " has more than " +
                         std::to_string(matrix::kMaxElements) + " elements (2^31 - 2^25: the kernels index with 32-bit ints)");
    };
    too_large(1, s.vector, "--vector");
    too_large(s.gemv_m, s.gemv_n, "--gemv-rows x --gemv-cols");
    too_large(s.gemm, s.gemm, "--gemm");
    too_large(s.image.rows, s.image.cols, "--image-rows x --image-cols");
  });
}

}  // namespace gpgpu::blas
