#include "gpgpu/output_file.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpgpu/errors.hpp"

namespace gpgpu {
namespace {

std::string cannot_write(const std::string& path, const std::string& reason) {
  return "cannot write '" + path + "': " + reason;
}

// The file a path finally names: a symbolic link is replaced by what it points to (a relative link
// is relative to the link's folder), so that writing through a link replaces the file and keeps the
// link. A chain longer than the system's own limit is left as it is (the checks then report ELOOP).
std::filesystem::path follow_links(std::filesystem::path path) {
  for (int hop = 0; hop < 40; ++hop) {
    std::error_code ec;
    if (!std::filesystem::is_symlink(std::filesystem::symlink_status(path, ec))) return path;
    const std::filesystem::path link = std::filesystem::read_symlink(path, ec);
    if (ec) return path;
    path = link.is_absolute() ? link : path.parent_path() / link;
  }
  return path;
}

// The folder a file of `path` goes into ("." for a bare name).
std::filesystem::path folder_of(const std::filesystem::path& path) {
  return path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
}

// Why this user cannot create files in the existing folder `folder`, or "".
std::string folder_problem(const std::filesystem::path& folder) {
  const std::string named = "folder '" + folder.string() + "'";
  struct stat st {};
  if (::stat(folder.c_str(), &st) != 0) return named + (errno == ENOENT ? " does not exist" : ": " + std::string(std::strerror(errno)));
  if (!S_ISDIR(st.st_mode)) return named + " is not a folder";
  // access() answers for this user, root included: a read-only folder stops an ordinary user, and a
  // read-only file system stops everyone (EROFS).
  if (::access(folder.c_str(), W_OK | X_OK) != 0) return named + ": " + std::strerror(errno);
  return {};
}

}  // namespace

std::string output_path_problem(const std::string& path) {
  if (path.empty()) return "the path is empty (give a file name)";
  const std::filesystem::path given(path);
  if (!given.has_filename()) return cannot_write(path, "it names a folder (give a file name)");
  const std::filesystem::path target = follow_links(given);
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return cannot_write(path, "it is a folder (give a file name)");
    if (!S_ISREG(st.st_mode))
      return cannot_write(path, "it is not a regular file (a device, a pipe or a socket), which a complete file "
                                "renamed over it would replace");
    if (::access(target.c_str(), W_OK) != 0) return cannot_write(path, std::strerror(errno));
  } else if (errno != ENOENT) {
    return cannot_write(path, std::strerror(errno));  // ENOTDIR: a file where a folder should be; EACCES, ELOOP ...
  }
  if (const std::string why = folder_problem(folder_of(target)); !why.empty()) return cannot_write(path, why);
  return {};
}

std::string output_folder_problem(const std::string& path) {
  if (path.empty()) return "the folder path is empty (give a folder name)";
  // The folder itself when it exists, else the nearest folder above it that does (where
  // create_directories will start).
  std::filesystem::path folder = follow_links(std::filesystem::path(path));
  struct stat st {};
  if (::stat(folder.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) return cannot_write(path, "it exists and is not a folder");
    if (::access(folder.c_str(), W_OK | X_OK) != 0) return cannot_write(path, std::strerror(errno));
    return {};
  }
  if (errno != ENOENT) return cannot_write(path, std::strerror(errno));
  std::filesystem::path above = std::filesystem::absolute(folder).lexically_normal();
  if (!above.has_filename()) above = above.parent_path();  // "out/" names "out"
  do {
    above = above.parent_path();
  } while (::stat(above.c_str(), &st) != 0 && errno == ENOENT && above != above.root_path());
  if (const std::string why = folder_problem(above); !why.empty()) return cannot_write(path, why);
  return {};
}

OutputFile::OutputFile(const std::filesystem::path& path) : path_(path.string()) {
  if (const std::string why = output_path_problem(path_); !why.empty()) throw UsageError(why);
  target_ = follow_links(path);
  // A hidden name that no chapter writes and no checker globs: ".NAME.partial-PID-N"; the name is cut
  // so that the temporary name stays within the 255 bytes a file name may have.
  static std::atomic<unsigned> serial{0};
  std::string stem(".");  // appended to, not "." + a temporary: GCC 12 warns of a false overlap (-Wrestrict) there
  stem += target_.filename().string().substr(0, 200) + ".partial-" + std::to_string(::getpid()) + "-";
  for (;;) {
    temporary_ = folder_of(target_) / (stem + std::to_string(serial++));
    fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ >= 0) break;
    if (errno != EEXIST) fail(errno);  // EEXIST: a leftover of an earlier process with this id; try the next name
  }
  // A file replaced keeps its permissions. A file system without them (FAT) refuses fchmod: the new
  // file then has the folder's default, which is all such a file system has.
  if (struct stat st {}; ::stat(target_.c_str(), &st) == 0) (void)::fchmod(fd_, st.st_mode & 07777);
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temporary_.empty()) ::unlink(temporary_.c_str());
}

void OutputFile::fail(int error) const {
  throw UsageError(cannot_write(path_, std::strerror(error)));
}

void OutputFile::write(std::span<const std::byte> bytes) {
  if (fd_ < 0) throw std::logic_error("OutputFile::write after commit");
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail(n < 0 ? errno : EIO);  // EFBIG past a file-size limit, ENOSPC on a full disk
    bytes = bytes.subspan(static_cast<std::size_t>(n));
  }
}

void OutputFile::write(std::string_view text) { write(std::as_bytes(std::span<const char>(text.data(), text.size()))); }

void OutputFile::commit() {
  if (fd_ < 0) throw std::logic_error("OutputFile::commit twice");
  // The data on the disk before the rename makes it visible: a crash after the rename then leaves
  // the new file, not an empty one. A file system that cannot sync (EINVAL) has nothing to flush.
  if (::fsync(fd_) != 0 && errno != EINVAL) fail(errno);
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) fail(errno);  // NFS and full disks may report a failed write only here
  if (::rename(temporary_.c_str(), target_.c_str()) != 0) fail(errno);
  committed_ = true;
}

void write_file(const std::filesystem::path& path, std::span<const std::byte> contents) {
  OutputFile file(path);
  file.write(contents);
  file.commit();
}

void write_file(const std::filesystem::path& path, std::string_view contents) {
  write_file(path, std::as_bytes(std::span<const char>(contents.data(), contents.size())));
}

}  // namespace gpgpu
