/// @file buffers.hpp
/// @brief RAII for every CUDA resource the tutorial uses: linear and pitched device memory,
/// page-locked host memory, events (and the event timer built from them) and texture objects. Each owner frees its
/// resource in its destructor, is movable and not copyable, and checks every call.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::cuda {

/// Owns one cudaMalloc allocation of `count` elements of T.
template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count_ > 0) GPGPU_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&ptr_), bytes()));
  }
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      ptr_ = std::exchange(o.ptr_, nullptr);
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  [[nodiscard]] T* get() { return ptr_; }
  [[nodiscard]] const T* get() const { return ptr_; }
  [[nodiscard]] std::size_t size() const { return count_; }
  [[nodiscard]] std::size_t bytes() const { return count_ * sizeof(T); }

  /// Copies host values to the start of the buffer (synchronous).
  void upload(std::span<const T> host) {
    if (host.size() > count_) throw std::length_error("DeviceBuffer::upload: more values than elements");
    if (!host.empty()) GPGPU_CUDA_CHECK(cudaMemcpy(ptr_, host.data(), host.size_bytes(), cudaMemcpyHostToDevice));
  }
  /// Copies `count` elements starting at `first` back to the host (synchronous).
  [[nodiscard]] std::vector<T> download(std::size_t first, std::size_t count) const {
    if (first + count > count_) throw std::length_error("DeviceBuffer::download: range outside the buffer");
    std::vector<T> host(count);
    if (count > 0) GPGPU_CUDA_CHECK(cudaMemcpy(host.data(), ptr_ + first, count * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
  /// Sets every byte to `byte` (0: zeros; 0xFF: NaN for float, used to poison outputs).
  void fill_bytes(int byte) {
    if (count_ > 0) GPGPU_CUDA_CHECK(cudaMemset(ptr_, byte, bytes()));
  }

 private:
  void reset() noexcept {
    if (ptr_ != nullptr) (void)cudaFree(ptr_);  // destructors must not throw; cudaFree only fails on a dead context
    ptr_ = nullptr;
    count_ = 0;
  }
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

/// Owns one cudaHostAlloc allocation of `count` elements of T: page-locked host memory, which the
/// GPU's copy engines read and write directly (a copy from pageable memory goes through a staging
/// buffer of the driver first, which is what makes it slower). With `flags` cudaHostAllocMapped it
/// is also mapped into the GPU's address space, where kernels read and write it (device_pointer).
template <typename T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t count, unsigned flags = cudaHostAllocDefault) : count_(count) {
    if (count_ > 0) GPGPU_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&ptr_), count_ * sizeof(T), flags));
  }
  ~PinnedBuffer() {
    if (ptr_ != nullptr) (void)cudaFreeHost(ptr_);  // destructors must not throw
  }
  PinnedBuffer(PinnedBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
    if (this != &o) {
      PinnedBuffer old(std::move(*this));
      ptr_ = std::exchange(o.ptr_, nullptr);
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  [[nodiscard]] T* data() { return ptr_; }
  [[nodiscard]] const T* data() const { return ptr_; }
  [[nodiscard]] std::size_t size() const { return count_; }
  [[nodiscard]] std::span<T> span() { return {ptr_, count_}; }
  /// The current GPU's address of the memory (cudaHostGetDevicePointer; allocated with cudaHostAllocMapped).
  [[nodiscard]] T* device_pointer() {
    T* on_device = nullptr;
    GPGPU_CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&on_device), ptr_, 0));
    return on_device;
  }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

/// Owns one cudaMallocPitch allocation: `rows` rows of `width` elements, each row starting at a
/// multiple of `pitch_bytes()` (the padding the hardware wants for aligned rows).
template <typename T>
class PitchedBuffer {
 public:
  PitchedBuffer() = default;
  PitchedBuffer(std::size_t width, std::size_t rows) : width_(width), rows_(rows) {
    GPGPU_CUDA_CHECK(cudaMallocPitch(&ptr_, &pitch_bytes_, width * sizeof(T), rows));
    if (pitch_bytes_ % sizeof(T) != 0) throw std::logic_error("cudaMallocPitch returned a pitch that is not a whole number of elements");
  }
  ~PitchedBuffer() {
    if (ptr_ != nullptr) (void)cudaFree(ptr_);
  }
  PitchedBuffer(PitchedBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), pitch_bytes_(o.pitch_bytes_), width_(o.width_), rows_(o.rows_) {}
  PitchedBuffer& operator=(PitchedBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(pitch_bytes_, o.pitch_bytes_);
    std::swap(width_, o.width_);
    std::swap(rows_, o.rows_);
    return *this;
  }
  PitchedBuffer(const PitchedBuffer&) = delete;
  PitchedBuffer& operator=(const PitchedBuffer&) = delete;

  [[nodiscard]] T* get() { return static_cast<T*>(ptr_); }
  [[nodiscard]] const T* get() const { return static_cast<const T*>(ptr_); }
  [[nodiscard]] std::size_t pitch_bytes() const { return pitch_bytes_; }
  [[nodiscard]] std::size_t pitch() const { return pitch_bytes_ / sizeof(T); }  ///< in elements
  [[nodiscard]] std::size_t rows() const { return rows_; }
  [[nodiscard]] std::size_t bytes() const { return pitch_bytes_ * rows_; }

