/// @file routines.hpp
/// @brief Paper 001's benchmark (Igual, Mayo, Quintana-Ortí, sec. 3): SAXPY, SSCAL, SGEMV (and its
/// transpose), SGEMM and the 2D convolution, in single precision, as one Case per routine: the
/// operands, the FP64 reference with the error bound that judges a result, the work table and the
/// read:write mix of the bandwidth limit.
///
/// What each routine computes (row-major matrices; one call):
///   saxpy    y <- α x + y          x, y of n; in place in y
///   sscal    x <- α x              x of n; in place in x
///   sgemv    y <- A x              A of m x n, x of n, y of m
///   sgemv_t  y <- Aᵀ x             A of m x n, x of m, y of n (the same A read across its columns)
///   sgemm    C <- A B              A m x k, B k x n, C m x n (problems/blas/include/gpgpu/blas/gemm.hpp)
///   conv2d   out <- in (*) f       image m x n, filter k x k, zero padding (problems/conv)
///
/// Work table (s = 4 bytes; FLOPs count a multiply-add as two; bytes are the minimum traffic:
/// every operand read once, every result written once):
///   routine   FLOPs      bytes                 reads:writes  intensity (FLOP/B)
///   saxpy     2n         3 n s                 2:1           1/6
///   sscal     n          2 n s                 1:1           1/8
///   sgemv     2mn        (mn + m + n) s        ~n:1          ~1/2
///   sgemv_t   2mn        (mn + m + n) s        ~m:1          ~1/2
///   sgemm     2mnk       (mk + kn + mn) s      2:1           ~n/6 for square n
///   conv2d    2k²mn      (2mn + k²) s          1:1           ~k²/4
/// The bandwidth limit that judges a routine is a stream kernel with the same read:write mix and
/// the same bytes (stream_mix): the limit kernels stream at most 16 arrays in and need one out, so
/// SGEMV's read-only matrix is matched by the most read-heavy mix there is, 16:1.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpgpu/backend.hpp"
#include "gpgpu/conv/conv2d.hpp"
#include "gpgpu/dump.hpp"
#include "gpgpu/result.hpp"
#include "gpgpu/verify.hpp"
#include "gpgpu/work.hpp"

