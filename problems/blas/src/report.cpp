#include "gpgpu/blas/report.hpp"

#include <cmath>
#include <string_view>

#include "gpgpu/blas/chapter.hpp"
#include "gpgpu/blas/paper003_multiply.hpp"

namespace gpgpu::blas {
namespace {

std::string_view table_of(ElementType type) { return type == ElementType::f64 ? "Tab. 5" : "Tab. 4"; }

int paper_index(const Dims& d) {
  return d.square() && d.n <= 4096 ? paper003::size_index(static_cast<int>(d.n)) : -1;
}

}  // namespace

ThenNowTable then_now(const Dims& dims, ElementType type, const std::vector<ResultRow>& rows) {
  ThenNowTable t;
  t.title = "Then (paper 003) and now (this run), C = A·B of " + dims.str() + ", milliseconds per product";
  t.columns = {{"ms kernel", "the kernel alone, median of the timed calls (the paper gives no such figure)", "%.4f"},
               {"ms w/ copies", "A and B up, one product, C down, host clock: the paper's kind of time", "%.4f"},
               {"GFLOP/s kernel", "2 m n k / kernel time / 1e9", "%.1f"},
               {"GFLOP/s w/ copies", "2 m n k / time with copies / 1e9", "%.2f"}};
  const double nan = std::nan(""), flops = 2.0 * dims.m * dims.n * dims.k;
  const int index = paper_index(dims);
  const std::string_view type_name = matrix::type_name(type);
  for (const paper003::TimeRow& p : paper003::kMultiply) {
    if (index < 0 || p.element_type != type_name) continue;
    const double ms = p.ms[static_cast<std::size_t>(index)];
    if (!std::isfinite(ms)) continue;
    t.rows.push_back({"then", std::string(p.gpu), std::string(p.implementation) + " (" + std::string(p.element_type) + ")",
                      "paper 003, " + std::string(p.table), {nan, ms, nan, flops / (ms * 1e-3) / 1e9}});
  }
  if (index < 0)
    t.notes.push_back("the paper measured square n x n for n = 16 ... 2048 (float) and 4096 (double) only");
  for (const ResultRow& r : rows) {
    const double kernel_ms = r.ms_per_step();
    const double copies_ms = r.extra.contains("ms_with_copies") ? r.extra["ms_with_copies"].get<double>() : nan;
    t.rows.push_back({"now", r.device, r.variant, "this run",
                      {kernel_ms, copies_ms, flops / (kernel_ms * 1e-3) / 1e9, flops / (copies_ms * 1e-3) / 1e9}});
  }
  return t;
}

double paper_port_ratio(ElementType type, const std::string& port_paper_name, const std::string& original_paper_name,
                        std::int64_t n, std::string* table) {
  const int index = n <= 4096 ? paper003::size_index(static_cast<int>(n)) : -1;
  const paper003::TimeRow* port = paper003::multiply_row(table_of(type), port_paper_name);
  const paper003::TimeRow* original = paper003::multiply_row(table_of(type), original_paper_name);
  if (index < 0 || port == nullptr || original == nullptr) return std::nan("");
  if (table != nullptr) *table = std::string(port->table);
  return port->ms[static_cast<std::size_t>(index)] / original->ms[static_cast<std::size_t>(index)];
}

std::vector<matrix::PortRatio> port_ratios(const Dims& dims, ElementType type, const VariantsByName& variants,
                                           const std::vector<ResultRow>& rows) {
  std::vector<matrix::PortRatio> ratios;
  for (const ResultRow& r : rows) {
    const std::string& original = variants.at(r.variant)->ports;
    if (original.empty()) continue;
    for (const ResultRow& o : rows) {
      if (o.variant != original) continue;
      matrix::PortRatio p;
      p.n = dims.n;
      p.variant = r.variant;
      p.original = o.variant;
      p.kernel_ratio = r.seconds() / o.seconds();
      p.copies_ratio = r.extra.at("ms_with_copies").get<double>() / o.extra.at("ms_with_copies").get<double>();
      p.paper_ratio = dims.square() ? paper_port_ratio(type, r.paper_name, o.paper_name, dims.n, &p.paper_table) : std::nan("");
      ratios.push_back(std::move(p));
    }
  }
  return ratios;
}

double library_share(const ResultRow& row, const std::vector<ResultRow>& rows) {
  const auto arithmetic = [](const ResultRow& r) { return r.extra.value("arithmetic", std::string()); };
  const auto same_library = [&](const ResultRow& r) { return r.extra.value("library", false) && arithmetic(r) == arithmetic(row); };
  for (const char* backend : {row.backend.c_str(), "cuda"}) {
    if (std::string_view(backend) == "cuda" && row.backend != "cuda" && row.backend != "opencl") break;
    for (const ResultRow& r : rows)
      if (same_library(r) && r.backend == backend) return row.rates().gflops / r.rates().gflops;
  }
  return std::nan("");
}

}  // namespace gpgpu::blas
