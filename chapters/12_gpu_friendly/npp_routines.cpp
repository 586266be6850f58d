// NPP's general 2D filter on chapter 12's convolution. nppiFilter_32f_C1R reads the k x k
// neighbourhood of every pixel of its region of interest and has no border handling: pixels outside
// the region are read from memory. So the image goes into a zero-filled buffer r = k / 2 wider on
// every side (once per upload, on the device, untimed in the kernel-only rates; inside the timed
// "w/ copies" runs, as an application would pay it), and the region of interest is the image inside
// it: the zeros are the padding. NPP documents its kernel as a convolution kernel, coefficients in
// reverse order; our form (problems/conv/conv2d.hpp) is the correlation, so NPP gets the filter
// turned by 180 degrees (kNppReversesKernel). The test against the FP64 reference on random,
// unsymmetric filters decides whether that reading of the documentation is right.
#include "npp_routines.hpp"

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <npp.h>

#include "cuda_routines.hpp"
#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/cuda/check.hpp"
#include "gpgpu/cuda/device.hpp"
#include "gpgpu/errors.hpp"

namespace ch12 {
namespace {

using gpgpu::blas::Case;
using gpgpu::blas::Routine;

/// Throws ApiError naming the call, file, line and NPP's status code (NPP has no message strings;
/// negative codes are errors, positive ones warnings, which we treat as errors too: none is expected).
void npp_check(NppStatus status, const char* call, const char* file, int line) {
  if (status == NPP_SUCCESS) return;
  throw gpgpu::ApiError(gpgpu::describe_failed_call(call, file, line, "NppStatus " + std::to_string(static_cast<int>(status)) +
                                                                          (status < 0 ? " (error)" : " (warning)")));
}
#define CH12_NPP(call) npp_check((call), #call, __FILE__, __LINE__)

/// NPP documents pKernel as a convolution kernel stored in reverse order.
constexpr bool kNppReversesKernel = true;

/// The stream context of the default stream (where DeviceRoutine's events are) on the current device.
NppStreamContext default_stream_context() {
  NppStreamContext ctx{};
  ctx.hStream = nullptr;
  GPGPU_CUDA_CHECK(cudaGetDevice(&ctx.nCudaDeviceId));
  const int dev = ctx.nCudaDeviceId;
  GPGPU_CUDA_CHECK(cudaDeviceGetAttribute(&ctx.nMultiProcessorCount, cudaDevAttrMultiProcessorCount, dev));
  GPGPU_CUDA_CHECK(cudaDeviceGetAttribute(&ctx.nMaxThreadsPerMultiProcessor, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
  GPGPU_CUDA_CHECK(cudaDeviceGetAttribute(&ctx.nMaxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock, dev));
  int shared = 0;
  GPGPU_CUDA_CHECK(cudaDeviceGetAttribute(&shared, cudaDevAttrMaxSharedMemoryPerBlock, dev));
  ctx.nSharedMemPerBlock = static_cast<size_t>(shared);
  GPGPU_CUDA_CHECK(cudaDeviceGetAttribute(&ctx.nCudaDevAttrComputeCapabilityMajor, cudaDevAttrComputeCapabilityMajor, dev));
  GPGPU_CUDA_CHECK(cudaDeviceGetAttribute(&ctx.nCudaDevAttrComputeCapabilityMinor, cudaDevAttrComputeCapabilityMinor, dev));
  ctx.nStreamFlags = 0;
  return ctx;
}

/// The filter as NPP takes it, in device memory: turned by 180 degrees where NPP reverses it.
std::shared_ptr<gpgpu::cuda::DeviceBuffer<float>> npp_filter(const Case& c) {
  const auto k = static_cast<std::size_t>(c.k);
  std::vector<float> f(k * k);
  for (std::size_t i = 0; i < f.size(); ++i) f[i] = kNppReversesKernel ? c.b[f.size() - 1 - i] : c.b[i];
  auto d = std::make_shared<gpgpu::cuda::DeviceBuffer<float>>(f.size());
  d->upload(f);
  return d;
}

/// Padded width and height of the image: r = k / 2 more on every side.
std::size_t padded(std::int64_t side, std::int64_t k) { return static_cast<std::size_t>(side + 2 * (k / 2)); }

//! [npp_conv]
// Untimed, after every upload: zeros, then the image into the middle of the padded buffer.
void pad(const DeviceOperands& d) {
  const int r = d.k / 2;
  const std::size_t width = padded(d.n, d.k), pitch = width * sizeof(float);
  GPGPU_CUDA_CHECK(cudaMemsetAsync(d.scratch, 0, pitch * padded(d.m, d.k), nullptr));
  GPGPU_CUDA_CHECK(cudaMemcpy2DAsync(d.scratch + r * width + r, pitch, d.a, d.n * sizeof(float), d.n * sizeof(float), d.m,
                                     cudaMemcpyDeviceToDevice, nullptr));
}

// Timed: NPP's filter on the image inside the padded buffer, anchored at the filter's centre.
void filter(const DeviceOperands& d, const float* kernel, const NppStreamContext& ctx) {
  const int r = d.k / 2, width = static_cast<int>(padded(d.n, d.k));
  const Npp32f* image = d.scratch + r * width + r;
  CH12_NPP(nppiFilter_32f_C1R_Ctx(image, width * static_cast<int>(sizeof(float)), d.out, d.n * static_cast<int>(sizeof(float)),
                                  NppiSize{d.n, d.m}, kernel, NppiSize{d.k, d.k}, NppiPoint{r, r}, ctx));
}
//! [npp_conv]

}  // namespace

std::vector<gpgpu::blas::RoutineVariant> npp_variants() {
  gpgpu::blas::RoutineVariant v = cuda_variant("npp_conv2d", Routine::conv2d, "NPP nppiFilter_32f_C1R on a zero-padded copy",
                                               "chapters/12_gpu_friendly/npp_routines.cpp");
  v.timer = "CUDA events (NPP on the default stream)";
  v.library = true;
  v.make = [](const Case& c, gpgpu::Session&) -> std::unique_ptr<gpgpu::blas::RoutineKernel> {
    const std::shared_ptr<gpgpu::cuda::DeviceBuffer<float>> kernel = npp_filter(c);
    const NppStreamContext ctx = default_stream_context();
    return std::make_unique<DeviceRoutine>(
        c, [kernel, ctx](const DeviceOperands& d) { filter(d, kernel->get(), ctx); }, "nppiFilter_32f_C1R_Ctx, padded at upload",
        padded(c.m, c.k) * padded(c.n, c.k), pad);
  };
  v.limitation = [fits = v.limitation](const Case& c, gpgpu::Session& s) -> std::optional<std::string> {
    if (const std::optional<std::string> why = fits(c, s)) return why;
    gpgpu::cuda::require_device_memory(4.0 * static_cast<double>(padded(c.m, c.k) * padded(c.n, c.k) + c.k * c.k),
                                       "npp_conv2d's padded image on " + c.size_str());
    return std::nullopt;
  };
  return {v};
}

}  // namespace ch12
