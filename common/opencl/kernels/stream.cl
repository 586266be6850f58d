// The OpenCL backend's bandwidth limit (common/opencl/src/stream_limit.cpp): a kernel that reads
// READS arrays and writes WRITES arrays of n floats each, the read:write mix and the working set of
// the kernel it judges (11:1 for the Jacobi kernels: 9 diagonals, f and x in, the new x out; 1:1 is
// a copy). Built once per mix with -DREADS=R -DWRITES=W (1 <= R <= 16, 1 <= W <= 12).
//
// Every output element is the sum of the inputs' elements, so no load can be optimised away, and
// the sum costs nothing beside the memory traffic. Work-items move float4s (16-byte loads and
// stores: the widest a GPU issues per thread; a CPU device vectorises across work-items too); the
// last n % 4 floats are a scalar tail. Two kernels, so the host can try global sizes of one float4
// per work-item (stream) and smaller ones (stream_loop). The buffers start at
// CL_DEVICE_MEM_BASE_ADDR_ALIGN (at least 16 bytes), so the float4 casts are aligned.

// EACH_N(F) is F(0) F(1) ... F(N-1): the preprocessor's loop over the arrays read and written.
#define EACH_1(F) F(0)
#define EACH_2(F) EACH_1(F) F(1)
#define EACH_3(F) EACH_2(F) F(2)
#define EACH_4(F) EACH_3(F) F(3)
#define EACH_5(F) EACH_4(F) F(4)
#define EACH_6(F) EACH_5(F) F(5)
#define EACH_7(F) EACH_6(F) F(6)
#define EACH_8(F) EACH_7(F) F(7)
#define EACH_9(F) EACH_8(F) F(8)
#define EACH_10(F) EACH_9(F) F(9)
#define EACH_11(F) EACH_10(F) F(10)
#define EACH_12(F) EACH_11(F) F(11)
#define EACH_13(F) EACH_12(F) F(12)
#define EACH_14(F) EACH_13(F) F(13)
#define EACH_15(F) EACH_14(F) F(14)
#define EACH_16(F) EACH_15(F) F(15)
#define EACH_EXPANDED(count, F) EACH_##count(F)
#define EACH(count, F) EACH_EXPANDED(count, F)  // expands READS / WRITES first

#define IN_PARAM(r) , __global const float* restrict in##r
#define OUT_PARAM(w) , __global float* restrict out##w
#define ADD4(r) v += ((__global const float4*)in##r)[i];
#define STORE4(w) ((__global float4*)out##w)[i] = v;
#define ADD1(r) s += in##r[t];
#define STORE1(w) out##w[t] = s;
#define PARAMS const uint n EACH(READS, IN_PARAM) EACH(WRITES, OUT_PARAM)
// Element i of the float4s, element t of the floats.
#define FLOAT4_AT(i)           \
  {                            \
    float4 v = (float4)(0.0f); \
    EACH(READS, ADD4)          \
    EACH(WRITES, STORE4)       \
  }
#define FLOAT_AT(t)          \
  {                          \
    float s = 0.0f;          \
    EACH(READS, ADD1)        \
    EACH(WRITES, STORE1)     \
  }

// One float4 per work-item (global size >= n/4), the tail by the first n % 4 work-items. Without a
// loop in the kernel a CPU device vectorises across work-items (PoCL reached twice the rate of the
// loop below on 2 cores).
__kernel void stream(PARAMS) {
  const uint i = (uint)get_global_id(0);
  if (i < n / 4) FLOAT4_AT(i)
  const uint t = 4 * (n / 4) + i;
  if (t < n) FLOAT_AT(t)
}

// Any global size: a grid-stride loop, a few float4s per work-item.
__kernel void stream_loop(PARAMS) {
  const uint stride = (uint)get_global_size(0);
  for (uint i = (uint)get_global_id(0); i < n / 4; i += stride) FLOAT4_AT(i)
  for (uint t = 4 * (n / 4) + (uint)get_global_id(0); t < n; t += stride) FLOAT_AT(t)
}
