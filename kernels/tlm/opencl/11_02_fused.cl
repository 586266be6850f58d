// Past the paper, in OpenCL C: the fused step of kernels/tlm/cuda/11_02_fused.cu with FP32 storage,
// compiled after scn.cl. Each node pulls its incident pulses from the reflected pulses of the last
// step (`in`), scatters them and writes its reflected pulses once (`out`): 96 B per node and step.

//! [opencl_fused]
__kernel void tlm_fused(__global const float* restrict in, __global float* restrict out, const StepArgs a,
                        __constant int* irises, __global float* probe) {
  const int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
  if (i >= a.nx) return;
  float v[PORTS];
  for (int p = 0; p < PORTS; ++p) {
    const int axis = port_axis(p), side = port_side(p);
    if (is_wall(&a, irises, i, j, k, axis, side))
      v[p] = WALL_REFLECTION * in[at(&a, p, i, j, k)];
    else
      v[p] = in[at(&a, opposite_port(p), i + (axis == 0) * side, j + (axis == 1) * side, k + (axis == 2) * side)];
  }
  source_and_probe(v, i, j, k, &a, probe);
  scatter(v, node_fields(v));
  for (int p = 0; p < PORTS; ++p) out[at(&a, p, i, j, k)] = v[p];
}
//! [opencl_fused]
