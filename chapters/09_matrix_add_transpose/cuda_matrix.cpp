// Chapter 09's CUDA host code, in the order a run uses it: allocate (untimed), upload and poison,
// call `calls` times between two CUDA events, download. Every variant is one Call on the same
// buffers: a kernel launch from kernels/matrix/cuda, or cudaMemcpy device to device.
#include "cuda_matrix.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <utility>

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
DeviceMatrices<T>::DeviceMatrices(Op op, Shape shape, Call call, std::string launch)
    : op_(op), shape_(shape), call_(std::move(call)), launch_(std::move(launch)),
      a_(static_cast<std::size_t>(shape.elements())),
      b_(op == Op::add ? static_cast<std::size_t>(shape.elements()) : 0),
      out_(static_cast<std::size_t>(shape.elements())) {}

template <typename T>
void DeviceMatrices<T>::upload(const gpgpu::matrix::Inputs& in) {
  a_.upload(in.a.as<T>());
  if (op_ == Op::add) b_.upload(in.b.as<T>());
  out_.fill_bytes(gpgpu::matrix::poison_byte(in.a.type()));
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

double device_bytes(Op op, const Shape& shape, ElementType type) {
  return (op == Op::add ? 3.0 : 2.0) * static_cast<double>(shape.elements()) * gpgpu::matrix::type_bytes(type);
}

gpgpu::matrix::VariantSpec cuda_variant(std::string name, Op op, std::string description, std::string source,
                                        std::string paper_name, bool in_all) {
  gpgpu::matrix::VariantSpec v;
  v.info = {name, gpgpu::Backend::cuda, std::move(description), std::move(source), std::move(paper_name), in_all};
  v.opener = gpgpu::cuda::opener;
  v.op = op;
  v.timer = "CUDA events";
  v.check_fits = [name, op](const Shape& shape, ElementType type, gpgpu::Session&) {
    gpgpu::cuda::require_device_memory(device_bytes(op, shape, type), name + " on a " + shape.str() + " matrix");
  };
  return v;
}

namespace {

// One kernel file of kernels/matrix/cuda.
enum class Launcher {
  add_rowmajor, add_colmajor, add_shared_paper, add_shared, add_vec4,
  transpose_naive, transpose_tile_as_printed, transpose_tile, transpose_tile_padded, transpose_tile_multi
};

struct CudaKernelVariant {
  const char* name;
  Launcher launcher;
  Op op;
  const char* file;        // in kernels/matrix/cuda/
  const char* paper_name;  // the row of paper 003's tables it corresponds to, or ""
  const char* description;
  bool in_all;
  // Kernels with one tile per block and no row loop: rows per block row of the grid (its gridDim.y
  // covers the rows), else 0. block x and y: the launch's block, for the launch line.
  int rows_per_block_row;
  unsigned block_x, block_y;
};

constexpr unsigned kPaperAdd = mc::kPaperAddTile, kPaperTr = mc::kPaperTransposeTile;
constexpr CudaKernelVariant kKernels[] = {
    {"cuda_add_rowmajor", Launcher::add_rowmajor, Op::add, "09_add_rowmajor.cu", "CUDA",
     "one thread per element, a warp along a row (paper Obr. 11)", true, 0, mc::kBlockX, mc::kBlockY},
    {"cuda_add_colmajor", Launcher::add_colmajor, Op::add, "09_add_colmajor.cu", "",
     "one thread per element, a warp down a column (paper Obr. 14-16)", true, 0, mc::kBlockX, mc::kBlockY},
    {"cuda_add_shared_paper", Launcher::add_shared_paper, Op::add, "09_add_shared_paper.cu", "OPT CUDA",
     "the paper's shared-memory add as printed (Obr. 13): its index is right only for n = 1024", false,
     mc::kPaperAddTile, kPaperAdd, kPaperAdd},
    {"cuda_add_shared", Launcher::add_shared, Op::add, "09_add_shared.cu", "OPT CUDA",
     "the paper's shared-memory add with its index corrected", true, mc::kPaperAddTile, kPaperAdd, kPaperAdd},
    {"cuda_add_vec4", Launcher::add_vec4, Op::add, "09_add_vec4.cu", "",
     "flat arrays, 16 bytes per load and store, grid-stride loop", true, 0, mc::kVecBlock, 1},
    {"cuda_transpose_naive", Launcher::transpose_naive, Op::transpose, "09_transpose_naive.cu", "CUDA",
     "one thread per element, stores along rows, loads down columns (paper Obr. 18)", true, 0, mc::kBlockX, mc::kBlockY},
    {"cuda_transpose_tile_as_printed", Launcher::transpose_tile_as_printed, Op::transpose,
     "09_transpose_tile_as_printed.cu", "OPT CUDA",
     "the paper's shared-memory tile as printed (Obr. 20): tiles transposed in place, right only for n <= 16", false,
     mc::kPaperTransposeTile, kPaperTr, kPaperTr},
    {"cuda_transpose_tile", Launcher::transpose_tile, Op::transpose, "09_transpose_tile.cu", "OPT CUDA",
     "32 x 32 shared-memory tile, block indices swapped: loads and stores along rows", true, mc::kTile, mc::kTile,
     mc::kTile},
    {"cuda_transpose_tile_padded", Launcher::transpose_tile_padded, Op::transpose, "09_transpose_tile_padded.cu", "",
     "the tile padded to 33 columns: no shared-memory bank conflicts", true, mc::kTile, mc::kTile, mc::kTile},
    {"cuda_transpose_tile_multi", Launcher::transpose_tile_multi, Op::transpose, "09_transpose_tile_multi.cu", "",
     "the padded tile with 32 x 8 threads, four elements each", true, mc::kTile, mc::kTile, mc::kTileRowsPerPass},
};

const CudaKernelVariant* find_kernel(const std::string& name) {
  for (const CudaKernelVariant& k : kKernels)
    if (name == k.name) return &k;
  return nullptr;
}

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
    case Launcher::add_vec4:
      return [=](const T* a, const T* b, T* out) { mc::launch_add_vec4<T>({a, b, out, rows, cols}, mc::kVecMaxBlocks, nullptr); };
    case Launcher::transpose_naive: return transpose(mc::launch_transpose_naive<T>);
    case Launcher::transpose_tile_as_printed: return transpose(mc::launch_transpose_tile_as_printed<T>);
    case Launcher::transpose_tile: return transpose(mc::launch_transpose_tile<T>);
    case Launcher::transpose_tile_padded: return transpose(mc::launch_transpose_tile_padded<T>);
    case Launcher::transpose_tile_multi: return transpose(mc::launch_transpose_tile_multi<T>);
  }
  throw std::logic_error("no launcher");
}

