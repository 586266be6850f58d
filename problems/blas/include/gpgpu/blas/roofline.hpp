/// @file roofline.hpp
/// @brief The roofline of chapter 12 (Williams, Waterman, Patterson, CACM 2009): per backend two
/// ceilings measured in the run, the FP32 FMA peak P and the stream bandwidth B; a routine of
/// arithmetic intensity I (FLOP per byte of minimum traffic) can reach at most min(P, I B_mix),
/// where B_mix is the limit measured with the routine's own read:write mix. And paper 001's Table 1
/// rebuilt from the same rows: what each property predicts, what the GPU did against the CPU.
#pragma once
#include <cmath>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpgpu/backend.hpp"
#include "gpgpu/blas/peak.hpp"
#include "gpgpu/result.hpp"
#include "gpgpu/then_now.hpp"

namespace gpgpu::blas {

/// A backend's two ceilings, measured in the run.
struct Ceilings {
  std::string device;
  Peak peak{"", std::nan("")};  ///< the FMA kernel's (or the run that beat it: settle_peak)
  Limit bandwidth;              ///< stream 1:1 over the largest routine's bytes
  [[nodiscard]] double ridge() const { return peak.gflops / bandwidth.gbs; }  ///< FLOP/B where the roofs meet
};

/// The best GFLOP/s a row can reach: min(P, I B_mix) (NaN when its backend has no peak).
double attainable_gflops(const ResultRow& row, const Ceilings& c);

/// Prints the roofline table: each backend's ceilings and ridge, each row's intensity, GFLOP/s,
/// attainable GFLOP/s and share of it, and which roof binds.
void print_roofline(std::ostream& out, const std::map<Backend, Ceilings>& ceilings, const std::vector<ResultRow>& rows);
/// {"cuda": {"device", "peak_gflops", "bandwidth_gbs", "ridge", "points": [{variant, routine,
/// intensity, gflops, gbs, limit_gbs, attainable_gflops, ...}]}, ...} for the lecture report's plot.
nlohmann::json roofline_json(const std::map<Backend, Ceilings>& ceilings, const std::vector<ResultRow>& rows);

/// Paper 001's Table 1 rebuilt: per routine the paper's three ratings, the measured counts behind
/// them, the best GPU and CPU rates of the run, kernel only and with the copies; prints and returns it.
nlohmann::json print_table1(std::ostream& out, const std::vector<ResultRow>& rows);

/// The paper's machines (Tables 2 and 3: peak GFLOP/s, memory GB/s) beside each backend's ceilings.
ThenNowTable machines_then_now(const std::map<Backend, Ceilings>& ceilings);

}  // namespace gpgpu::blas
