// The table behind opencl_program(): one entry per file CMakeLists.txt embeds, each put behind scn.cl.
#include "gpgpu/tlm/opencl_kernels.hpp"

#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "embedded/_11_01_coalesced_cl.hpp"
#include "embedded/_11_02_fused_cl.hpp"
#include "embedded/half_slots_cl.hpp"
#include "embedded/scn_cl.hpp"

namespace gpgpu::tlm {
namespace {

struct Program {
  std::string path, text;
  EmbeddedText embedded;
};

// scn.cl, then each of `parts`, with #line directives; one program per distinct text, kept for the
// life of the process.
const EmbeddedText& program_of(std::initializer_list<const EmbeddedText*> parts) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<Program>, std::less<>> programs;
  std::string text = "#line 1 \"" + std::string(embedded::scn_cl.path) + "\"\n" + std::string(embedded::scn_cl.text);
  for (const EmbeddedText* part : parts)
    text += "\n#line 1 \"" + std::string(part->path) + "\"\n" + std::string(part->text);
  const std::lock_guard lock(mutex);
  auto& slot = programs[text];
  if (!slot) {
    slot = std::make_unique<Program>();
    slot->path = (*parts.begin())->path;
    slot->text = std::move(text);
    slot->embedded = {slot->path, slot->text};
  }
  return slot->embedded;
}

}  // namespace

const EmbeddedText& opencl_program_with(const EmbeddedText& kernel) { return program_of({&kernel}); }

const EmbeddedText& opencl_half_program_with(const EmbeddedText& kernel) {
  return program_of({&kernel, &embedded::half_slots_cl});
}

const EmbeddedText& opencl_program(std::string_view kernel_path) {
  static constexpr const EmbeddedText* kTable[] = {&embedded::_11_01_coalesced_cl, &embedded::_11_02_fused_cl};
  for (const EmbeddedText* text : kTable)
    if (text->path == kernel_path) return opencl_program_with(*text);
  throw std::out_of_range("no embedded OpenCL kernel '" + std::string(kernel_path) +
                          "' (see kernels/tlm/opencl/CMakeLists.txt)");
}

}  // namespace gpgpu::tlm
