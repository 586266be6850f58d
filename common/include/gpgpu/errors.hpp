/// @file errors.hpp
/// @brief Exit codes, the project's exception types, and the wrapper every main() runs inside.
///
/// Convention for every executable: 0 success, 1 verification failed, 2 usage error (bad input,
/// sizes that do not fit), 77 backend or device missing (CTest's skip code). Errors are reported
/// as one line on stderr: `<program>: error: <message>`.
#pragma once
#include <functional>
#include <stdexcept>
#include <string>

namespace gpgpu {

/// Process exit codes shared by all chapters.
enum ExitCode : int {
  kExitSuccess = 0,
  kExitVerificationFailed = 1,
  kExitUsage = 2,
  kExitBackendMissing = 77,
};

/// Bad input from the user: options, sizes, files. Exit code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The backend (CUDA device, OpenCL platform, EGL display, ...) is not available. Exit code 77.
class BackendUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A failed CUDA, OpenCL or OpenGL call. The message names the call, the file and line, and the
/// API's own error text (see the checked-call macros in common/cuda, common/opencl, common/gl).
class ApiError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Thrown to leave main() early with a given code (e.g. after printing --help).
struct ExitRequest {
  int code;
};

/// Formats "<call> failed at <file>:<line>: <detail>" for the checked-call macros.
std::string describe_failed_call(const char* call, const char* file, int line, const std::string& detail);

/// An exception as the project reports it: one line and the exit code.
struct Failure {
  std::string message;  ///< one line (newlines in the exception's text become spaces)
  int code;             ///< kExitUsage, kExitBackendMissing or kExitVerificationFailed
};

/// The Failure of the exception being handled (call it inside a catch block): UsageError and
/// std::bad_alloc (out of host memory) exit 2, BackendUnavailable 77, any other exception 1.
/// run_main uses it, and so does every process of a run that does not go through run_main (chapter
/// 13's MPI ranks other than 0), so that each reports a fault alike.
Failure current_failure();

/// Runs `body` and maps every exception to a one-line message and the project's exit code
/// (current_failure). `program` is the executable's name used as the message prefix.
int run_main(const std::string& program, const std::function<int()>& body);

}  // namespace gpgpu
