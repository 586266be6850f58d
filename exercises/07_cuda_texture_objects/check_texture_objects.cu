// The check of exercise 07 (a .cu file: it has two small kernels of its own). The texture objects
// read exactly the floats of their buffers (random indices, the first and the last element);
// swapping the objects of two ping-pong buffers swaps input and output, as chapter 07's solver
// does; and the two limits are the device's: a pointer off the device's texture alignment by any
// amount (4 B, half the alignment, 4 B short of it) and a count one past its widest 1D linear texture
// are usage errors before anything is created, while a pointer one alignment in and a texture
// exactly as wide as the limit work (so a hard-coded 256 B or 2^27 fails). Limits hard-coded to this
// device's own values would pass those tests, so one test has the runtime report other limits (the
// link wraps the calls that report them, below) and wants create_linear_texture to follow them.
// destroy_texture must
// destroy the object: every cudaDestroyTextureObject call of the program goes through this file's
// wrapper (the link's --wrap, CMakeLists.txt), which records the object and the result, so a
// destroy_texture that calls nothing fails. (Asking the runtime about the object after destroying it,
// cudaGetTextureObjectResourceDesc say, is undefined behaviour: "use of the handle after this call".)
// Every object the student's code makes is owned by a Texture, so none leaks when an assertion ends
// a test early.
// Measure.* runs chapter 07's kernel through the student's objects, beside the chapter's own, and
// reports both against the limit measured in the same run (no timed assertion).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/cuda/opener.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/jacobi/checks.hpp"
#include "gpgpu/jacobi/layouts.hpp"
#include "gpgpu/jacobi/measure.hpp"
#include "gpgpu/jacobi/work.hpp"
#include "jacobi/cuda/launchers.hpp"
#include "gpgpu/jacobi/cuda/linear_solver.hpp"
#include "texture_objects.hpp"
#include "gpgpu/jacobi/cuda/texture_solver.hpp"

// The link wraps cudaDestroyTextureObject (-Wl,--wrap, exercises/07_cuda_texture_objects/CMakeLists.txt):
// every call of the program, the student's included, comes here, and is recorded before it goes on
// to the runtime's own.
namespace {
struct DestroyCall {
  cudaTextureObject_t tex;
  cudaError_t result;
};
std::vector<DestroyCall>& destroy_calls() {
  static std::vector<DestroyCall> calls;
  return calls;
}
}  // namespace

extern "C" cudaError_t __real_cudaDestroyTextureObject(cudaTextureObject_t tex);  // NOLINT(bugprone-reserved-identifier)
extern "C" cudaError_t __wrap_cudaDestroyTextureObject(cudaTextureObject_t tex) {  // NOLINT(bugprone-reserved-identifier)
  const cudaError_t result = __real_cudaDestroyTextureObject(tex);
  destroy_calls().push_back({tex, result});
  return result;
}

// The link also wraps the three calls that report a device's texture limits
// (cudaDeviceGetAttribute, cudaDeviceGetTexture1DLinearMaxWidth, cudaGetDeviceProperties): while a
// ReportedLimits object lives they report its alignment and width instead of the device's, a device
// with a coarser alignment and a narrower widest texture than this one. Every real texture made in
// that time is valid on this device too (a multiple of the reported alignment is a multiple of the
// real one; the reported width is below the real).
namespace {
struct OverriddenLimits {
  std::size_t alignment = 0;  ///< bytes; 0: the device's own
  std::size_t max_width = 0;  ///< floats; 0: the device's own
};
OverriddenLimits& overridden() {
  static OverriddenLimits limits;
  return limits;
}
}  // namespace

extern "C" cudaError_t __real_cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);  // NOLINT(bugprone-reserved-identifier)
extern "C" cudaError_t __wrap_cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {  // NOLINT(bugprone-reserved-identifier)
  const cudaError_t result = __real_cudaDeviceGetAttribute(value, attr, device);
  if (result != cudaSuccess) return result;
  if (attr == cudaDevAttrTextureAlignment && overridden().alignment != 0) *value = static_cast<int>(overridden().alignment);
  if (attr == cudaDevAttrMaxTexture1DLinearWidth && overridden().max_width != 0)  // the attribute's deprecated form
    *value = static_cast<int>(std::min(static_cast<std::size_t>(*value), overridden().max_width));
  return result;
}
extern "C" cudaError_t __real_cudaDeviceGetTexture1DLinearMaxWidth(std::size_t* width, const cudaChannelFormatDesc* format,  // NOLINT(bugprone-reserved-identifier)
                                                                   int device);
