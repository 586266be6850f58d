/// @file texture_objects.hpp
/// @brief Exercise 07: a texture object over linear device memory, the way chapter 07 reads x
/// (tex1Dfetch on cudaResourceTypeLinear), with the two limits the hardware sets.
#pragma once
#include <cstddef>

#include <cuda_runtime_api.h>

namespace ex07 {

/// Creates a texture object that returns the float data[i] for tex1Dfetch<float>(tex, i),
/// 0 <= i < count: element type, no filtering, no normalisation.
/// Throws gpgpu::UsageError (before creating anything) when `data` is not a multiple of the
/// current device's textureAlignment (cudaDevAttrTextureAlignment) or when `count` exceeds its
/// widest 1D linear texture (cudaDeviceGetTexture1DLinearMaxWidth), both asked of the runtime on
/// each call.
cudaTextureObject_t create_linear_texture(const float* data, std::size_t count);

/// Destroys a texture object made by create_linear_texture (0 is ignored).
void destroy_texture(cudaTextureObject_t tex);

}  // namespace ex07
