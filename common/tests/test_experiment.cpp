// The experiment: a backend missing at run time drops its variants with the reason (and is exit 77
// only when nothing else can run); rows decide the exit code; the JSON names its schema, the
// command line, the backends and every row.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/experiment.hpp"
#include "gpgpu/variant.hpp"

namespace gpgpu {
namespace {

// A GPU backend that this machine does not have.
class MissingOpener final : public BackendOpener {
 public:
  [[nodiscard]] Backend backend() const override { return Backend::cuda; }
  void add_options(Cli& cli) override { cli.group("Fake GPU").add_flag("--fake-gpu-flag", flag_, "unused"); }
  std::unique_ptr<Session> open() override { throw BackendUnavailable("no fake GPU here"); }

 private:
  bool flag_ = false;
};
std::unique_ptr<BackendOpener> missing_opener() { return std::make_unique<MissingOpener>(); }

ResultRow row(const std::string& name, bool pass) {
  ResultRow r;
  r.variant = name;
  r.backend = "cpu";
  r.samples = {1.0};
  r.work.items = 1;
  r.work.item = "elements";
  r.work.step = "call";
  r.check = compare_normwise(std::vector<float>{pass ? 1.0f : 2.0f}, std::vector<double>{1.0}, 1e-6);
  return r;
}

const ChapterInfo kInfo{"99", "test_program", "a test chapter", "no paper"};

void parse(Experiment& exp, std::vector<std::string> args) {
  args.insert(args.begin(), "test_program");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  exp.parse(static_cast<int>(argv.size()), argv.data(), {"on_cpu", "on_gpu"});
}

TEST(Experiment, AMissingBackendIsReportedAndSkipped) {
  Experiment exp(kInfo);
  exp.use(cpu_opener);
  exp.use(missing_opener);
  exp.use(missing_opener);  // a second use of the same backend adds nothing
  parse(exp, {"--threads", "1"});
  std::ostringstream out;
  exp.open(out, {Backend::cpu, Backend::cuda});
  EXPECT_NE(exp.session(Backend::cpu), nullptr);
  EXPECT_EQ(exp.session(Backend::cuda), nullptr);
  EXPECT_EQ(exp.absent_reason(Backend::cuda), "no fake GPU here");
  EXPECT_NE(out.str().find("Missing:  cuda: no fake GPU here"), std::string::npos) << out.str();
}

TEST(Experiment, ARowSaysWhichVariantRanWhere) {
  Experiment exp(kInfo);
  exp.use(cpu_opener);
  exp.use(missing_opener);
  parse(exp, {"--threads", "3"});
  std::ostringstream out;
  exp.open(out, {Backend::cpu, Backend::cuda});
  VariantInfo cpu{"on_cpu", Backend::cpu, "a loop", "chapters/99/loop.cpp", "Paper's Name", "steady_clock"};
  const ResultRow r = exp.row_for(cpu);
  EXPECT_EQ(r.variant, "on_cpu");
  EXPECT_EQ(r.backend, "cpu");
  EXPECT_EQ(r.description, "a loop");
  EXPECT_EQ(r.source, "chapters/99/loop.cpp");
  EXPECT_EQ(r.paper_name, "Paper's Name");
  EXPECT_EQ(r.timer, "steady_clock");
  EXPECT_EQ(r.device, "CPU, 3 threads");  // the session's count
  cpu.threads = 1;
  EXPECT_EQ(exp.row_for(cpu).device, "CPU, 1 thread");  // the variant's own
  EXPECT_EQ(&exp.session_of(cpu), exp.session(Backend::cpu));
  EXPECT_THROW((void)exp.row_for({.name = "on_gpu", .backend = Backend::cuda}), std::logic_error);  // its backend is missing
}

TEST(Experiment, EachLimitIsPrintedOnce) {
  Experiment exp(kInfo);
  parse(exp, {});
  Limit a;
  a.name = "stream 2:1";
  a.gbs = 12.34;
  a.working_set = "memory (1 GiB > 32 MiB last-level cache)";
  Limit b = a;
  b.theoretical_gbs = 20;
  std::ostringstream out;
  exp.print_limit(out, Backend::cpu, "2:1", a);
  exp.print_limit(out, Backend::cpu, "2:1", a);  // a second variant of the same mix
  exp.print_limit(out, Backend::cpu, "2:1", b);
  EXPECT_EQ(out.str(),
            "Limit:    cpu, 2:1: stream 2:1: 12.3 GB/s, memory (1 GiB > 32 MiB last-level cache)\n"
            "Limit:    cpu, 2:1: stream 2:1: 12.3 GB/s, memory (1 GiB > 32 MiB last-level cache); theoretical 20 GB/s from "
            "memory clock x bus width\n");
}

TEST(Experiment, NothingToRunIsBackendUnavailable) {
  Experiment exp(kInfo);
  exp.use(missing_opener);
  parse(exp, {});
  std::ostringstream out;
  EXPECT_THROW(exp.open(out, {Backend::cuda}), BackendUnavailable);
}

TEST(Experiment, ABackendNotBuiltSaysWhy) {
  Experiment exp(kInfo);
  exp.use(cpu_opener);
  exp.not_built({Backend::opencl, "no OpenCL headers at configure time"});
  parse(exp, {});
  std::ostringstream out;
  exp.open(out, {Backend::cpu, Backend::opencl});
  EXPECT_NE(exp.absent_reason(Backend::opencl).find("not built: no OpenCL headers"), std::string::npos);
}

TEST(Experiment, OneFailedRowFailsTheRun) {
  Experiment exp(kInfo);
  exp.use(cpu_opener);
  parse(exp, {});
  std::ostringstream out;
  exp.record(out, row("on_cpu", true));
  EXPECT_EQ(exp.finish(out, {}, {}), kExitSuccess);
  exp.record(out, row("on_gpu", false));
  EXPECT_EQ(exp.finish(out, {}, {}), kExitVerificationFailed);
  EXPECT_NE(out.str().find("FAIL"), std::string::npos);
}

TEST(Experiment, JsonNamesSchemaCommandLineBackendsAndRows) {
  const auto path = std::filesystem::temp_directory_path() / "gpgpu_test_experiment.json";
  Experiment exp(kInfo);
  exp.use(cpu_opener);
  exp.use(missing_opener);
  parse(exp, {"--json", path.string(), "--repeat", "2"});
  std::ostringstream out;
  exp.open(out, {Backend::cpu, Backend::cuda});
  exp.skip(out, "on_gpu", "cuda missing");
  exp.record(out, row("on_cpu", true));
  exp.add_json("problem", {{"n", 7}});
  ASSERT_EQ(exp.finish(out, {}, {}), kExitSuccess);
  std::ifstream in(path);
  const nlohmann::json j = nlohmann::json::parse(in);
  std::filesystem::remove(path);
  EXPECT_EQ(j.at("schema_version"), kResultSchemaVersion);
  EXPECT_EQ(j.at("command_line")[1], "--json");
  EXPECT_EQ(j.at("backends").at("cpu").at("status"), "open");
  EXPECT_EQ(j.at("backends").at("cuda").at("status"), "missing");
  EXPECT_EQ(j.at("results")[0].at("variant"), "on_cpu");
  EXPECT_EQ(j.at("skipped")[0].at("variant"), "on_gpu");
  EXPECT_EQ(j.at("problem").at("n"), 7);
  EXPECT_EQ(j.at("options").at("repeat"), 2);
}

TEST(Registry, KeepsOrderAndRefusesDuplicates) {
  struct Spec {
    VariantInfo info;
    OpenerFactory opener = nullptr;
  };
  Registry<Spec> r;
  r.add({{.name = "b", .backend = Backend::cpu}});
  r.add({{.name = "a", .backend = Backend::cuda}});
  EXPECT_EQ(r.names(), (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(r.at("a").info.backend, Backend::cuda);
  EXPECT_THROW(r.add({{.name = "a", .backend = Backend::cpu}}), std::logic_error);
  EXPECT_THROW((void)r.at("c"), std::out_of_range);
}

}  // namespace
}  // namespace gpgpu
