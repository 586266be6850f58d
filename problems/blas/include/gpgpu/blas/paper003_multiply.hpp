/// @file paper003_multiply.hpp
/// @brief Paper 003's matrix-multiply times (sec. 6.3, Tabs. 4-7): n x n for n = 16 ... 2048 (4096
/// for double), milliseconds, CPU, the naive kernel (Obr. 8, 9) and the 16 x 16 shared-memory tile
/// (Obr. 10) in CUDA and OpenCL. Tabs. 4 and 7 print the same GeForce 8800GT measurements.
#pragma once
#include <array>

#include "gpgpu/matrix/paper003.hpp"

namespace gpgpu::blas::paper003 {

using matrix::paper003::kNone;
using matrix::paper003::kSizes;
using matrix::paper003::size_index;
using matrix::paper003::TimeRow;

inline constexpr std::array kMultiply{
    // Tab. 4 (= Tab. 7): float, GeForce 8800GT.
    TimeRow{"Tab. 4", "GeForce 8800GT", "multiply", "float", "CPU",
            {0.0499, 0.3839, 3.0537, 24.679, 264.780, 2587.89, 25939.86, 211606.23, kNone}},
    TimeRow{"Tab. 4", "GeForce 8800GT", "multiply", "float", "CUDA",
            {0.0770, 0.0948, 0.2968, 2.6115, 29.2306, 170.6084, 1026.3284, 7574.0697, kNone}},
    TimeRow{"Tab. 4", "GeForce 8800GT", "multiply", "float", "OpenCL",
            {0.8844, 0.9196, 1.1575, 3.6088, 31.0733, 162.2334, 896.2493, 6474.3230, kNone}},
    TimeRow{"Tab. 4", "GeForce 8800GT", "multiply", "float", "OPT CUDA",
            {0.0607, 0.0668, 0.0967, 0.2394, 0.9592, 4.7490, 30.0040, 215.1323, kNone}},
    TimeRow{"Tab. 4", "GeForce 8800GT", "multiply", "float", "OPT OpenCL",
            {0.8172, 0.8934, 0.9502, 1.2194, 2.6781, 9.6443, 45.8106, 292.6157, kNone}},
    // Tab. 5: double, Tesla C1060.
    TimeRow{"Tab. 5", "Tesla C1060", "multiply", "double", "CPU",
            {0.067, 0.338, 2.673, 21.138, 175.54, 1508.9, 16977.6, 146210.6, 648301.8}},
    TimeRow{"Tab. 5", "Tesla C1060", "multiply", "double", "CUDA",
            {0.081, 0.100, 0.155, 0.6156, 4.8505, 26.8452, 158.293, 1092.931, 8789.222}},
    TimeRow{"Tab. 5", "Tesla C1060", "multiply", "double", "OpenCL",
            {0.737, 0.774, 1.070, 2.1052, 8.2336, 34.4164, 183.133, 1204.431, 8732.064}},
    TimeRow{"Tab. 5", "Tesla C1060", "multiply", "double", "OPT CUDA",
            {0.078, 0.088, 0.142, 0.3874, 1.5539, 7.4804, 45.3956, 317.7468, 2374.831}},
    TimeRow{"Tab. 5", "Tesla C1060", "multiply", "double", "OPT OpenCL",
            {0.800, 0.936, 1.034, 1.9754, 4.6786, 17.9850, 76.3719, 441.0784, 2904.615}},
    // Tab. 6: float, GeForce GT 240.
    TimeRow{"Tab. 6", "GeForce GT 240", "multiply", "float", "CPU",
            {0.0803, 0.3767, 2.6679, 21.386, 166.83, 1487.7, 13896.1, 118729.2, kNone}},
    TimeRow{"Tab. 6", "GeForce GT 240", "multiply", "float", "CUDA",
            {0.1869, 0.1984, 0.2350, 0.6072, 3.3091, 19.766, 144.76, 1166.154, kNone}},
    TimeRow{"Tab. 6", "GeForce GT 240", "multiply", "float", "OpenCL",
            {4.5670, 4.5546, 4.5738, 4.9284, 8.2488, 26.955, 164.83, 1225.591, kNone}},
    TimeRow{"Tab. 6", "GeForce GT 240", "multiply", "float", "OPT CUDA",
            {0.2627, 0.2249, 0.2757, 0.3608, 0.8162, 4.7109, 30.194, 226.5140, kNone}},
    TimeRow{"Tab. 6", "GeForce GT 240", "multiply", "float", "OPT OpenCL",
            {4.5984, 4.4079, 4.4962, 4.9961, 6.1184, 13.145, 50.821, 332.7690, kNone}},
};

/// The row of `table` for `implementation` ("OPT CUDA"), or nullptr.
constexpr const TimeRow* multiply_row(std::string_view table, std::string_view implementation) {
  for (const TimeRow& r : kMultiply)
    if (r.table == table && r.implementation == implementation) return &r;
  return nullptr;
}

}  // namespace gpgpu::blas::paper003
