// The OpenCL layer on whatever device GPGPU_CL_* chooses: error names, the checked-call macro's
// message, build failures that name their file and keep the compiler's log, device choice and
// its errors, the device-memory check, profiling-event timing, the program cache, the stream
// kernel and the limits it measures, and OpenCL as a backend of the core (opener and session).
#include <cmath>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpgpu/cli.hpp"
#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/opencl/opener.hpp"
#include "gpgpu/opencl/runtime.hpp"
#include "src/stream_limit.hpp"

namespace {

using gpgpu::ocl::DeviceOptions;

gpgpu::ocl::Runtime& runtime() { return gpgpu::ocl::shared_runtime(); }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A read:write mix of float arrays.
gpgpu::StreamMix mix(int reads, int writes, std::size_t elements) {
  gpgpu::StreamMix m;
  m.reads = reads;
  m.writes = writes;
  m.elements = elements;
  return m;
}

TEST(OpenClErrors, NamesAreSpelledOut) {
  EXPECT_EQ(gpgpu::ocl::error_name(CL_INVALID_WORK_GROUP_SIZE), "CL_INVALID_WORK_GROUP_SIZE");
  EXPECT_EQ(gpgpu::ocl::error_name(CL_OUT_OF_RESOURCES), "CL_OUT_OF_RESOURCES");
  EXPECT_EQ(gpgpu::ocl::error_name(-1001), "CL_PLATFORM_NOT_FOUND_KHR");
  EXPECT_EQ(gpgpu::ocl::error_name(12345), "unknown OpenCL error");
}

TEST(OpenClErrors, CheckedCallNamesTheCallTheFileTheLineAndTheError) {
  // A kernel that insists on work-groups of 4, launched with 8: the opener refuses the launch.
  const gpgpu::EmbeddedText source{"common/opencl/test: fixed work-group",
                                   "__kernel __attribute__((reqd_work_group_size(4, 1, 1)))\n"
                                   "void fill(__global float* x) { x[get_global_id(0)] = 1.0f; }\n"};
  const cl::Program program = runtime().build(source);
  cl::Kernel kernel = GPGPU_CL(cl::Kernel(program, "fill"));
  cl::Buffer buffer = GPGPU_CL(cl::Buffer(runtime().context(), CL_MEM_READ_WRITE, 8 * sizeof(float)));
  GPGPU_CL(kernel.setArg(0, buffer));
  try {
    GPGPU_CL(runtime().queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(8), cl::NDRange(8)));
    FAIL() << "the launch with the wrong work-group size was accepted";
  } catch (const gpgpu::ApiError& e) {
    const std::string what = e.what();
    EXPECT_TRUE(contains(what, "enqueueNDRangeKernel(kernel, cl::NullRange")) << what;
    EXPECT_TRUE(contains(what, "test_opencl_layer.cpp:")) << what;
    EXPECT_TRUE(contains(what, "CL_INVALID_WORK_GROUP_SIZE (-54)")) << what;
  }
}

TEST(OpenClErrors, BuildFailureNamesTheFileAndKeepsTheLog) {
  const gpgpu::EmbeddedText source{"kernels/jacobi/opencl/does_not_compile.cl",
                                   "__kernel void broken(__global float* x) {\n  x[0] = no_such_name;\n}\n"};
  try {
    runtime().build(source);
    FAIL() << "a kernel with an undeclared identifier compiled";
  } catch (const gpgpu::ocl::BuildFailed& e) {
    EXPECT_TRUE(contains(e.what(), "kernels/jacobi/opencl/does_not_compile.cl")) << e.what();
    EXPECT_TRUE(contains(e.what(), "CL_BUILD_PROGRAM_FAILURE")) << e.what();
    EXPECT_TRUE(contains(e.log(), "no_such_name")) << e.log();
    // The #line 1 "<file>" directive (PoCL) or the rewritten "<kernel>:N" (NVIDIA) names file and line.
    EXPECT_TRUE(contains(e.log(), "does_not_compile.cl:2")) << "the log should name the file and line:\n" << e.log();
  }
}

