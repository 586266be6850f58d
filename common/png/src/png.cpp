#include "gpgpu/png.hpp"

#include <stdexcept>

#include "gpgpu/errors.hpp"

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
  if (png_image_write_to_file(&image, path.c_str(), 0, rgba_bottom_up.data(), stride, nullptr) == 0)
    throw UsageError("cannot write PNG '" + path + "': " + image.message);
}

#else

bool png_supported() { return false; }

void write_png(const std::string& path, int, int, std::span<const std::uint8_t>) {
  throw UsageError("cannot write '" + path + "': this build has no libpng (install libpng-dev and reconfigure)");
}

#endif

}  // namespace gpgpu
