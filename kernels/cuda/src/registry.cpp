// The variants of chapters 03-07b: which kernel file each one runs, how the paper named it, and
// which row of the work table counts its bytes.
#include <array>
#include <string>

#include "gpgpu/cuda_jacobi.hpp"
#include "gpgpu/errors.hpp"

namespace gpgpu::cuda_jacobi {
namespace {

constexpr std::array kVariants{
    VariantInfo{"simple", "kernels/cuda/01_jacobi_simple.cu", "CUDA Simple", "jacobi9",
                "9 diagonals, x with nx+1 ghosts, 1D grid", 64, 1},
    VariantInfo{"aligned", "kernels/cuda/02_jacobi_aligned.cu", "CUDA Aligned", "jacobi9",
                "ghost offset a multiple of 16 floats (the paper's 64-B half-warp segment)", 64, 1},
    VariantInfo{"aligned32", "kernels/cuda/02_jacobi_aligned.cu", "", "jacobi9",
                "ghost offset a multiple of 32 floats (today's 128-B line)", 64, 1},
    VariantInfo{"pitched", "kernels/cuda/03_jacobi_pitched.cu", "CUDA 2D", "jacobi9",
                "cudaMallocPitch, 2D grid of 1D blocks, 2 ghost rows", 64, 1},
    VariantInfo{"shared", "kernels/cuda/04_jacobi_shared.cu", "CUDA Shared", "jacobi9",
                "pitched, x rows j-1..j+1 staged in shared memory", 64, 1},
    VariantInfo{"texture", "kernels/cuda/05_jacobi_texture.cu", "CUDA Texture", "jacobi9",
                "aligned 1D layout, x through texture objects (tex1Dfetch)", 64, 1},
    VariantInfo{"readonly", "kernels/cuda/06_jacobi_readonly.cu", "", "jacobi9",
                "pitched, every load read-only (__ldg)", 64, 1},
    VariantInfo{"tiled2d", "kernels/cuda/07_jacobi_tiled2d.cu", "", "jacobi9",
                "2D blocks, x tile with halo in shared memory", 32, 8},
    VariantInfo{"multirow", "kernels/cuda/08_jacobi_multirow.cu", "", "jacobi9",
                "float4 per thread, several rows per thread, x rows in registers", 128, 1},
    VariantInfo{"symmetric", "kernels/cuda/09_jacobi_symmetric.cu", "", "jacobi9_symmetric",
                "kernel 08 with 5 of the 9 diagonals (symmetric storage)", 128, 1},
};

}  // namespace

std::span<const VariantInfo> variants() { return kVariants; }

const VariantInfo& variant_info(std::string_view name) {
  for (const VariantInfo& v : kVariants)
    if (v.name == name) return v;
  throw UsageError("unknown CUDA Jacobi variant '" + std::string(name) + "'");
}

}  // namespace gpgpu::cuda_jacobi