TEST(OpenClErrors, NvidiaStyleLogPositionsBecomeFileLines) {
  // NVIDIA's compiler counts the #line directive as line 1 of "<kernel>".
  const std::string nvidia = "<kernel>:3:9: error: use of undeclared identifier 'x'\n<kernel>:12:1: note: here\n";
  EXPECT_EQ(gpgpu::ocl::log_with_file_lines(nvidia, "kernels/opencl/k.cl"),
            "kernels/opencl/k.cl:2:9: error: use of undeclared identifier 'x'\nkernels/opencl/k.cl:11:1: note: here\n");
  const std::string pocl = "kernels/opencl/k.cl:2:9: error: use of undeclared identifier 'x'\n";
  EXPECT_EQ(gpgpu::ocl::log_with_file_lines(pocl, "kernels/opencl/k.cl"), pocl);
}

TEST(OpenClDevices, ListingShowsEveryPlatformWithIndices) {
  std::ostringstream out;
  gpgpu::ocl::list_devices(out);
  EXPECT_TRUE(contains(out.str(), "Platform: [0]")) << out.str();
  EXPECT_TRUE(contains(out.str(), "Device:   [0.0]")) << out.str();
}

TEST(OpenClDevices, IndicesThatDoNotExistAreUsageErrors) {
  EXPECT_THROW(gpgpu::ocl::select_device(DeviceOptions{99, -1, "all", false}), gpgpu::UsageError);
  EXPECT_THROW(gpgpu::ocl::select_device(DeviceOptions{0, 99, "all", false}), gpgpu::UsageError);
  EXPECT_THROW(gpgpu::ocl::select_device(DeviceOptions{-1, 99, "all", false}), gpgpu::UsageError);
}

TEST(OpenClDevices, ExplicitDeviceOfTheWrongTypeIsAUsageError) {
  const gpgpu::ocl::Selection first = gpgpu::ocl::select_device(DeviceOptions{0, 0, "all", false});
  const gpgpu::ocl::DeviceInfo info = gpgpu::ocl::describe(first);
  const std::string other = info.is_cpu ? "gpu" : "cpu";
  EXPECT_THROW(gpgpu::ocl::select_device(DeviceOptions{0, 0, other, false}), gpgpu::UsageError);
}

TEST(OpenClDevices, AllPrefersAGpu) {
  const gpgpu::ocl::DeviceInfo any = gpgpu::ocl::describe(gpgpu::ocl::select_device(DeviceOptions{}));
  bool gpu_present = true;
  try {
    gpgpu::ocl::select_device(DeviceOptions{-1, -1, "gpu", false});
  } catch (const gpgpu::BackendUnavailable&) {
    gpu_present = false;
  }
  EXPECT_EQ(any.is_gpu, gpu_present);
}

TEST(OpenClDevices, MalformedEnvironmentIsAUsageError) {
  const char* saved = std::getenv("GPGPU_CL_TYPE");
  const std::string keep = saved != nullptr ? saved : "";
  ::setenv("GPGPU_CL_TYPE", "tpu", 1);
  EXPECT_THROW(gpgpu::ocl::device_options_from_environment(), gpgpu::UsageError);
  ::setenv("GPGPU_CL_TYPE", "cpu", 1);
  ::setenv("GPGPU_CL_DEVICE", "1.5", 1);
  EXPECT_THROW(gpgpu::ocl::device_options_from_environment(), gpgpu::UsageError);
  ::unsetenv("GPGPU_CL_DEVICE");
  EXPECT_EQ(gpgpu::ocl::device_options_from_environment().type, "cpu");
  if (saved != nullptr)
    ::setenv("GPGPU_CL_TYPE", keep.c_str(), 1);
  else
    ::unsetenv("GPGPU_CL_TYPE");
}

TEST(OpenClMemory, SizesThatDoNotFitAreRefusedBeforeAllocating) {
  const gpgpu::ocl::DeviceInfo& info = runtime().info();
  const double global = static_cast<double>(info.global_mem_bytes);
  const double max_alloc = static_cast<double>(info.max_alloc_bytes);
  EXPECT_THROW(gpgpu::ocl::require_device_memory(info, global, 1.0, "test"), gpgpu::UsageError);
  EXPECT_THROW(gpgpu::ocl::require_device_memory(info, max_alloc + 1, max_alloc + 1, "test"), gpgpu::UsageError);
  EXPECT_NO_THROW(gpgpu::ocl::require_device_memory(info, 0.5 * global, 0.5 * max_alloc, "test"));
}

TEST(OpenClLaunch, GlobalSizesRoundUpToWholeWorkGroups) {
  EXPECT_EQ(gpgpu::ocl::round_up(561, 64), 576u);
  EXPECT_EQ(gpgpu::ocl::round_up(64, 64), 64u);
  EXPECT_EQ(gpgpu::ocl::round_up(1, 96), 96u);
}

