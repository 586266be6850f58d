// The CUDA host code of one product, in the order a run uses it: allocate (untimed), upload A and B
// and poison C, call `calls` times between two CUDA events, download C. Every CUDA variant of
// chapters 10 and 10b is one Call on these buffers: a kernel launch from kernels/blas/cuda, or a
// library's product.
#include "gpgpu/blas/cuda/device_gemm.hpp"

#include <stdexcept>
#include <utility>

#include "gpgpu/blas/cuda/fma_peak.hpp"
#include "gpgpu/cuda/check.hpp"
#include "gpgpu/cuda/device.hpp"
#include "gpgpu/cuda/opener.hpp"

namespace gpgpu::blas::cuda {

template <typename T>
DeviceGemm<T>::DeviceGemm(Dims dims, Call call, std::string launch)
    : DeviceGemm(dims, {Configuration{"", std::move(call), std::move(launch)}}) {}

template <typename T>
DeviceGemm<T>::DeviceGemm(Dims dims, std::vector<Configuration> configurations)
    : dims_(dims), configurations_(std::move(configurations)), a_(static_cast<std::size_t>(dims.m * dims.k)),
      b_(static_cast<std::size_t>(dims.k * dims.n)), c_(static_cast<std::size_t>(dims.m * dims.n)) {
  if (configurations_.empty()) throw std::logic_error("DeviceGemm without a call");
}

template <typename T>
std::vector<std::string> DeviceGemm<T>::configurations() const {
  if (configurations_.size() < 2) return {};
  std::vector<std::string> names;
  for (const Configuration& c : configurations_) names.push_back(c.name);
  return names;
}

template <typename T>
void DeviceGemm<T>::configure(std::size_t index) {
  if (index >= configurations_.size() || configurations_.size() < 2) GemmOperation::configure(index);  // throws
  current_ = index;
}

template <typename T>
void DeviceGemm<T>::upload(const Operands& in) {
  a_.upload(in.a.as<T>());
  b_.upload(in.b.as<T>());
  c_.fill_bytes(0xFF);                        // NaN in every element until the product writes it
  GPGPU_CUDA_CHECK(cudaDeviceSynchronize());  // the poison is in place before the first call
}

//! [cuda_run]
template <typename T>
double DeviceGemm<T>::run(int calls) {
  timer_.start();
  for (int c = 0; c < calls; ++c) configurations_[current_].call(a_.get(), b_.get(), c_.get());
  timer_.stop();
  return timer_.seconds();
}
//! [cuda_run]

template <typename T>
HostMatrix DeviceGemm<T>::download() {
  return HostMatrix(dims_.c(), c_.download(0, c_.size()));
}

template class DeviceGemm<float>;
template class DeviceGemm<double>;

GemmVariant cuda_variant(std::string name, std::string description, std::string source, std::string paper_name) {
  GemmVariant v;
  v.info = {.name = name, .backend = gpgpu::Backend::cuda, .description = std::move(description), .source = std::move(source),
            .paper_name = std::move(paper_name), .timer = "CUDA events"};
  v.opener = gpgpu::cuda::opener;
  v.peak = fma_peak;
  v.check_fits = [name](const GemmSize& s, gpgpu::Session&) {
    const Dims& d = s.dims;
    const double elements = static_cast<double>(d.m * d.k + d.k * d.n + d.m * d.n);
    gpgpu::cuda::require_device_memory(elements * gpgpu::matrix::type_bytes(s.type), name + " on " + d.str());
  };
  return v;
}

std::string launch_line(const Dims& d, const GemmShape& s) {
  return "grid " + std::to_string(blocks_for(d.n, s.tile_n)) + " x " + std::to_string(blocks_for(d.m, s.tile_m)) + " of " +
         std::to_string(s.threads) + " threads, " + std::to_string(s.tile_m) + " x " + std::to_string(s.tile_n) + " of C per block";
}

}  // namespace gpgpu::blas::cuda
