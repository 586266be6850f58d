// NPP's general 2D filter on chapter 12's convolution. nppiFilter_32f_C1R reads the k x k
// neighbourhood of every pixel of its region of interest and has no border handling: pixels outside
// the region are read from memory. So the image goes into a zero-filled buffer 2r (r = k / 2) wider
// on every side (once per upload, on the device, untimed in the kernel-only rates; inside the timed
// "w/ copies" runs, as an application would pay it), and the region of interest is the image inside
// it: the zeros are the padding. NPP documents its kernel as a convolution kernel, coefficients in
// reverse order; our form (problems/conv/include/gpgpu/conv/conv2d.hpp) is the correlation, so NPP gets the filter
// turned by 180 degrees (kNppReversesKernel; the test against the FP64 reference on random,
// unsymmetric filters checks it).
//
// One exception, found by that test: for k = 3 and 5 (NPP's own small-mask paths) NPP does not read
// outside its region of interest: the interior came out exact and the outer r rows and columns did
// not, whatever lay around them. For those k the region grows by r on every side (the 2r of zeros
// make the extra ring read zeros too), NPP writes into a padded result, and its interior is copied
// to the output: a copy inside the timed call, the price of zero padding with NPP at these k.
#include <climits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <npp.h>

#include "cuda_variants.hpp"
#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/cuda/check.hpp"
#include "gpgpu/cuda/device.hpp"
#include "gpgpu/errors.hpp"
#include "variants.hpp"

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

/// k below which NPP does not read outside its region of interest (see the top of the file).
constexpr int kNppReadsOutsideFrom = 7;
bool grows_region(int k) { return k < kNppReadsOutsideFrom; }

/// Sides of the padded source (2r more on every side) and of the grown result (r more).
std::int64_t source_side(std::int64_t side, std::int64_t k) { return side + 4 * (k / 2); }
std::int64_t grown_side(std::int64_t side, std::int64_t k) { return side + 2 * (k / 2); }
/// Floats of scratch: the padded source, and for the small k the grown result after it.
std::size_t scratch_floats(std::int64_t m, std::int64_t n, std::int64_t k) {
  const std::int64_t source = source_side(m, k) * source_side(n, k);
  return static_cast<std::size_t>(source + (grows_region(static_cast<int>(k)) ? grown_side(m, k) * grown_side(n, k) : 0));
}

//! [npp_conv]
// Untimed, after every upload: zeros, then the image into the middle of the padded source.
void pad(const DeviceOperands& d) {
  const int r = d.k / 2;
  const std::size_t width = static_cast<std::size_t>(source_side(d.n, d.k)), pitch = width * sizeof(float);
  GPGPU_CUDA_CHECK(cudaMemsetAsync(d.scratch, 0, pitch * static_cast<std::size_t>(source_side(d.m, d.k)), nullptr));
  GPGPU_CUDA_CHECK(cudaMemcpy2DAsync(d.scratch + 2 * r * width + 2 * r, pitch, d.a, d.n * sizeof(float), d.n * sizeof(float),
                                     d.m, cudaMemcpyDeviceToDevice, nullptr));
}

// Timed: NPP's filter on the image inside the padded source, anchored at the filter's centre; for
// k = 3 and 5 on the region grown by r, then the grown result's interior copied to the output.
void filter(const DeviceOperands& d, const float* kernel, const NppStreamContext& ctx) {
  const int r = d.k / 2, width = static_cast<int>(source_side(d.n, d.k)), step = width * static_cast<int>(sizeof(float));
  if (!grows_region(d.k)) {
    CH12_NPP(nppiFilter_32f_C1R_Ctx(d.scratch + 2 * r * width + 2 * r, step, d.out, d.n * static_cast<int>(sizeof(float)),
                                    NppiSize{d.n, d.m}, kernel, NppiSize{d.k, d.k}, NppiPoint{r, r}, ctx));
    return;
  }
  const int gw = static_cast<int>(grown_side(d.n, d.k)), gh = static_cast<int>(grown_side(d.m, d.k));
  float* grown = d.scratch + source_side(d.m, d.k) * width;
  CH12_NPP(nppiFilter_32f_C1R_Ctx(d.scratch + r * width + r, step, grown, gw * static_cast<int>(sizeof(float)), NppiSize{gw, gh},
                                  kernel, NppiSize{d.k, d.k}, NppiPoint{r, r}, ctx));
  GPGPU_CUDA_CHECK(cudaMemcpy2DAsync(d.out, d.n * sizeof(float), grown + r * gw + r, gw * sizeof(float), d.n * sizeof(float), d.m,
                                     cudaMemcpyDeviceToDevice, ctx.hStream));
}
//! [npp_conv]

}  // namespace

std::vector<gpgpu::blas::RoutineVariant> npp_variants() {
  gpgpu::blas::RoutineVariant v = cuda_variant("npp_conv2d", Routine::conv2d, "NPP nppiFilter_32f_C1R on a zero-padded copy (k = 3, 5: a grown region, its interior copied out)",
                                               "chapters/12_gpu_friendly/npp_variants.cpp");
  v.info.timer = "CUDA events (NPP on the default stream)";
  v.library = true;
  v.make = [](const Case& c, gpgpu::Session&) -> std::unique_ptr<gpgpu::blas::RoutineOperation> {
    const std::shared_ptr<gpgpu::cuda::DeviceBuffer<float>> kernel = npp_filter(c);
    const NppStreamContext ctx = default_stream_context();
    return std::make_unique<DeviceRoutine>(
        c, [kernel, ctx](const DeviceOperands& d) { filter(d, kernel->get(), ctx); }, "nppiFilter_32f_C1R_Ctx, padded at upload",
        scratch_floats(c.m, c.n, c.k), pad);
  };
  // NPP takes a row's step in bytes as an int: the padded source's rows must stay below 2 GiB.
  v.limitation = gpgpu::blas::for_case(Routine::conv2d, [](const Case& c, gpgpu::Session&) -> std::optional<std::string> {
    if (static_cast<double>(sizeof(float)) * static_cast<double>(source_side(c.n, c.k)) > INT_MAX)
      return "rows of " + std::to_string(source_side(c.n, c.k)) + " padded floats: NPP's row step (an int of bytes) cannot hold them";
    return std::nullopt;
  });
  v.check_fits = [fits = v.check_fits](const gpgpu::blas::RoutineSizes& sizes, gpgpu::Session& s) {
    fits(sizes, s);  // the operands, as every CUDA variant's
    const Case c = gpgpu::blas::case_shape(Routine::conv2d, sizes);
    gpgpu::cuda::require_device_memory(4.0 * static_cast<double>(scratch_floats(c.m, c.n, c.k) + c.k * c.k),
                                       "npp_conv2d's padded image on " + c.size_str());
  };
  return {v};
}

}  // namespace ch12
