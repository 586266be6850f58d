// Exercise 07, a shortcut the check must reject: the worked answer with both limits written as the
// constants an H100 or an H200 reports (512-byte texture alignment, 2^30 floats for the widest 1D
// linear texture) instead of asked of the runtime. On those GPUs it passes every test that compares
// with the device; it fails where the check has the runtime report another device's limits.
#include "texture_objects.hpp"

#include <cstdint>
#include <string>

#include "gpgpu/cuda/check.hpp"
#include "gpgpu/errors.hpp"

namespace ex07 {

cudaTextureObject_t create_linear_texture(const float* data, std::size_t count) {
  constexpr std::uintptr_t kAlignment = 512;        // hard-coded: this GPU's value, not asked
  constexpr std::size_t kMaxWidth = std::size_t{1} << 30;  // likewise
  if (reinterpret_cast<std::uintptr_t>(data) % kAlignment != 0)
    throw gpgpu::UsageError("texture base address not aligned to " + std::to_string(kAlignment) + " bytes");
  if (count > kMaxWidth)
    throw gpgpu::UsageError(std::to_string(count) + " floats exceed the 1D linear texture limit of " +
                            std::to_string(kMaxWidth));
  const cudaChannelFormatDesc format = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
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
