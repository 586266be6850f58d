/// @file output_file.hpp
/// @brief The one way a chapter writes a file (--json, --csv, --png, the .npy files of --dump):
/// whole or not at all, and never at the expense of the file it replaces.
///
/// OutputFile writes into a new temporary file beside the target (".NAME.partial-PID-N", in the
/// same folder, so that the rename below stays within one file system), checks every write, the
/// flush to the disk and the close, and only then renames the complete file over the target. An
/// existing file is therefore never removed or truncated by a write that fails (a full disk, a
/// file-size limit): it keeps its old contents, the temporary file is removed, and the run ends with
/// one line naming the path and the system's reason (UsageError, exit code 2).
///
/// output_path_problem() checks a path before a run starts, so that a long run does not end in
/// "cannot write"; the command line's writable_path() validator uses it.
#pragma once
#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace gpgpu {

/// One output file being written (RAII): the temporary file is removed unless commit() succeeded.
class OutputFile {
 public:
  /// Checks `path` (output_path_problem) and creates the temporary file beside it; a symbolic link
  /// is followed, so that the file it points to is replaced and the link is kept. Throws UsageError.
  explicit OutputFile(const std::filesystem::path& path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  /// Appends bytes; throws UsageError with the system's reason when the write fails.
  void write(std::span<const std::byte> bytes);
  void write(std::string_view text);
  /// Flushes the file to the disk, closes it and renames it over the target; throws UsageError
  /// when any of these fails (the target is then untouched).
  void commit();

 private:
  [[noreturn]] void fail(int error) const;
  std::string path_;                ///< as given, for messages
  std::filesystem::path target_;    ///< what the rename replaces (links followed)
  std::filesystem::path temporary_;
  int fd_ = -1;
  bool committed_ = false;
};

/// Writes `contents` as the whole of the file `path` through an OutputFile.
void write_file(const std::filesystem::path& path, std::string_view contents);
void write_file(const std::filesystem::path& path, std::span<const std::byte> contents);

/// Why `path` cannot be written as an output file, or "" when it can: it is empty or names a
/// folder; its folder is missing, is not a folder or is not writable for this user; it exists but
/// is not a regular file (a device such as /dev/full, a pipe: renaming a file over it would replace
/// it) or is read-only. The message is one line: "cannot write 'PATH': REASON".
[[nodiscard]] std::string output_path_problem(const std::string& path);

/// Why `path` cannot be the folder of an output (--dump), or "" when it can: it is empty, exists
/// but is not a folder or not writable, or cannot be created (its nearest existing folder is
/// missing, not a folder, or not writable). The folder's contents are DumpFolder's business.
[[nodiscard]] std::string output_folder_problem(const std::string& path);

}  // namespace gpgpu
