// The chapter tour: runs every chapter that was built, in order, at its default sizes (or --quick),
// and ends with one summary table of every variant on whatever hardware is here. Chapters whose
// backend was not found at configure time, or is missing at run time (exit 77), are listed with
// the reason. Exit code 0 when every chapter that ran passed, 1 otherwise.
//
// While a chapter runs, its own lines appear as it prints them: its output goes through a
// pseudo-terminal, so the C library flushes every line (into a pipe it would keep whole blocks
// until the chapter ends), even when the tour's own output goes to a pipe or a file. Each chapter
// gets a banner line before it ("[10/13] chapter 10 ...: (running; ...)") and its time after it.
//
// Each chapter writes its JSON into a private folder of this run; it replaces the chapter's JSON in
// --json-dir only when the chapter ended with its results (passed, or failed a check), so a chapter
// that breaks, is skipped or is stopped leaves the JSON of its last run in place. SIGINT, SIGTERM and
// SIGHUP are passed on to the running chapter; once it has ended the tour ends by the same signal.
// Options after -- go to every chapter: a chapter that refuses them (exit 2) stops the tour with exit 2.
//
// The chapters' default sizes are for a GPU. Without one (--sizes cpu, GPGPU_TOUR_SIZES=cpu, or by
// default when `nvidia-smi -L` lists no GPU) the GEMM-heavy chapters 10 and 12 get smaller sizes
// (kNoGpuSizes): about a minute each on two cores instead of hours.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "gpgpu/errors.hpp"
#include "gpgpu/table.hpp"
#include "tour_chapters.hpp"

