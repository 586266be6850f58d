// Exercise 07, a shortcut the check must catch (its grading test proves it fails): no texture object
// of its own, but the project's (gpgpu::cuda::TextureObject in common/cuda), kept alive in a map
// until destroy_texture, wherever the include path reaches it. The student's file is compiled
// against the exercise's interface, the project's common headers and a copy of gpgpu/cuda/check.hpp
// alone, so here the library's header is not found and what is left is the skeleton's empty answer;
// were it found, this would pass.
#include "texture_objects.hpp"

#include "gpgpu/cuda/check.hpp"
#include "gpgpu/errors.hpp"

#if __has_include("gpgpu/cuda/buffers.hpp")
#include <map>
#include <utility>

#include "gpgpu/cuda/buffers.hpp"
#define EX07_THE_LIBRARY 1
#endif

namespace ex07 {

#ifdef EX07_THE_LIBRARY
namespace {
std::map<cudaTextureObject_t, gpgpu::cuda::TextureObject>& owned() {
  static std::map<cudaTextureObject_t, gpgpu::cuda::TextureObject> objects;
  return objects;
}
}  // namespace
#endif

cudaTextureObject_t create_linear_texture(const float* data, std::size_t count) {
#ifdef EX07_THE_LIBRARY
  int device = 0, alignment = 0;
  GPGPU_CUDA_CHECK(cudaGetDevice(&device));
  GPGPU_CUDA_CHECK(cudaDeviceGetAttribute(&alignment, cudaDevAttrTextureAlignment, device));
  const cudaChannelFormatDesc format = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  std::size_t max_width = 0;
  GPGPU_CUDA_CHECK(cudaDeviceGetTexture1DLinearMaxWidth(&max_width, &format, device));
  gpgpu::cuda::TextureObject object(data, count, static_cast<std::size_t>(alignment), max_width);
  const cudaTextureObject_t tex = object.get();
  owned().emplace(tex, std::move(object));
  return tex;
#else
  (void)data;
  (void)count;
  return 0;
#endif
}

void destroy_texture(cudaTextureObject_t tex) {
#ifdef EX07_THE_LIBRARY
  owned().erase(tex);
#else
  (void)tex;
#endif
}

}  // namespace ex07
