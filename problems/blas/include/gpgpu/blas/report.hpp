/// @file report.hpp
/// @brief The multiply chapter's comparisons beside the result table: paper 003's times at the same
/// n (Tabs. 4-6), and each port over its original (the "CUDA vs OpenCL" rows of Tabs. 6 and 7).
#pragma once
#include <vector>

#include "gpgpu/blas/chapter.hpp"
#include "gpgpu/matrix/report.hpp"
#include "gpgpu/result.hpp"
#include "gpgpu/then_now.hpp"

namespace gpgpu::blas {

/// The paper's rows for `type` at n x n x n (when the run is square and n one of its sizes), then
/// one row per result: ms kernel, ms with copies, GFLOP/s of each.
ThenNowTable then_now(const Dims& dims, ElementType type, const std::vector<ResultRow>& rows);

/// The paper's OpenCL time over its CUDA time at n for the pair of paper names (Tab. 4 for float,
/// Tab. 5 for double), NaN where it has none; `table` gets its name.
double paper_port_ratio(ElementType type, const std::string& port_paper_name, const std::string& original_paper_name,
                        std::int64_t n, std::string* table);

/// Every row of a port beside the row of its original (GemmVariant::ports), all of one size.
std::vector<matrix::PortRatio> port_ratios(const Dims& dims, ElementType type, const VariantsByName& variants,
                                           const std::vector<ResultRow>& rows);

/// GFLOP/s of `row` over the GFLOP/s of the library row of the same arithmetic that judges it (a
/// TF32 row by the TF32 library, any other by the strict FP32 or FP64 one): the same backend's, or
/// for OpenCL the CUDA one (the same GPU's vendor library). NaN when there is none.
double library_share(const ResultRow& row, const std::vector<ResultRow>& rows);

}  // namespace gpgpu::blas
