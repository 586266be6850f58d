// Exercise 11, worked answer: kernels/tlm/opencl/11_fused.cl with half-precision storage.
// OpenCL C 1.2 may declare `half` pointers but not dereference them (that needs cl_khr_fp16):
// vload_half converts a stored half to float, vstore_half_rte rounds a float to the nearest half
// (ties to even, like CUDA's __float2half_rn and the host's cl_half_from_float(x, CL_HALF_RTE)).
// The arithmetic stays in float; only storage is halved: 48 B per node and step.
__kernel void tlm_fused_half(__global const half* restrict in, __global half* restrict out, const StepArgs a,
                             __constant int* irises, __global float* probe) {
  const int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
  if (i >= a.nx) return;
  float v[PORTS];
  for (int p = 0; p < PORTS; ++p) {
    const int axis = port_axis(p), side = port_side(p);
    if (is_wall(&a, irises, i, j, k, axis, side))
      v[p] = WALL_REFLECTION * vload_half(at(&a, p, i, j, k), in);
    else
      v[p] = vload_half(at(&a, opposite_port(p), i + (axis == 0) * side, j + (axis == 1) * side, k + (axis == 2) * side), in);
  }
  source_and_probe(v, i, j, k, &a, probe);
  scatter(v, node_fields(v));
  for (int p = 0; p < PORTS; ++p) vstore_half_rte(v[p], at(&a, p, i, j, k), out);
}
