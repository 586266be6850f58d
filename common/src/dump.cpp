#include "gpgpu/dump.hpp"

#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include "gpgpu/errors.hpp"
#include "gpgpu/npy.hpp"
#include "gpgpu/output_file.hpp"

namespace gpgpu {
namespace {

constexpr const char* kSchema = "gpgpu-then-and-now/dump";
constexpr int kSchemaVersion = 1;

// A name a manifest may list: one file inside the folder (never a path out of it) other than the
// manifest itself.
bool plain_name(const std::string& name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
         name != DumpFolder::kManifest;
}

// A temporary file an OutputFile left behind when a run was killed in the middle of a write
// (".NAME.partial-PID-N"): neither refused nor removed, and no reader's pattern matches it.
bool partial_write(const std::string& name) { return name.starts_with(".") && name.find(".partial-") != std::string::npos; }

std::string refusal(const std::filesystem::path& dir, const std::string& why) {
  return "--dump '" + dir.string() + "': " + why +
         ": give a new or empty folder, or one that an earlier --dump wrote (this run replaces that dump)";
}

// The files of the earlier dump in `dir` (empty for an empty folder); UsageError for a folder that
// holds anything else.
std::vector<std::string> earlier_dump(const std::filesystem::path& dir) {
  std::vector<std::string> listed;
  const std::filesystem::path manifest = dir / DumpFolder::kManifest;
  if (std::filesystem::exists(manifest)) {
    const std::string name = DumpFolder::kManifest;
    try {
      std::ifstream file(manifest);
      const nlohmann::json j = nlohmann::json::parse(file);
      if (!j.is_object() || !j.contains("schema") || j.at("schema") != kSchema)
        throw UsageError(refusal(dir, name + " is not a dump's manifest"));
      for (const char* key : {"files", "earlier_files"})
        for (const nlohmann::json& file_name : j.value(key, nlohmann::json::array())) {
          if (!file_name.is_string() || !plain_name(file_name.get<std::string>()))
            throw UsageError(refusal(dir, name + " lists " + file_name.dump() + ", which is not a file name"));
          listed.push_back(file_name.get<std::string>());
        }
    } catch (const UsageError&) {
      throw;
    } catch (const std::exception& e) {  // not JSON, or not of the manifest's shape
      throw UsageError(refusal(dir, "its " + name + " cannot be read (" + e.what() + ")"));
    }
  }
  std::vector<std::string> present;
  for (const std::filesystem::directory_entry& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name == DumpFolder::kManifest || partial_write(name)) continue;
    const bool listed_file = std::find(listed.begin(), listed.end(), name) != listed.end() && entry.is_regular_file() &&
                             !entry.is_symlink();
    if (!listed_file) throw UsageError(refusal(dir, "the folder holds '" + name + "', which no dump of this project wrote"));
    present.push_back(name);
  }
  return present;
}

}  // namespace

DumpFolder::DumpFolder(std::filesystem::path dir, nlohmann::json about) : dir_(std::move(dir)), about_(std::move(about)) {
  if (const std::string why = output_folder_problem(dir_.string()); !why.empty()) throw UsageError("--dump: " + why);
  if (!std::filesystem::exists(dir_)) return;
  try {
    earlier_ = earlier_dump(dir_);
  } catch (const std::filesystem::filesystem_error& e) {
    throw UsageError("--dump: cannot read '" + dir_.string() + "': " + e.code().message());
  }
}

void DumpFolder::open() {
  if (opened_) return;
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) throw UsageError("--dump: cannot create '" + dir_.string() + "': " + ec.message());
  save_manifest(false);
  opened_ = true;
}

void DumpFolder::check_name(const std::string& name) const {
  if (!plain_name(name)) throw std::invalid_argument("DumpFolder::write: '" + name + "' is not a file name");
}

void DumpFolder::listed(const std::string& name) {
  if (std::find(written_.begin(), written_.end(), name) == written_.end()) written_.push_back(name);
  earlier_.erase(std::remove(earlier_.begin(), earlier_.end(), name), earlier_.end());
  save_manifest(false);
}

template <class T>
void DumpFolder::write_array(const std::string& name, std::span<const T> data, const std::vector<std::size_t>& shape) {
  check_name(name);
  open();
  write_npy(dir_ / name, data, shape);
  listed(name);
}

void DumpFolder::write_text(const std::string& name, std::string_view text) {
  check_name(name);
  open();
  write_file(dir_ / name, text);
  listed(name);
}

void DumpFolder::write(const std::string& name, std::span<const float> data, const std::vector<std::size_t>& shape) {
  write_array(name, data, shape);
}
void DumpFolder::write(const std::string& name, std::span<const double> data, const std::vector<std::size_t>& shape) {
  write_array(name, data, shape);
}
void DumpFolder::write(const std::string& name, std::span<const std::int32_t> data,
                       const std::vector<std::size_t>& shape) {
  write_array(name, data, shape);
}

void DumpFolder::finish() {
  open();  // a run that wrote no file still leaves its folder and manifest
  // Removed one by one while the manifest still lists them: a run stopped here leaves a folder
  // whose every file the manifest names, which the next --dump accepts.
  for (const std::string& name : earlier_) {
    std::error_code ec;
    std::filesystem::remove(dir_ / name, ec);
    if (ec) throw UsageError("--dump: cannot remove the earlier dump's '" + (dir_ / name).string() + "': " + ec.message());
  }
  earlier_.clear();
  save_manifest(true);
}

void DumpFolder::save_manifest(bool complete) const {
  nlohmann::json j = about_;
  j["schema"] = kSchema;
  j["schema_version"] = kSchemaVersion;
  j["complete"] = complete;
  j["files"] = written_;
  j["earlier_files"] = earlier_;
  write_file(dir_ / kManifest, j.dump(2) + '\n');
}

}  // namespace gpgpu
