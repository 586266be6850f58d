/// @file tensor_maps.hpp
/// @brief The TMA tensor maps of the tensor-core chapters (10b from its step 4, 10c), encoded on the host by the driver's
/// cuTensorMapEncodeTiled from the parameters of tc::kmajor_sw128_map (kernels/blas/cuda/tma_map.hpp,
/// tested on the CPU). The driver function is reached through the runtime
/// (cudaGetDriverEntryPointByVersion), so nothing links libcuda itself.
#pragma once
#include <cuda.h>

#include "blas/cuda/tma_map.hpp"

namespace gpgpu::blas::cuda {

/// The map of a device matrix at `base` (16-byte aligned) with the shape `shape`, of `type`
/// (CU_TENSOR_MAP_DATA_TYPE_FLOAT32, _BFLOAT16, or _UINT8 for E4M3 bytes), zeros for the elements
/// outside it. Throws gpgpu::ApiError naming the failed call and its status.
CUtensorMap encode_tensor_map(const void* base, CUtensorMapDataType type, const tc::TmaMapShape& shape);

}  // namespace gpgpu::blas::cuda
