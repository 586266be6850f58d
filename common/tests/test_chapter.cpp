// The chapter lifecycle of the core (gpgpu/chapter.hpp) with a toy problem on the CPU: variants run
// in the order they were added; one the device cannot run is skipped with the reason when "all" chose
// it and is a usage error when named; a backend that was not built says why; a wrong result, or a
// failed check of the problem's own, fails the run; a sweep visits every size of every variant.
#include <sstream>

#include <CLI/CLI.hpp>
#include <gtest/gtest.h>

#include "gpgpu/chapter.hpp"
#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/errors.hpp"

namespace gpgpu {
namespace {

// The toy problem: y = 2x for n elements.
class Doubler {
 public:
  virtual ~Doubler() = default;
  virtual std::vector<float> run(const std::vector<float>& x) = 0;
};

struct ToyVariant : Variant<int, int, Doubler> {};

class Times final : public Doubler {
 public:
  explicit Times(float factor) : factor_(factor) {}
  std::vector<float> run(const std::vector<float>& x) override {
    std::vector<float> y(x);
    for (float& v : y) v *= factor_;
    return y;
  }

 private:
  float factor_;
};

class Toy final : public Problem<ToyVariant> {
 public:
  struct Settings {
    std::vector<int> sweep;
    std::string failure;  ///< what report() says failed, or ""
  };
  explicit Toy(Settings s) : settings_(std::move(s)) {}
  void add_options(Cli& cli) override { cli.group("Toy").add_option("--n", n_, "elements"); }
  void parsed(Experiment&) override {}
  [[nodiscard]] std::string describe() const override { return "toy of " + std::to_string(n_); }
  [[nodiscard]] int size() const override { return n_; }
  void measure_limits(Experiment&, std::ostream&, const std::vector<const ToyVariant*>&) override {}
  void prepare(Experiment&, std::ostream&, const std::vector<const ToyVariant*>&) override {
    x_.assign(static_cast<std::size_t>(n_), 1.5f);
    ++prepared;
  }
  ResultRow measure(Experiment& run, std::ostream&, const ToyVariant& v) override {
    ResultRow row = run.row_for(v.info);
    const std::vector<float> y = v.make(n_, run.session_of(v.info))->run(x_);
    row.samples = {1e-3};
    row.work.items = n_;
    row.work.step = "call";
    row.work.item = "elements";
    row.limit.gbs = std::nan("");
    row.check = compare_normwise(y, std::vector<double>(y.size(), 3.0), 1e-6);
    order.push_back(v.info.name + "@" + std::to_string(n_));
    return row;
  }
  Report report(Experiment&, std::ostream&) override {
    Report r;
    r.failure = settings_.failure;
    return r;
  }
  [[nodiscard]] std::vector<int> sweep_sizes(const CoreOptions&) const override { return settings_.sweep; }
  void set_size(const int& n) override { n_ = n; }
  [[nodiscard]] std::string size_label() const override { return "n = " + std::to_string(n_); }

  std::vector<std::string> order;
  int prepared = 0;

