// Exercise 11, worked answer: the fused step on half-precision pulses, stored in pairs.
//
// Twelve arrays of halves, as 11_02_fused.cl has twelve of floats, would give each work-item 2-byte
// loads: a 64-work-item group reads 128 bytes per load, and a node needs 12 loads and 12 stores.
// But the two ports on one face of a node are always read together: both pulses arriving there come
// from the same neighbour, the two that left its opposite face (or, at a wall, the face's own two).
// So the halves are stored by face: six arrays of 4-byte words, one word per node and face, in the
// segmented rows of at() (x fastest, rows padded to 64 nodes). A work-item moves 6 aligned words in
// and 6 out; a work-group's load is 256 consecutive bytes.
//
// Inside a word the face's two ports are ordered by polarisation. Opposite ports share theirs, so a
// neighbour's word for the opposite face arrives in the order this face stores: one vload_half2 reads
// both pulses, with no swap.
//
// OpenCL C 1.2 may declare `half` pointers but not dereference them (that needs cl_khr_fp16):
// vload_half2 converts two stored halves to a float2, vstore_half2_rte rounds a float2 to the nearest
// halves (ties to even, like CUDA's __float2half_rn and the host's cl_half_from_float(x, CL_HALF_RTE)).
// The arithmetic stays in float.

// Face f = 2·axis + (side > 0) (x−, x+, y−, y+, z−, z+); FACE_PORT[f][s] is the port in slot s of face
// f, the one polarised along the lower axis in slot 0 (scn.cl's port table, worked out by hand).
__constant int FACE_PORT[6][2] = {{2, 5}, {10, 9}, {0, 4}, {11, 6}, {1, 3}, {8, 7}};

inline int face_of(int p) { return 2 * port_axis(p) + (port_side(p) > 0); }
inline int slot_of(int p) { return FACE_PORT[face_of(p)][1] == p; }

// The 4-byte word that holds face f of node (i, j, k).
inline int word(const StepArgs* a, int f, int i, int j, int k) { return f * a->plane + (k * a->ny + j) * a->pitch + i; }

int half_slot(const StepArgs* a, int p, int i, int j, int k) { return 2 * word(a, face_of(p), i, j, k) + slot_of(p); }

__kernel void tlm_fused_half(__global const half* restrict in, __global half* restrict out, const StepArgs a,
                             __constant int* irises, __global float* probe) {
  const int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
  if (i >= a.nx) return;
  float v[PORTS];
  for (int f = 0; f < 6; ++f) {
    const int axis = f / 2, side = f % 2 ? 1 : -1;
    // The pulses arriving at face f left the neighbour across it from its opposite face (f ^ 1), or,
    // at a wall, left face f itself and came back inverted.
    const float2 pair = is_wall(&a, irises, i, j, k, axis, side)
                            ? WALL_REFLECTION * vload_half2(word(&a, f, i, j, k), in)
                            : vload_half2(word(&a, f ^ 1, i + (axis == 0) * side, j + (axis == 1) * side, k + (axis == 2) * side), in);
    v[FACE_PORT[f][0]] = pair.x;
    v[FACE_PORT[f][1]] = pair.y;
  }
  source_and_probe(v, i, j, k, &a, probe);
  scatter(v, node_fields(v));
  for (int f = 0; f < 6; ++f) vstore_half2_rte((float2)(v[FACE_PORT[f][0]], v[FACE_PORT[f][1]]), word(&a, f, i, j, k), out);
}
