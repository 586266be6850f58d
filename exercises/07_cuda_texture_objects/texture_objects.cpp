// Exercise 07 skeleton: fill in the functions marked TODO(exercise). The check fails until they
// are right.
#include "texture_objects.hpp"

#include "gpgpu/cuda/check.hpp"
#include "gpgpu/errors.hpp"

namespace ex07 {

cudaTextureObject_t create_linear_texture(const float* data, std::size_t count) {
  (void)data;
  (void)count;
  // TODO(exercise):
  //  1. cudaGetDevice, then cudaDeviceGetAttribute(..., cudaDevAttrTextureAlignment, device) and
  //     cudaDeviceGetTexture1DLinearMaxWidth(&max, &format, device) for the float format
  //     cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat); throw gpgpu::UsageError
  //     when the address or the count breaks a limit.
  //  2. A cudaResourceDesc (zero-initialised) of type cudaResourceTypeLinear over data, with that
  //     format and count * sizeof(float) bytes; a cudaTextureDesc (zero-initialised) with
  //     readMode = cudaReadModeElementType; then cudaCreateTextureObject.
  return 0;
}

void destroy_texture(cudaTextureObject_t tex) {
  (void)tex;
  // TODO(exercise): cudaDestroyTextureObject, unless tex is 0.
}

}  // namespace ex07
