// cuTensorMapEncodeTiled through the runtime's driver entry point (tensor_map.hpp).
#include "gpgpu/cuda/tensor_map.hpp"

#include <string>

#include <cuda_runtime_api.h>

#include "gpgpu/cuda/check.hpp"
#include "gpgpu/errors.hpp"

namespace gpgpu::cuda {
namespace {

using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*, const cuuint64_t*,
                                 const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                                 CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

EncodeTiled encode_tiled() {
  static const EncodeTiled fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult found{};
    GPGPU_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || p == nullptr)
      throw ApiError(describe_failed_call("cudaGetDriverEntryPointByVersion(\"cuTensorMapEncodeTiled\")", __FILE__, __LINE__,
                                          "query result " + std::to_string(static_cast<int>(found))));
    return reinterpret_cast<EncodeTiled>(p);
  }();
  return fn;
}

}  // namespace

//! [encode_tiled_2d]
CUtensorMap encode_tiled_2d(const void* base, CUtensorMapDataType type, const std::uint64_t (&dims)[2],
                            std::uint64_t row_stride, const std::uint32_t (&box)[2], CUtensorMapSwizzle swizzle) {
  CUtensorMap map{};
  const cuuint64_t global_dims[2] = {dims[0], dims[1]};
  const cuuint64_t strides[1] = {row_stride};  // the rank - 1 outer strides, in bytes
  const cuuint32_t box_dims[2] = {box[0], box[1]};
  const cuuint32_t element_strides[2] = {1, 1};  // every element of the box
  const CUresult status = encode_tiled()(&map, type, 2, const_cast<void*>(base), global_dims, strides, box_dims, element_strides,
                                         CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);  // NONE: zeros outside (NAN_REQUEST_ZERO_FMA: NaN)
  if (status != CUDA_SUCCESS)
    throw ApiError(describe_failed_call("cuTensorMapEncodeTiled", __FILE__, __LINE__,
                                        "CUresult " + std::to_string(static_cast<int>(status))));
  return map;
}
//! [encode_tiled_2d]

CUresult checked_encode_tiled(CUtensorMap* map, CUtensorMapDataType type, cuuint32_t rank, void* base, const cuuint64_t* dims,
                              const cuuint64_t* strides, const cuuint32_t* box, const cuuint32_t* element_strides,
                              CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2,
                              CUtensorMapFloatOOBfill fill) {
  const CUresult status = encode_tiled()(map, type, rank, base, dims, strides, box, element_strides, interleave, swizzle, l2, fill);
  if (status != CUDA_SUCCESS)
    throw ApiError(describe_failed_call("cuTensorMapEncodeTiled", __FILE__, __LINE__,
                                        "CUresult " + std::to_string(static_cast<int>(status)) + " for a map of rank " + std::to_string(rank)));
  return status;
}

}  // namespace gpgpu::cuda
