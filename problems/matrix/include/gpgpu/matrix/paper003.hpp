/// @file paper003.hpp
/// @brief Figures of the CUDA-versus-OpenCL comparison paper (paper 003 of docs/papers.md, in Slovak): matrix
/// multiply, add and transpose on a GeForce 8800GT, a GeForce GT 240 and a Tesla C1060 (2010).
///
/// Only the figures the chapters use. The tables print times for n × n matrices; the ratios
/// below are the paper's own "CUDA vs OpenCL" rows (OpenCL's time over CUDA's) at the largest n
/// each table gives, where the start-up cost no longer dominates.
#pragma once
#include <array>
#include <cmath>
#include <limits>
#include <string_view>

namespace gpgpu::matrix::paper003 {

/// Section 6.6, Fig. 21: the time outside the kernels, i.e. all initialisation, averaged about
/// 1.3 s for OpenCL, while CUDA's was negligible (growing only with the matrices' size).
inline constexpr double kOpenClStartupSeconds = 1.3;

/// One "CUDA vs OpenCL" entry: how many times longer OpenCL took than CUDA.
struct OpenClOverCuda {
  std::string_view table;      ///< "Tab. 6"
  std::string_view gpu;        ///< "GeForce GT 240"
  std::string_view operation;  ///< "matrix multiply (float)"
  std::string_view version;    ///< "naive" or "shared memory"
  int n;                       ///< matrix size n × n
  double ratio;                ///< OpenCL time / CUDA time, as printed
};

inline constexpr std::array kOpenClOverCuda{
    OpenClOverCuda{"Tab. 6", "GeForce GT 240", "matrix multiply (float)", "naive", 2048, 1.1},
    OpenClOverCuda{"Tab. 6", "GeForce GT 240", "matrix multiply (float)", "shared memory", 2048, 1.5},
    OpenClOverCuda{"Tab. 7", "GeForce 8800GT", "matrix multiply (float)", "naive", 2048, 0.9},
    OpenClOverCuda{"Tab. 7", "GeForce 8800GT", "matrix multiply (float)", "shared memory", 2048, 1.4},
    OpenClOverCuda{"Tab. 8", "Tesla C1060", "matrix add (int)", "naive", 4096, 3.7},
    OpenClOverCuda{"Tab. 8", "Tesla C1060", "matrix add (int)", "shared memory", 4096, 3.7},
    OpenClOverCuda{"Tab. 10", "GeForce GT 240", "transpose (float)", "naive", 4096, 2.2},
};

/// The matrix sizes of every table: n x n for n = 16, 32, ..., 4096.
inline constexpr std::array<int, 9> kSizes{16, 32, 64, 128, 256, 512, 1024, 2048, 4096};

inline constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

/// One row of a time table: milliseconds for each n of kSizes (kNone where the table has none).
/// The paper times the whole operation as its program ran it; its 4096² int add on the Tesla C1060
/// (81.9 ms for 3 x 64 MiB, 2.5 GB/s against the card's 102 GB/s) shows that the host-device copies
/// are included.
struct TimeRow {
  std::string_view table;           ///< "Tab. 8"
  std::string_view gpu;             ///< the card
  std::string_view operation;       ///< "add", "transpose", "multiply"
  std::string_view element_type;    ///< "int", "float", "double"
  std::string_view implementation;  ///< "CPU", "CUDA", "OpenCL", "OPT CUDA", "OPT OpenCL"
  std::array<double, 9> ms;
};

inline constexpr std::array kAddTranspose{
    // Tab. 8: C = A + B, int, Tesla C1060 (OPT: the shared-memory kernel of Obr. 13).
    TimeRow{"Tab. 8", "Tesla C1060", "add", "int", "CPU",
            {0.0070, 0.0149, 0.0524, 0.2199, 0.8570, 3.4486, 14.099, 55.128, 221.402}},
    TimeRow{"Tab. 8", "Tesla C1060", "add", "int", "CUDA",
            {0.0763, 0.0739, 0.0890, 0.1785, 0.6296, 1.7950, 5.5242, 20.803, 81.934}},
    TimeRow{"Tab. 8", "Tesla C1060", "add", "int", "OpenCL",
            {1.4712, 0.7977, 0.9079, 1.2546, 2.4957, 7.1481, 21.256, 78.101, 306.234}},
    TimeRow{"Tab. 8", "Tesla C1060", "add", "int", "OPT CUDA",
            {0.0695, 0.0719, 0.0890, 0.1759, 0.5172, 1.8075, 5.6285, 21.193, 83.445}},
    TimeRow{"Tab. 8", "Tesla C1060", "add", "int", "OPT OpenCL",
            {0.7903, 0.8315, 0.8609, 1.3330, 2.6790, 7.1127, 23.336, 78.456, 306.933}},
    // Tab. 9: Aᵀ, float, GeForce 8800GT (OPT: the shared-memory kernel of Obr. 20).
    TimeRow{"Tab. 9", "GeForce 8800GT", "transpose", "float", "CUDA",
            {0.259, 0.232, 0.252, 0.360, 0.7126, 2.3462, 9.2908, 48.711, 297.01}},
    TimeRow{"Tab. 9", "GeForce 8800GT", "transpose", "float", "OPT CUDA",
            {0.212, 0.231, 0.251, 0.348, 0.5538, 1.8072, 6.2208, 24.379, 93.222}},
    // Tab. 10: Aᵀ, float, GeForce GT 240 (the naive kernels; the paper found no OpenCL tile).
    TimeRow{"Tab. 10", "GeForce GT 240", "transpose", "float", "CUDA",
            {0.1786, 0.1694, 0.2187, 0.2303, 0.6136, 1.3612, 4.1924, 18.845, 74.235}},
    TimeRow{"Tab. 10", "GeForce GT 240", "transpose", "float", "OpenCL",
            {3.5779, 3.9114, 4.2989, 4.5149, 5.2517, 6.6482, 11.637, 42.824, 162.98}},
};

/// The index of n in kSizes, or -1.
constexpr int size_index(int n) {
  for (std::size_t i = 0; i < kSizes.size(); ++i)
    if (kSizes[i] == n) return static_cast<int>(i);
  return -1;
}

}  // namespace gpgpu::matrix::paper003
