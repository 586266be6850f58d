/// @file paper000.hpp
/// @brief The published figures of paper 000 (docs/papers.md: weighted Jacobi for the bidomain
/// equations on CPUs, OpenGL and CUDA), the "then" beside every "now" of chapters 01-08.
///
/// All runs in the paper: 1000 weighted Jacobi iterations, single precision, height 1024, block size
/// 64; only the iterations are timed (no set-up, no transfers). Times are seconds for the whole 1000
/// iterations. The paper's units and counts, worked back from its own times (tests/test_paper000.cpp
/// recomputes every one):
/// - GB/s use 2^30-byte gigabytes and 80 B per node for all accesses (Tables 6, 7), 48 B per node
///   for device memory only (Table 8), except CUDA Shared, whose device figure counts 56 B: nine
///   coefficients, f, three staged rows of x and the new x.
/// - GFLOPS use 10^9 and a count per node that differs between implementations: 37 (CPU),
///   36 (OpenGL), 30 (CUDA Shared), 33 (CUDA Texture). Our kernels count 20 (work.hpp).
#pragma once
#include <array>
#include <limits>
#include <string_view>
#include <vector>


namespace gpgpu::jacobi::paper000 {

inline constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

/// The three test machines of the paper (CPU + GPU), with the peaks it quotes (Tables 4-8).
struct Machine {
  std::string_view key;  ///< the paper's short name: "OP 8600GT", "AT 8800GT", "PH 280"
  std::string_view cpu;
  std::string_view gpu;
  double cpu_peak_gflops, cpu_peak_gbs, gpu_peak_gflops, gpu_peak_gbs;
};

inline constexpr std::array kMachines{
    Machine{"OP 8600GT", "Dual-Core AMD Opteron", "GeForce 8600GT", 2.60, 21.2, 113.28, 22.4},
    Machine{"AT 8800GT", "AMD Athlon X2 4200+", "GeForce 8800GT", 2.60, 12.8, 336.00, 57.6},
    Machine{"PH 280", "AMD Phenom 9950 Quad-Core", "GeForce GTX 280", 12.50, 17.1, 933.12, 141.7},
};

/// One published result. Fields a table does not give are kNone.
struct Result {
  std::string_view table;           ///< e.g. "Table 3"
  std::string_view machine;         ///< Machine::key
  std::string_view implementation;  ///< "CPU", "OGL Luminance", "OGL RGBA", "CUDA Simple", "CUDA Aligned",
                                    ///< "CUDA 2D", "CUDA Shared", "CUDA Texture"
  int width;                        ///< grid width (height is always 1024)
  double seconds;                   ///< time of 1000 iterations
  double gflops;                    ///< GFLOPS as printed (10^9 FLOP/s at flops_per_node of the implementation)
  double gbs_all;                   ///< GB/s, all accesses (Tables 6, 7; 2^30 units)
  double gbs_device;                ///< GB/s, device memory only (Table 8; 2^30 units)
};

/// Tables 3-8 at 1024 × 1024. CPU times are not printed in the paper; they follow from Table 3's
/// GPU times and speedups (time × speedup: 47.98 s, 50.72 s, 39.84 s, consistent to 4 digits
/// across the four GPU rows of each machine).
inline constexpr std::array kResults1024{
    Result{"Tables 3,4,6", "OP 8600GT", "CPU", 1024, 47.98, 0.81, 1.63, kNone},
    Result{"Tables 3,4,6", "AT 8800GT", "CPU", 1024, 50.72, 0.76, 1.54, kNone},
    Result{"Tables 3,4,6", "PH 280", "CPU", 1024, 39.84, 0.97, 1.96, kNone},
    Result{"Tables 3,5,7,8", "OP 8600GT", "CUDA Shared", 1024, 3.563, 8.83, 21.93, 15.35},
    Result{"Tables 3,5,7,8", "AT 8800GT", "CUDA Shared", 1024, 1.259, 24.99, 62.07, 43.45},
    Result{"Tables 3,5,7,8", "PH 280", "CUDA Shared", 1024, 0.599, 52.52, 130.43, 91.30},
    Result{"Tables 3,5,7,8", "OP 8600GT", "CUDA Texture", 1024, 2.868, 12.06, 27.24, 16.34},
    Result{"Tables 3,5,7,8", "AT 8800GT", "CUDA Texture", 1024, 1.042, 33.22, 74.99, 44.99},
    Result{"Tables 3,5,7,8", "PH 280", "CUDA Texture", 1024, 0.506, 68.40, 154.44, 92.66},
    Result{"Tables 3,5,7,8", "OP 8600GT", "OGL Luminance", 1024, 3.737, 10.10, 20.90, 12.54},
    Result{"Tables 3,5,7,8", "AT 8800GT", "OGL Luminance", 1024, 1.277, 29.55, 61.16, 36.69},
    Result{"Tables 3,5,7,8", "OP 8600GT", "OGL RGBA", 1024, 2.902, 13.01, 26.92, 16.15},
    Result{"Tables 3,5,7,8", "AT 8800GT", "OGL RGBA", 1024, 1.274, 29.64, 61.34, 36.80},
};

/// The width sweep of Tables 1 and 2 (height 1024): widths 508, 511, 512, 513, 516.
inline constexpr std::array kSweepWidths{508, 511, 512, 513, 516};

struct SweepRow {
  std::string_view table;
  std::string_view machine;
  std::string_view implementation;
  std::array<double, 5> seconds;  ///< one per kSweepWidths entry
};

inline constexpr std::array kSweep{
    SweepRow{"Table 1", "OP 8600GT", "CUDA Simple", {8.658, 6.429, 7.371, 9.608, 9.694}},
    SweepRow{"Table 1", "OP 8600GT", "CUDA Aligned", {7.907, 6.450, 6.674, 7.586, 9.258}},
    SweepRow{"Table 1", "OP 8600GT", "CUDA 2D", {6.412, 6.427, 6.438, 6.626, 6.647}},
    SweepRow{"Table 1", "AT 8800GT", "CUDA Simple", {3.769, 2.875, 3.199, 4.047, 4.023}},
    SweepRow{"Table 1", "AT 8800GT", "CUDA Aligned", {3.496, 2.890, 2.797, 3.029, 3.773}},
    SweepRow{"Table 1", "AT 8800GT", "CUDA 2D", {2.931, 2.944, 2.948, 2.809, 2.817}},
    SweepRow{"Table 1", "PH 280", "CUDA Simple", {0.509, 0.479, 0.431, 0.468, 0.468}},
    SweepRow{"Table 1", "PH 280", "CUDA Aligned", {0.520, 0.495, 0.423, 0.442, 0.471}},
    SweepRow{"Table 1", "PH 280", "CUDA 2D", {0.420, 0.420, 0.421, 0.475, 0.477}},
    SweepRow{"Table 2", "OP 8600GT", "CUDA 2D", {6.413, 6.428, 6.438, 6.626, 6.648}},
    SweepRow{"Table 2", "OP 8600GT", "CUDA Shared", {1.782, 1.782, 1.782, 2.178, 2.178}},
    SweepRow{"Table 2", "AT 8800GT", "CUDA 2D", {2.932, 2.945, 2.949, 2.810, 2.818}},
    SweepRow{"Table 2", "AT 8800GT", "CUDA Shared", {0.630, 0.630, 0.630, 0.666, 0.666}},
    SweepRow{"Table 2", "PH 280", "CUDA 2D", {0.421, 0.421, 0.421, 0.476, 0.478}},
    SweepRow{"Table 2", "PH 280", "CUDA Shared", {0.301, 0.301, 0.301, 0.305, 0.305}},
};

/// The machine record for a key ("PH 280"); nullptr if unknown.
constexpr const Machine* machine(std::string_view key) {
  for (const Machine& m : kMachines)
    if (m.key == key) return &m;
  return nullptr;
}

/// The 1024² results of one implementation, in machine order.
std::vector<Result> results_1024(std::string_view implementation);

/// FLOPs per node the paper's GFLOPS count for `implementation` (see the file comment); NaN for
/// an implementation the paper gives no GFLOPS for.
double flops_per_node(std::string_view implementation);

/// Bytes per node the paper's device-memory GB/s count: 56 for CUDA Shared, 48 otherwise.
double device_bytes_per_node(std::string_view implementation);

/// Bytes per node of the paper's all-access GB/s (Tables 6, 7).
inline constexpr double kAllBytesPerNode = 80;

/// The paper's gigabyte.
inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

}  // namespace gpgpu::jacobi::paper000