namespace {

using gpgpu::tour::Chapter;

// ------------------------------------------------------------------------------ sizes by machine

// Arguments for a chapter on a machine without a GPU: option and value pairs, and what they mean.
struct MachineSizes {
  const char* id;
  std::vector<std::string> args;
  const char* what;
};

// Without a GPU the chapters' GPU variants are skipped and their CPU, OpenCL (PoCL) and OpenGL
// (llvmpipe) variants run on the host's cores. On two cores PoCL's GEMM kernels reach 0.3-0.9
// GFLOP/s: chapter 10 took 6 minutes at n = 1024, and its default 4096 is 64 times that work;
// chapter 12's defaults are 16 to 64 times these. At these sizes each takes under a minute there.
const MachineSizes kNoGpuSizes[] = {
    {"01", {"--iters", "200"}, "200 iterations on the paper's 1024² grid (default 1000)"},
    {"02", {"--iters", "100"}, "100 iterations on the paper's 1024² grid (default 1000): OpenGL runs in software here"},
    {"08", {"--iters", "100"}, "100 iterations on the paper's 1024² grid (default 1000): OpenCL runs on the CPU here"},
    {"10", {"--n", "512"}, "n = 512, one of paper 003's sizes (default 4096)"},
    {"12",
     {"--vector", "16777216", "--gemv-rows", "4096", "--gemv-cols", "4096", "--gemm", "1024", "--image-rows", "2048",
      "--image-cols", "2048"},
     "a quarter of each default side: SAXPY/SSCAL n = 2^24, SGEMV 4096², SGEMM 1024³, convolution 2048²"},
    {"13", {"--nx", "1024", "--ny", "1024", "--iters", "100"}, "a 1024² grid, 100 iterations (default 4096², 200)"},
};

enum class Sizes { gpu, no_gpu };

struct SizeChoice {
  Sizes sizes = Sizes::gpu;
  std::string why;
};

// True when `nvidia-smi -L` runs and lists a GPU ("GPU 0: NVIDIA H100 ...").
bool nvidia_smi_lists_a_gpu() {
  FILE* p = popen("nvidia-smi -L 2>/dev/null", "r");
  if (p == nullptr) return false;
  bool listed = false;
  char line[512];
  while (std::fgets(line, sizeof line, p) != nullptr) listed = listed || std::strncmp(line, "GPU ", 4) == 0;
  return pclose(p) == 0 && listed;
}

// --sizes, else GPGPU_TOUR_SIZES, else auto: gpu when nvidia-smi lists a GPU, no GPU otherwise.
SizeChoice choose_sizes(std::string mode) {
  std::string source = "--sizes " + mode;
  if (mode.empty()) {
    const char* env = std::getenv("GPGPU_TOUR_SIZES");
    mode = env != nullptr && *env != '\0' ? env : "auto";
    source = "GPGPU_TOUR_SIZES=" + mode;
  }
  if (mode == "gpu") return {Sizes::gpu, source};
  if (mode == "cpu") return {Sizes::no_gpu, source};
  if (mode != "auto") throw gpgpu::UsageError(source + ": expected auto, gpu or cpu");
  if (nvidia_smi_lists_a_gpu()) return {Sizes::gpu, "nvidia-smi -L lists a GPU"};
  return {Sizes::no_gpu, "no GPU: nvidia-smi -L lists none"};
}

// "10 and 12": the chapters kNoGpuSizes makes smaller.
std::string no_gpu_chapters() {
  std::string s;
  const std::size_t n = std::size(kNoGpuSizes);
  for (std::size_t i = 0; i < n; ++i) s += (i == 0 ? "" : i + 1 == n ? " and " : ", ") + std::string(kNoGpuSizes[i].id);
  return s;
}

// True when the options after -- give `option`, as "--option value" or "--option=value".
bool given_after_dashes(const std::vector<std::string>& extra, const std::string& option) {
  return std::any_of(extra.begin(), extra.end(),
                     [&](const std::string& a) { return a == option || a.rfind(option + "=", 0) == 0; });
}

// The size arguments a chapter gets, and the banner's words for them ("" when none). An option the
// user passes after -- wins over the machine's (CLI11 refuses an option given twice).
std::vector<std::string> size_args(const Chapter& ch, const SizeChoice& choice, const std::vector<std::string>& extra,
                                   std::string& what) {
  std::vector<std::string> args;
  if (choice.sizes != Sizes::no_gpu) return args;
  for (const MachineSizes& m : kNoGpuSizes) {
    if (std::string(m.id) != ch.id) continue;
    for (std::size_t i = 0; i + 1 < m.args.size(); i += 2) {
      if (given_after_dashes(extra, m.args[i])) continue;
      args.push_back(m.args[i]);
      args.push_back(m.args[i + 1]);
    }
    if (!args.empty()) what = choice.why + ": " + m.what;
  }
  return args;
}

// ------------------------------------------------------------------------------------- signals

// The signal that stops the tour (0: none yet) and the chapter running now (0: none). The handler
// passes the signal on to the chapter; the tour ends by it once the chapter has ended.
volatile std::sig_atomic_t g_stop_signal = 0;
volatile std::sig_atomic_t g_chapter_pid = 0;
constexpr int kForwarded[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void pass_signal_on(int sig) {
  g_stop_signal = sig;
  const pid_t pid = g_chapter_pid;
  if (pid > 0) kill(pid, sig);
}

// Installs the handler for each forwarded signal the tour was not started to ignore (nohup's SIGHUP
// stays ignored, for the tour and for its chapters).
void pass_signals_on() {
  for (int sig : kForwarded) {
    struct sigaction old{};
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    struct sigaction on{};
    on.sa_handler = pass_signal_on;
    sigemptyset(&on.sa_mask);
    sigaction(sig, &on, nullptr);
  }
}

// Blocks the forwarded signals while alive: around fork, so that neither the new chapter (before it
// drops the handler) nor the tour (before it knows the chapter's pid) can miss one.
class SignalsHeld {
 public:
  SignalsHeld() {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : kForwarded) sigaddset(&set, sig);
    sigprocmask(SIG_BLOCK, &set, &previous_);
  }
  ~SignalsHeld() { sigprocmask(SIG_SETMASK, &previous_, nullptr); }
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;

 private:
  sigset_t previous_{};
};

// Ends the tour by the signal that stopped it, as if it had not been caught (exit status 128 + N).
[[noreturn]] void end_by_signal(int sig) {
  std::cout.flush();
  std::signal(sig, SIG_DFL);
  raise(sig);
  _exit(128 + sig);  // not reached unless the signal is blocked
}

// ------------------------------------------------------------------------- running one chapter

struct Outcome {
  int exit_code = -1;
  std::string last_error_line;
  double seconds = 0;      // wall time
  double cpu_seconds = 0;  // user and system time of the chapter's threads: more than the wall time
                           // when it keeps several cores busy, less when it waits (or shares the cores)
};

// A pseudo-terminal pair, its output post-processing off (no "\n" -> "\r\n"). {-1, -1} when the
// system has none: the caller falls back to a pipe.
struct Terminal {
  int master = -1;
  int slave = -1;
};

Terminal open_terminal() {
  Terminal t;
  t.master = posix_openpt(O_RDWR | O_NOCTTY);
  if (t.master < 0) return {};
  const char* name = grantpt(t.master) == 0 && unlockpt(t.master) == 0 ? ptsname(t.master) : nullptr;
  t.slave = name != nullptr ? open(name, O_RDWR | O_NOCTTY) : -1;
  if (t.slave < 0) {
    close(t.master);
    return {};
  }
  termios mode{};
  if (tcgetattr(t.slave, &mode) == 0) {
    cfmakeraw(&mode);
    tcsetattr(t.slave, TCSANOW, &mode);
  }
  return t;
}

// The child's end and the tour's end of one output stream: a pseudo-terminal when `terminal`, else
// a pipe.
Terminal open_stream(bool terminal) {
  if (terminal) {
    const Terminal t = open_terminal();
    if (t.master >= 0) return t;
  }
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  return {fds[0], fds[1]};
}

// Runs the chapter. Its stdout goes through a pseudo-terminal to the tour's stdout, line by line as
// it prints; its stderr to the tour's stderr, through a pseudo-terminal too when the tour's stderr
// is a terminal (the chapters then show their progress lines), else a pipe. The last stderr line
// is kept: the reason of a skip or failure, for the summary.
Outcome run_chapter(const std::string& path, const std::vector<std::string>& args) {
  const Terminal out = open_stream(true);
  const Terminal err = open_stream(isatty(STDERR_FILENO) == 1);
  std::cout.flush();
  std::cerr.flush();
  const auto start = std::chrono::steady_clock::now();
  std::optional<SignalsHeld> held(std::in_place);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    // The chapter takes a signal its own way (the tour's handler is the tour's); then the held ones arrive.
    for (int sig : kForwarded) {
      struct sigaction now{};
      if (sigaction(sig, nullptr, &now) == 0 && now.sa_handler != SIG_IGN) std::signal(sig, SIG_DFL);
    }
    held.reset();
    dup2(out.slave, STDOUT_FILENO);
    dup2(err.slave, STDERR_FILENO);
    for (int fd : {out.master, out.slave, err.master, err.slave}) close(fd);
    std::vector<char*> argv{const_cast<char*>(path.c_str())};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(path.c_str(), argv.data());
    std::perror(("cannot run " + path).c_str());
    _exit(127);
  }
  g_chapter_pid = pid;
  if (g_stop_signal != 0) kill(pid, g_stop_signal);  // a signal that came before the chapter did
  held.reset();
  close(out.slave);
  close(err.slave);