TEST(OpenClPrograms, EachSourceIsBuiltOncePerRuntime) {
  const gpgpu::EmbeddedText source{"common/opencl/test: cached", "__kernel void one(__global float* x) { x[0] = 1.0f; }\n"};
  const std::size_t before = runtime().startup().builds.size();
  const cl::Program& first = runtime().program(source);
  const cl::Program& again = runtime().program(source);
  EXPECT_EQ(&first, &again);
  EXPECT_EQ(runtime().startup().builds.size(), before + 1);
  runtime().program(source, "-DOTHER=1");  // other options: another program
  EXPECT_EQ(runtime().startup().builds.size(), before + 2);
}

// The stream kernels themselves: every output element is the sum of the inputs', in the float4
// body and the scalar tail; `stream` with one float4 per work-item, `stream_loop` with a global
// size smaller than the arrays (the grid-stride loop).
TEST(OpenClStreamKernel, WritesTheSumOfTheInputsEverywhere) {
  constexpr int kReads = 3, kWrites = 2;
  constexpr std::size_t n = 4 * 37 + 3;  // a float4 body and a tail of 3
  const auto compiled = runtime().compile(gpgpu::ocl::stream_kernel_source(), "-DREADS=3 -DWRITES=2");
  EXPECT_GT(compiled.seconds, 0.0);
  for (const auto& [name, global] : {std::pair<const char*, std::size_t>{"stream", 40}, {"stream_loop", 8}}) {
    cl::Kernel kernel = GPGPU_CL(cl::Kernel(compiled.program, name));
    GPGPU_CL(kernel.setArg(0, static_cast<cl_uint>(n)));
    std::vector<cl::Buffer> buffers;
    std::vector<float> expected(n, 0.0f);
    for (int a = 0; a < kReads + kWrites; ++a) {
      std::vector<float> values(n, -1.0f);
      for (std::size_t i = 0; i < n && a < kReads; ++i) {
        values[i] = static_cast<float>(i + 1000 * a);
        expected[i] += values[i];
      }
      buffers.push_back(GPGPU_CL(cl::Buffer(runtime().context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                            n * sizeof(float), values.data())));
      GPGPU_CL(kernel.setArg(static_cast<cl_uint>(a + 1), buffers.back()));
    }
    GPGPU_CL(runtime().queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(global), cl::NDRange(4)));
    for (int w = 0; w < kWrites; ++w) {
      std::vector<float> out(n);
      GPGPU_CL(runtime().queue().enqueueReadBuffer(buffers[static_cast<std::size_t>(kReads + w)], CL_TRUE, 0,
                                                   n * sizeof(float), out.data()));
      EXPECT_EQ(out, expected) << name << ", output " << w;
    }
  }
}

// "best of 7 launch shapes" -> 7.
int shapes_tried(const std::string& limit_name) {
  const std::string key = "best of ";
  const std::size_t at = limit_name.find(key);
  return at == std::string::npos ? -1 : std::stoi(limit_name.substr(at + key.size()));
}

TEST(OpenClBackend, SessionOwnsTheRuntimeAndMeasuresEachMixOnce) {
  const auto session = gpgpu::ocl::open_session(gpgpu::ocl::device_options_from_environment());
  EXPECT_EQ(session->backend(), gpgpu::Backend::opencl);
  gpgpu::ocl::Runtime& rt = gpgpu::ocl::runtime_of(*session);
  EXPECT_EQ(session->device(), rt.info().label());
  if (rt.info().is_gpu) EXPECT_EQ(session->cache_name(), "global-memory cache (L2)");
  EXPECT_GT(session->cache_bytes(), 0.0);
  const std::size_t startup_builds = rt.startup().builds.size();
  const gpgpu::StreamMix copy = mix(1, 1, std::size_t{1} << 20);
  const gpgpu::Limit first = session->stream_limit(copy);
  EXPECT_GT(first.gbs, 0.0);
  EXPECT_EQ(first.mix, copy.str());
  EXPECT_TRUE(contains(first.name, "stream 1:1")) << first.name;
  EXPECT_TRUE(std::isnan(first.theoretical_gbs));  // OpenCL reports no memory clock
  EXPECT_FALSE(first.working_set.empty());
  EXPECT_EQ(session->stream_limit(copy).gbs, first.gbs);  // cached: the same measurement
  // Another length of the same mix is measured anew with the same program; 11:1 builds its own.
  EXPECT_GT(session->stream_limit(mix(1, 1, 1001)).gbs, 0.0);
  const gpgpu::Limit jacobi = session->stream_limit(mix(11, 1, 4097));
  EXPECT_GT(jacobi.gbs, 0.0);
  EXPECT_TRUE(contains(jacobi.name, "stream 11:1")) << jacobi.name;
  const nlohmann::json j = session->json();
  ASSERT_EQ(j["stream_limit_builds"].size(), 2u);
  EXPECT_EQ(j["stream_limit_builds"][0]["kernel"], "stream.cl 1:1");
  EXPECT_TRUE(j["startup"].contains("discovery_s"));
  // The stream kernels are no part of the user's start-up.
  EXPECT_EQ(rt.startup().builds.size(), startup_builds);
  std::ostringstream block;
  session->print(block);
  EXPECT_TRUE(contains(block.str(), "Device:   [")) << block.str();
  const auto cpu = gpgpu::cpu_opener()->open();
  EXPECT_THROW(gpgpu::ocl::runtime_of(*cpu), std::logic_error);
}

