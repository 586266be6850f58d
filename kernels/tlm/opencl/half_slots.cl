// Where a half-precision kernel stores its pulses, for the host (exercise 11). The kernel file put
// before this one defines half_slot(): the element (half) index of pulse p of node (i, j, k) in the
// buffers it reads and writes. One work-item per node writes its twelve slots in the canonical order
// of the reference, p·nodes + node; the host packs and unpacks the halves with them and checks the
// layout's properties.
__kernel void tlm_half_slots(const StepArgs a, __global int* slots) {
  const int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
  if (i >= a.nx) return;
  const int node = (k * a.ny + j) * a.nx + i, nodes = a.nx * a.ny * a.nz;
  for (int p = 0; p < PORTS; ++p) slots[p * nodes + node] = half_slot(&a, p, i, j, k);
}
