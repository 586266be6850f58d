// Exercise 07, a shortcut the check must reject: the objects are made as in the worked answer, but
// destroy_texture does nothing, so every object leaks (the driver's descriptor and the runtime's
// handle). No texture read tells: the check wraps cudaDestroyTextureObject at link time and wants a
// call on the object.
#include "texture_objects.hpp"

#include <cstdint>
#include <string>

#include "gpgpu/cuda/check.hpp"
#include "gpgpu/errors.hpp"

namespace ex07 {

cudaTextureObject_t create_linear_texture(const float* data, std::size_t count) {
  int device = 0, alignment = 0;
  GPGPU_CUDA_CHECK(cudaGetDevice(&device));
  GPGPU_CUDA_CHECK(cudaDeviceGetAttribute(&alignment, cudaDevAttrTextureAlignment, device));
  const cudaChannelFormatDesc format = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  std::size_t max_width = 0;
  GPGPU_CUDA_CHECK(cudaDeviceGetTexture1DLinearMaxWidth(&max_width, &format, device));
  if (reinterpret_cast<std::uintptr_t>(data) % static_cast<std::uintptr_t>(alignment) != 0)
    throw gpgpu::UsageError("texture base address not aligned to " + std::to_string(alignment) + " bytes");
  if (count > max_width)
    throw gpgpu::UsageError(std::to_string(count) + " floats exceed the 1D linear texture limit of " +
                            std::to_string(max_width));
  cudaResourceDesc resource{};
  resource.resType = cudaResourceTypeLinear;
  resource.res.linear.devPtr = const_cast<float*>(data);
  resource.res.linear.desc = format;
  resource.res.linear.sizeInBytes = count * sizeof(float);
  cudaTextureDesc sampling{};
  sampling.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex = 0;
  GPGPU_CUDA_CHECK(cudaCreateTextureObject(&tex, &resource, &sampling, nullptr));
  return tex;
}

void destroy_texture(cudaTextureObject_t /*tex*/) {}  // the object is left alive

}  // namespace ex07