 private:
  Settings settings_;
  int n_ = 5;
  std::vector<float> x_;
};

ToyVariant toy(std::string name, float factor, std::optional<std::string> cannot = std::nullopt) {
  ToyVariant v;
  v.info = {std::move(name), Backend::cpu, "times a factor", "tests/test_chapter.cpp", "", "none", 1};
  v.opener = cpu_opener;
  v.make = [factor](const int&, Session&) { return std::make_unique<Times>(factor); };
  if (cannot) v.limitation = [cannot](const int&, Session&) { return cannot; };
  return v;
}

int run(Chapter<Toy>& chapter, std::vector<std::string> args, std::string* output = nullptr) {
  args.insert(args.begin(), "toy");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  testing::internal::CaptureStdout();
  int code = 0;
  try {
    code = chapter.run(static_cast<int>(argv.size()), argv.data());
  } catch (...) {
    testing::internal::GetCapturedStdout();
    throw;
  }
  const std::string out = testing::internal::GetCapturedStdout();
  if (output != nullptr) *output = out;
  return code;
}

const ChapterInfo kToyInfo{"99", "toy", "a toy chapter", "no paper"};

TEST(Chapter, RunsTheVariantsInTheOrderTheyWereAdded) {
  Chapter<Toy> chapter(kToyInfo);
  chapter.add(toy("second_name_first", 2.0f));
  chapter.add(std::vector<ToyVariant>{toy("b", 2.0f), toy("a", 2.0f)});
  EXPECT_EQ(run(chapter, {"--threads", "1"}), kExitSuccess);
  EXPECT_EQ(chapter.problem().order, (std::vector<std::string>{"second_name_first@5", "b@5", "a@5"}));
}

TEST(Chapter, AVariantThatCannotRunIsSkippedUnlessNamed) {
  Chapter<Toy> chapter(kToyInfo);
  chapter.add(toy("fine", 2.0f));
  chapter.add(toy("needs_more", 2.0f, "this device has no such feature"));
  std::string out;
  EXPECT_EQ(run(chapter, {"--variant", "all"}, &out), kExitSuccess);
  EXPECT_NE(out.find("needs_more"), std::string::npos);
  EXPECT_NE(out.find("skipped: this device has no such feature"), std::string::npos) << out;
  EXPECT_EQ(chapter.problem().order, (std::vector<std::string>{"fine@5"}));

  Chapter<Toy> named(kToyInfo);
  named.add(toy("fine", 2.0f));
  named.add(toy("needs_more", 2.0f, "this device has no such feature"));
  EXPECT_THROW(run(named, {"--variant", "fine,needs_more"}), UsageError);
}

TEST(Chapter, ABackendNotBuiltIsNamedWithItsReason) {
  Chapter<Toy> chapter(kToyInfo);
  chapter.add(toy("fine", 2.0f));
  chapter.add(NotBuilt{Backend::cuda, "nvcc was not found"});
  std::string out;
  EXPECT_EQ(run(chapter, {}, &out), kExitSuccess);
  EXPECT_NE(out.find("Not built: cuda: nvcc was not found"), std::string::npos) << out;
}

TEST(Chapter, ALibraryNotBuiltLeavesItsBackendOpen) {
  Chapter<Toy> chapter(kToyInfo);
  chapter.add(toy("fine", 2.0f));
  chapter.add(NotBuilt{Backend::cpu, "OpenBLAS was not found"});  // a library within the CPU backend
  std::string out;
  EXPECT_EQ(run(chapter, {}, &out), kExitSuccess);
  EXPECT_NE(out.find("Not built: cpu: OpenBLAS was not found"), std::string::npos) << out;
  EXPECT_EQ(chapter.problem().order, (std::vector<std::string>{"fine@5"}));
}

TEST(Chapter, AWrongResultFailsTheRun) {
  Chapter<Toy> chapter(kToyInfo);
  chapter.add(toy("right", 2.0f));
  chapter.add(toy("wrong", 2.5f));
  std::string out;
  EXPECT_EQ(run(chapter, {}, &out), kExitVerificationFailed);
  EXPECT_NE(out.find("FAIL"), std::string::npos);
}

TEST(Chapter, AFailedCheckOfTheProblemsOwnFailsTheRun) {
  Chapter<Toy> chapter(kToyInfo, Toy::Settings{{}, "the reference breaks a law"});
  chapter.add(toy("right", 2.0f));
  std::string out;
  EXPECT_EQ(run(chapter, {}, &out), kExitVerificationFailed);
  EXPECT_NE(out.find("FAIL: the reference breaks a law"), std::string::npos) << out;
}

TEST(Chapter, TheSweepMeasuresEverySizeOfEveryVariant) {
  Chapter<Toy> chapter(kToyInfo, Toy::Settings{{1, 3, 17}, ""});
  chapter.add(toy("a", 2.0f));
  chapter.add(toy("b", 2.0f, std::nullopt));
  std::string out;
  EXPECT_EQ(run(chapter, {}, &out), kExitSuccess);
  EXPECT_EQ(chapter.problem().order,
            (std::vector<std::string>{"a@1", "b@1", "a@3", "b@3", "a@17", "b@17"}));
  EXPECT_EQ(chapter.problem().prepared, 3);
  EXPECT_NE(out.find("PASS: 6 sweep points"), std::string::npos) << out;
}

}  // namespace
}  // namespace gpgpu
