/// @file temp_folder.hpp
/// @brief A test's own folder under the system's temporary folder, new and empty, removed with
/// everything in it when the test ends (RAII): a test writes nowhere else.
#pragma once
#include <filesystem>
#include <string>

#include <unistd.h>

namespace gpgpu::harness {

class TempFolder {
 public:
  /// <tmp>/gpgpu_test_<name>_<process id>, emptied first.
  explicit TempFolder(const std::string& name)
      : path_(std::filesystem::temp_directory_path() / ("gpgpu_test_" + name + "_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempFolder() {
    std::error_code ec;
    // A test may have left a folder read-only: made writable again, so that it can be removed.
    for (const auto& entry : std::filesystem::recursive_directory_iterator(path_, ec))
      if (entry.is_directory(ec)) std::filesystem::permissions(entry.path(), std::filesystem::perms::owner_all,
                                                               std::filesystem::perm_options::add, ec);
    std::filesystem::remove_all(path_, ec);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  [[nodiscard]] std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

}  // namespace gpgpu::harness
