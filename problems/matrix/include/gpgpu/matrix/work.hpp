/// @file work.hpp
/// @brief The one table of the work each matrix operation must do, from which every rate of the
/// matrix chapters is computed (in the spirit of BabelStream's table).
///
/// Paper 003's effective bandwidth, its formula (1), is (bytes read + bytes written) / time: the
/// minimum traffic below, every operand read once and the result written once.
///   add        C = A + B   2 reads, 1 write; 1 FLOP per element (none for int)
///   transpose  B = Aᵀ      1 read, 1 write
///   copy       B = A       1 read, 1 write (the peer every transpose is compared with)
#pragma once
#include <string_view>

#include "gpgpu/backend.hpp"
#include "gpgpu/matrix/matrix.hpp"
#include "gpgpu/work.hpp"

namespace gpgpu::matrix {

enum class Op { add, transpose, copy };

/// "add", "transpose", "copy".
std::string_view op_name(Op op);

/// The work of `calls` calls of `op` on an input of `shape` and `type`.
Work work(Op op, const Shape& shape, ElementType type, int calls);

/// The traffic pattern of `op`: the limit that judges it streams the same arrays.
StreamMix stream_mix(Op op, const Shape& shape, ElementType type, int threads = 0);

}  // namespace gpgpu::matrix
