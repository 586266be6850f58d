// Exercise 11, a shortcut the check must reject: the worked answer's layout (each face's two pulses
// in one aligned word), but the kernel loads and stores each pulse on its own with the scalar
// vload_half and vstore_half_rte: twelve 2-byte loads and twelve 2-byte stores a node, the pattern
// the layout exists to remove. Its field is right; only the check's reading of the kernel's text
// tells it from the worked answer.

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
    const bool wall = is_wall(&a, irises, i, j, k, axis, side);
    const int w = wall ? word(&a, f, i, j, k)
                       : word(&a, f ^ 1, i + (axis == 0) * side, j + (axis == 1) * side, k + (axis == 2) * side);
    const float scale = wall ? WALL_REFLECTION : 1.0f;
    v[FACE_PORT[f][0]] = scale * vload_half(2 * w, in);
    v[FACE_PORT[f][1]] = scale * vload_half(2 * w + 1, in);
  }
  source_and_probe(v, i, j, k, &a, probe);
  scatter(v, node_fields(v));
  for (int f = 0; f < 6; ++f) {
    vstore_half_rte(v[FACE_PORT[f][0]], 2 * word(&a, f, i, j, k), out);
    vstore_half_rte(v[FACE_PORT[f][1]], 2 * word(&a, f, i, j, k) + 1, out);
  }
}
