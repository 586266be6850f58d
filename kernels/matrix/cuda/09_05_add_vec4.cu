// Chapter 09, past the paper: today's add. An add touches each element once and does not care
// where an element sits in its matrix, so the matrices are three flat arrays of rows * cols
// elements. Each thread moves 16 bytes per load and store (float4, double2 or int4: four floats,
// two doubles, four ints), the widest access a thread can make, so a warp asks for 512
// contiguous bytes at a time and the SM keeps more bytes in flight per instruction. The threads
// stride over the arrays (grid-stride loop), so any grid is correct; the launch gives one thread per
// vector up to 2^25 threads (a 11585² float matrix), since a grid of a few blocks per SM that loops
// falls short of the stream limit that one vector per thread reaches (a block that ends frees its
// slot to a block whose loads start at once; a looping thread waits for its loads before the next
// ones). The last rows * cols % width elements, which fill no vector, get a scalar tail.
// cudaMalloc aligns every buffer to 256 bytes, as the vector loads need (16).
#include "launchers.hpp"

#include <cstdint>

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::matrix::cuda {
namespace {

/// 16 bytes of T.
template <typename T> struct Vector16;
template <> struct Vector16<float> { using type = float4; };
template <> struct Vector16<double> { using type = double2; };
template <> struct Vector16<std::int32_t> { using type = int4; };

__device__ __forceinline__ float4 plus(float4 x, float4 y) { return {x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w}; }
__device__ __forceinline__ double2 plus(double2 x, double2 y) { return {x.x + y.x, x.y + y.y}; }
__device__ __forceinline__ int4 plus(int4 x, int4 y) { return {x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w}; }

//! [add_vec4]
template <typename T>
__global__ void add_vec4(AddArgs<T> a) {
  using V = typename Vector16<T>::type;
  constexpr int kWidth = sizeof(V) / sizeof(T);
  const long long n = static_cast<long long>(a.rows) * a.cols;
  const long long vectors = n / kWidth;
  const long long first = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  const V* va = reinterpret_cast<const V*>(a.a);
  const V* vb = reinterpret_cast<const V*>(a.b);
  V* vc = reinterpret_cast<V*>(a.c);
  for (long long v = first; v < vectors; v += stride) vc[v] = plus(va[v], vb[v]);
  const long long tail = vectors * kWidth + first;  // the last n % kWidth elements, one per thread
  if (tail < n) a.c[tail] = a.a[tail] + a.b[tail];
}
//! [add_vec4]

// The launch: blocks of 256 threads, a thread per vector up to a grid of 2^25 threads (options.hpp
// bounds the elements so that an index plus one stride of such a grid fits an int).
constexpr int kAddVec4Block = 256;
constexpr unsigned kAddVec4MaxBlocks = (1u << 25) / kAddVec4Block;

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
LaunchShape add_vec4_shape(int rows, int cols, int element_bytes, unsigned max_blocks) {
  const long long vectors = static_cast<long long>(rows) * cols / (16 / element_bytes);
  // A thread per vector, at least one block (the tail), at most max_blocks.
  const unsigned blocks = blocks_for(vectors < 1 ? 1 : vectors, kAddVec4Block);
  const unsigned most = max_blocks == 0 ? kAddVec4MaxBlocks : max_blocks;
  return {dim3(blocks < most ? blocks : most), dim3(kAddVec4Block)};
}

template <typename T>
void launch_add_vec4(const AddArgs<T>& a, cudaStream_t stream, unsigned max_blocks) {
  const LaunchShape s = add_vec4_shape(a.rows, a.cols, sizeof(T), max_blocks);
  add_vec4<<<s.grid, s.block, 0, stream>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("add_vec4");
}
template void launch_add_vec4<float>(const AddArgs<float>&, cudaStream_t, unsigned);
template void launch_add_vec4<double>(const AddArgs<double>&, cudaStream_t, unsigned);
template void launch_add_vec4<std::int32_t>(const AddArgs<std::int32_t>&, cudaStream_t, unsigned);
#endif

}  // namespace gpgpu::matrix::cuda
