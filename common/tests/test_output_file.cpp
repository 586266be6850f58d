// Every output file is written whole or not at all: a write that fails (here past a file-size
// limit, as on a full disk) leaves the file it would have replaced as it was and no temporary file
// behind, and says why in one line; a path that cannot be written is refused before any work.
#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpgpu/errors.hpp"
#include "gpgpu/harness/temp_folder.hpp"
#include "gpgpu/npy.hpp"
#include "gpgpu/output_file.hpp"

namespace gpgpu {
namespace {

namespace fs = std::filesystem;

class OutputFileTest : public ::testing::Test {
 protected:
  static std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  static void put(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }
  // The names in the folder: the targets only, never a temporary file left behind.
  [[nodiscard]] std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
  harness::TempFolder folder_{"output"};
  const fs::path& dir_ = folder_.path();
};

// Writes past a file-size limit as the kernel reports it when SIGXFSZ is ignored: EFBIG, the same
// path through the code as ENOSPC on a full disk.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    getrlimit(RLIMIT_FSIZE, &saved_);
    old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit lower = saved_;
    lower.rlim_cur = bytes;
    setrlimit(RLIMIT_FSIZE, &lower);
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, old_handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  rlimit saved_{};
  void (*old_handler_)(int) = nullptr;
};

TEST_F(OutputFileTest, WritesTheWholeFileAndNothingElse) {
  write_file(dir_ / "out.json", "{\"a\": 1}\n");
  EXPECT_EQ(read(dir_ / "out.json"), "{\"a\": 1}\n");
  EXPECT_EQ(names(), std::vector<std::string>{"out.json"});
}

TEST_F(OutputFileTest, ReplacesAFileAndKeepsItsPermissions) {
  put(dir_ / "out.csv", "old\n");
  fs::permissions(dir_ / "out.csv", fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  write_file(dir_ / "out.csv", "new\n");
  EXPECT_EQ(read(dir_ / "out.csv"), "new\n");
  EXPECT_EQ(fs::status(dir_ / "out.csv").permissions(), fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  EXPECT_EQ(names(), std::vector<std::string>{"out.csv"});
}

TEST_F(OutputFileTest, AFailedWriteKeepsTheOldFileAndSaysWhy) {
  const std::string old(4096, 'o');
  put(dir_ / "out.json", old);
  try {
    const FileSizeLimit limit(1000);
    write_file(dir_ / "out.json", std::string(2000, 'n'));
    FAIL() << "a write past the limit succeeded";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("out.json"), std::string::npos) << what;
    EXPECT_NE(what.find("File too large"), std::string::npos) << what;  // the system's reason
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  EXPECT_EQ(read(dir_ / "out.json"), old);
  EXPECT_EQ(names(), std::vector<std::string>{"out.json"});
}

TEST_F(OutputFileTest, AFailedNpyWriteKeepsTheOldFile) {
  put(dir_ / "x.npy", "earlier");
  const std::vector<float> values(1000, 1.5f);
  {
    const FileSizeLimit limit(1000);
    EXPECT_THROW(write_npy(dir_ / "x.npy", values, {1000}), UsageError);
  }
  EXPECT_EQ(read(dir_ / "x.npy"), "earlier");
  EXPECT_EQ(names(), std::vector<std::string>{"x.npy"});
}

TEST_F(OutputFileTest, AnUncommittedFileLeavesNoTrace) {
  put(dir_ / "out.json", "old");
  {
    OutputFile file(dir_ / "out.json");
    file.write("half a file");
  }  // an exception between the writes and commit() ends here
  EXPECT_EQ(read(dir_ / "out.json"), "old");
  EXPECT_EQ(names(), std::vector<std::string>{"out.json"});
}

TEST_F(OutputFileTest, WritesThroughALinkAndKeepsIt) {
  fs::create_directories(dir_ / "real");
  put(dir_ / "real" / "out.json", "old");
  fs::create_symlink("real/out.json", dir_ / "link.json");
  write_file(dir_ / "link.json", "new");
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.json"));
  EXPECT_EQ(read(dir_ / "real" / "out.json"), "new");
}

TEST_F(OutputFileTest, RefusesPathsThatCannotBeWritten) {
  put(dir_ / "file", "x");
  ASSERT_EQ(::mkfifo((dir_ / "pipe").c_str(), 0600), 0);
  const std::vector<std::string> refused{"", dir_.string(), dir_.string() + "/", (dir_ / "missing" / "out.json").string(),
                                         (dir_ / "file" / "out.json").string(), (dir_ / "pipe").string()};
  for (const std::string& path : refused) {
    const std::string why = output_path_problem(path);
    EXPECT_FALSE(why.empty()) << "'" << path << "' was accepted";
    EXPECT_EQ(why.find('\n'), std::string::npos) << why;
    EXPECT_THROW(OutputFile{path}, UsageError) << path;
  }
  EXPECT_EQ(read(dir_ / "file"), "x");
  EXPECT_TRUE(fs::is_fifo(dir_ / "pipe"));  // never replaced by a regular file
  EXPECT_EQ(output_path_problem((dir_ / "out.json").string()), "");
}

TEST_F(OutputFileTest, RefusesAReadOnlyFolder) {
  fs::create_directories(dir_ / "ro");
  fs::permissions(dir_ / "ro", fs::perms::owner_read | fs::perms::owner_exec);
  if (::access((dir_ / "ro").c_str(), W_OK) == 0)
    GTEST_SKIP() << "this user (root) may write into a read-only folder: the case cannot be made here";
  EXPECT_NE(output_path_problem((dir_ / "ro" / "out.json").string()).find("Permission denied"), std::string::npos);
  EXPECT_NE(output_folder_problem((dir_ / "ro" / "dump").string()).find("Permission denied"), std::string::npos);
}

TEST_F(OutputFileTest, FolderChecks) {
  put(dir_ / "file", "x");
  EXPECT_FALSE(output_folder_problem("").empty());
  EXPECT_FALSE(output_folder_problem((dir_ / "file").string()).empty());
  EXPECT_FALSE(output_folder_problem((dir_ / "file" / "dump").string()).empty());
  EXPECT_EQ(output_folder_problem(dir_.string()), "");
  EXPECT_EQ(output_folder_problem((dir_ / "new" / "deeper").string()), "");  // made when the run writes
}

}  // namespace
}  // namespace gpgpu
