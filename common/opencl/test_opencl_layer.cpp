// The OpenCL layer on whatever device GPGPU_CL_* chooses: error names, the checked-call macro's
// message, build failures that name their file and keep the compiler's log, device choice and
// its errors, the device-memory check, profiling-event timing and the copy bandwidth.
#include <cstdlib>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "gpgpu/opencl/bandwidth.hpp"
#include "gpgpu/opencl/runtime.hpp"

namespace {

using gpgpu::ocl::DeviceOptions;

gpgpu::ocl::Runtime& runtime() { return gpgpu::ocl::shared_runtime(); }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(OpenClErrors, NamesAreSpelledOut) {
  EXPECT_EQ(gpgpu::ocl::error_name(CL_INVALID_WORK_GROUP_SIZE), "CL_INVALID_WORK_GROUP_SIZE");
  EXPECT_EQ(gpgpu::ocl::error_name(CL_OUT_OF_RESOURCES), "CL_OUT_OF_RESOURCES");
  EXPECT_EQ(gpgpu::ocl::error_name(-1001), "CL_PLATFORM_NOT_FOUND_KHR");
  EXPECT_EQ(gpgpu::ocl::error_name(12345), "unknown OpenCL error");
}

TEST(OpenClErrors, CheckedCallNamesTheCallTheFileTheLineAndTheError) {
  // A kernel that insists on work-groups of 4, launched with 8: the driver refuses the launch.
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
  const gpgpu::EmbeddedText source{"kernels/opencl/does_not_compile.cl",
                                   "__kernel void broken(__global float* x) {\n  x[0] = no_such_name;\n}\n"};
  try {
    runtime().build(source);
    FAIL() << "a kernel with an undeclared identifier compiled";
  } catch (const gpgpu::ocl::BuildFailed& e) {
    EXPECT_TRUE(contains(e.what(), "kernels/opencl/does_not_compile.cl")) << e.what();
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

TEST(OpenClTiming, CopyBandwidthIsMeasuredBothWays) {
  const gpgpu::ocl::CopyBandwidth bw = gpgpu::ocl::measure_copy_bandwidth(runtime(), std::size_t{8} << 20, 2);
  EXPECT_EQ(bw.bytes, std::size_t{8} << 20);
  EXPECT_GT(bw.command_gbs, 0.0);
  EXPECT_GT(bw.kernel_gbs, 0.0);
  EXPECT_DOUBLE_EQ(bw.best_gbs(), std::max(bw.command_gbs, bw.kernel_gbs));
}

TEST(OpenClStartup, EveryStepIsTimed) {
  const gpgpu::ocl::StartupTimes& s = runtime().startup();
  EXPECT_GT(s.discovery_s, 0.0);
  EXPECT_GT(s.context_s, 0.0);
  EXPECT_FALSE(s.builds.empty());  // the tests above built programs
  EXPECT_GE(s.total(), s.build_s());
}

}  // namespace
