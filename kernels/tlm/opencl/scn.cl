// The symmetrical condensed node in OpenCL C 1.2: the port table, the scatter, the source, the
// walls and the paper's coalesced address, as problems/tlm/include/gpgpu/tlm/scn.hpp and
// kernels/tlm/cuda/scn_device.hpp have them for C++ and CUDA. Compiled in front of every kernel
// file of kernels/tlm/opencl (gpgpu::tlm::opencl_program), so the kernels share one node.

#define PORTS 12
#define PROBE_VALUES 6
#define WALL_REFLECTION (-1.0f)

// What a step's kernels receive by value (a struct without pointers is a legal kernel argument in
// OpenCL 1.2); the host fills the same fields (kernels/tlm/opencl/include/gpgpu/tlm/opencl_kernels.hpp).
typedef struct {
  int nx, ny, nz;       // nodes
  int pitch, plane;     // the segmented layout: elements per x row, per port array
  int iris_count;       // irises in the __constant table: k, x0, x1, y0, y1 each
  int source_node, source_polarisation;
  float source_value;   // what the source adds this step
  int probe_node;       // the node whose fields this step records at probe[probe_offset ...]
  int probe_offset;
} StepArgs;

// Ports 0-11 are the paper's V1-V12: the axis of the face each sits on, its side, the opposite port.
inline int port_axis(int p) {
  return (p == 2 || p == 5 || p == 9 || p == 10) ? 0 : (p == 0 || p == 4 || p == 6 || p == 11) ? 1 : 2;
}
inline int port_side(int p) { return p < 6 ? -1 : 1; }
inline int opposite_port(int p) {
  return p == 0 ? 11 : p == 1 ? 8 : p == 2 ? 10 : p == 3 ? 7 : p == 4 ? 6 : p == 5 ? 9
       : p == 6 ? 4 : p == 7 ? 3 : p == 8 ? 1 : p == 9 ? 5 : p == 10 ? 2 : 0;
}

// Node voltages (vx, vy, vz) and loop currents times Z0 (ix, iy, iz) of the incident pulses.
typedef struct {
  float vx, vy, vz, ix, iy, iz;
} NodeFields;

inline NodeFields node_fields(const float* v) {
  NodeFields f;
  f.vx = 0.5f * (v[0] + v[1] + v[8] + v[11]);
  f.vy = 0.5f * (v[2] + v[3] + v[7] + v[10]);
  f.vz = 0.5f * (v[4] + v[5] + v[6] + v[9]);
  f.ix = 0.5f * (v[3] - v[4] + v[6] - v[7]);
  f.iy = 0.5f * (v[5] - v[1] + v[8] - v[9]);
  f.iz = 0.5f * (v[0] - v[2] + v[10] - v[11]);
  return f;
}

// Christopoulos' two-step scatter, in place: incident pulses in, reflected pulses out.
inline void scatter(float* v, const NodeFields f) {
  const float r0 = f.vx - f.iz - v[11], r11 = f.vx + f.iz - v[0];
  const float r1 = f.vx + f.iy - v[8], r8 = f.vx - f.iy - v[1];
  const float r2 = f.vy + f.iz - v[10], r10 = f.vy - f.iz - v[2];
  const float r3 = f.vy - f.ix - v[7], r7 = f.vy + f.ix - v[3];
  const float r4 = f.vz + f.ix - v[6], r6 = f.vz - f.ix - v[4];
  const float r5 = f.vz - f.iy - v[9], r9 = f.vz + f.iy - v[5];
  v[0] = r0; v[1] = r1; v[2] = r2; v[3] = r3; v[4] = r4; v[5] = r5;
  v[6] = r6; v[7] = r7; v[8] = r8; v[9] = r9; v[10] = r10; v[11] = r11;
}

// Whether the face of node (i, j, k) on `side` of `axis` is a perfect conductor: the mesh's outer
// faces, and a z-face an iris covers outside its window.
inline bool is_wall(const StepArgs* a, __constant const int* irises, int i, int j, int k, int axis, int side) {
  if (axis == 0) return side < 0 ? i == 0 : i == a->nx - 1;
  if (axis == 1) return side < 0 ? j == 0 : j == a->ny - 1;
  if (side < 0 ? k == 0 : k == a->nz - 1) return true;
  const int face = side < 0 ? k : k + 1;
  for (int n = 0; n < a->iris_count; ++n) {
    __constant const int* s = irises + 5 * n;
    if (s[0] == face && !(i >= s[1] && i < s[2] && j >= s[3] && j < s[4])) return true;
  }
  return false;
}

// The paper's coalesced layout: twelve arrays, x rows padded to whole 64-node segments.
inline int at(const StepArgs* a, int p, int i, int j, int k) { return p * a->plane + (k * a->ny + j) * a->pitch + i; }

// The source adds its value at its node (s/2 on each of the four pulses of its polarisation); the
// probe node records its fields.
inline void source_and_probe(float* v, int i, int j, int k, const StepArgs* a, __global float* probe) {
  const int node = (k * a->ny + j) * a->nx + i;
  if (node == a->source_node) {
    const float h = 0.5f * a->source_value;
    if (a->source_polarisation == 0) { v[0] += h; v[1] += h; v[8] += h; v[11] += h; }
    if (a->source_polarisation == 1) { v[2] += h; v[3] += h; v[7] += h; v[10] += h; }
    if (a->source_polarisation == 2) { v[4] += h; v[5] += h; v[6] += h; v[9] += h; }
  }
  if (node == a->probe_node) {
    const NodeFields f = node_fields(v);
    __global float* out = probe + a->probe_offset;
    out[0] = f.vx; out[1] = f.vy; out[2] = f.vz; out[3] = f.ix; out[4] = f.iy; out[5] = f.iz;
  }
}
