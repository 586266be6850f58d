#include "gpgpu/cuda/buffers.hpp"

#include <string>

#include "gpgpu/errors.hpp"

namespace gpgpu::cuda {

Event::Event(unsigned flags) { GPGPU_CUDA_CHECK(cudaEventCreateWithFlags(&event_, flags)); }
Event::~Event() {
  if (event_ != nullptr) (void)cudaEventDestroy(event_);
}

void EventTimer::start(cudaStream_t stream) { GPGPU_CUDA_CHECK(cudaEventRecord(start_.get(), stream)); }
void EventTimer::stop(cudaStream_t stream) { GPGPU_CUDA_CHECK(cudaEventRecord(stop_.get(), stream)); }
double EventTimer::seconds() const {
  GPGPU_CUDA_CHECK(cudaEventSynchronize(stop_.get()));
  float ms = 0;
  GPGPU_CUDA_CHECK(cudaEventElapsedTime(&ms, start_.get(), stop_.get()));
  return ms / 1e3;
}

TextureObject::TextureObject(const float* data, std::size_t count, std::size_t texture_alignment,
                             std::size_t max_width) {
  if (texture_alignment > 0 && reinterpret_cast<std::uintptr_t>(data) % texture_alignment != 0)
    throw UsageError("texture base address is not a multiple of the device's textureAlignment (" +
                     std::to_string(texture_alignment) + " B)");
  if (count > max_width)
    throw UsageError("a 1D linear texture of " + std::to_string(count) + " floats exceeds this device's limit of " +
                     std::to_string(max_width) + " (cudaDeviceGetTexture1DLinearMaxWidth): use a smaller grid");
  cudaResourceDesc resource{};
  resource.resType = cudaResourceTypeLinear;
  resource.res.linear.devPtr = const_cast<float*>(data);  // the texture only reads it
  resource.res.linear.desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  resource.res.linear.sizeInBytes = count * sizeof(float);
  cudaTextureDesc sampling{};
  sampling.readMode = cudaReadModeElementType;  // the float itself, no filtering or normalisation
  GPGPU_CUDA_CHECK(cudaCreateTextureObject(&tex_, &resource, &sampling, nullptr));
}

TextureObject::~TextureObject() {
  if (tex_ != 0) (void)cudaDestroyTextureObject(tex_);
}

}  // namespace gpgpu::cuda
