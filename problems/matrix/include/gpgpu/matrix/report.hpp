/// @file report.hpp
/// @brief The two comparisons paper 003 is about, beside the result table: what each API costs
/// before its first kernel runs (sec. 6.6, Fig. 21), and how much longer a port takes than its
/// original on the same device (the "CUDA vs OpenCL" rows of Tabs. 8 and 10).
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpgpu/experiment.hpp"
#include "gpgpu/matrix/work.hpp"

namespace gpgpu::matrix {

/// Prints the start-up steps of every open backend that reports them (its session's JSON has a
/// "startup" object: CUDA's driver initialisation and context, OpenCL's discovery, context, queue
/// and program builds) beside the paper's 1.3 s; returns them as {"cuda": {...}, "opencl": {...}}.
nlohmann::json print_startup(std::ostream& out, Experiment& experiment);

/// One port and its original, measured at the same size on the same run.
struct PortRatio {
  std::int64_t n = 0;         ///< rows of the operands (the sweep's n)
  std::string variant;        ///< the port ("cl_add_rowmajor")
  std::string original;       ///< what it ports ("cuda_add_rowmajor")
  double kernel_ratio = 0;    ///< port's kernel time / original's
  double copies_ratio = 0;    ///< the same with the host-device copies in both times
  double paper_ratio = 0;     ///< the paper's OpenCL time / CUDA time at this n, NaN where it has none
  std::string paper_table;    ///< "Tab. 8", or ""
};
void to_json(nlohmann::json& j, const PortRatio& r);

/// The paper's OpenCL / CUDA time for `op` at n x n, from the rows named `port_paper_name` and
/// `original_paper_name` of the same table (Tab. 8 for add, Tab. 10 for transpose); NaN and no
/// table when the paper has no such pair or no such n.
double paper_port_ratio(Op op, const std::string& port_paper_name, const std::string& original_paper_name,
                        std::int64_t n, std::string* table = nullptr);

/// Prints the ratios (nothing when there are none): per n, port, original, kernel-only and
/// with-copies ratio, the paper's.
void print_port_ratios(std::ostream& out, const std::vector<PortRatio>& ratios);

}  // namespace gpgpu::matrix
