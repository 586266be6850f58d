// Chapter 09's OpenCL variants and their host code: the counterpart of cuda_variants.cpp's
// cudaMalloc / cudaMemcpy / kernel<<<grid, block>>>(...) / cudaEvent timing, spelled out with
// handles: buffers, a kernel object with its arguments set once, an NDRange enqueued `calls` times
// with profiling events on the first and the last launch, the read-back.
#include "opencl_variants.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <stdexcept>

#include "gpgpu/errors.hpp"
#include "gpgpu/matrix/opencl_kernels.hpp"
#include "gpgpu/opencl/opener.hpp"

namespace ch09 {
namespace {

using gpgpu::matrix::ElementType;
using gpgpu::matrix::HostMatrix;
using gpgpu::matrix::Op;
using gpgpu::matrix::Shape;
using gpgpu::ocl::round_up;

// The OpenCL variants: the kernels of kernels/matrix/opencl in file order, then clEnqueueCopyBuffer
// (the copy, peer of every transpose).
constexpr std::array kClVariants{
    ClVariant{"cl_add_rowmajor", Op::add, "kernels/matrix/opencl/09_01_add_rowmajor.cl", "add_rowmajor", "cuda_add_rowmajor",
     "OpenCL", "one work-item per element, along a row (paper Obr. 12)", ClGrid::rows_cols},
    ClVariant{"cl_add_colmajor", Op::add, "kernels/matrix/opencl/09_02_add_colmajor.cl", "add_colmajor", "cuda_add_colmajor", "",
     "one work-item per element, down a column (paper Obr. 15)", ClGrid::cols_rows},
    ClVariant{"cl_add_vec4", Op::add, "kernels/matrix/opencl/09_05_add_vec4.cl", "add_vec4", "cuda_add_vec4", "",
     "flat arrays, 16 bytes per access, grid-stride loop", ClGrid::flat},
    ClVariant{"cl_transpose_naive", Op::transpose, "kernels/matrix/opencl/09_06_transpose_naive.cl", "transpose_naive",
     "cuda_transpose_naive", "OpenCL", "one work-item per element, loads down columns (paper Obr. 19)", ClGrid::cols_rows},
    ClVariant{"cl_transpose_tile", Op::transpose, "kernels/matrix/opencl/09_08_transpose_tile.cl", "transpose_tile",
     "cuda_transpose_tile", "", "32 x 32 tile in __local memory, group indices swapped", ClGrid::tiles},
    ClVariant{"cl_transpose_tile_padded", Op::transpose, "kernels/matrix/opencl/09_09_transpose_tile_padded.cl",
     "transpose_tile_padded", "cuda_transpose_tile_padded", "", "the local tile padded to 33 columns", ClGrid::tiles},
    ClVariant{"cl_transpose_tile_multi", Op::transpose, "kernels/matrix/opencl/09_10_transpose_tile_multi.cl",
     "transpose_tile_multi", "cuda_transpose_tile_multi", "", "the padded tile with 32 x 8 work-items, four elements each",
     ClGrid::tiles_multi},
    ClVariant{"cl_transpose_tile_vec4", Op::transpose, "kernels/matrix/opencl/09_11_transpose_tile_vec4.cl",
     "transpose_tile_vec4", "cuda_transpose_tile_vec4", "", "64 x 64 padded tile, 16 bytes per global load and store",
     ClGrid::tiles_vec4},
    ClVariant{"cl_transpose_tile_panels", Op::transpose, "kernels/matrix/opencl/09_12_transpose_tile_panels.cl",
     "transpose_tile_panels", "cuda_transpose_tile_panels", "", "the 16-byte tile, tiles taken down panels of 32 tile columns",
     ClGrid::tiles_vec4},
    ClVariant{"cl_transpose_persistent", Op::transpose, "kernels/matrix/opencl/09_13_transpose_persistent.cl",
     "transpose_persistent", "cuda_transpose_persistent", "",
     "the panels' tiles, a resident grid of groups looping over them, next tile loaded before the current is stored",
     ClGrid::persistent},
    ClVariant{"cl_transpose_strip", Op::transpose, "kernels/matrix/opencl/09_14_transpose_strip.cl", "transpose_strip",
     "cuda_transpose_tma", "",
     "no TMA in OpenCL: a group moves 64 rows x 512 bytes (two float tiles), every load issued before its one barrier",
     ClGrid::strips},
    ClVariant{"cl_copy", Op::copy, "", "", "cuda_memcpy", "", "clEnqueueCopyBuffer: the copy every transpose is measured against",
     ClGrid::flat},
};

constexpr std::size_t kTile = 32, kRowsPerPass = 8;  // as the .cl files' TILE and ROWS_PER_PASS
// As 09_11_transpose_tile_vec4.cl to 09_13: TILE, and WARP_VECTORS x WARP_ROWS x WARPS work-items per group.
constexpr std::size_t kVec4Tile = 64, kVec4WarpVectors = 8, kVec4WarpRows = 4, kVec4Warps = 8;
constexpr std::size_t kFlatGroup = 256;
constexpr std::size_t kClStripBytes = 512;  // as 09_14_transpose_strip.cl: TILES x TILE elements of a row

std::size_t bytes_of(const Shape& s, ElementType t) {
  return static_cast<std::size_t>(s.elements()) * static_cast<std::size_t>(gpgpu::matrix::type_bytes(t));
}

// The operands and the result of one operation in OpenCL buffers, and the kernel (or, for the copy,
// clEnqueueCopyBuffer) that computes it.
class ClMatrices final : public gpgpu::matrix::Operation {
 public:
  ClMatrices(gpgpu::ocl::Runtime& runtime, const ClVariant& v, Shape shape, ElementType type,
             std::size_t max_flat_items)
      : runtime_(runtime), variant_(v), shape_(shape), type_(type), bytes_(bytes_of(shape, type)) {
    const cl::Context& context = runtime_.context();
    a_ = GPGPU_CL(cl::Buffer(context, CL_MEM_READ_ONLY, bytes_));
    if (v.op == Op::add) b_ = GPGPU_CL(cl::Buffer(context, CL_MEM_READ_ONLY, bytes_));
    out_ = GPGPU_CL(cl::Buffer(context, CL_MEM_WRITE_ONLY, bytes_));
    if (v.kernel.empty()) return;  // the copy needs no kernel
    const cl::Program& program = runtime_.program(gpgpu::matrix::opencl_kernel(v.file), type_options(type));
    kernel_ = GPGPU_CL(cl::Kernel(program, std::string(v.kernel).c_str()));
    cl_uint arg = 0;
    GPGPU_CL(kernel_.setArg(arg++, a_));
    if (v.op == Op::add) GPGPU_CL(kernel_.setArg(arg++, b_));
    GPGPU_CL(kernel_.setArg(arg++, out_));
    GPGPU_CL(kernel_.setArg(arg++, static_cast<cl_int>(shape.rows)));
    GPGPU_CL(kernel_.setArg(arg++, static_cast<cl_int>(shape.cols)));
    const auto units = GPGPU_CL(runtime_.device().getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>());
    launch_ = cl_launch(v.grid, shape, type, max_flat_items, units);
  }