extern "C" cudaError_t __wrap_cudaDeviceGetTexture1DLinearMaxWidth(std::size_t* width, const cudaChannelFormatDesc* format,  // NOLINT(bugprone-reserved-identifier)
                                                                   int device) {
  const cudaError_t result = __real_cudaDeviceGetTexture1DLinearMaxWidth(width, format, device);
  if (result == cudaSuccess && overridden().max_width != 0) *width = std::min(*width, overridden().max_width);
  return result;
}
// CUDA 12's cuda_runtime_api.h renames cudaGetDeviceProperties to cudaGetDeviceProperties_v2, the
// symbol a call then links to; CUDA 13's library has the plain name only. The link wraps both
// names (CMakeLists.txt); this file defines the wrapper of the one its toolkit's header uses.
#if CUDART_VERSION >= 13000
#define GPGPU_EX07_PROPERTIES(prefix) prefix##cudaGetDeviceProperties
#else
#define GPGPU_EX07_PROPERTIES(prefix) prefix##cudaGetDeviceProperties_v2
#endif
extern "C" cudaError_t GPGPU_EX07_PROPERTIES(__real_)(cudaDeviceProp* prop, int device);  // NOLINT(bugprone-reserved-identifier)
extern "C" cudaError_t GPGPU_EX07_PROPERTIES(__wrap_)(cudaDeviceProp* prop, int device) {  // NOLINT(bugprone-reserved-identifier)
  const cudaError_t result = GPGPU_EX07_PROPERTIES(__real_)(prop, device);
  if (result == cudaSuccess && overridden().alignment != 0) prop->textureAlignment = overridden().alignment;
  return result;
}

namespace {

using gpgpu::cuda::DeviceBuffer;

// While it lives, the runtime reports `limits` (see the wrappers above); the device's own after.
class ReportedLimits {
 public:
  explicit ReportedLimits(OverriddenLimits limits) { overridden() = limits; }
  ~ReportedLimits() { overridden() = {}; }
  ReportedLimits(const ReportedLimits&) = delete;
  ReportedLimits& operator=(const ReportedLimits&) = delete;
};

// Owns one texture object made by ex07::create_linear_texture and destroys it with
// ex07::destroy_texture when it goes out of scope, also when an ASSERT ends the test early.
class Texture {
 public:
  Texture(const float* data, std::size_t count) : tex_(ex07::create_linear_texture(data, count)) {}
  ~Texture() {
    try {
      ex07::destroy_texture(tex_);
    } catch (const std::exception& e) {  // a destructor must not throw: report it instead
      ADD_FAILURE() << "destroy_texture: " << e.what();
    }
  }
  Texture(const Texture&) = delete;
  Texture& operator=(const Texture&) = delete;
  [[nodiscard]] cudaTextureObject_t get() const { return tex_; }

