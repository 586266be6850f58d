// The CPU backend is always present; its benchmark context is the host context already recorded.
#include "harness.hpp"

namespace gpgpu::harness {

std::optional<std::string> backend_missing() { return std::nullopt; }
void add_backend_context() {}

}  // namespace gpgpu::harness
