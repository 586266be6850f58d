// The bandwidth reference: out = in, four floats per work-item (16-byte loads and stores).
// The host measures it beside clEnqueueCopyBuffer (common/opencl/src/bandwidth.cpp).
__kernel void copy_float4(__global const float4* restrict in, __global float4* restrict out, uint count) {
  const uint i = get_global_id(0);
  if (i < count) out[i] = in[i];
}
