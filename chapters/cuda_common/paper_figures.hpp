// The paper's figures for the CUDA chapters: the "then" rows of the result tables and the width
// sweep of Tables 1-2, looked up by the paper's implementation names.
#pragma once
#include <optional>
#include <string_view>
#include <vector>

#include "gpgpu/report.hpp"

namespace cuda_chapter {

/// Then-rows for an implementation: Tables 3-8 at 1024² where the paper has them (CUDA Shared,
/// CUDA Texture); otherwise Table 1/2 at width 512, height 1024, scaled to 1024² (x2), with the
/// GB/s the paper's counts give (80 B and 48 B per node, 2^30-byte GB).
std::vector<gpgpu::ThenNowRow> then_rows(std::string_view implementation);

/// Seconds for 1000 iterations at `width` x 1024 on machine `machine` ("PH 280", ...) from Tables
/// 1-2, if the paper measured that combination.
std::optional<double> sweep_seconds(std::string_view implementation, std::string_view machine, int width);

/// GTX 280 speedup over the Phenom's single CPU thread at 1024² (Table 3), if published.
std::optional<double> paper_speedup(std::string_view implementation);

}  // namespace cuda_chapter