  void upload(const gpgpu::matrix::Inputs& in) override {
    cl::CommandQueue& queue = runtime_.queue();
    GPGPU_CL(queue.enqueueWriteBuffer(a_, CL_TRUE, 0, bytes_, in.a.data()));
    if (variant_.op == Op::add) GPGPU_CL(queue.enqueueWriteBuffer(b_, CL_TRUE, 0, bytes_, in.b.data()));
    const auto poison = static_cast<cl_uchar>(gpgpu::matrix::poison_byte(type_));
    GPGPU_CL(queue.enqueueFillBuffer(out_, poison, 0, bytes_));
    GPGPU_CL(queue.finish());
  }

  //! [opencl_run]
  double run(int calls) override {
    cl::CommandQueue& queue = runtime_.queue();
    // Events only on the first and the last call: the device clock from the start of one to the
    // end of the other covers every call, and the calls between carry no profiling cost.
    cl::Event first, last;
    for (int c = 0; c < calls; ++c) {
      cl::Event* event = c == 0 ? &first : (c == calls - 1 ? &last : nullptr);
      if (kernel_())
        GPGPU_CL(queue.enqueueNDRangeKernel(kernel_, cl::NullRange, launch_.global, launch_.local, nullptr, event));
      else
        GPGPU_CL(queue.enqueueCopyBuffer(a_, out_, 0, 0, bytes_, nullptr, event));
    }
    if (calls == 1) last = first;
    GPGPU_CL(last.wait());
    return gpgpu::ocl::profiled_seconds(first, last);
  }
  //! [opencl_run]

