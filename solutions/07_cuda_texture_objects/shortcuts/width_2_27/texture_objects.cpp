// Exercise 07, a shortcut the check must reject: the worked answer with the widest 1D linear
// texture hard-coded to 2^27 floats instead of the device's (2^30 floats on an H200). It rejects
// 2^40; it also rejects textures the device allows.
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
  const std::size_t max_width = std::size_t{1} << 27;  // hard-coded: not the device's
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

void destroy_texture(cudaTextureObject_t tex) {
  if (tex != 0) GPGPU_CUDA_CHECK(cudaDestroyTextureObject(tex));
}

}  // namespace ex07