// "grid 128 x 512 of 32 x 8 threads" (the add: "grid 65536 of 256 threads, a vector per thread").
std::string launch_line(const CudaKernelVariant& k, const Shape& s, int element_bytes) {
  if (k.launcher == Launcher::add_vec4) {
    const long long vectors = s.elements() / (16 / element_bytes);
    const long long blocks = std::min<long long>(mc::kVecMaxBlocks, std::max<long long>(1, mc::blocks_for(vectors, mc::kVecBlock)));
    const bool strides = blocks * k.block_x < vectors;
    return "grid " + std::to_string(blocks) + " of " + std::to_string(k.block_x) + " threads, " +
           (strides ? "grid-stride" : "a vector per thread") + ", 16 B per access";
  }
  // The element-per-thread kernels cover the dimension threadIdx.x walks with blocks of 32 and the
  // other with blocks of 8 (the y grid capped, the rest looped); the tiles cover cols x rows in tiles.
  const bool x_on_rows = k.launcher == Launcher::add_colmajor || k.launcher == Launcher::transpose_naive;
  const long long x_items = x_on_rows ? s.rows : s.cols, y_items = x_on_rows ? s.cols : s.rows;
  const long long x_per_block = k.rows_per_block_row > 0 ? k.rows_per_block_row : k.block_x;
  const long long y_per_block = k.rows_per_block_row > 0 ? k.rows_per_block_row : k.block_y;
  return "grid " + std::to_string(mc::blocks_for(x_items, x_per_block)) + " x " +
         std::to_string(mc::grid_y(mc::blocks_for(y_items, y_per_block))) + " of " + std::to_string(k.block_x) + " x " +
         std::to_string(k.block_y) + " threads";
}

