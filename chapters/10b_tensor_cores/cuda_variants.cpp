// Chapter 10b's own kernels as variants, in step order: each one launch of a kernel file of
// kernels/blas/cuda on the device buffers of tensor_core_gemm.hpp (TF32: the problem's
// DeviceGemm<float>; BF16: Bf16DeviceGemm, whose inputs are rounded once before the timed calls).
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "blas/cuda/tensor_core_launchers.hpp"
#include "gpgpu/blas/cuda/device_gemm.hpp"
#include "gpgpu/blas/cuda/tensor_core_gemm.hpp"
#include "variants.hpp"

namespace ch10b {
namespace {

namespace bc = gpgpu::blas::cuda;
using bc::Bf16;
using bc::Bf16DeviceGemm;
using bc::Input;
using bc::tensor_core_variant;
using gpgpu::blas::Dims;

using Tf32Launch = void (*)(const bc::TensorCoreArgs<float>&, cudaStream_t);
using Bf16Launch = void (*)(const bc::TensorCoreArgs<bc::Bf16>&, cudaStream_t);

struct KernelVariant {
  const char* name;
  const char* file;  // in kernels/blas/cuda/
  const char* description;
  Input input;
  Tf32Launch launch_tf32;  // Input::tf32
  Bf16Launch launch_bf16;  // Input::bf16
  bc::GemmShape (*shape)();
  int cc_major;       // the compute capability its instructions need
  bool only_major;    // and no later one (sm_90a code runs on 9.0 alone)
  const char* needs;  // the reason printed below it
};

constexpr const char* kNeedsAmpere = "TF32 and BF16 tensor cores (WMMA, mma.sync) need compute capability 8.0";
constexpr const char* kNeedsHopper = "wgmma is Hopper's alone: compiled for sm_90a, it runs on compute capability 9.0 only";

//! [kernels]
constexpr KernelVariant kKernels[] = {
    {"wmma_tf32", "10_08_tf32_wmma.cu", "chapter 10's step, the start: WMMA 16 x 16 x 8, TF32 inputs, FP32 sums", Input::tf32,
     bc::launch_tf32_wmma, nullptr, bc::tf32_wmma_shape, 8, false, kNeedsAmpere},
    {"mma_sync_tf32", "10b_02_mma_sync.cu", "mma.sync m16n8k8 by PTX, ldmatrix from 128B-swizzled tiles, TF32", Input::tf32,
     static_cast<Tf32Launch>(bc::launch_mma_sync), nullptr, bc::mma_sync_shape, 8, false, kNeedsAmpere},
    {"mma_sync_bf16", "10b_02_mma_sync.cu", "the same with m16n8k16 on BF16 inputs (rounded once), FP32 sums", Input::bf16,
     nullptr, static_cast<Bf16Launch>(bc::launch_mma_sync), bc::mma_sync_shape, 8, false, kNeedsAmpere},
};
//! [kernels]

#if GPGPU_HAVE_WGMMA
constexpr KernelVariant kWgmmaKernels[] = {
    {"wgmma_tf32", "10b_03_wgmma.cu", "warpgroup MMA m64n64k8 from swizzled shared tiles by descriptors, B transposed, TF32",
     Input::tf32, static_cast<Tf32Launch>(bc::launch_wgmma), nullptr, bc::wgmma_shape, 9, true, kNeedsHopper},
    {"wgmma_bf16", "10b_03_wgmma.cu", "the same with m64n64k16 on BF16 inputs (rounded once), FP32 sums", Input::bf16, nullptr,
     static_cast<Bf16Launch>(bc::launch_wgmma), bc::wgmma_shape, 9, true, kNeedsHopper},
};
#endif

std::unique_ptr<gpgpu::blas::GemmOperation> make(const KernelVariant& k, const Dims& d) {
  const int m = static_cast<int>(d.m), n = static_cast<int>(d.n), kk = static_cast<int>(d.k);
  const std::string launch = gpgpu::blas::cuda::launch_line(d, k.shape());
  if (k.input == Input::tf32) {
    auto call = [f = k.launch_tf32, m, n, kk](const float* a, const float* b, float* c) { f({a, b, c, m, n, kk}, nullptr); };
    return std::make_unique<gpgpu::blas::cuda::DeviceGemm<float>>(d, call, launch);
  }
  auto call = [f = k.launch_bf16, m, n, kk](const bc::Bf16* a, const bc::Bf16* b, float* c) { f({a, b, c, m, n, kk}, nullptr); };
  return std::make_unique<Bf16DeviceGemm>(d, call, launch);
}

gpgpu::blas::GemmVariant kernel_variant(const KernelVariant& k) {
  gpgpu::blas::GemmVariant v =
      tensor_core_variant(k.name, k.description, std::string("kernels/blas/cuda/") + k.file, k.input,
                          {k.cc_major, k.only_major, k.needs},
                          [&k](const gpgpu::blas::Dims& d) { return bc::grid_rows_refusal(bc::blocks_for(d.m, k.shape().tile_m)); });
  v.make = [&k](const gpgpu::blas::GemmSize& s, gpgpu::Session&) { return make(k, s.dims); };
  return v;
}

template <std::size_t N>
std::vector<gpgpu::blas::GemmVariant> variants_of(const KernelVariant (&kernels)[N]) {
  std::vector<gpgpu::blas::GemmVariant> v;
  for (const KernelVariant& k : kernels) v.push_back(kernel_variant(k));
  return v;
}

}  // namespace

std::vector<gpgpu::blas::GemmVariant> kernel_variants() { return variants_of(kKernels); }
#if GPGPU_HAVE_WGMMA
std::vector<gpgpu::blas::GemmVariant> wgmma_variants() { return variants_of(kWgmmaKernels); }
#endif

}  // namespace ch10b
