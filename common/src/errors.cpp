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

int run_main(const std::string& program, const std::function<int()>& body) {
  const auto fail = [&](const std::string& what, int code) {
    std::cout.flush();
    std::cerr << program << ": error: " << one_line(what) << '\n';
    return code;
  };
  try {
    return body();
  } catch (const ExitRequest& e) {
    return e.code;
  } catch (const UsageError& e) {
    return fail(e.what(), kExitUsage);
  } catch (const BackendUnavailable& e) {
    std::cout.flush();
    std::cerr << program << ": skipped: " << one_line(e.what()) << '\n';
    return kExitBackendMissing;
  } catch (const std::bad_alloc&) {
    return fail("out of host memory (try a smaller --nx/--ny)", kExitUsage);
  } catch (const ApiError& e) {
    return fail(e.what(), kExitVerificationFailed);
  } catch (const std::exception& e) {
    return fail(e.what(), kExitVerificationFailed);
  }
}

}  // namespace gpgpu
