// Worked answer to exercise 07: a texture object is a description of memory (the resource) plus
// how to sample it (the texture description). For tex1Dfetch on linear memory only the element
// type and the size matter; the limits are checked first so a bad call fails with one line.
//
// The README's questions. Making the object cannot change the kernel's speed: it is made once, before
// the loop, and a fetch through it reads the same bytes through the same path whichever way it was
// made. For tex1Dfetch on linear memory no setting of the description could either: the CUDA
// Programming Guide says tex1Dfetch takes integer coordinates only (so only the clamp and border
// addressing modes apply) and does no filtering, so cudaFilterModeLinear has nothing to interpolate;
// cudaReadModeNormalizedFloat maps 8- and 16-bit integer texels to [0, 1] or [-1, 1] and leaves float
// texels as they are. Both matter for CUDA arrays read with tex1D/tex2D, not here.
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

void destroy_texture(cudaTextureObject_t tex) {
  if (tex != 0) GPGPU_CUDA_CHECK(cudaDestroyTextureObject(tex));
}

}  // namespace ex07
