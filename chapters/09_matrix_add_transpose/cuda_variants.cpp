// Chapter 09's CUDA variants and their host code, in the order a run uses it: allocate (untimed),
// upload and poison, call `calls` times between two CUDA events, download. Every variant is one
// Call on the same buffers: a launch function of kernels/matrix/cuda (the kernel and its <<<...>>>
// are in the file the variant names), or cudaMemcpy device to device.
#include "cuda_variants.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "gpgpu/cuda/check.hpp"
#include "gpgpu/cuda/device.hpp"
#include "gpgpu/cuda/opener.hpp"
#include "matrix/cuda/launchers.hpp"

namespace ch09 {

namespace mc = gpgpu::matrix::cuda;
using gpgpu::matrix::ElementType;
using gpgpu::matrix::HostMatrix;
using gpgpu::matrix::Op;
using gpgpu::matrix::Shape;

template <typename T>
DeviceMatrices<T>::DeviceMatrices(Op op, Shape shape, Call call, std::string launch, Prepare prepare)
    : op_(op), shape_(shape), call_(std::move(call)), launch_(std::move(launch)), prepare_(std::move(prepare)),
      a_(static_cast<std::size_t>(shape.elements())),
      b_(op == Op::add ? static_cast<std::size_t>(shape.elements()) : 0),
      out_(static_cast<std::size_t>(shape.elements())) {}

template <typename T>
void DeviceMatrices<T>::upload(const gpgpu::matrix::Inputs& in) {
  a_.upload(in.a.as<T>());
  if (op_ == Op::add) b_.upload(in.b.as<T>());
  out_.fill_bytes(gpgpu::matrix::poison_byte(in.a.type()));
  if (prepare_) prepare_(a_.get(), out_.get());
  GPGPU_CUDA_CHECK(cudaDeviceSynchronize());  // the poison is in place before the first call
}

//! [cuda_run]
template <typename T>
double DeviceMatrices<T>::run(int calls) {
  timer_.start();
  for (int c = 0; c < calls; ++c) call_(a_.get(), op_ == Op::add ? b_.get() : nullptr, out_.get());
  timer_.stop();
  return timer_.seconds();
}
//! [cuda_run]

template <typename T>
HostMatrix DeviceMatrices<T>::download() {
  return HostMatrix(op_ == Op::transpose ? shape_.transposed() : shape_, out_.download(0, out_.size()));
}

template class DeviceMatrices<float>;
template class DeviceMatrices<double>;
template class DeviceMatrices<std::int32_t>;

namespace {

double device_bytes(Op op, const Shape& shape, ElementType type) {
  return (op == Op::add ? 3.0 : 2.0) * static_cast<double>(shape.elements()) * gpgpu::matrix::type_bytes(type);
}

// One kernel file of kernels/matrix/cuda.
enum class Launcher {
  add_rowmajor, add_colmajor, add_shared_paper, add_shared, add_vec4,
  transpose_naive, transpose_tile_as_printed, transpose_tile, transpose_tile_padded, transpose_tile_multi,
  transpose_tile_vec4, transpose_tile_panels, transpose_persistent, transpose_tma, copy_tiles, copy_tiles_staged
};

struct CudaKernelVariant {
  const char* name;
  Launcher launcher;
  Op op;
  const char* file;        // in kernels/matrix/cuda/
  const char* paper_name;  // the row of paper 003's tables it corresponds to, or ""
  const char* description;
  bool in_all;
  // The file's grid and block; nullptr where the grid depends on more than the shape (the flat add:
  // the element size; the persistent and TMA transposes: the device), which launch_line asks for itself.
  mc::LaunchShape (*shape)(int rows, int cols);
};

constexpr CudaKernelVariant kKernels[] = {
    {"cuda_add_rowmajor", Launcher::add_rowmajor, Op::add, "09_01_add_rowmajor.cu", "CUDA",
     "one thread per element, a warp along a row (paper Obr. 11)", true, mc::add_rowmajor_shape},
    {"cuda_add_colmajor", Launcher::add_colmajor, Op::add, "09_02_add_colmajor.cu", "",
     "one thread per element, a warp down a column (paper Obr. 14-16)", true, mc::add_colmajor_shape},
    {"cuda_add_shared_paper", Launcher::add_shared_paper, Op::add, "09_03_add_shared_paper.cu", "OPT CUDA",
     "the paper's shared-memory add as printed (Obr. 13): its index is right only for n = 1024", false,
     mc::add_shared_paper_shape},
    {"cuda_add_shared", Launcher::add_shared, Op::add, "09_04_add_shared.cu", "OPT CUDA",
     "the paper's shared-memory add with its index corrected", true, mc::add_shared_shape},
    {"cuda_add_vec4", Launcher::add_vec4, Op::add, "09_05_add_vec4.cu", "",
     "flat arrays, 16 bytes per load and store, grid-stride loop", true, nullptr},
    {"cuda_transpose_naive", Launcher::transpose_naive, Op::transpose, "09_06_transpose_naive.cu", "CUDA",
     "one thread per element, stores along rows, loads down columns (paper Obr. 18)", true, mc::transpose_naive_shape},
    {"cuda_transpose_tile_as_printed", Launcher::transpose_tile_as_printed, Op::transpose,
     "09_07_transpose_tile_as_printed.cu", "OPT CUDA",
     "the paper's shared-memory tile as printed (Obr. 20): tiles transposed in place, right only for n <= 16", false,
     mc::transpose_tile_as_printed_shape},
    {"cuda_transpose_tile", Launcher::transpose_tile, Op::transpose, "09_08_transpose_tile.cu", "OPT CUDA",
     "32 x 32 shared-memory tile, block indices swapped: loads and stores along rows", true, mc::transpose_tile_shape},
    {"cuda_transpose_tile_padded", Launcher::transpose_tile_padded, Op::transpose, "09_09_transpose_tile_padded.cu", "",
     "the tile padded to 33 columns: no shared-memory bank conflicts", true, mc::transpose_tile_padded_shape},
    {"cuda_transpose_tile_multi", Launcher::transpose_tile_multi, Op::transpose, "09_10_transpose_tile_multi.cu", "",
     "the padded tile with 32 x 8 threads, four elements each", true, mc::transpose_tile_multi_shape},
    {"cuda_transpose_tile_vec4", Launcher::transpose_tile_vec4, Op::transpose, "09_11_transpose_tile_vec4.cu", "",
     "64 x 64 padded tile, 16 bytes per global load and store, four vectors per thread", true,
     mc::transpose_tile_vec4_shape},
    {"cuda_transpose_tile_panels", Launcher::transpose_tile_panels, Op::transpose, "09_12_transpose_tile_panels.cu", "",
     "the 16-byte tile, tiles taken down panels of 32 tile columns", true, mc::transpose_tile_panels_shape},
    {"cuda_transpose_persistent", Launcher::transpose_persistent, Op::transpose, "09_13_transpose_persistent.cu", "",
     "the panels' tiles, a resident grid of blocks looping over them, next tile loaded before the current is stored",
     true, nullptr},
    {"cuda_transpose_tma", Launcher::transpose_tma, Op::transpose, "09_14_transpose_tma.cu", "",
     "TMA moves the tiles, several in flight per block (mbarriers); the threads transpose in swizzled shared memory",
     true, nullptr},
    // Not transposes: the copy with step 12's access pattern, a yardstick for them (09_copy_tiles.cu).
    {"cuda_copy_tiles", Launcher::copy_tiles, Op::copy, "09_copy_tiles.cu", "",
     "a copy in step 12's 64 x 64 tiles and panel order, each tile written where it was read", true,
     mc::transpose_tile_panels_shape},
    {"cuda_copy_tiles_staged", Launcher::copy_tiles_staged, Op::copy, "09_copy_tiles.cu", "",
     "the same through step 12's shared tile and barrier", true, mc::transpose_tile_panels_shape},
};

const CudaKernelVariant* find_kernel(const std::string& name) {
  for (const CudaKernelVariant& k : kKernels)
    if (name == k.name) return &k;
  return nullptr;
}

//! [cuda_launch]
template <typename T>
typename DeviceMatrices<T>::Call kernel_call(Launcher l, const Shape& s) {
  const int rows = static_cast<int>(s.rows), cols = static_cast<int>(s.cols);
  const auto add = [rows, cols](void (*launch)(const mc::AddArgs<T>&, cudaStream_t)) {
    return [=](const T* a, const T* b, T* out) { launch({a, b, out, rows, cols}, nullptr); };
  };
  const auto transpose = [rows, cols](void (*launch)(const mc::TransposeArgs<T>&, cudaStream_t)) {
    return [=](const T* a, const T*, T* out) { launch({a, out, rows, cols}, nullptr); };
  };
  switch (l) {
    case Launcher::add_rowmajor: return add(mc::launch_add_rowmajor<T>);
    case Launcher::add_colmajor: return add(mc::launch_add_colmajor<T>);
    case Launcher::add_shared_paper: return add(mc::launch_add_shared_paper<T>);
    case Launcher::add_shared: return add(mc::launch_add_shared<T>);
    case Launcher::add_vec4: return [=](const T* a, const T* b, T* out) { mc::launch_add_vec4<T>({a, b, out, rows, cols}, nullptr); };
    case Launcher::transpose_naive: return transpose(mc::launch_transpose_naive<T>);
    case Launcher::transpose_tile_as_printed: return transpose(mc::launch_transpose_tile_as_printed<T>);
    case Launcher::transpose_tile: return transpose(mc::launch_transpose_tile<T>);
    case Launcher::transpose_tile_padded: return transpose(mc::launch_transpose_tile_padded<T>);
    case Launcher::transpose_tile_multi: return transpose(mc::launch_transpose_tile_multi<T>);
    case Launcher::transpose_tile_vec4: return transpose(mc::launch_transpose_tile_vec4<T>);
    case Launcher::transpose_tile_panels: return transpose(mc::launch_transpose_tile_panels<T>);
    case Launcher::transpose_persistent: {  // the resident grid, asked for once, not in every timed call
      const mc::LaunchShape shape = mc::transpose_persistent_shape<T>(rows, cols);
      return [=](const T* a, const T*, T* out) { mc::launch_transpose_persistent<T>({a, out, rows, cols}, shape, nullptr); };
    }
    case Launcher::transpose_tma: break;  // tma_matrices: its maps are made when the buffers exist
    case Launcher::copy_tiles: return transpose(mc::launch_copy_tiles<T>);
    case Launcher::copy_tiles_staged: return transpose(mc::launch_copy_tiles_staged<T>);
  }
  throw std::logic_error("no launcher");
}
//! [cuda_launch]

// "grid 128 x 512 of 32 x 8 threads", "grid 64 x 64 of 8 x 4 x 8 threads" (the flat add: "grid 65536 of
// 256 threads, a vector per thread"; the persistent transpose: "grid 660 of 8 x 4 x 8 threads,
// resident, looping over the tiles" on the H200's 132 SMs at 5 blocks each).
std::string block_text(const dim3& b) {
  std::string text = std::to_string(b.x);
  if (b.y > 1 || b.z > 1) text += " x " + std::to_string(b.y);  // a flat block (TMA's 128 threads) stays "128"
  if (b.z > 1) text += " x " + std::to_string(b.z);
  return text + " threads";
}

template <typename T>
std::string launch_line(const CudaKernelVariant& k, const Shape& s) {
  const int rows = static_cast<int>(s.rows), cols = static_cast<int>(s.cols);
  if (k.launcher == Launcher::add_vec4) {
    const int element_bytes = static_cast<int>(sizeof(T));
    const mc::LaunchShape l = mc::add_vec4_shape(rows, cols, element_bytes);
    const bool strides = static_cast<long long>(l.grid.x) * l.block.x < s.elements() / (16 / element_bytes);
    return "grid " + std::to_string(l.grid.x) + " of " + std::to_string(l.block.x) + " threads, " +
           (strides ? "grid-stride" : "a vector per thread") + ", 16 B per access";
  }
  if (k.launcher == Launcher::transpose_persistent) {
    const mc::LaunchShape l = mc::transpose_persistent_shape<T>(rows, cols);
    return "grid " + std::to_string(l.grid.x) + " of " + block_text(l.block) + ", resident, looping over the tiles";
  }
  const mc::LaunchShape l = k.shape(rows, cols);
  return "grid " + std::to_string(l.grid.x) + " x " + std::to_string(l.grid.y) + " of " + block_text(l.block);
}

#if GPGPU_HAVE_TMA_TRANSPOSE
// Step 14 where TMA can describe both matrices: the tensor maps encoded by upload() for the buffers
// (prepare), each call a launch with them. Elsewhere (rows or cols no multiple of 16 bytes) step 12's
// kernel, which the launch line names.
template <typename T>
std::unique_ptr<gpgpu::matrix::Operation> tma_matrices(const Shape& s) {
  const int rows = static_cast<int>(s.rows), cols = static_cast<int>(s.cols);
  if (!mc::transpose_tma_serves<T>(rows, cols)) {
    return std::make_unique<DeviceMatrices<T>>(
        Op::transpose, s, kernel_call<T>(Launcher::transpose_tile_panels, s),
        "rows of " + std::to_string(cols * sizeof(T)) + " bytes in, " + std::to_string(rows * sizeof(T)) +
            " out, where TMA needs multiples of 16: step 12's kernel, " + launch_line<T>(*find_kernel("cuda_transpose_tile_panels"), s));
  }
  const mc::TmaTransposeShape launch = mc::transpose_tma_shape<T>(rows, cols);
  auto plan = std::make_shared<mc::TmaTransposePlan>();
  auto prepare = [=](const T* a, T* out) { *plan = mc::plan_transpose_tma<T>({a, out, rows, cols}, launch); };
  auto call = [plan](const T*, const T*, T*) { mc::launch_transpose_tma<T>(*plan, nullptr); };  // the buffers are in the maps
  return std::make_unique<DeviceMatrices<T>>(
      Op::transpose, s, call,
      "grid " + std::to_string(launch.shape.grid.x) + " of " + block_text(launch.shape.block) + ", " +
          std::to_string(launch.shared_bytes / 1024) + " KiB shared each, " + std::to_string(launch.stages) +
          " tiles in flight per block, resident, looping over the tiles",
      prepare);
}
#endif

// Step 14 runs where it was built and the device is of compute capability 9.0 (its sm_90a code runs
// there alone), and, on the shapes TMA cannot take, where step 12's kernel runs; nullopt, or why not.
std::optional<std::string> tma_limitation(const gpgpu::matrix::Size& size, gpgpu::Session& session) {
#if GPGPU_HAVE_TMA_TRANSPOSE
  const gpgpu::cuda::DeviceInfo& d = gpgpu::cuda::device_info(session);
  if (d.cc_major != 9 || d.cc_minor != 0)
    return "TMA with its 128-byte swizzle is compiled for sm_90a, which runs on compute capability 9.0 alone (this GPU: " +
           std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor) + ")";
  const int rows = static_cast<int>(size.shape.rows), cols = static_cast<int>(size.shape.cols);
  const bool served = gpgpu::matrix::dispatch(size.type, [&](auto tag) {
    return mc::transpose_tma_serves<typename decltype(tag)::type>(rows, cols);
  });
  return served ? std::nullopt : cuda_limitation("cuda_transpose_tile_panels", size.shape);
#else
  (void)size;
  (void)session;
  return std::string("not built: ") + GPGPU_WHY_NO_TMA_TRANSPOSE;
#endif
}

gpgpu::matrix::Variant kernel_variant(const CudaKernelVariant& k) {
  gpgpu::matrix::Variant v = cuda_variant(k.name, k.op, k.description, std::string("kernels/matrix/cuda/") + k.file,
                                          k.paper_name, k.in_all);
  v.make = [&k](const gpgpu::matrix::Inputs& in, gpgpu::Session&) -> std::unique_ptr<gpgpu::matrix::Operation> {
    return gpgpu::matrix::dispatch(in.a.type(), [&](auto tag) -> std::unique_ptr<gpgpu::matrix::Operation> {
      using T = typename decltype(tag)::type;
      const Shape& shape = in.a.shape();
      if (k.launcher == Launcher::transpose_tma) {
#if GPGPU_HAVE_TMA_TRANSPOSE
        return tma_matrices<T>(shape);
#else
        throw std::logic_error(std::string(k.name) + " is not built: " GPGPU_WHY_NO_TMA_TRANSPOSE);  // its limitation says so first
#endif
      }
      return std::make_unique<DeviceMatrices<T>>(k.op, shape, kernel_call<T>(k.launcher, shape),
                                                 launch_line<T>(k, shape));
    });
  };
  v.limitation = [name = std::string(k.name), tma = k.launcher == Launcher::transpose_tma](const gpgpu::matrix::Size& size,
                                                                                          gpgpu::Session& session) {
    return tma ? tma_limitation(size, session) : cuda_limitation(name, size.shape);
  };
  return v;
}

//! [cuda_memcpy]
gpgpu::matrix::Variant memcpy_variant() {
  gpgpu::matrix::Variant v = cuda_variant("cuda_memcpy", Op::copy, "cudaMemcpy device to device: the copy every transpose is measured against",
                                          "chapters/09_matrix_add_transpose/cuda_variants.cpp");
  v.make = [](const gpgpu::matrix::Inputs& in, gpgpu::Session&) -> std::unique_ptr<gpgpu::matrix::Operation> {
    return gpgpu::matrix::dispatch(in.a.type(), [&](auto tag) -> std::unique_ptr<gpgpu::matrix::Operation> {
      using T = typename decltype(tag)::type;
      const std::size_t bytes = in.a.bytes();
      auto copy = [bytes](const T* a, const T*, T* out) {
        GPGPU_CUDA_CHECK(cudaMemcpyAsync(out, a, bytes, cudaMemcpyDeviceToDevice, nullptr));
      };
      return std::make_unique<DeviceMatrices<T>>(Op::copy, in.a.shape(), copy, "cudaMemcpyAsync, device to device");
    });
  };
  return v;
}
//! [cuda_memcpy]

}  // namespace

