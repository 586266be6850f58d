// Exercise 11: the fused TLM step with pulses stored in half precision, in OpenCL C.
// Compiled after kernels/tlm/opencl/scn.cl (StepArgs, port_axis, port_side, opposite_port,
// is_wall, at, source_and_probe, node_fields, scatter, PORTS, WALL_REFLECTION are yours to use).

// Where pulse p of node (i, j, k) lives: its element (half) index in `in` and `out`, each a buffer
// of 12·a->plane halves (2 bytes per pulse and the padding of the rows, as in at()). The host packs
// the first step's pulses and unpacks the results with it, and the check tests its properties.
int half_slot(const StepArgs* a, int p, int i, int j, int k) {
  // TODO(exercise): choose the layout (exercises/11_tlm_half_opencl/README.md says what it must achieve).
  return -1;
}

// One step: `in` holds the reflected pulses of the last step, `out` receives this step's, both where
// half_slot() puts them; compute in float. The host (chapter 11's opencl_variants.cpp with Storage::f16)
// launches one work-item per node, global (nx rounded up to 64, ny, nz), local (64, 1, 1), and swaps
// `in` and `out` every step.
__kernel void tlm_fused_half(__global const half* restrict in, __global half* restrict out, const StepArgs a,
                             __constant int* irises, __global float* probe) {
  // TODO(exercise): pull the incident pulses, add the source, scatter, store the reflected ones.
}
