// A shortcut the check of exercise 11 must reject (grading test): each face's two ports share a
// word, but a node's six words lie side by side (24 bytes per node, an array of structures). Its
// results are right; a work-group's loads are not: neighbouring work-items read words 24 bytes apart.
__constant int FACE_PORT[6][2] = {{2, 5}, {10, 9}, {0, 4}, {11, 6}, {1, 3}, {8, 7}};

inline int face_of(int p) { return 2 * port_axis(p) + (port_side(p) > 0); }
inline int word(const StepArgs* a, int f, int i, int j, int k) { return 6 * ((k * a->ny + j) * a->pitch + i) + f; }

int half_slot(const StepArgs* a, int p, int i, int j, int k) {
  return 2 * word(a, face_of(p), i, j, k) + (FACE_PORT[face_of(p)][1] == p);
}

__kernel void tlm_fused_half(__global const half* restrict in, __global half* restrict out, const StepArgs a,
                             __constant int* irises, __global float* probe) {
  const int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
  if (i >= a.nx) return;
  float v[PORTS];
  for (int f = 0; f < 6; ++f) {
    const int axis = f / 2, side = f % 2 ? 1 : -1;
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
