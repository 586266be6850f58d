// Chapter 11: a 3D symmetrical condensed node TLM solver (paper 002) on the CPU, in CUDA and in
// OpenCL. The CPU variants are added here; the CUDA and OpenCL variants register themselves from
// cuda_variants.cpp and opencl_variants.cpp, which CMake compiles only when those backends are
// built (otherwise the run says why they are missing). The run (gpgpu::tlm::Chapter) checks the
// double-precision reference against the physics, every variant against the reference, and judges
// each against the bandwidth of its device for a 12:12 stream, measured in the same run.
#include "cpu_tlm.hpp"
#include "cpu_variants.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/tlm/chapter.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{
    "11", "ch11_tlm_coalesced", "A coalesced 3D SCN-TLM electromagnetic solver on the CPU, in CUDA and in OpenCL",
    "paper 002 (TLM in CUDA and OpenCL), secs. III-VI, Figs. 3-7 and 11"};

}  // namespace

int main(int argc, char** argv) {
  return gpgpu::run_main(kInfo.program, [&] {
    gpgpu::tlm::Chapter chapter(kInfo, {.host_bytes_per_node = ch11::kCpuBytesPerNode});
    chapter.add(ch11::cpu_variant(false));
    chapter.add(ch11::cpu_variant(true));
    return chapter.run(argc, argv);
  });
}
