#include "gpgpu/matrix/options.hpp"

#include <memory>

#include <CLI/CLI.hpp>

#include "gpgpu/errors.hpp"

namespace gpgpu::matrix {

void add_options(Cli& cli, Options& o, Shape default_shape, QuickSizes quick) {
  o.shape = default_shape;
  // Parsed into these, then checked together after parsing.
  auto n = std::make_shared<long long>(0);
  auto type = std::make_shared<std::string>("float");
  CLI::Option_group& g = cli.group("Matrix problem");
  g.add_option("--n", *n, "square matrices of N x N elements")->check(integer_in_range(1));
  g.add_option("--rows", o.shape.rows, "rows of the input matrix")->check(integer_in_range(1))->capture_default_str();
  g.add_option("--cols", o.shape.cols, "columns of the input matrix")->check(integer_in_range(1))->capture_default_str();
  g.add_option("--type", *type, "element type: float, double or int")
      ->check(CLI::IsMember({"float", "double", "int"}))
      ->capture_default_str();
  g.add_option("--calls", o.calls, "kernel calls per timed run")->check(integer_in_range(1, 100000))->capture_default_str();
  cli.on_parsed([&o, n, type, quick](const Cli& c) {
    o.type = parse_type(*type);
    if (c.given("--n")) {
      if (c.given("--rows") || c.given("--cols")) throw UsageError("--n gives a square size: leave out --rows and --cols");
      o.shape = {*n, *n};
    } else if (c.options().quick) {
      if (!c.given("--rows")) o.shape.rows = quick.shape.rows;
      if (!c.given("--cols")) o.shape.cols = quick.shape.cols;
    }
    if (c.options().quick && !c.given("--calls")) o.calls = quick.calls;
    if (o.shape.rows > kMaxElements / o.shape.cols)
      throw UsageError("matrix " + o.shape.str() + " has more than " + std::to_string(kMaxElements) +
                       " elements (2^31 - 2^25: the kernels index with 32-bit ints)");
  });
}

}  // namespace gpgpu::matrix
