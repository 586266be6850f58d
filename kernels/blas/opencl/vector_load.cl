// 16-byte loads in OpenCL C 1.2, kernels/blas/cuda/vector_load.hpp's port: compiled before
// 10_05_vectorized.cl, 10_06_warptile.cl and 10_10_prefetch.cl (opencl_variants.cpp puts it first), as the CUDA
// kernels include the header. T, its 16-byte vector type TV (float4 or double2) of L lanes, and
// ALIGNED (every row's length a multiple of L: k and n) come from the host's -D options.
#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

// The `valid` (at most L, may be <= 0) elements of a row from row_base[offset] into seg, zeros after.
inline void load_segment(__global const T* row_base, int offset, int valid, T seg[L]) {
#if ALIGNED
  if (valid >= L) {
    const TV v = *(__global const TV*)(row_base + offset);
    *(TV*)seg = v;
    return;
  }
#endif
  for (int l = 0; l < L; ++l) seg[l] = l < valid ? row_base[offset + l] : (T)0;
}

// The L elements at src (16-byte aligned) into dst with one 16-byte load. From __local memory only:
// OpenCL 1.2 has no generic address space (CUDA's load16 reads global or shared memory).
inline void load16(__local const T* src, T* dst) {
  const TV v = *(__local const TV*)src;
  const T* lanes = (const T*)&v;
#pragma unroll
  for (int l = 0; l < L; ++l) dst[l] = lanes[l];
}