TEST(OpenClBackend, ACopyMixIsAlsoMeasuredByTheRuntimesCopy) {
  // A 1:1 mix is a copy: clEnqueueCopyBuffer is one shape more than a kernel-only mix gets, so no
  // variant's copy can beat the limit that judges it.
  const auto session = gpgpu::ocl::open_session(gpgpu::ocl::device_options_from_environment());
  const gpgpu::Limit copy = session->stream_limit(mix(1, 1, 100000));
  const gpgpu::Limit add = session->stream_limit(mix(2, 1, 100000));
  EXPECT_GT(shapes_tried(add.name), 0) << add.name;
  EXPECT_EQ(shapes_tried(copy.name), shapes_tried(add.name) + 1) << copy.name << " / " << add.name;
}

TEST(OpenClBackend, StreamLimitRefusesArraysTheDeviceCannotHold) {
  const auto session = gpgpu::ocl::open_session(gpgpu::ocl::device_options_from_environment());
  const gpgpu::ocl::DeviceInfo& info = gpgpu::ocl::runtime_of(*session).info();
  // One array over the largest buffer; then arrays that fit one by one but not all together.
  const auto largest = static_cast<std::size_t>(info.max_alloc_bytes / 4);
  EXPECT_THROW(session->stream_limit(mix(1, 1, largest + 1)), gpgpu::UsageError);
  EXPECT_THROW(session->stream_limit(mix(16, 12, largest)), gpgpu::UsageError);
  EXPECT_THROW(session->stream_limit(mix(0, 1, 1024)), std::invalid_argument);
  EXPECT_THROW(session->stream_limit(mix(17, 1, 1024)), std::invalid_argument);
  EXPECT_THROW(session->stream_limit(mix(1, 13, 1024)), std::invalid_argument);
}

TEST(OpenClBackend, OpenerAddsTheDeviceOptionsPassesThemOnAndListExitsZero) {
  const auto parsed = [](std::vector<const char*> args) {
    auto cli = std::make_unique<gpgpu::Cli>("test", "test");
    auto opener = gpgpu::ocl::opener();
    opener->add_options(*cli);
    args.insert(args.begin(), "test");
    cli->parse(static_cast<int>(args.size()), args.data());
    return std::make_pair(std::move(cli), std::move(opener));
  };
  const auto [cli, opener] = parsed({"--cl-platform", "99"});
  EXPECT_EQ(opener->backend(), gpgpu::Backend::opencl);
  EXPECT_THROW(opener->open(), gpgpu::UsageError);
  EXPECT_TRUE(contains(cli->app().help(), "OpenCL device"));
  try {
    parsed({"--list"});
    FAIL() << "--list did not end the program";
  } catch (const gpgpu::ExitRequest& e) {
    EXPECT_EQ(e.code, 0);
  }
}

TEST(OpenClStartup, EveryStepIsTimed) {
  const gpgpu::ocl::StartupTimes& s = runtime().startup();
  EXPECT_GT(s.discovery_s, 0.0);
  EXPECT_GT(s.context_s, 0.0);
  EXPECT_FALSE(s.builds.empty());  // the tests above built programs
  EXPECT_GE(s.total(), s.build_s());
}

}  // namespace
