// Chapter 10's CUDA variants: our kernels of kernels/blas/cuda in step order (cuda_variants()), each
// a launch on the problem's device buffers (gpgpu/blas/cuda/device_gemm.hpp: allocate, upload A and B
// and poison C, call `calls` times between two CUDA events, download C).

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <span>
#include <type_traits>
#include <stdexcept>
#include <utility>

#include "blas/cuda/launchers.hpp"
#include "gpgpu/blas/cuda/device_gemm.hpp"
#include "gpgpu/cuda/check.hpp"
#include "gpgpu/cuda/device.hpp"
#include "gpgpu/cuda/opener.hpp"
#include "variants.hpp"

namespace ch10 {

namespace bc = gpgpu::blas::cuda;
using bc::DeviceGemm;
using gpgpu::blas::Dims;
using gpgpu::blas::ElementType;
using gpgpu::blas::HostMatrix;

namespace {

template <typename T>
using Launch = void (*)(const bc::GemmArgs<T>&, cudaStream_t);

// A kernel file compiled in several configurations (steps 9 and 10): for T, the list, the launch
// of one and its shape (launchers.hpp).
template <typename T>
struct TunableFor {
  std::span<const bc::TileConfig> (*configs)();
  void (*launch)(const bc::GemmArgs<T>&, std::size_t, cudaStream_t);
  bc::GemmShape (*shape)(std::size_t);
};
struct Tunable {
  TunableFor<float> f;
  TunableFor<double> d;
  template <typename T>
  const TunableFor<T>& of() const {
    if constexpr (std::is_same_v<T, double>) return d;
    else return f;
  }
};
constexpr Tunable kThreeStage{{bc::three_stage_configs<float>, bc::launch_three_stage_config<float>, bc::three_stage_shape<float>},
                              {bc::three_stage_configs<double>, bc::launch_three_stage_config<double>, bc::three_stage_shape<double>}};
constexpr Tunable kPrefetch{{bc::prefetch_configs<float>, bc::launch_prefetch_config<float>, bc::prefetch_shape<float>},
                            {bc::prefetch_configs<double>, bc::launch_prefetch_config<double>, bc::prefetch_shape<double>}};

struct CudaKernelVariant {
  const char* name;
  const char* file;        // in kernels/blas/cuda/
  const char* paper_name;  // the row of paper 003's Tabs. 4-7, or ""
  const char* description;
  Launch<float> launch_float;
  Launch<double> launch_double;  // nullptr: float only
  bool tf32;
  bc::GemmShape (*shape)();      // the tile of C per block and its threads (from the kernel's file)
  const Tunable* tunable;        // nullptr: one launch; else its configurations, launched by index
};

constexpr CudaKernelVariant kKernels[] = {
    {"cuda_naive", "10_01_naive.cu", "CUDA", "one thread per element of C, operands from global memory (paper Obr. 8)",
     bc::launch_naive<float>, bc::launch_naive<double>, false, bc::naive_shape, nullptr},
    {"cuda_tile16", "10_02_tile16.cu", "OPT CUDA", "16 x 16 tiles of A and B in shared memory (paper Obr. 10)",
     bc::launch_tile16<float>, bc::launch_tile16<double>, false, bc::tile16_shape, nullptr},
    {"cuda_blocktile_1d", "10_03_blocktile_1d.cu", "", "64 x 64 tile per block, 8 elements of a column per thread",
     bc::launch_blocktile_1d<float>, bc::launch_blocktile_1d<double>, false, bc::blocktile_1d_shape, nullptr},
    {"cuda_blocktile_2d", "10_04_blocktile_2d.cu", "", "128 x 128 tile per block, 8 x 8 elements per thread",
     bc::launch_blocktile_2d<float>, bc::launch_blocktile_2d<double>, false, bc::blocktile_2d_shape, nullptr},
    {"cuda_vectorized", "10_05_vectorized.cu", "", "the 8 x 8 blocking with 16-byte loads and a transposed A tile",
     bc::launch_vectorized<float>, bc::launch_vectorized<double>, false, bc::vectorized_shape, nullptr},
    {"cuda_warptile", "10_06_warptile.cu", "", "the vectorized kernel with 32 x 64 warp tiles",
     bc::launch_warptile<float>, bc::launch_warptile<double>, false, bc::warptile_shape, nullptr},
    {"cuda_double_buffer", "10_07_double_buffer.cu", "", "the warp tiles with two buffers filled by cp.async",
     bc::launch_double_buffer<float>, bc::launch_double_buffer<double>, false, bc::double_buffer_shape, nullptr},
    {"cuda_tf32_wmma", "10_08_tf32_wmma.cu", "", "tensor cores: TF32 inputs, FP32 sums (WMMA 16 x 16 x 8)",
     bc::launch_tf32_wmma, nullptr, true, bc::tf32_wmma_shape, nullptr},
    {"cuda_three_stage", "10_09_three_stage.cu", "",
     "the double buffer with 16 x 8 per thread in 256 x 128 tiles and three stages (--tune: six configurations)",
     bc::launch_three_stage<float>, bc::launch_three_stage<double>, false, nullptr, &kThreeStage},
    {"cuda_prefetch", "10_10_prefetch.cu", "",
     "step 9 with its fragments prefetched into registers, 16-byte loads of A and grouped blocks (--tune: three configurations)",
     bc::launch_prefetch<float>, bc::launch_prefetch<double>, false, nullptr, &kPrefetch},
};

// "16 x 8 per thread, 3 stages", and with the block tile before it the configuration's name.
std::string thread_tile_and_stages(const bc::TileConfig& c) {
  return std::to_string(c.tm) + " x " + std::to_string(c.tn) + " per thread, " + std::to_string(c.stages) + " stages";
}
std::string config_name(const bc::TileConfig& c) {
  return std::to_string(c.bm) + " x " + std::to_string(c.bn) + " tile, " + thread_tile_and_stages(c);
}

// The most block rows any of the variant's launches needs for m rows (gridDim.y holds 65535).
long long block_rows(const CudaKernelVariant& k, const Dims& d, ElementType type) {
  if (k.tunable == nullptr) return bc::blocks_for(d.m, k.shape().tile_m);
  const auto configs = type == ElementType::f64 ? k.tunable->d.configs() : k.tunable->f.configs();
  long long rows = 0;
  for (const bc::TileConfig& c : configs) rows = std::max<long long>(rows, bc::blocks_for(d.m, c.bm));
  return rows;
}

//! [make_gemm]
// The kernel's launches on `d` as DeviceGemm configurations: one, or one per compiled configuration.
template <typename T>
std::unique_ptr<gpgpu::blas::GemmOperation> make_gemm(const CudaKernelVariant& k, const Dims& d) {
  const int m = static_cast<int>(d.m), n = static_cast<int>(d.n), kk = static_cast<int>(d.k);
  using Configuration = typename DeviceGemm<T>::Configuration;
  std::vector<Configuration> configurations;
  if (k.tunable == nullptr) {
    Launch<T> launch = nullptr;
    if constexpr (std::is_same_v<T, double>) launch = k.launch_double;
    else launch = k.launch_float;
    auto call = [launch, m, n, kk](const T* a, const T* b, T* c) { launch({a, b, c, m, n, kk}, nullptr); };
    configurations.push_back({"", call, bc::launch_line(d, k.shape())});
  }
  if (k.tunable == nullptr) return std::make_unique<DeviceGemm<T>>(d, std::move(configurations));
  const TunableFor<T>& tunable = k.tunable->of<T>();
  const auto configs = tunable.configs();
  for (std::size_t i = 0; i < configs.size(); ++i) {
    auto call = [launch = tunable.launch, i, m, n, kk](const T* a, const T* b, T* c) { launch({a, b, c, m, n, kk}, i, nullptr); };
    const bc::TileConfig& c = configs[i];
    configurations.push_back({config_name(c), call, bc::launch_line(d, tunable.shape(i)) + ", " + thread_tile_and_stages(c)});
  }
  return std::make_unique<DeviceGemm<T>>(d, std::move(configurations));
}
//! [make_gemm]

gpgpu::blas::GemmVariant kernel_variant(const CudaKernelVariant& k) {
  gpgpu::blas::GemmVariant v = bc::cuda_variant(k.name, k.description, std::string("kernels/blas/cuda/") + k.file, k.paper_name);
  v.tf32 = k.tf32;
  v.make = [&k](const gpgpu::blas::GemmSize& s, gpgpu::Session&) -> std::unique_ptr<gpgpu::blas::GemmOperation> {
    return s.type == ElementType::f64 ? make_gemm<double>(k, s.dims) : make_gemm<float>(k, s.dims);
  };
  v.limitation = [&k](const gpgpu::blas::GemmSize& s, gpgpu::Session& session) -> std::optional<std::string> {
    if (s.type == ElementType::f64 && k.launch_double == nullptr) return "float only (TF32 tensor cores take FP32 inputs)";
    if (k.tf32 && gpgpu::cuda::device_info(session).cc_major < 8) return "TF32 tensor cores need compute capability 8.0";
    return bc::grid_rows_refusal(block_rows(k, s.dims, s.type));
  };
  return v;
}

}  // namespace

std::vector<gpgpu::blas::GemmVariant> cuda_variants() {
  std::vector<gpgpu::blas::GemmVariant> v;
  for (const CudaKernelVariant& k : kKernels) v.push_back(kernel_variant(k));
  return v;
}

}  // namespace ch10
