/// @file then_now.hpp
/// @brief Paper 003's times beside this run's, at the same n and in the paper's unit (milliseconds
/// for the whole operation, host-device copies included), with the effective bandwidth of its
/// formula (1) computed from each.
#pragma once
#include <vector>

#include "gpgpu/matrix/matrix.hpp"
#include "gpgpu/matrix/work.hpp"
#include "gpgpu/result.hpp"
#include "gpgpu/then_now.hpp"

namespace gpgpu::matrix {

/// The paper's rows of the operations in `ops` at n = shape.rows (when the run is square and n is
/// one of the paper's sizes; otherwise none), then one row per result of this run. Our rows carry
/// the kernel-only time and the time with copies (extra "ms_with_copies").
ThenNowTable then_now(const std::vector<Op>& ops, const Shape& shape, ElementType type, const std::vector<ResultRow>& rows);

}  // namespace gpgpu::matrix
