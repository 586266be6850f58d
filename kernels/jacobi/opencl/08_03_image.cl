// Weighted Jacobi reading x through the texture path: the OpenCL port of the paper's "CUDA
// Texture" kernel (paper 000, sec. 6.5, Fig. 17; kernels/jacobi/cuda/07_texture.cu).
//
// The paper bound a 1D texture to linear memory (tex1Dfetch) so that the output of one iteration
// can be the texture of the next without a copy. OpenCL 1.2's equivalent is an image1d_buffer_t:
// an image created on top of a buffer (CL_MEM_OBJECT_IMAGE1D_BUFFER, format CL_R / CL_FLOAT),
// read with read_imagef(image, int) -- integer coordinates, no sampler, no filtering, exactly
// tex1Dfetch. The kernel writes the new x into the other buffer through an ordinary pointer; the
// host creates one image per ping-pong buffer and swaps them with the buffers. Reading an image
// and writing the buffer beneath it in the same kernel is undefined, hence two of each.
// Same layout as 08_01_simple.cl with the ghost offset rounded up to 32 floats, as the CUDA
// solver's; the image covers the whole ghost-padded vector.
//
// CUDA -> OpenCL: texture<float, 1> + tex1Dfetch(tex, i) -> image1d_buffer_t + read_imagef(img, i).x
//! [kernel]
float x_at(__read_only image1d_buffer_t x, int i) { return read_imagef(x, i).x; }

__kernel void jacobi_image(__global const float* sw, __global const float* s,
                           __global const float* se, __global const float* w,
                           __global const float* c, __global const float* e,
                           __global const float* nw, __global const float* n,
                           __global const float* ne, __global const float* f,
                           __read_only image1d_buffer_t x, __global float* x_new,
                           const int nx, const int nodes, const int ghost, const float omega) {
  const int k = (int)get_global_id(0);
  if (k >= nodes) return;
  const int at = ghost + k;
  const float offdiag = sw[k] * x_at(x, at - nx - 1) + s[k] * x_at(x, at - nx) + se[k] * x_at(x, at - nx + 1)
                      + w[k] * x_at(x, at - 1) + e[k] * x_at(x, at + 1)
                      + nw[k] * x_at(x, at + nx - 1) + n[k] * x_at(x, at + nx) + ne[k] * x_at(x, at + nx + 1);
  x_new[ghost + k] = (1.0f - omega) * x_at(x, at) + omega * (f[k] - offdiag) / c[k];
}
//! [kernel]
