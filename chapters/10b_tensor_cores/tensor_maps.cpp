// The operand maps of chapter 10b's TMA steps (tensor_maps.hpp), encoded by the CUDA layer's
// cuTensorMapEncodeTiled (gpgpu/cuda/tensor_map.hpp).
#include "tensor_maps.hpp"

#include "gpgpu/cuda/tensor_map.hpp"

namespace ch10b {

//! [encode_tensor_map]
CUtensorMap encode_tensor_map(const void* base, CUtensorMapDataType type, const gpgpu::blas::cuda::tc::TmaMapShape& shape) {
  return gpgpu::cuda::encode_tiled_2d(base, type, shape.dims, shape.row_stride, shape.box,
                                      static_cast<CUtensorMapSwizzle>(gpgpu::blas::cuda::tc::tensor_map_swizzle(shape.swizzle)));
}
//! [encode_tensor_map]

}  // namespace ch10b
