/// @file cl.hpp
/// @brief The one place the Khronos C++ bindings are included, and the checked-call macro.
///
/// Every OpenCL file of the project includes this header instead of <CL/opencl.hpp>, so all of
/// them agree on the settings below:
/// - CL_HPP_TARGET_OPENCL_VERSION / CL_HPP_MINIMUM_OPENCL_VERSION = 120: the host code uses only
///   what OpenCL 1.2 offers, because NVIDIA's driver runs kernels as OpenCL C 1.2 (and PoCL too).
/// - CL_HPP_ENABLE_EXCEPTIONS: a failing call inside the bindings throws cl::Error instead of
///   returning a code that could be forgotten, so no error can pass unnoticed, not even from a
///   constructor (cl::Buffer, cl::Context...). On its own, cl::Error says only which C function
///   failed ("clCreateBuffer") and the number; GPGPU_CL() adds the call as written, the file, the
///   line and the error's name:
/// @code
///   cl::Buffer x = GPGPU_CL(cl::Buffer(context, CL_MEM_READ_WRITE, bytes));
///   GPGPU_CL(queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local));
///   // -> gpgpu::ApiError "queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local) failed at
///   //    main.cpp:42: CL_INVALID_WORK_GROUP_SIZE (-54) in clEnqueueNDRangeKernel"
/// @endcode
#pragma once

#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>

#include <string>
#include <string_view>

namespace gpgpu::ocl {

/// The name of an OpenCL error code ("CL_INVALID_WORK_GROUP_SIZE"), or "unknown OpenCL error".
std::string_view error_name(cl_int code);

/// "CL_OUT_OF_RESOURCES (-5) in clEnqueueReadBuffer": the name, the number and the C function.
std::string describe_error(const cl::Error& e);

/// Throws gpgpu::ApiError for a failed call (used by GPGPU_CL).
[[noreturn]] void throw_failed_call(const char* call, const char* file, int line, const cl::Error& e);

/// Runs `body` and turns a cl::Error into a gpgpu::ApiError naming `call`, `file` and `line`.
/// cl::BuildError passes through unchanged: build_program() reports it with the build log.
template <typename Body>
decltype(auto) checked_call(Body&& body, const char* call, const char* file, int line) {
  try {
    return body();
  } catch (const cl::BuildError&) {
    throw;
  } catch (const cl::Error& e) {
    throw_failed_call(call, file, line, e);
  }
}

}  // namespace gpgpu::ocl

/// Evaluates an OpenCL call (a bindings method, constructor or free function) and reports any
/// failure as gpgpu::ApiError with the call, the file, the line and the OpenCL error name.
#define GPGPU_CL(...) \
  ::gpgpu::ocl::checked_call([&]() -> decltype(auto) { return __VA_ARGS__; }, #__VA_ARGS__, __FILE__, __LINE__)
