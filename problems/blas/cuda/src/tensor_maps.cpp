// The operand maps of the TMA steps (tensor_maps.hpp), encoded by the CUDA layer's
// cuTensorMapEncodeTiled (gpgpu/cuda/tensor_map.hpp).
#include "gpgpu/blas/cuda/tensor_maps.hpp"

#include "gpgpu/cuda/tensor_map.hpp"

namespace gpgpu::blas::cuda {

//! [encode_tensor_map]
CUtensorMap encode_tensor_map(const void* base, CUtensorMapDataType type, const tc::TmaMapShape& shape) {
  return gpgpu::cuda::encode_tiled_2d(base, type, shape.dims, shape.row_stride, shape.box,
                                      static_cast<CUtensorMapSwizzle>(tc::tensor_map_swizzle(shape.swizzle)));
}
//! [encode_tensor_map]

}  // namespace gpgpu::blas::cuda
