// Chapter 10: matrix multiply from paper 003's 16 x 16 tile to the vendor library's speed, in CUDA
// and OpenCL, then past FP32 on tensor cores (paper 003, secs. 6.3 and 6.6, Obr. 8-10, Tabs. 4-7).
// The CPU variants are added here; the CUDA, cuBLAS and OpenCL variants register themselves from
// files CMake compiles when those backends are built (register_*.cpp). The run
// (gpgpu::blas::Chapter) checks every variant against an FP64 reference within the error bound of
// a k-term dot product and judges it against the FMA peak measured in the same run and the vendor
// library; --sweep runs the paper's sizes 16 ... 4096 (and 8192) instead.
#include "cpu_variants.hpp"
#include "gpgpu/blas/chapter.hpp"
#include "gpgpu/errors.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{"10", "ch10_matrix_multiply",
                               "Matrix multiply in CUDA and OpenCL: from the paper's 16 x 16 tile to cuBLAS, then TF32",
                               "paper 003 (CUDA vs OpenCL), secs. 6.3 and 6.6, Obr. 8-10, Tabs. 4-7"};

}  // namespace

int main(int argc, char** argv) {
  return gpgpu::run_main(kInfo.program, [&] {
    gpgpu::blas::Chapter chapter(kInfo);
    for (gpgpu::blas::VariantSpec& v : ch10::cpu_variants()) chapter.add(std::move(v));
    return chapter.run(argc, argv);
  });
}