 private:
  cudaTextureObject_t tex_;
};

__global__ void gather(cudaTextureObject_t tex, const int* index, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(tex, index[i]);
}

// What tex1Dfetch<float> returns through `tex` at each of `index`.
std::vector<float> gather_through(const Texture& tex, const std::vector<int>& index) {
  DeviceBuffer<int> d_index(index.size());
  d_index.upload(index);
  DeviceBuffer<float> out(index.size());
  out.fill_bytes(0xFF);
  gather<<<static_cast<unsigned>((index.size() + 255) / 256), 256>>>(tex.get(), d_index.get(), out.get(),
                                                                     static_cast<int>(index.size()));
  GPGPU_CUDA_CHECK_LAUNCH("gather");
  return out.download(0, index.size());
}

// The current device's two limits, queried here as the student's code must query them.
struct TextureLimits {
  std::size_t alignment = 0;  ///< cudaDevAttrTextureAlignment, bytes
  std::size_t max_width = 0;  ///< cudaDeviceGetTexture1DLinearMaxWidth for float elements
};
TextureLimits device_limits() {
  int device = 0, alignment = 0;
  GPGPU_CUDA_CHECK(cudaGetDevice(&device));
  GPGPU_CUDA_CHECK(cudaDeviceGetAttribute(&alignment, cudaDevAttrTextureAlignment, device));
  const cudaChannelFormatDesc format = cudaCreateChannelDesc<float>();
  TextureLimits limits;
  limits.alignment = static_cast<std::size_t>(alignment);
  GPGPU_CUDA_CHECK(cudaDeviceGetTexture1DLinearMaxWidth(&limits.max_width, &format, device));
  return limits;
}

// The first address in `buffer` that is a multiple of `alignment` bytes.
const float* first_aligned(const DeviceBuffer<float>& buffer, std::size_t alignment) {
  const auto at = reinterpret_cast<std::uintptr_t>(buffer.get());
  return buffer.get() + (alignment - at % alignment) % alignment / sizeof(float);
}

// One ping-pong step of a 3-point average through the texture: out[i] = (x[i-1] + x[i] + x[i+1]) / 4
// with x read through `in` (ghost at both ends).
__global__ void smooth(cudaTextureObject_t in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
  if (i <= n) out[i] = 0.25f * (tex1Dfetch<float>(in, i - 1) + tex1Dfetch<float>(in, i) + tex1Dfetch<float>(in, i + 1));
}

class TextureObjects : public ::testing::Test {};  // device 0: opened by the test main

TEST_F(TextureObjects, ReadsTheBufferElementByElement) {
  const int count = 1 << 20;
  const auto values = gpgpu::jacobi::checks::random_guess(count, 11);
  DeviceBuffer<float> data(count);
  data.upload(values);
  std::vector<int> index(4096);
  std::mt19937 rng(2);
  for (int& i : index) i = static_cast<int>(rng() % count);
  index[0] = 0;
  index[1] = count - 1;
  const Texture tex(data.get(), data.size());
  ASSERT_NE(tex.get(), 0u) << "no texture object was created";
  const auto got = gather_through(tex, index);
  for (std::size_t i = 0; i < index.size(); ++i) ASSERT_EQ(got[i], values[static_cast<std::size_t>(index[i])]) << i;
}

TEST_F(TextureObjects, SwappingObjectsSwapsPingPongBuffers) {
  const int n = 1000, steps = 7;
  std::vector<float> host(n + 2, 0.0f);
  const auto inner = gpgpu::jacobi::checks::random_guess(n, 12);
  std::copy(inner.begin(), inner.end(), host.begin() + 1);
  std::array<DeviceBuffer<float>, 2> x{DeviceBuffer<float>(n + 2), DeviceBuffer<float>(n + 2)};
  x[0].upload(host);
  x[1].fill_bytes(0);
  const Texture tex0(x[0].get(), n + 2), tex1(x[1].get(), n + 2);
  const std::array<cudaTextureObject_t, 2> tex{tex0.get(), tex1.get()};
  ASSERT_NE(tex[0], 0u) << "no texture object was created";
  ASSERT_NE(tex[1], 0u) << "no texture object was created";
  ASSERT_NE(tex[0], tex[1]) << "one object for two buffers";
  int cur = 0;
  for (int s = 0; s < steps; ++s, cur ^= 1) {
    smooth<<<(n + 255) / 256, 256>>>(tex[cur], x[1 - cur].get(), n);
    GPGPU_CUDA_CHECK_LAUNCH("smooth");
  }
  std::vector<double> expect(host.begin(), host.end());
  for (int s = 0; s < steps; ++s) {
    std::vector<double> next(expect.size(), 0.0);
    for (int i = 1; i <= n; ++i) next[i] = 0.25 * (expect[i - 1] + expect[i] + expect[i + 1]);
    expect = next;
  }
  const auto got = x[cur].download(0, n + 2);
  for (int i = 1; i <= n; ++i) ASSERT_NEAR(got[i], expect[i], 1e-4) << i;
  EXPECT_NO_THROW(ex07::destroy_texture(0));  // 0 is no object: ignored
}

TEST_F(TextureObjects, DestroyTextureDestroysTheObject) {
  const TextureLimits limits = device_limits();
  const std::size_t count = 1024;
  DeviceBuffer<float> data(limits.alignment / sizeof(float) + count);
  const cudaTextureObject_t tex = ex07::create_linear_texture(first_aligned(data, limits.alignment), count);
  ASSERT_NE(tex, 0u) << "no texture object was created";
  const std::size_t before = destroy_calls().size();
  ex07::destroy_texture(tex);
  int destroyed = 0;
  for (std::size_t c = before; c < destroy_calls().size(); ++c)
    if (destroy_calls()[c].tex == tex && destroy_calls()[c].result == cudaSuccess) ++destroyed;
  if (destroyed == 0) {
    GPGPU_CUDA_CHECK(cudaDestroyTextureObject(tex));  // the check's own clean-up: no leak past this test
    FAIL() << "destroy_texture(" << tex << ") did not destroy the object: no cudaDestroyTextureObject call on it "
           << "succeeded (" << destroy_calls().size() - before << " calls in all), so the object and what the driver "
           << "holds for it leak";
  }
  EXPECT_EQ(destroyed, 1) << "destroy_texture destroyed the object more than once";
}

TEST_F(TextureObjects, LimitsAreUsageErrors) {
  const TextureLimits limits = device_limits();
  DeviceBuffer<float> data(3 * limits.alignment / sizeof(float) + 1024);
  const float* aligned = first_aligned(data, limits.alignment);
  // Through a Texture: an object made where a usage error was due is destroyed again.
  for (const std::size_t off : {std::size_t{4}, limits.alignment / 2, limits.alignment - 4})
    EXPECT_THROW(Texture(aligned + off / sizeof(float), 1000), gpgpu::UsageError)
        << off << " B past a multiple of the device's texture alignment, " << limits.alignment << " B";
  EXPECT_THROW(Texture(aligned, limits.max_width + 1), gpgpu::UsageError)
      << "one float wider than the device's widest 1D linear texture, " << limits.max_width;
  EXPECT_THROW(Texture(aligned, std::size_t{1} << 40), gpgpu::UsageError);
}

// The limits must be asked of the runtime, each call: here it reports a device with four times this
// one's alignment and a widest texture of 2^20 floats (or this one's, if narrower). Limits hard-coded
// to this device's values (512 B and 2^30 floats on an H200), or read once and kept, fail.
TEST_F(TextureObjects, FollowsTheLimitsTheRuntimeReports) {
  const TextureLimits device = device_limits();
  const OverriddenLimits reported{4 * device.alignment, std::min(device.max_width, std::size_t{1} << 20)};
  DeviceBuffer<float> data((2 * reported.alignment + (reported.max_width + 1) * sizeof(float)) / sizeof(float) + 1);
  const float* aligned = first_aligned(data, reported.alignment);
  const std::vector<float> ends{0.75f, -1.25f};
  GPGPU_CUDA_CHECK(cudaMemcpy(const_cast<float*>(aligned), &ends[0], sizeof(float), cudaMemcpyHostToDevice));
  GPGPU_CUDA_CHECK(cudaMemcpy(const_cast<float*>(aligned) + reported.max_width - 1, &ends[1], sizeof(float),
                              cudaMemcpyHostToDevice));
  const ReportedLimits scope(reported);
  ASSERT_EQ(device_limits().alignment, reported.alignment) << "the check's wrapper of cudaDeviceGetAttribute";
  EXPECT_THROW(Texture(aligned + device.alignment / sizeof(float), 1000), gpgpu::UsageError)
      << "a pointer " << device.alignment << " B (the device's alignment) past a multiple of the " << reported.alignment
      << " B the runtime reports now: create_linear_texture must ask cudaDevAttrTextureAlignment on each call";
  EXPECT_THROW(Texture(aligned, reported.max_width + 1), gpgpu::UsageError)
      << "one float wider than the " << reported.max_width << " floats cudaDeviceGetTexture1DLinearMaxWidth reports now";
  const Texture widest(aligned, reported.max_width);
  ASSERT_NE(widest.get(), 0u) << "no texture object was created, " << reported.max_width << " floats at a multiple of "
                              << reported.alignment << " B";
  EXPECT_EQ(gather_through(widest, {0, static_cast<int>(reported.max_width - 1)}), ends)
      << "a texture exactly as wide as the reported limit";
}

TEST_F(TextureObjects, WorksUpToTheLimits) {
  const TextureLimits limits = device_limits();
  // One alignment in from an aligned address: a multiple of the alignment, so it must work.
  const int count = 1000;
  DeviceBuffer<float> data(2 * limits.alignment / sizeof(float) + count);
  const auto values = gpgpu::jacobi::checks::random_guess(static_cast<std::int64_t>(data.size()), 13);
  data.upload(values);
  const float* start = first_aligned(data, limits.alignment) + limits.alignment / sizeof(float);
  const auto first = static_cast<std::size_t>(start - data.get());
  const Texture tex(start, count);
  ASSERT_NE(tex.get(), 0u) << "no texture object was created";
  EXPECT_EQ(gather_through(tex, {0, count - 1}), (std::vector<float>{values[first], values[first + count - 1]}))
      << "a texture " << limits.alignment << " B into an aligned buffer (a multiple of the device's alignment)";
  // Exactly the widest texture the device allows (2^30 floats, 4 GiB, on an H200).
  std::unique_ptr<DeviceBuffer<float>> widest;
  try {
    widest = std::make_unique<DeviceBuffer<float>>(limits.max_width + limits.alignment / sizeof(float));
  } catch (const gpgpu::ApiError& e) {
    GTEST_SKIP() << "no room on this device for a texture as wide as its limit (" << limits.max_width
                 << " floats): " << e.what();
  }
  const float* wide_start = first_aligned(*widest, limits.alignment);
  const std::vector<float> ends{1.5f, -2.5f};
  GPGPU_CUDA_CHECK(cudaMemcpy(const_cast<float*>(wide_start), &ends[0], sizeof(float), cudaMemcpyHostToDevice));
  GPGPU_CUDA_CHECK(cudaMemcpy(const_cast<float*>(wide_start) + limits.max_width - 1, &ends[1], sizeof(float),
                              cudaMemcpyHostToDevice));
  if (limits.max_width > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    GTEST_SKIP() << "tex1Dfetch takes an int: this device's widest texture, " << limits.max_width << " floats, is wider";
  const Texture wide(wide_start, limits.max_width);
  ASSERT_NE(wide.get(), 0u) << "no texture object was created";
  EXPECT_EQ(gather_through(wide, {0, static_cast<int>(limits.max_width - 1)}), ends)
      << "a texture exactly as wide as the device's widest 1D linear texture, " << limits.max_width << " floats";
}

// Chapter 07's solver and kernel (kernels/jacobi/cuda/07_texture.cu) reading x through YOUR
// texture objects, one per ping-pong iterate.
class YourTextureSolver final : public gpgpu::jacobi::cuda::LinearSolver {
 public:
  YourTextureSolver(const gpgpu::jacobi::LinearSystem& sys, const gpgpu::cuda::DeviceInfo& device)
      : LinearSolver(sys, gpgpu::jacobi::aligned_offset(sys.grid, 32), 64, nullptr, device.texture_alignment),
        tex_{std::make_unique<Texture>(padded(0), padded_floats()), std::make_unique<Texture>(padded(1), padded_floats())} {}
  [[nodiscard]] std::string launch() const override { return LinearSolver::launch() + ", your 2 texture objects"; }
  /// Whether create_linear_texture made both objects (0 is no object).
  [[nodiscard]] bool has_textures() const { return tex_[0]->get() != 0 && tex_[1]->get() != 0; }

 private:
  void step(int in, float omega) override {
    const gpgpu::jacobi::cuda::LinearArgs a = args(in, omega);
    gpgpu::jacobi::cuda::launch_jacobi_texture(
        {a.A, a.f, tex_[static_cast<std::size_t>(in)]->get(), a.x_new, a.nx, a.nodes, a.offset, a.omega}, block(), nullptr);
  }
  std::array<std::unique_ptr<Texture>, 2> tex_;
};

// The measurement: chapter 07's kernel through your objects and through the chapter's own
// (gpgpu::cuda::TextureObject), against the limit the GPU reaches for the kernel's read:write mix,
// measured in the same run. It asserts only that the timed solver computes the iteration.
TEST(Measure, Chapter07sKernelThroughYourTexturesAgainstTheLimit) {
  const std::unique_ptr<gpgpu::Session> gpu = gpgpu::cuda::open_session(0);
  const gpgpu::jacobi::Grid g{4096, 2048};
  constexpr int kIters = 20;
  const auto omega = static_cast<float>(gpgpu::jacobi::kDefaultOmega);
  const auto sys = gpgpu::jacobi::assemble_bidomain(g);
  const std::vector<float> x0(static_cast<std::size_t>(g.nodes()), 0.0f);
  const gpgpu::Limit limit = gpu->stream_limit(gpgpu::jacobi::stream_mix("jacobi9", g));
  const gpgpu::Work work = gpgpu::jacobi::work("jacobi9", g, kIters);
  YourTextureSolver yours(sys, gpgpu::cuda::device_info(*gpu));
  ASSERT_TRUE(yours.has_textures()) << "no texture object was created";
  yours.reset(x0);
  gpgpu::jacobi::measure::report(std::cout, "chapter 07's kernel, your texture objects", work, limit,
                                 [&] { return yours.iterate(kIters, omega); });
  const gpgpu::jacobi::cuda::LaunchOptions launch{};
  const auto chapter = gpgpu::jacobi::cuda::texture_variant(launch).make(sys, *gpu);
  chapter->reset(x0);
  gpgpu::jacobi::measure::report(std::cout, "chapter 07's kernel, the chapter's texture objects", work, limit,
                                 [&] { return chapter->iterate(kIters, omega); });
  yours.reset(x0);
  yours.iterate(3, omega);
  EXPECT_TRUE(gpgpu::jacobi::checks::matches_reference(yours.solution(), sys, x0, 3));
}

}  // namespace
