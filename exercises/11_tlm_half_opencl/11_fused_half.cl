// Exercise 11: the fused TLM step with pulses stored in half precision, in OpenCL C.
// Compiled after kernels/tlm/opencl/scn.cl (StepArgs, port_axis, port_side, opposite_port,
// is_wall, at, source_and_probe, node_fields, scatter, PORTS, WALL_REFLECTION are yours to use).
//
// `in` holds the reflected pulses of the last step, `out` receives this step's, both in half
// precision in the segmented layout of at(); compute in float. The host (chapter 11's
// opencl_tlm.cpp with Storage::f16) launches one work-item per node, global (nx rounded up to 64,
// ny, nz), local (64, 1, 1), and swaps `in` and `out` every step.
__kernel void tlm_fused_half(__global const half* restrict in, __global half* restrict out, const StepArgs a,
                             __constant int* irises, __global float* probe) {
  // TODO(exercise): the step of kernels/tlm/opencl/11_fused.cl, with every pulse read from and
  // written to half-precision storage. OpenCL C 1.2 cannot dereference a half pointer.
}
