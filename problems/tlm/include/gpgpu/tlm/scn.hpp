/// @file scn.hpp
/// @brief The symmetrical condensed node (Johns, IEEE T-MTT 35(4), 1987) in the two-step form of
/// Christopoulos, "The Transmission-Line Matrix Method" (IEEE Press, 1995): its twelve ports, the
/// face each one sits on, the scatter, and the field at a node. One header for every backend that
/// compiles C++: the CPU reference (double), the CPU variants (float) and the CUDA kernels (float,
/// __host__ __device__ under nvcc). OpenCL C has its own copy, kernels/tlm/opencl/scn.cl.
///
/// Ports, 0-based (port p is the paper's V(p+1)):
///
///   port    0  1  2  3  4  5  6  7  8  9 10 11
///   V       1  2  3  4  5  6  7  8  9 10 11 12
///   polar.  x  x  y  y  z  z  z  y  x  z  y  x
///   face   -y -z -x -z -y -x +y +z +z +x +x +y
///
/// Each link line is polarised across its direction, so the two lines through a face carry the two
/// field components tangential to it. Opposite ports (the same polarisation on opposite faces) pair
/// up as 1/12 and 2/9 (x), 3/11 and 4/8 (y), 5/7 and 6/10 (z). Which face each port sits on follows
/// from the currents: Z0·Iz = (V1 − V3 + V11 − V12)/2 is the circulation of the port voltages around
/// the z axis (right-handed, x → y), the discrete form of Faraday's law, and the circulation
/// Ey(+x) − Ex(+y) − Ey(−x) + Ex(−y) puts V1 (+Ex) on −y, V12 (−Ex) on +y, V3 (−Ey) on −x and V11
/// (+Ey) on +x; Ix and Iy place the other eight the same way. The tests prove the table: with it
/// the dispersion relation of the mesh is exact along the axes and within the stated bound in every
/// direction, and a closed box rings at its analytic resonances (tests/test_dispersion.cpp,
/// tests/test_physics.cpp); with one pair's faces swapped a wave along the body diagonal is 15 %
/// off (test_dispersion.cpp).
#pragma once

#if defined(__CUDACC__)
#define GPGPU_TLM_HD __host__ __device__ __forceinline__
#else
#define GPGPU_TLM_HD inline
#endif

