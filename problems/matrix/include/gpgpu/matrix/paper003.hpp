/// @file paper003.hpp
/// @brief Figures of the CUDA-versus-OpenCL comparison paper (paper 003 of docs/papers.md, in Slovak): matrix
/// multiply, add and transpose on a GeForce 8800GT, a GeForce GT 240 and a Tesla C1060 (2010).
///
/// Only the figures the chapters use. The tables print times for n × n matrices; the ratios
/// below are the paper's own "CUDA vs OpenCL" rows (OpenCL's time over CUDA's) at the largest n
/// each table gives, where the start-up cost no longer dominates.
#pragma once
#include <array>
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

}  // namespace gpgpu::matrix::paper003