  Outcome result;
  std::string line;  // the stderr line being received
  pollfd fds[2] = {{out.master, POLLIN, 0}, {err.master, POLLIN, 0}};
  int open_streams = 2;
  char buf[4096];
  while (open_streams > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {  // end of the stream (a pseudo-terminal whose other end closed reads EIO)
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_streams;
        continue;
      }
      std::ostream& to = i == 0 ? std::cout : std::cerr;
      to.write(buf, n);
      to.flush();
      if (i == 0) continue;
      for (ssize_t k = 0; k < n; ++k) {
        if (buf[k] == '\n') {
          if (!line.empty()) result.last_error_line = line;
          line.clear();
        } else if (buf[k] == '\r') {
          line.clear();  // a progress line redrawn in place
        } else {
          line.push_back(buf[k]);
        }
      }
    }
  }
  if (!line.empty()) result.last_error_line = line;
  for (const pollfd& p : fds)
    if (p.fd >= 0) close(p.fd);
  int status = 0;
  rusage usage{};
  while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  {
    const SignalsHeld no_signal_to_a_reaped_pid;
    g_chapter_pid = 0;
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.cpu_seconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                       1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

// ------------------------------------------------------------------------------- the JSON files

// --json-dir, checked before any chapter runs: a folder (made when missing) the tour can write in.
// This run's own folder inside it, where each chapter writes its JSON; removed at the end. A chapter's
// JSON moves into --json-dir only when the chapter ended with its results.
class RunFolder {
 public:
  explicit RunFolder(const std::string& json_dir) : json_dir_(json_dir) {
    namespace fs = std::filesystem;
    if (json_dir.empty()) throw gpgpu::UsageError("--json-dir needs a folder, got an empty path");
    std::error_code ec;
    if (fs::exists(json_dir, ec) && !fs::is_directory(json_dir, ec))
      throw gpgpu::UsageError("--json-dir '" + json_dir + "' is a file, not a folder");
    fs::create_directories(json_dir, ec);
    if (ec) throw gpgpu::UsageError("--json-dir '" + json_dir + "': cannot create it: " + ec.message());
    std::string name = (fs::path(json_dir) / ".tour-XXXXXX").string();
    if (mkdtemp(name.data()) == nullptr)
      throw gpgpu::UsageError("--json-dir '" + json_dir + "' is not writable: " + std::strerror(errno));
    path_ = name;
  }
  ~RunFolder() { remove(); }
  RunFolder(const RunFolder&) = delete;
  RunFolder& operator=(const RunFolder&) = delete;

  // Where the chapter writes, and where its JSON is kept.
  std::string written(const std::string& target) const { return path_ + "/" + target + ".json"; }
  std::string kept(const std::string& target) const { return json_dir_ + "/" + target + ".json"; }

  bool wrote(const std::string& target) const { return std::filesystem::exists(written(target)); }
  // Moves the chapter's new JSON over its last one; "" on success, else why not.
  std::string keep(const std::string& target) const {
    if (std::rename(written(target).c_str(), kept(target).c_str()) != 0)
      return "cannot keep the JSON as " + kept(target) + ": " + std::strerror(errno);
    return {};
  }
  // The new JSON of a chapter that did not end with its results: the last one stays.
  void discard(const std::string& target) const {
    std::error_code ec;
    std::filesystem::remove(written(target), ec);
  }
  void remove() {
    if (path_.empty()) return;
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
    path_.clear();
  }

 private:
  std::string json_dir_;
  std::string path_;
};

std::string fmt(const nlohmann::json& v, const char* format, double scale = 1.0) {
  if (!v.is_number()) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v.get<double>() * scale);
  return buf;
}