  /// Where row r begins (element (0, r)).
  [[nodiscard]] T* row(std::size_t r) { return get() + r * pitch(); }
  [[nodiscard]] const T* row(std::size_t r) const { return get() + r * pitch(); }

  /// Sets every byte of every row, padding included.
  void fill_bytes(int byte) { GPGPU_CUDA_CHECK(cudaMemset2D(ptr_, pitch_bytes_, byte, pitch_bytes_, rows_)); }
  /// Sets every byte of columns 0..width-1 of rows first_row.. to `byte`, padding and other rows
  /// untouched (0xFF makes float NaN: an output element a kernel does not write stays NaN).
  void fill_block_bytes(int byte, std::size_t width, std::size_t rows, std::size_t first_row) {
    if (width > pitch() || first_row + rows > rows_) throw std::length_error("PitchedBuffer::fill_block_bytes: outside");
    GPGPU_CUDA_CHECK(cudaMemset2D(row(first_row), pitch_bytes_, byte, width * sizeof(T), rows));
  }
  /// Copies a dense host block of `rows` × `width` values into rows first_row.. (columns 0..width-1).
  void upload_rows(std::span<const T> host, std::size_t width, std::size_t rows, std::size_t first_row) {
    if (host.size() != width * rows || width > pitch() || first_row + rows > rows_)
      throw std::length_error("PitchedBuffer::upload_rows: block does not fit");
    GPGPU_CUDA_CHECK(cudaMemcpy2D(get() + first_row * pitch(), pitch_bytes_, host.data(), width * sizeof(T),
                                  width * sizeof(T), rows, cudaMemcpyHostToDevice));
  }
  /// Copies rows first_row.. (columns 0..width-1) back into a dense host block.
  [[nodiscard]] std::vector<T> download_rows(std::size_t width, std::size_t rows, std::size_t first_row) const {
    if (width > pitch() || first_row + rows > rows_) throw std::length_error("PitchedBuffer::download_rows: outside");
    std::vector<T> host(width * rows);
    GPGPU_CUDA_CHECK(cudaMemcpy2D(host.data(), width * sizeof(T), get() + first_row * pitch(), pitch_bytes_,
                                  width * sizeof(T), rows, cudaMemcpyDeviceToHost));
    return host;
  }

 private:
  void* ptr_ = nullptr;
  std::size_t pitch_bytes_ = 0;
  std::size_t width_ = 0;
  std::size_t rows_ = 0;
};

/// The layout of chapter 05 on: `rows` × `width` values with `ghost_rows` zero rows above and
/// below, and zero padding at the end of every row.
template <typename T>
[[nodiscard]] PitchedBuffer<T> pitched_with_ghost_rows(std::span<const T> values, std::size_t width, std::size_t rows,
                                                       std::size_t ghost_rows) {
  PitchedBuffer<T> b(width, rows + 2 * ghost_rows);
  b.fill_bytes(0);
  b.upload_rows(values, width, rows, ghost_rows);
  return b;
}

/// Owns one CUDA event.
class Event {
 public:
  /// cudaEventCreateWithFlags: cudaEventDisableTiming for an event that only orders streams.
  explicit Event(unsigned flags = cudaEventDefault);
  ~Event();
  Event(Event&& o) noexcept : event_(std::exchange(o.event_, nullptr)) {}
  Event& operator=(Event&& o) noexcept {
    std::swap(event_, o.event_);
    return *this;
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  [[nodiscard]] cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

/// GPU time between two points of a stream, from a pair of CUDA events (resolution about 0.5 µs).
/// Only the work enqueued between start() and stop() counts; the host waits in seconds().
class EventTimer {
 public:
  void start(cudaStream_t stream = nullptr);
  void stop(cudaStream_t stream = nullptr);
  /// Waits for the stop event and returns the elapsed GPU time in seconds.
  [[nodiscard]] double seconds() const;

 private:
  Event start_, stop_;
};

/// Owns a texture object that reads `count` floats of linear device memory through the texture
/// path (tex1Dfetch). The base address must be a multiple of the device's textureAlignment (512 B
/// on the H100) and `count` at most its 1D linear texture width; both are checked here and a
/// violation throws UsageError naming the limit.
class TextureObject {
 public:
  TextureObject() = default;
  TextureObject(const float* data, std::size_t count, std::size_t texture_alignment, std::size_t max_width);
  ~TextureObject();
  TextureObject(TextureObject&& o) noexcept : tex_(std::exchange(o.tex_, 0)) {}
  TextureObject& operator=(TextureObject&& o) noexcept {
    std::swap(tex_, o.tex_);
    return *this;
  }
  TextureObject(const TextureObject&) = delete;
  TextureObject& operator=(const TextureObject&) = delete;
  [[nodiscard]] cudaTextureObject_t get() const { return tex_; }

 private:
  cudaTextureObject_t tex_ = 0;
};

}  // namespace gpgpu::cuda