  HostMatrix download() override {
    HostMatrix out = HostMatrix::zeros(variant_.op == Op::transpose ? shape_.transposed() : shape_, type_);
    GPGPU_CL(runtime_.queue().enqueueReadBuffer(out_, CL_TRUE, 0, bytes_, out.data()));
    return out;
  }

  [[nodiscard]] std::string launch() const override {
    return kernel_() ? launch_.str() : "clEnqueueCopyBuffer";
  }

 private:
  gpgpu::ocl::Runtime& runtime_;
  const ClVariant& variant_;
  Shape shape_;
  ElementType type_;
  std::size_t bytes_;
  cl::Buffer a_, b_, out_;
  cl::Kernel kernel_;
  ClLaunch launch_;
};

}  // namespace


std::string type_options(ElementType type) {
  switch (type) {
    case ElementType::f32: return "-DT=float -DT16=float4";
    case ElementType::f64: return "-DT=double -DT16=double2 -DUSE_FP64";
    case ElementType::i32: break;
  }
  return "-DT=int -DT16=int4";
}

std::string ClLaunch::str() const {
  const auto sizes = [](const cl::NDRange& r) {
    std::string s = std::to_string(r[0]);
    for (std::size_t d = 1; d < r.dimensions(); ++d) s += " x " + std::to_string(r[d]);
    return s;
  };
  return "global " + sizes(global) + ", local " + sizes(local);
}

ClLaunch cl_launch(ClGrid grid, const Shape& shape, ElementType type, std::size_t max_flat_items,
                   std::size_t compute_units) {
  const auto rows = static_cast<std::size_t>(shape.rows), cols = static_cast<std::size_t>(shape.cols);
  switch (grid) {
    case ClGrid::rows_cols: return {cl::NDRange(round_up(cols, 32), round_up(rows, 8)), cl::NDRange(32, 8)};
    case ClGrid::cols_rows: return {cl::NDRange(round_up(rows, 32), round_up(cols, 8)), cl::NDRange(32, 8)};
    case ClGrid::tiles:
      return {cl::NDRange(round_up(cols, kTile), round_up(rows, kTile)), cl::NDRange(kTile, kTile)};
    case ClGrid::tiles_multi:
      return {cl::NDRange(round_up(cols, kTile), round_up(rows, kTile) / kTile * kRowsPerPass),
              cl::NDRange(kTile, kRowsPerPass)};
    case ClGrid::tiles_vec4:
      return {cl::NDRange(round_up(cols, kVec4Tile) / kVec4Tile * kVec4WarpVectors,
                          round_up(rows, kVec4Tile) / kVec4Tile * kVec4WarpRows, kVec4Warps),
              cl::NDRange(kVec4WarpVectors, kVec4WarpRows, kVec4Warps)};
    case ClGrid::persistent: {
      const std::size_t tiles = round_up(cols, kVec4Tile) / kVec4Tile * (round_up(rows, kVec4Tile) / kVec4Tile);
      const std::size_t groups = std::max<std::size_t>(1, std::min(tiles, kClPersistentGroupsPerUnit * compute_units));
      return {cl::NDRange(groups * kVec4WarpVectors, kVec4WarpRows, kVec4Warps),
              cl::NDRange(kVec4WarpVectors, kVec4WarpRows, kVec4Warps)};
    }
    case ClGrid::strips: {  // 512 bytes of a row per strip, as the .cl file's TILES x TILE
      const std::size_t strip = kClStripBytes / static_cast<std::size_t>(gpgpu::matrix::type_bytes(type));
      return {cl::NDRange(round_up(cols, strip) / strip * kVec4WarpVectors, round_up(rows, kVec4Tile) / kVec4Tile * kVec4WarpRows,
                          kVec4Warps),
              cl::NDRange(kVec4WarpVectors, kVec4WarpRows, kVec4Warps)};
    }
    case ClGrid::flat: break;
  }
  // A work-item per vector (at least one group: the tail), at most max_flat_items in whole groups:
  // as in CUDA (09_05_add_vec4.cu), a few looping groups per compute unit fall short of the limit that a
  // vector per work-item reaches, the shape the limit itself runs in.
  const std::size_t vectors = std::max<std::size_t>(1, bytes_of(shape, type) / 16);
  const std::size_t most = std::max(kFlatGroup, max_flat_items / kFlatGroup * kFlatGroup);
  return {cl::NDRange(std::min(round_up(vectors, kFlatGroup), most)), cl::NDRange(kFlatGroup)};
}

ClKernelLimits cl_kernel_limits(const ClVariant& v, ElementType type, gpgpu::ocl::Runtime& runtime) {
  ClKernelLimits limits;
  limits.fp64 = GPGPU_CL(runtime.device().getInfo<CL_DEVICE_DOUBLE_FP_CONFIG>()) != 0;
  if (v.kernel.empty() || (type == ElementType::f64 && !limits.fp64)) return limits;  // nothing to build
  const cl::Program& program = runtime.program(gpgpu::matrix::opencl_kernel(v.file), type_options(type));
  const cl::Kernel kernel = GPGPU_CL(cl::Kernel(program, std::string(v.kernel).c_str()));
  limits.max_work_group = GPGPU_CL(kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(runtime.device()));
  return limits;
}

std::optional<std::string> cl_limitation(const ClVariant& v, ElementType type, const ClKernelLimits& limits) {
  if (type == ElementType::f64 && !limits.fp64) return "the device has no double precision (cl_khr_fp64)";
  if (v.kernel.empty()) return std::nullopt;  // the copy launches no kernel
  const ClLaunch launch = cl_launch(v.grid, {1, 1}, type);
  std::size_t group = 1;
  for (std::size_t d = 0; d < launch.local.dimensions(); ++d) group *= launch.local[d];
  if (group > limits.max_work_group)
    return "needs work-groups of " + std::to_string(group) + " work-items; the device runs this kernel in at most " +
           std::to_string(limits.max_work_group);
  return std::nullopt;
}

gpgpu::matrix::Variant opencl_variant(const ClVariant& v, std::size_t max_flat_items) {
  gpgpu::matrix::Variant s;
  s.info = {std::string(v.name), gpgpu::Backend::opencl,
            std::string(v.description) + (v.ports.empty() ? "" : " (port of " + std::string(v.ports) + ")"),
            v.kernel.empty() ? "chapters/09_matrix_add_transpose/opencl_variants.cpp" : std::string(v.file),
            std::string(v.paper_name), "OpenCL profiling events"};
  s.opener = gpgpu::ocl::opener;
  s.op = v.op;
  s.ports = std::string(v.ports);
  s.make = [&v, max_flat_items](const gpgpu::matrix::Inputs& in, gpgpu::Session& session) {
    return std::make_unique<ClMatrices>(gpgpu::ocl::runtime_of(session), v, in.a.shape(), in.a.type(), max_flat_items);
  };
  s.check_fits = [&v](const gpgpu::matrix::Size& size, gpgpu::Session& session) {
    const double matrix = static_cast<double>(bytes_of(size.shape, size.type));
    gpgpu::ocl::require_device_memory(gpgpu::ocl::runtime_of(session).info(), (v.op == Op::add ? 3 : 2) * matrix, matrix,
                                      std::string(v.name) + " on a " + size.shape.str() + " matrix");
  };
  s.limitation = [&v](const gpgpu::matrix::Size& size, gpgpu::Session& session) {
    return cl_limitation(v, size.type, cl_kernel_limits(v, size.type, gpgpu::ocl::runtime_of(session)));
  };
  return s;
}

const ClVariant& cl_variant(std::string_view name) {
  for (const ClVariant& v : kClVariants)
    if (v.name == name) return v;
  throw std::out_of_range("no OpenCL variant '" + std::string(name) + "'");
}

std::vector<gpgpu::matrix::Variant> opencl_variants() {
  std::vector<gpgpu::matrix::Variant> variants;
  for (const ClVariant& v : kClVariants) variants.push_back(opencl_variant(v, kClFlatMaxItems));
  return variants;
}

}  // namespace ch09