// The rows of a chapter's JSON results for the summary table; false when the file cannot be read as such.
bool add_rows(std::vector<std::vector<std::string>>& table, const std::string& label, const std::string& path) {
  std::ifstream file(path);
  const nlohmann::json j = nlohmann::json::parse(file, nullptr, false);
  std::vector<std::vector<std::string>> rows;
  try {
    for (const auto& r : j.at("results")) {
      rows.push_back({label, r.at("variant").get<std::string>(), r.at("device").get<std::string>(),
                      fmt(r.at("ms_per_step"), "%.4f"), fmt(r.at("gbs_min"), "%.1f"),
                      fmt(r.at("limit_share"), "%.1f%%", 100.0), fmt(r.at("rel_error_l2"), "%.1e"),
                      r.at("check").get<std::string>()});
    }
  } catch (const nlohmann::json::exception&) {
    return false;
  }
  table.insert(table.end(), rows.begin(), rows.end());
  return true;
}

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", s);
  return buf;
}

std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  return gpgpu::run_main("gpgpu_tour", [&] {
    CLI::App app("Runs every chapter that was built, in order, and prints one summary table.", "gpgpu_tour");
    bool quick = false;
    std::string json_dir = gpgpu::tour::default_json_dir;
    std::string sizes_mode;
    std::vector<std::string> extra;
    app.add_flag("--quick", quick, "pass --quick to every chapter (small grids, few iterations)");
    app.add_option("--json-dir", json_dir, "directory for each chapter's JSON results")->capture_default_str();
    app.add_option("--sizes", sizes_mode,
                   "the chapters' sizes: gpu (their defaults), cpu (chapters " + no_gpu_chapters() +
                       " smaller, for a machine without a GPU) or auto (cpu unless `nvidia-smi -L` lists a GPU; "
                       "default, or GPGPU_TOUR_SIZES)")
        ->check(CLI::IsMember({"auto", "gpu", "cpu"}));
    app.add_option("extra", extra, "further options passed to every chapter (after --)");
    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
      std::cout << app.help();
      return 0;
    } catch (const CLI::ParseError& e) {
      throw gpgpu::UsageError(e.what());
    }
    RunFolder folder(json_dir);
    pass_signals_on();
    // --quick sizes every chapter small already: the machine's sizes are for full runs.
    const SizeChoice choice = quick ? SizeChoice{Sizes::gpu, "--quick"} : choose_sizes(sizes_mode);
    if (!quick)
      std::cout << "Sizes: "
                << (choice.sizes == Sizes::gpu ? "the chapters' defaults" : "smaller for chapters " + no_gpu_chapters())
                << " (" << choice.why << ")\n";

    std::vector<const Chapter*> order;
    for (const Chapter& ch : gpgpu::tour::chapters) order.push_back(&ch);
    std::stable_sort(order.begin(), order.end(),
                     [](const Chapter* a, const Chapter* b) { return std::string(a->id) < std::string(b->id); });

    std::vector<std::vector<std::string>> table{
        {"chapter", "variant", "device", "ms/step", "GB/s min", "% of limit", "rel. error", "check"}};
    std::vector<std::vector<std::string>> times{{"chapter", "outcome", "size arguments", "seconds", "CPU s"}};
    std::vector<std::string> notes;
    bool all_ok = true;
    double total_seconds = 0;
    const std::string count = std::to_string(order.size());
    for (std::size_t index = 0; index < order.size(); ++index) {
      const Chapter& ch = *order[index];
      const std::string label = std::string(ch.id) + " " + ch.target;
      const std::string step = "[" + std::to_string(index + 1) + "/" + count + "] chapter " + label;
      if (std::string(ch.path).empty()) {
        std::cout << "\n" << step << ": " << ch.not_built << '\n';
        table.push_back({label, "-", "-", "-", "-", "-", "-", "not built"});
        times.push_back({label, "not built", "-", "-", "-"});
        notes.push_back(label + ": " + ch.not_built);
        continue;
      }
      const std::string json_path = folder.kept(ch.target);
      std::vector<std::string> args{"--json", folder.written(ch.target)};
      if (quick) args.emplace_back("--quick");
      std::string sized;
      const std::vector<std::string> machine = size_args(ch, choice, extra, sized);
      args.insert(args.end(), machine.begin(), machine.end());
      args.insert(args.end(), extra.begin(), extra.end());
      std::string how = quick ? "--quick" : machine.empty() ? "default sizes" : sized + " (" + joined(machine) + ")";
      if (!extra.empty()) how += "; given: " + joined(extra);
      std::cout << "\n" << step << ": " << ch.title << " (running; " << how << ")" << std::endl;

      const Outcome o = run_chapter(ch.path, args);
      total_seconds += o.seconds;
      const bool with_results = o.exit_code == 0 || o.exit_code == gpgpu::kExitVerificationFailed;
      if (!with_results || g_stop_signal != 0) folder.discard(ch.target);
      if (g_stop_signal != 0) {
        std::cerr << "gpgpu_tour: stopped (" << strsignal(g_stop_signal) << ") in chapter " << label
                  << ": its last JSON is kept" << std::endl;
        folder.remove();
        end_by_signal(g_stop_signal);
      }
      if (o.exit_code == gpgpu::kExitUsage && !extra.empty())
        throw gpgpu::UsageError("chapter " + label + " refused the options after -- (each goes to every chapter): " +
                                o.last_error_line);
      std::string outcome = o.exit_code == 0 ? "passed"
                            : o.exit_code == gpgpu::kExitBackendMissing ? "skipped (exit 77)"
                            : o.exit_code == gpgpu::kExitVerificationFailed ? "verification FAILED (exit 1)"
                                                                             : "error (exit " + std::to_string(o.exit_code) + ")";
      std::cout << step << ": " << outcome << " after " << seconds(o.seconds) << " s (CPU time " << seconds(o.cpu_seconds)
                << " s)" << std::endl;
      times.push_back({label, outcome, machine.empty() ? "-" : joined(machine), seconds(o.seconds), seconds(o.cpu_seconds)});
      if (o.exit_code == gpgpu::kExitBackendMissing) {
        table.push_back({label, "-", "-", "-", "-", "-", "-", "skipped"});
        notes.push_back(label + ": " + o.last_error_line);
        continue;
      }
      if (!with_results) {
        all_ok = false;
        table.push_back({label, "-", "-", "-", "-", "-", "-", "error " + std::to_string(o.exit_code)});
        notes.push_back(label + ": " + o.last_error_line);
        continue;
      }
      all_ok = all_ok && o.exit_code == 0;
      if (!folder.wrote(ch.target)) {
        table.push_back({label, "-", "-", "-", "-", "-", "-", "no JSON"});
        all_ok = false;
        continue;
      }
      if (const std::string why = folder.keep(ch.target); !why.empty()) {
        table.push_back({label, "-", "-", "-", "-", "-", "-", "JSON not kept"});
        notes.push_back(label + ": " + why);
        all_ok = false;
        continue;
      }
      if (!add_rows(table, label, json_path)) {
        table.push_back({label, "-", "-", "-", "-", "-", "-", "unreadable JSON"});
        notes.push_back(label + ": " + json_path + " is not the JSON of a chapter's results");
        all_ok = false;
      }
    }

    if (g_stop_signal != 0) {  // after the last chapter
      folder.remove();
      end_by_signal(g_stop_signal);
    }
    std::cout << "\n===== Tour summary =====\n";
    gpgpu::print_text_table(std::cout, table, 3);
    for (const std::string& n : notes) std::cout << "  " << n << '\n';
    std::cout << "\nTime per chapter (" << seconds(total_seconds) << " s in all):\n";
    gpgpu::print_text_table(std::cout, times, 3);
    std::cout << "JSON results: " << json_dir << "/\n" << (all_ok ? "TOUR PASS" : "TOUR FAIL") << '\n';
    return all_ok ? 0 : 1;
  });
}
