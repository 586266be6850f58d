// Chapter 11: a 3D symmetrical condensed node TLM solver (paper 002) on the CPU, in CUDA and in
// OpenCL. Every variant it runs, in order; each list is defined beside the host code that runs it
// (cpu_variants.cpp, cuda_variants.cpp, opencl_variants.cpp), and a backend this build lacks is a note that says
// why. The run (gpgpu::tlm::Chapter) checks the double-precision reference against the physics,
// every variant against the reference, and judges each against the bandwidth of its device for a
// 12:12 stream, measured in the same run.
#include "cpu_variants.hpp"
#include "cuda_variants.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/tlm/chapter.hpp"
#include "opencl_variants.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{
    "11", "ch11_tlm_coalesced", "A coalesced 3D SCN-TLM electromagnetic solver on the CPU, in CUDA and in OpenCL",
    "paper 002 (TLM in CUDA and OpenCL), secs. III-VI, Figs. 3-7 and 11"};

}  // namespace

int main(int argc, char** argv) {
  return gpgpu::run_main(kInfo.program, [&] {
    gpgpu::tlm::Chapter chapter(kInfo, {.host_bytes_per_node = ch11::kCpuBytesPerNode});
    chapter.add(ch11::cpu_variants());     // cpu_serial, cpu_openmp
    chapter.add(ch11::cuda_variants());    // cuda_aos, cuda_coalesced (the paper's two kernels), cuda_fused, cuda_fused_half,
                                           // cuda_fused_x2, _x4, cuda_fused_half_x2, _x4 (2 or 4 nodes per thread)
    chapter.add(ch11::opencl_variants());  // opencl_coalesced, opencl_fused
    return chapter.run(argc, argv);
  });
}
