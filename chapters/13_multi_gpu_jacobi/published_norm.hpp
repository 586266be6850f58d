/// @file published_norm.hpp
/// @brief Where one GPU's sweeps publish the update norm with no API call per check: two slots of
/// host memory mapped into the GPU's address space (cudaHostAllocMapped), and on the GPU two sums,
/// which the publishing thread sets back to zero after each check (13_peer_store.cu, publish_norm).
/// The host waits for a slot with norm_slots.hpp's rule.
#pragma once
#include <span>
#include <string>

#include <cuda_runtime_api.h>

#include "gpgpu/cuda/buffers.hpp"
#include "jacobi/cuda/jacobi_args.hpp"
#include "norm_slots.hpp"

namespace ch13 {

/// Whether `device` can map page-locked host memory into its address space
/// (cudaDevAttrCanMapHostMemory): every GPU a 64-bit process sees today can.
[[nodiscard]] bool can_map_host_memory(int device);

/// Two PublishedNorm slots of page-locked host memory that the current device writes through its
/// own address of them (a PinnedBuffer allocated with cudaHostAllocMapped).
class MappedNormSlots {
 public:
  MappedNormSlots();

  [[nodiscard]] gpgpu::jacobi::cuda::PublishedNorm& on_host(std::size_t slot) { return host_.data()[slot]; }
  [[nodiscard]] gpgpu::jacobi::cuda::PublishedNorm* on_device(std::size_t slot) { return device_ + slot; }

 private:
  gpgpu::cuda::PinnedBuffer<gpgpu::jacobi::cuda::PublishedNorm> host_;
  gpgpu::jacobi::cuda::PublishedNorm* device_ = nullptr;  // the GPU's address of host_
};

class PublishedNorms {
 public:
  /// On the current device, which must map host memory (can_map_host_memory; std::logic_error
  /// otherwise): the slots (value NaN, number 0: never published), the sums zeroed.
  PublishedNorms();

  /// The double that check `c`'s launches add to.
  [[nodiscard]] double* sum(CheckSequence::Check c) { return sums_.get() + c.slot; }
  /// What the launch that publishes check `c` carries: the sum, the slot and the number.
  [[nodiscard]] gpgpu::jacobi::cuda::NormPublication publication(CheckSequence::Check c);
  /// Waits for check `c`'s value (wait_published), asking meanwhile whether `streams` of `device`,
  /// which carry its launches, have finished.
  [[nodiscard]] double wait(CheckSequence::Check c, int device, std::span<const cudaStream_t> streams);

 private:
  MappedNormSlots slots_;
  gpgpu::cuda::DeviceBuffer<double> sums_{2};
};

}  // namespace ch13