namespace gpgpu::blas {

enum class Routine { saxpy, sscal, sgemv, sgemv_t, sgemm, conv2d };
inline constexpr Routine kRoutines[] = {Routine::saxpy, Routine::sscal, Routine::sgemv,
                                        Routine::sgemv_t, Routine::sgemm, Routine::conv2d};

/// "saxpy", "sscal", "sgemv", "sgemv_t", "sgemm", "conv2d".
std::string_view routine_name(Routine r);
/// The routine of that name, or nullopt.
std::optional<Routine> parse_routine(std::string_view name);

/// The sizes of a run, one per routine.
struct RoutineSizes {
  std::int64_t vector = std::int64_t{1} << 26;  ///< n of saxpy and sscal
  std::int64_t gemv_m = 16384, gemv_n = 16384;  ///< A of sgemv and sgemv_t
  std::int64_t gemm = 4096;                     ///< square n of sgemm
  conv::Shape image{8192, 8192, 3};             ///< image and filter of conv2d
  bool separable = false;                       ///< conv2d's filter rank one (conv::make_separable_filter)
};

/// One routine's operands. The meaning of m, n, k and of the arrays is the table above; arrays a
/// routine does not use are empty.
struct Case {
  Routine routine = Routine::saxpy;
  std::int64_t m = 1, n = 1, k = 0;
  float alpha = 0;         ///< saxpy, sscal
  std::vector<float> a;    ///< A (sgemv, sgemm) or the image (conv2d)
  std::vector<float> b;    ///< B (sgemm) or the filter (conv2d)
  std::vector<float> x;    ///< x (saxpy, sscal, sgemv)
  std::vector<float> y;    ///< y (saxpy)
  bool separable = false;  ///< conv2d: b = fl(u vᵀ), the factors in `factors`
  std::vector<float> factors;  ///< conv2d with a separable filter: u (k values, down) then v (k, across)
  /// Elements of the result: y, x, y, y, C or the output image.
  [[nodiscard]] std::int64_t output_size() const;
  /// The result's shape as rows x cols (1 x n for a vector), for tables and .npy files.
  [[nodiscard]] std::vector<std::size_t> output_shape() const;
  /// "n = 67108864", "A 16384x16384", "4096x4096x4096", "8192x8192, k = 3" (", separable" added).
  [[nodiscard]] std::string size_str() const;
  [[nodiscard]] conv::Shape image_shape() const { return {m, n, static_cast<int>(k)}; }
};

/// Random operands of both signs (uniform in [-100, 100) for arrays, conv::make_filter's filter or,
/// with sizes.separable, conv::make_separable_filter's),
/// from a fixed seed. α is 0.999 for sscal: repeated in-place calls of the timed runs shrink x by
/// 0.1% each, so thousands of calls stay far from subnormal numbers (which would slow a CPU down);
/// α = -1.7 for saxpy.
Case make_case(Routine routine, const RoutineSizes& sizes, unsigned seed);
/// The same case without its arrays: sizes and α only (what a variant checks before the run).
Case case_shape(Routine routine, const RoutineSizes& sizes);

/// Host bytes a case, its reference and one result take (for require_host_memory).
double host_bytes(Routine routine, const RoutineSizes& sizes);

/// The FP64 reference of one call, the magnitudes of the bound and its γ.
struct Expected {
  std::vector<double> value;
  std::vector<double> magnitude;
  double gamma = 0;
  std::string method;  ///< "FP64 loop", "OpenBLAS dgemm", ...
  std::string bound;   ///< "γ_2 (|α||x| + |y|)", ...
};
/// The bounds (u = 2^-24; the FP64 reference adds its own error, 2 γ(2^-53), where it rounds):
///   saxpy   γ_2 (|α||x| + |y|)     a product and a sum round, or one fused multiply-add
///   sscal   γ_1 |α||x|             one product
///   sgemv   γ_n |A||x|             an n-term dot product in any order (gemm.hpp); γ_m for sgemv_t
///   sgemm   γ_k |A||B|             blas::error_bound
///   conv2d  γ_{k²} |f| (*) |in|    a k²-term sum; with a separable filter γ_{max(k², 2k+2)}, which
///                                  also covers two passes of k-term sums with the exact factors
///                                  (γ_k + γ_k + γ_k², on |u_p v_q| <= |f(p, q)| / (1 - u): γ_{2k+2})
Expected reference(const Case& c);

/// One call's result against the reference (element by element, see bound.hpp).
Verification compare(std::span<const float> got, const Expected& expected);

/// The work of `calls` calls (the table above).
Work routine_work(const Case& c, int calls);
/// Elements a call reads (its inputs): the reuse column of Table 1 sets the outputs against them.
double input_elements(const Case& c);
/// Bytes the copies of paper 001's "GPU w. TX" move over the bus: every input array up, the result down.
double transfer_bytes(const Case& c);

/// --dump of a case's operands into `dump`: <routine>_alpha.npy, _x, _y, _a, _b, _factors (those it has).
void dump_case(DumpFolder& dump, const Case& c);

/// Adds to `row` the paper's "GPU w. TX" times of a routine with its copies, each the median of its
/// samples in seconds (empty: not measured): ms_<key>, gflops_<key> and bus_gbs_<key> for key
/// with_copies and with_pinned (one after the other: the bus's time is the time less `kernel_s`) and
/// with_overlapped (the calls run beside the copies: the whole time, a lower bound on the bus's rate;
/// subtracting the calls would credit the bus with time it did not take). `one`: one call's work.
void add_copy_rates(ResultRow& row, const Case& c, const Work& one, double kernel_s, const std::vector<double>& with_copies,
                    const std::vector<double>& with_pinned, const std::vector<double>& with_overlapped);

/// The mix of the bandwidth limit that judges the routine: the same reads:writes and the same
/// bytes (see above); `threads` for a CPU variant. SGEMM's (2:1 over its minimum bytes) is the
/// slanted roof of its roofline point; the FMA peak is the one that binds it.
StreamMix stream_mix(const Case& c, int threads);

/// The FP32 FMA peak of the CPU, measured now by `threads` threads each running independent
/// chains of fused multiply-adds on vectors that stay in registers, in 1e9 FLOP/s.
double cpu_fma_peak_gflops(int threads);

}  // namespace gpgpu::blas