namespace gpgpu::tlm {

inline constexpr int kPorts = 12;

/// The axis a port's face is normal to (0 = x, 1 = y, 2 = z).
GPGPU_TLM_HD constexpr int port_axis(int p) {
  constexpr int axis[kPorts] = {1, 2, 0, 2, 1, 0, 1, 2, 2, 0, 0, 1};
  return axis[p];
}
/// −1 for a port on the face at the lower coordinate, +1 for the upper one.
GPGPU_TLM_HD constexpr int port_side(int p) { return p < 6 ? -1 : 1; }
/// The field component a port's voltage is polarised along (0 = x, 1 = y, 2 = z).
GPGPU_TLM_HD constexpr int port_polarisation(int p) {
  constexpr int pol[kPorts] = {0, 0, 1, 1, 2, 2, 2, 1, 0, 2, 1, 0};
  return pol[p];
}
/// The port with the same polarisation on the opposite face: where a pulse that leaves port p
/// arrives at the neighbour across that face.
GPGPU_TLM_HD constexpr int opposite_port(int p) {
  constexpr int opp[kPorts] = {11, 8, 10, 7, 6, 9, 4, 3, 1, 5, 2, 0};
  return opp[p];
}

/// What a node's twelve incident pulses say about the field there: the node voltages
/// Vx = (V1+V2+V9+V12)/2, ... (the electric field, Ex = −Vx/Δl) and the loop currents times Z0,
/// Z0·Ix = (V4−V5+V7−V8)/2, ... (the magnetic field, Hx = Ix/Δl).
template <typename T>
struct NodeFields {
  T vx, vy, vz;
  T ix, iy, iz;  ///< Z0 times the current: volts, like the pulses
};

//! [scn_scatter]
template <typename T>
GPGPU_TLM_HD NodeFields<T> node_fields(const T v[kPorts]) {
  const T half = T(0.5);
  return {half * (v[0] + v[1] + v[8] + v[11]), half * (v[2] + v[3] + v[7] + v[10]),
          half * (v[4] + v[5] + v[6] + v[9]),  half * (v[3] - v[4] + v[6] - v[7]),
          half * (v[5] - v[1] + v[8] - v[9]),  half * (v[0] - v[2] + v[10] - v[11])};
}

/// The scatter, in place: the twelve incident pulses v become the twelve reflected ones. Each
/// reflected pulse is the node voltage of its polarisation, plus or minus the current that the
/// port's line loops around, minus the pulse incident on the opposite port (Christopoulos' two-step
/// form of Johns' 12 x 12 matrix S: 48 FLOPs, where S·v as a dense product is 144 multiply-adds).
template <typename T>
GPGPU_TLM_HD void scatter(T v[kPorts], const NodeFields<T>& f) {
  const T r0 = f.vx - f.iz - v[11], r11 = f.vx + f.iz - v[0];
  const T r1 = f.vx + f.iy - v[8], r8 = f.vx - f.iy - v[1];
  const T r2 = f.vy + f.iz - v[10], r10 = f.vy - f.iz - v[2];
  const T r3 = f.vy - f.ix - v[7], r7 = f.vy + f.ix - v[3];
  const T r4 = f.vz + f.ix - v[6], r6 = f.vz - f.ix - v[4];
  const T r5 = f.vz - f.iy - v[9], r9 = f.vz + f.iy - v[5];
  v[0] = r0, v[1] = r1, v[2] = r2, v[3] = r3, v[4] = r4, v[5] = r5;
  v[6] = r6, v[7] = r7, v[8] = r8, v[9] = r9, v[10] = r10, v[11] = r11;
}

//! [scn_scatter]

template <typename T>
GPGPU_TLM_HD void scatter(T v[kPorts]) {
  scatter(v, node_fields(v));
}

/// A soft source in one field component: adds s/2 to each of the four incident pulses polarised
/// along `polarisation`, which raises that node voltage by s and leaves the currents alone.
template <typename T>
GPGPU_TLM_HD void inject(T v[kPorts], int polarisation, T s) {
  const T h = T(0.5) * s;
  if (polarisation == 0) v[0] += h, v[1] += h, v[8] += h, v[11] += h;
  if (polarisation == 1) v[2] += h, v[3] += h, v[7] += h, v[10] += h;
  if (polarisation == 2) v[4] += h, v[5] += h, v[6] += h, v[9] += h;
}

/// Nodes of the mesh as the kernels see them (ints: the kernels index with 32 bits).
struct Extent {
  int nx, ny, nz;
};

/// A thin perfectly conducting plate across the guide on the z-face between node layers k−1 and
/// k, open over the window i in [x0, x1), j in [y0, y1): an iris.
struct Iris {
  int k, x0, x1, y0, y1;
};

/// The irises of a structure, by value (a CUDA kernel parameter, the paper's boundary table).
inline constexpr int kMaxIrises = 8;
struct IrisTable {
  int count = 0;
  Iris iris[kMaxIrises] = {};
};

/// Whether the face of node (i, j, k) normal to `axis` on `side` is a perfect electric conductor:
/// the outer faces of the mesh always, a z-face also where an iris covers it.
GPGPU_TLM_HD bool is_wall(const Extent& e, const IrisTable& irises, int i, int j, int k, int axis, int side) {
  if (axis == 0) return side < 0 ? i == 0 : i == e.nx - 1;
  if (axis == 1) return side < 0 ? j == 0 : j == e.ny - 1;
  if (side < 0 ? k == 0 : k == e.nz - 1) return true;
  const int face = side < 0 ? k : k + 1;
  for (int n = 0; n < irises.count; ++n) {
    const Iris& s = irises.iris[n];
    if (s.k == face && !(i >= s.x0 && i < s.x1 && j >= s.y0 && j < s.y1)) return true;
  }
  return false;
}

/// The voltage reflection coefficient of a perfect electric conductor: a pulse polarised along the
/// wall (every pulse that reaches a face is) comes back inverted, so the tangential field is zero
/// on the wall.
inline constexpr int kWallReflection = -1;

}  // namespace gpgpu::tlm