gpgpu::matrix::VariantSpec kernel_variant(const CudaKernelVariant& k) {
  gpgpu::matrix::VariantSpec v = cuda_variant(k.name, k.op, k.description, std::string("kernels/matrix/cuda/") + k.file,
                                              k.paper_name, k.in_all);
  v.make = [&k](const Shape& shape, ElementType type, gpgpu::Session&) -> std::unique_ptr<gpgpu::matrix::Kernel> {
    return gpgpu::matrix::dispatch(type, [&](auto tag) -> std::unique_ptr<gpgpu::matrix::Kernel> {
      using T = typename decltype(tag)::type;
      return std::make_unique<DeviceMatrices<T>>(k.op, shape, kernel_call<T>(k.launcher, shape),
                                                 launch_line(k, shape, sizeof(T)));
    });
  };
  v.limitation = [name = std::string(k.name)](const Shape& shape, ElementType, gpgpu::Session&) {
    return cuda_limitation(name, shape);
  };
  return v;
}

//! [cuda_memcpy]
gpgpu::matrix::VariantSpec memcpy_variant() {
  gpgpu::matrix::VariantSpec v = cuda_variant("cuda_memcpy", Op::copy, "cudaMemcpy device to device: the copy every transpose is measured against",
                                              "chapters/09_matrix_add_transpose/cuda_matrix.cpp");
  v.make = [](const Shape& shape, ElementType type, gpgpu::Session&) -> std::unique_ptr<gpgpu::matrix::Kernel> {
    return gpgpu::matrix::dispatch(type, [&](auto tag) -> std::unique_ptr<gpgpu::matrix::Kernel> {
      using T = typename decltype(tag)::type;
      const std::size_t bytes = static_cast<std::size_t>(shape.elements()) * sizeof(T);
      auto copy = [bytes](const T* a, const T*, T* out) {
        GPGPU_CUDA_CHECK(cudaMemcpyAsync(out, a, bytes, cudaMemcpyDeviceToDevice, nullptr));
      };
      return std::make_unique<DeviceMatrices<T>>(Op::copy, shape, copy, "cudaMemcpyAsync, device to device");
    });
  };
  return v;
}
//! [cuda_memcpy]

}  // namespace

std::optional<std::string> cuda_limitation(const std::string& variant, const Shape& shape) {
  const CudaKernelVariant* k = find_kernel(variant);
  if (k == nullptr) return std::nullopt;
  if (k->launcher == Launcher::transpose_tile_as_printed && shape.rows != shape.cols)
    return "the printed kernel (Obr. 20) has one width, wA: square matrices only";
  if (k->rows_per_block_row > 0 && mc::blocks_for(shape.rows, k->rows_per_block_row) > static_cast<unsigned>(mc::kMaxGridY))
    return "needs " + std::to_string(mc::blocks_for(shape.rows, k->rows_per_block_row)) +
           " block rows; a grid has at most 65535 (gridDim.y), and this kernel has no row loop";
  return std::nullopt;
}

std::vector<gpgpu::matrix::VariantSpec> cuda_variants() {
  std::vector<gpgpu::matrix::VariantSpec> v;
  for (const CudaKernelVariant& k : kKernels) v.push_back(kernel_variant(k));
  v.push_back(memcpy_variant());
  return v;
}

}  // namespace ch09
