/// @file dump.hpp
/// @brief The folder of --dump DIR: the NumPy files of one run, and a manifest that names them.
///
/// A dump never mixes with files it did not write, and never deletes one:
///  - DIR is made when it is missing; an empty DIR is used as it is;
///  - a DIR that holds an earlier dump (its manifest, and only the files that manifest lists) is
///    replaced: this run's files replace those of the same name, and once the run has written its
///    last file the earlier dump's other files (listed in its manifest) are removed;
///  - any other DIR (a file that no dump wrote, a folder inside) is refused before the run starts
///    (UsageError, exit code 2), naming the first such file.
///
/// The manifest, DIR/dump_manifest.json, is written before the first file and again after each one,
/// so that it always names every file of the folder (a run stopped part way leaves a folder the
/// next --dump accepts):
/// @code
///   {"schema": "gpgpu-then-and-now/dump", "schema_version": 1,
///    "chapter": {"id": "01", "program": "ch01_cpu_jacobi"}, "command_line": ["...", "--dump", "DIR"],
///    "complete": true,
///    "files": ["diagonals.npy", "rhs.npy", ...],   // this run's files, in the order written
///    "earlier_files": []}                          // the earlier dump's files still there (none
///                                                  // once "complete")
/// @endcode
/// A reader checks "complete" and reads the files the manifest lists. Each file is written through an
/// OutputFile (complete, or the earlier file of that name stays).
#pragma once
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpgpu {

class DumpFolder {
 public:
  /// The manifest's name inside the folder.
  static constexpr const char* kManifest = "dump_manifest.json";

  /// Checks `dir` for this run (see above) before the run starts, writing nothing yet: the folder
  /// and its manifest are made with the first file. `about` ("chapter", "command_line") goes into
  /// the manifest. Throws UsageError when the folder cannot be used.
  DumpFolder(std::filesystem::path dir, nlohmann::json about);

  [[nodiscard]] const std::filesystem::path& path() const { return dir_; }

  /// Writes `data` (C order, `shape`) as DIR/name, a .npy file (write_npy), and lists it.
  void write(const std::string& name, std::span<const float> data, const std::vector<std::size_t>& shape);
  void write(const std::string& name, std::span<const double> data, const std::vector<std::size_t>& shape);
  void write(const std::string& name, std::span<const std::int32_t> data, const std::vector<std::size_t>& shape);

  /// Writes `text` as DIR/name (a small side file the checkers read, e.g. JSON), and lists it.
  void write_text(const std::string& name, std::string_view text);

  /// After the run's last file: removes the earlier dump's files that this run did not write again,
  /// and marks the manifest complete.
  void finish();

 private:
  template <class T>
  void write_array(const std::string& name, std::span<const T> data, const std::vector<std::size_t>& shape);
  void check_name(const std::string& name) const;  ///< a plain file name, else std::invalid_argument
  void listed(const std::string& name);            ///< records a file this run wrote, in the manifest
  void open();  ///< makes the folder and writes the first manifest, once
  void save_manifest(bool complete) const;
  std::filesystem::path dir_;
  nlohmann::json about_;
  std::vector<std::string> written_;  ///< this run's files, in order
  std::vector<std::string> earlier_;  ///< the earlier dump's files that this run has not written again
  bool opened_ = false;
};

}  // namespace gpgpu