gpgpu::matrix::Variant cuda_variant(std::string name, Op op, std::string description, std::string source,
                                    std::string paper_name, bool in_all) {
  gpgpu::matrix::Variant v;
  v.info = {name, gpgpu::Backend::cuda, std::move(description), std::move(source), std::move(paper_name),
            "CUDA events", 0, in_all};
  v.opener = gpgpu::cuda::opener;
  v.op = op;
  v.check_fits = [name, op](const gpgpu::matrix::Size& size, gpgpu::Session&) {
    gpgpu::cuda::require_device_memory(device_bytes(op, size.shape, size.type), name + " on a " + size.shape.str() + " matrix");
  };
  return v;
}

std::optional<std::string> cuda_limitation(const std::string& variant, const Shape& shape) {
  const CudaKernelVariant* k = find_kernel(variant);
  if (k == nullptr || k->shape == nullptr) return std::nullopt;
  if (k->launcher == Launcher::transpose_tile_as_printed && shape.rows != shape.cols)
    return "the printed kernel (Obr. 20) has one width, wA: square matrices only";
  const mc::LaunchShape l = k->shape(static_cast<int>(shape.rows), static_cast<int>(shape.cols));
  if (l.grid.y > static_cast<unsigned>(mc::kMaxGridY))
    return "needs " + std::to_string(l.grid.y) + " block rows; a grid has at most 65535 (gridDim.y), and this kernel has no row loop";
  return std::nullopt;
}

std::vector<gpgpu::matrix::Variant> cuda_variants() {
  std::vector<gpgpu::matrix::Variant> v;
  for (const CudaKernelVariant& k : kKernels) v.push_back(kernel_variant(k));
  v.push_back(memcpy_variant());
  return v;
}

}  // namespace ch09
