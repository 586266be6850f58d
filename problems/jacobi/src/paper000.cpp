#include "gpgpu/jacobi/paper000.hpp"

#include <cmath>

namespace gpgpu::jacobi::paper000 {

std::vector<Result> results_1024(std::string_view implementation) {
  std::vector<Result> out;
  for (const Result& r : kResults1024)
    if (r.implementation == implementation) out.push_back(r);
  return out;
}

double flops_per_node(std::string_view implementation) {
  if (implementation == "CPU") return 37;
  if (implementation == "OGL Luminance" || implementation == "OGL RGBA") return 36;
  if (implementation == "CUDA Shared") return 30;
  if (implementation == "CUDA Texture") return 33;
  return std::nan("");
}

double device_bytes_per_node(std::string_view implementation) { return implementation == "CUDA Shared" ? 56 : 48; }

}  // namespace gpgpu::jacobi::paper000
