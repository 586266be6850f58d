// The paper's coalesced kernels in OpenCL C (sec. V): the port of the scatter and connect of
// kernels/tlm/cuda/11_01_scatter_connect.cu on the segmented layout, compiled after scn.cl. CUDA ->
// OpenCL (the paper's Fig. 9): __global__ -> __kernel; blockIdx.x * blockDim.x + threadIdx.x ->
// get_global_id(0), blockIdx.y -> get_global_id(1) (a work-group is one row segment: local size
// (64, 1, 1)); the template parameter Address -> at() of scn.cl; the kernel's struct of arguments
// stays a struct, its pointers become arguments of their own.

//! [opencl_scatter]
__kernel void tlm_scatter(__global float* pulses, const StepArgs a, __constant int* irises, __global float* probe) {
  const int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
  if (i >= a.nx) return;  // the tail of the last segment
  float v[PORTS];
  for (int p = 0; p < PORTS; ++p) v[p] = pulses[at(&a, p, i, j, k)];
  source_and_probe(v, i, j, k, &a, probe);
  scatter(v, node_fields(v));
  for (int p = 0; p < PORTS; ++p) pulses[at(&a, p, i, j, k)] = v[p];
}
//! [opencl_scatter]

//! [opencl_connect]
// Each open face's link swaps its two pulses, done by the node below the face; a wall inverts.
__kernel void tlm_connect(__global float* pulses, const StepArgs a, __constant int* irises, __global float* probe) {
  const int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
  if (i >= a.nx) return;
  (void)probe;
  for (int p = 0; p < PORTS; ++p) {
    const int axis = port_axis(p), side = port_side(p);
    if (is_wall(&a, irises, i, j, k, axis, side)) {
      pulses[at(&a, p, i, j, k)] *= WALL_REFLECTION;
    } else if (side > 0) {
      const int mine = at(&a, p, i, j, k);
      const int theirs = at(&a, opposite_port(p), i + (axis == 0), j + (axis == 1), k + (axis == 2));
      const float t = pulses[mine];
      pulses[mine] = pulses[theirs];
      pulses[theirs] = t;
    }
  }
}
//! [opencl_connect]
