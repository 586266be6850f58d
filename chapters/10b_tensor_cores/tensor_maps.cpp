// cuTensorMapEncodeTiled through the runtime's driver entry point (tensor_maps.hpp). CUDA driver
// API, "Tensor Map Object Management": cuTensorMapEncodeTiled; CUDA runtime API, "Driver Entry
// Point Access": cudaGetDriverEntryPointByVersion (the version pins the function's ABI: 12.0, the
// first with the function).
#include "tensor_maps.hpp"

#include <cstdint>
#include <string>

#include <cuda_runtime_api.h>

#include "gpgpu/cuda/check.hpp"
#include "gpgpu/errors.hpp"

namespace ch10b {
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
      throw gpgpu::ApiError(gpgpu::describe_failed_call("cudaGetDriverEntryPointByVersion(\"cuTensorMapEncodeTiled\")", __FILE__,
                                                        __LINE__, "query result " + std::to_string(static_cast<int>(found))));
    return reinterpret_cast<EncodeTiled>(p);
  }();
  return fn;
}

}  // namespace

//! [encode_tensor_map]
CUtensorMap encode_tensor_map(const void* base, CUtensorMapDataType type, const gpgpu::blas::cuda::tc::TmaMapShape& shape) {
  CUtensorMap map{};
  const cuuint64_t dims[2] = {shape.dims[0], shape.dims[1]};
  const cuuint64_t strides[1] = {shape.row_stride};  // the rank - 1 outer strides, in bytes
  const cuuint32_t box[2] = {shape.box[0], shape.box[1]};
  const cuuint32_t element_strides[2] = {1, 1};  // every element of the box
  const CUresult status = encode_tiled()(
      &map, type, 2, const_cast<void*>(base), dims, strides, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      static_cast<CUtensorMapSwizzle>(gpgpu::blas::cuda::tc::tensor_map_swizzle(shape.swizzle)), CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);  // NONE: zeros outside the tensor (NAN_REQUEST_ZERO_FMA would give NaN)
  if (status != CUDA_SUCCESS)
    throw gpgpu::ApiError(gpgpu::describe_failed_call("cuTensorMapEncodeTiled", __FILE__, __LINE__,
                                                      "CUresult " + std::to_string(static_cast<int>(status))));
  return map;
}
//! [encode_tensor_map]

}  // namespace ch10b
