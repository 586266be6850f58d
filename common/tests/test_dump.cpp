// The --dump folder: a new or empty folder is used, an earlier dump is replaced (its files that
// this run does not write again are removed once the run has written its own), any other folder
// is refused before the run, and the manifest always names every file of the folder.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpgpu/dump.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/harness/temp_folder.hpp"

namespace gpgpu {
namespace {

namespace fs = std::filesystem;

class DumpTest : public ::testing::Test {
 protected:
  [[nodiscard]] nlohmann::json manifest() const {
    std::ifstream in(dir_ / DumpFolder::kManifest);
    return nlohmann::json::parse(in);
  }
  [[nodiscard]] std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
  // One run that writes `files` (one float each) and finishes.
  void run(const std::vector<std::string>& files) {
    DumpFolder dump(dir_, {{"chapter", {{"id", "00"}}}});
    const std::vector<float> one{1.0f};
    for (const std::string& f : files) dump.write(f, one, {1});
    dump.finish();
  }
  harness::TempFolder folder_{"dump"};
  const fs::path& root_ = folder_.path();
  const fs::path dir_ = root_ / "dump";
};

TEST_F(DumpTest, ANewFolderGetsTheFilesAndTheirManifest) {
  run({"a.npy", "b.npy"});
  EXPECT_EQ(names(), (std::vector<std::string>{"a.npy", "b.npy", DumpFolder::kManifest}));
  const nlohmann::json m = manifest();
  EXPECT_EQ(m.at("schema"), "gpgpu-then-and-now/dump");
  EXPECT_EQ(m.at("schema_version"), 1);
  EXPECT_EQ(m.at("complete"), true);
  EXPECT_EQ(m.at("files"), (std::vector<std::string>{"a.npy", "b.npy"}));
  EXPECT_EQ(m.at("chapter").at("id"), "00");
}

TEST_F(DumpTest, AnEarlierDumpIsReplacedWhole) {
  run({"a.npy", "solution_old.npy"});
  run({"a.npy", "solution_new.npy"});
  EXPECT_EQ(names(), (std::vector<std::string>{"a.npy", DumpFolder::kManifest, "solution_new.npy"}));
  EXPECT_EQ(manifest().at("files"), (std::vector<std::string>{"a.npy", "solution_new.npy"}));
}

TEST_F(DumpTest, AStoppedRunLeavesAFolderTheNextRunAccepts) {
  run({"a.npy", "b.npy"});
  {
    DumpFolder dump(dir_, nlohmann::json::object());
    dump.write("c.npy", std::vector<float>{2.0f}, {1});
  }  // stopped before finish()
  const nlohmann::json m = manifest();
  EXPECT_EQ(m.at("complete"), false);
  EXPECT_EQ(m.at("files"), std::vector<std::string>{"c.npy"});
  EXPECT_EQ(m.at("earlier_files"), (std::vector<std::string>{"a.npy", "b.npy"}));
  run({"a.npy"});
  EXPECT_EQ(names(), (std::vector<std::string>{"a.npy", DumpFolder::kManifest}));
}

TEST_F(DumpTest, RefusesAFolderWithFilesNoDumpWroteAndTouchesNothing) {
  fs::create_directories(dir_);
  std::ofstream(dir_ / "notes.txt") << "mine";
  try {
    DumpFolder dump(dir_, nlohmann::json::object());
    FAIL() << "a folder with a file of the user's was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("notes.txt"), std::string::npos) << e.what();
  }
  EXPECT_THROW(run({}), UsageError);
  std::ifstream in(dir_ / "notes.txt");
  std::string text;
  in >> text;
  EXPECT_EQ(text, "mine");
  EXPECT_FALSE(fs::exists(dir_ / DumpFolder::kManifest));
}

TEST_F(DumpTest, RefusesWhatAManifestCannotVouchFor) {
  run({"a.npy"});
  std::ofstream(dir_ / "b.npy") << "not listed";
  EXPECT_THROW(DumpFolder(dir_, nlohmann::json::object()), UsageError);
  fs::remove(dir_ / "b.npy");
  // A manifest that lists a path out of the folder is no dump's: nothing outside is ever removed.
  std::ofstream(dir_ / DumpFolder::kManifest) << R"({"schema": "gpgpu-then-and-now/dump", "files": ["../x.npy"]})";
  EXPECT_THROW(DumpFolder(dir_, nlohmann::json::object()), UsageError);
  std::ofstream(dir_ / DumpFolder::kManifest) << "{ not json";
  EXPECT_THROW(DumpFolder(dir_, nlohmann::json::object()), UsageError);
  std::ofstream(dir_ / DumpFolder::kManifest) << R"({"schema": 5, "files": "a.npy"})";
  EXPECT_THROW(DumpFolder(dir_, nlohmann::json::object()), UsageError);
  std::ofstream(dir_ / DumpFolder::kManifest) << R"({"schema": "gpgpu-then-and-now/dump", "files": {"x": 1}})";
  EXPECT_THROW(DumpFolder(dir_, nlohmann::json::object()), UsageError);
}

TEST_F(DumpTest, IgnoresTheTemporaryFileOfAKilledWrite) {
  run({"a.npy"});
  std::ofstream(dir_ / ".b.npy.partial-123-0") << "half";
  run({"a.npy"});
  EXPECT_TRUE(fs::exists(dir_ / ".b.npy.partial-123-0"));  // not the run's to remove
}

TEST_F(DumpTest, RefusesAFileOrAnEmptyPath) {
  std::ofstream(root_ / "file") << "x";
  EXPECT_THROW(DumpFolder(root_ / "file", nlohmann::json::object()), UsageError);
  EXPECT_THROW(DumpFolder("", nlohmann::json::object()), UsageError);
}

TEST_F(DumpTest, WritesNothingBeforeTheFirstFile) {
  { DumpFolder dump(dir_, nlohmann::json::object()); }
  EXPECT_FALSE(fs::exists(dir_));
}

}  // namespace
}  // namespace gpgpu
