/// @file tensor_map.hpp
/// @brief A two-dimensional TMA tensor map (CUtensorMap), encoded on the host by the driver's
/// cuTensorMapEncodeTiled (CUDA driver API, "Tensor Map Object Management"), which is reached through
/// the runtime's driver entry point (cudaGetDriverEntryPointByVersion, the ABI of 12.0, the first
/// with the function), so that nothing links libcuda itself. Chapter 10b's operand maps and chapter
/// 09's transpose tiles are encoded here.
#pragma once
#include <cstdint>

#include <cuda.h>

namespace gpgpu::cuda {

/// A row-major matrix of dims[1] rows of dims[0] elements of `type` at `base` (16-byte aligned), its
/// rows `row_stride` bytes apart (a multiple of 16), read and written in boxes of box[0] x box[1]
/// elements with `swizzle` in shared memory; elements outside the matrix are read as zeros (and a
/// store leaves them alone). Throws gpgpu::ApiError naming the failed call and its status.
CUtensorMap encode_tiled_2d(const void* base, CUtensorMapDataType type, const std::uint64_t (&dims)[2],
                            std::uint64_t row_stride, const std::uint32_t (&box)[2], CUtensorMapSwizzle swizzle);

/// The driver's cuTensorMapEncodeTiled itself, any rank, with its own signature, through the same
/// entry point: for code written against the driver API (a third party's header, which may ignore
/// the status it returns), so it throws gpgpu::ApiError on a failure and returns CUDA_SUCCESS otherwise.
CUresult checked_encode_tiled(CUtensorMap* map, CUtensorMapDataType type, cuuint32_t rank, void* base, const cuuint64_t* dims,
                              const cuuint64_t* strides, const cuuint32_t* box, const cuuint32_t* element_strides,
                              CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2,
                              CUtensorMapFloatOOBfill fill);

}  // namespace gpgpu::cuda
