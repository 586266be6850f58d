#include "gpgpu/errors.hpp"

#include <exception>
#include <iostream>
#include <new>

namespace gpgpu {

std::string describe_failed_call(const char* call, const char* file, int line, const std::string& detail) {
  return std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " + detail;
}

namespace {
// Keeps the one-line promise even when a message carries a newline (e.g. an API's own text).
std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}
}  // namespace

Failure current_failure() {
  try {
    throw;
  } catch (const UsageError& e) {
    return {one_line(e.what()), kExitUsage};
  } catch (const BackendUnavailable& e) {
    return {one_line(e.what()), kExitBackendMissing};
  } catch (const std::bad_alloc&) {
    return {"out of host memory (try a smaller problem)", kExitUsage};
  } catch (const std::exception& e) {
    return {one_line(e.what()), kExitVerificationFailed};  // ApiError and the rest
  } catch (...) {
    return {"an exception of unknown type", kExitVerificationFailed};
  }
}

int run_main(const std::string& program, const std::function<int()>& body) {
  try {
    return body();
  } catch (const ExitRequest& e) {
    return e.code;
  } catch (...) {
    const Failure f = current_failure();
    std::cout.flush();
    std::cerr << program << (f.code == kExitBackendMissing ? ": skipped: " : ": error: ") << f.message << '\n';
    return f.code;
  }
}

}  // namespace gpgpu
