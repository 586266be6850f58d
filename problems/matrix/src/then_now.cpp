#include "gpgpu/matrix/then_now.hpp"

#include <algorithm>
#include <cmath>

#include "gpgpu/matrix/paper003.hpp"

namespace gpgpu::matrix {

ThenNowTable then_now(const std::vector<Op>& ops, const Shape& shape, ElementType type, const std::vector<ResultRow>& rows) {
  ThenNowTable t;
  t.title = "Then (paper 003) and now (this run), " + shape.str() + ", milliseconds per operation";
  t.columns = {{"ms kernel", "the kernel alone, median of the timed calls (the paper gives no such figure)", "%.4f"},
               {"ms w/ copies", "upload of the operands + one call + download of the result, host clock; the paper's "
                                "times (its 4096² int add reaches only 2.5 GB/s) include the copies too",
                "%.4f"},
               {"GB/s kernel", "paper 003's formula (1), (Br + Bw) / t / 1e9, with the kernel time", "%.1f"},
               {"GB/s w/ copies", "the same with the time that includes the copies", "%.2f"},
               {"% limit", "kernel GB/s over the limit measured in this run for the same read:write mix", "%.1f%%"}};
  const int index = shape.rows == shape.cols ? paper003::size_index(static_cast<int>(shape.rows)) : -1;
  const double nan = std::nan("");
  for (const paper003::TimeRow& p : paper003::kAddTranspose) {
    const bool wanted = std::any_of(ops.begin(), ops.end(), [&](Op op) { return op_name(op) == p.operation; });
    if (!wanted || index < 0) continue;
    const double ms = p.ms[static_cast<std::size_t>(index)];
    const int arrays = p.operation == "add" ? 3 : 2;
    const double bytes = arrays * 4.0 * static_cast<double>(shape.elements());  // int and float: 4 B
    t.rows.push_back({"then", std::string(p.gpu), std::string(p.implementation) + " (" + std::string(p.element_type) + ")",
                      "paper 003, " + std::string(p.table), {nan, ms, nan, bytes / (ms * 1e-3) / 1e9, nan}});
  }
  if (index < 0)
    t.notes.push_back("the paper measured square n x n for n = 16 ... 4096 only: run with --n 16 ... --n 4096 to see its rows");
  if (type != ElementType::i32)
    t.notes.push_back("the paper's add rows are int (4 B), its transpose rows float; this run is " +
                      std::string(type_name(type)));
  for (const ResultRow& r : rows) {
    const double kernel_ms = r.ms_per_step();
    const double copies_ms = r.extra.contains("ms_with_copies") && r.extra["ms_with_copies"].is_number()
                                 ? r.extra["ms_with_copies"].get<double>()
                                 : nan;
    const double bytes = r.work.bytes_min / r.work.steps;
    t.rows.push_back({"now", r.device, r.variant, "this run",
                      {kernel_ms, copies_ms, bytes / (kernel_ms * 1e-3) / 1e9, bytes / (copies_ms * 1e-3) / 1e9,
                       100.0 * r.limit_share()}});
  }
  return t;
}

}  // namespace gpgpu::matrix
