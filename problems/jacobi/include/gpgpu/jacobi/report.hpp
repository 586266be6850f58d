/// @file report.hpp
/// @brief What a Jacobi chapter prints and writes besides the result table: each variant against
/// its memory floor and against chapter 01's CPU, and the --dump files.
#pragma once
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpgpu/dump.hpp"
#include "gpgpu/jacobi/bidomain.hpp"
#include "gpgpu/jacobi/solver.hpp"
#include "gpgpu/result.hpp"

namespace gpgpu::jacobi {

/// Prints each row's time per iteration against its floor (minimum bytes at its limit) and against
/// chapter 01's CPU on the same system, with the paper's speed-up beside it; returns the same as JSON.
nlohmann::json print_floor_and_speedups(std::ostream& out, const std::vector<ResultRow>& rows, const CpuBaseline& cpu);

/// --dump: the system (diagonals.npy, rhs.npy, vm.npy), the reference (reference.npy, unless
/// empty) and every variant's solution (solution_<variant>.npy) into `dump`.
void write_dump(DumpFolder& dump, const LinearSystem& sys, const std::vector<double>& reference,
                const std::vector<std::pair<std::string, std::vector<float>>>& solutions);

}  // namespace gpgpu::jacobi
