#include "gpgpu/png.hpp"

#include <cstddef>
#include <stdexcept>
#include <vector>

#include "gpgpu/errors.hpp"
#include "gpgpu/output_file.hpp"

#ifdef GPGPU_HAVE_PNG
#include <png.h>
#endif

namespace gpgpu {

#ifdef GPGPU_HAVE_PNG

bool png_supported() { return true; }

void write_png(const std::string& path, int width, int height, std::span<const std::uint8_t> rgba_bottom_up) {
  if (rgba_bottom_up.size() != static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4)
    throw std::invalid_argument("write_png: pixel count does not match the size");
  // libpng's simplified API: no setjmp/longjmp error handling to mix with C++ exceptions.
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(width);
  image.height = static_cast<png_uint_32>(height);
  image.format = PNG_FORMAT_RGBA;
  // A negative row stride means "rows are stored bottom-up": the last row in memory is written first.
  const auto stride = -static_cast<png_int_32>(PNG_IMAGE_ROW_STRIDE(image));
  // Encoded in memory (at most PNG_IMAGE_PNG_SIZE_MAX bytes), then written like every output file:
  // libpng's own file writer removes its target when a write fails, an existing picture included.
  std::vector<std::byte> encoded(PNG_IMAGE_PNG_SIZE_MAX(image));
  png_alloc_size_t size = encoded.size();
  if (png_image_write_to_memory(&image, encoded.data(), &size, 0, rgba_bottom_up.data(), stride, nullptr) == 0)
    throw UsageError("cannot write PNG '" + path + "': " + image.message);
  write_file(path, std::span<const std::byte>(encoded.data(), size));
}

#else

bool png_supported() { return false; }

void write_png(const std::string& path, int, int, std::span<const std::uint8_t>) {
  throw UsageError("cannot write '" + path + "': this build has no libpng (install libpng-dev and reconfigure)");
}

#endif

}  // namespace gpgpu
