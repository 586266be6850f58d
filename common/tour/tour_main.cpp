// The chapter tour: runs every chapter that was built, in order, at its default sizes (or --quick),
// and ends with one summary table of every variant on whatever hardware is here. Chapters whose
// backend was not found at configure time, or is missing at run time (exit 77), are listed with
// the reason. Exit code 0 when every chapter that ran passed, 1 otherwise.
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "gpgpu/errors.hpp"
#include "gpgpu/table.hpp"

namespace {

struct Chapter {
  const char* id;
  const char* target;
  const char* backend;
  const char* title;
  const char* path;        // empty when not built
  const char* not_built;   // reason, when not built
};

const Chapter kChapters[] = {
#include "tour_chapters.inc"
};

struct Outcome {
  int exit_code = -1;
  std::string last_error_line;
};

// Runs the chapter with stderr through a pipe, echoing it and keeping its last line (the reason of a
// skip or failure) for the summary.
Outcome run_chapter(const std::string& path, const std::vector<std::string>& args) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  std::cout.flush();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    dup2(fds[1], STDERR_FILENO);
    close(fds[0]);
    close(fds[1]);
    std::vector<char*> argv{const_cast<char*>(path.c_str())};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(path.c_str(), argv.data());
    std::perror(("cannot run " + path).c_str());
    _exit(127);
  }
  close(fds[1]);
  Outcome out;
  std::string line;
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) {
    std::cerr.write(buf, n);
    for (ssize_t i = 0; i < n; ++i) {
      if (buf[i] == '\n') {
        if (!line.empty()) out.last_error_line = line;
        line.clear();
      } else {
        line.push_back(buf[i]);
      }
    }
  }
  if (!line.empty()) out.last_error_line = line;
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return out;
}

std::string fmt(const nlohmann::json& v, const char* format, double scale = 1.0) {
  if (!v.is_number()) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v.get<double>() * scale);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  return gpgpu::run_main("gpgpu_tour", [&] {
    CLI::App app("Runs every chapter that was built, in order, and prints one summary table.", "gpgpu_tour");
    bool quick = false;
    std::string json_dir = GPGPU_TOUR_JSON_DIR;
    std::vector<std::string> extra;
    app.add_flag("--quick", quick, "pass --quick to every chapter (small grids, few iterations)");
    app.add_option("--json-dir", json_dir, "directory for each chapter's JSON results")->capture_default_str();
    app.add_option("extra", extra, "further options passed to every chapter (after --)");
    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
      std::cout << app.help();
      return 0;
    } catch (const CLI::ParseError& e) {
      throw gpgpu::UsageError(e.what());
    }
    std::filesystem::create_directories(json_dir);

    std::vector<std::vector<std::string>> table{
        {"chapter", "variant", "device", "ms/step", "GB/s min", "% of limit", "rel. error", "check"}};
    std::vector<std::string> notes;
    bool all_ok = true;
    for (const Chapter& ch : kChapters) {
      const std::string label = std::string(ch.id) + " " + ch.target;
      if (std::string(ch.path).empty()) {
        table.push_back({label, "-", "-", "-", "-", "-", "-", "not built"});
        notes.push_back(label + ": " + ch.not_built);
        continue;
      }
      std::cout << "\n===== " << label << ": " << ch.title << " =====\n";
      const std::string json_path = json_dir + "/" + ch.target + ".json";
      std::filesystem::remove(json_path);
      std::vector<std::string> args{"--json", json_path};
      if (quick) args.emplace_back("--quick");
      args.insert(args.end(), extra.begin(), extra.end());
      const Outcome o = run_chapter(ch.path, args);
      if (o.exit_code == gpgpu::kExitBackendMissing) {
        table.push_back({label, "-", "-", "-", "-", "-", "-", "skipped"});
        notes.push_back(label + ": " + o.last_error_line);
        continue;
      }
      std::ifstream file(json_path);
      if (o.exit_code != 0 && o.exit_code != gpgpu::kExitVerificationFailed) {
        all_ok = false;
        table.push_back({label, "-", "-", "-", "-", "-", "-", "error " + std::to_string(o.exit_code)});
        notes.push_back(label + ": " + o.last_error_line);
        continue;
      }
      all_ok = all_ok && o.exit_code == 0;
      if (!file) {
        table.push_back({label, "-", "-", "-", "-", "-", "-", "no JSON"});
        all_ok = false;
        continue;
      }
      const nlohmann::json j = nlohmann::json::parse(file);
      for (const auto& r : j.at("results")) {
        table.push_back({label, r.at("variant").get<std::string>(), r.at("device").get<std::string>(),
                         fmt(r.at("ms_per_step"), "%.4f"), fmt(r.at("gbs_min"), "%.1f"),
                         fmt(r.at("limit_share"), "%.1f%%", 100.0), fmt(r.at("rel_error_l2"), "%.1e"),
                         r.at("check").get<std::string>()});
      }
    }

    std::cout << "\n===== Tour summary =====\n";
    gpgpu::print_text_table(std::cout, table, 3);
    for (const std::string& n : notes) std::cout << "  " << n << '\n';
    std::cout << "JSON results: " << json_dir << "/\n" << (all_ok ? "TOUR PASS" : "TOUR FAIL") << '\n';
    return all_ok ? 0 : 1;
  });
}
