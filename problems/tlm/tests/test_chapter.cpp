// The chapter run end to end with solvers made of the reference itself: a correct one passes, one
// that loses a pulse fails (exit 1); the half-storage model passes at every step count; --dump and
// --png write their files.
#include <cmath>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/png.hpp"
#include "gpgpu/timing.hpp"
#include "gpgpu/tlm/chapter.hpp"
#include "gpgpu/tlm/checks.hpp"
#include "gpgpu/tlm/half_model.hpp"

namespace gpgpu::tlm {
namespace {

// The reference in float clothes; `drop` zeroes one pulse of the result.
class ReferenceSolver final : public Solver {
 public:
  ReferenceSolver(const Setup& s, bool drop) : setup_(s), drop_(drop) {}
  void reset(std::span<const float> incident) override { initial_.assign(incident.begin(), incident.end()); }
  double run(int steps) override {
    Stopwatch clock;
    const ReferenceRun r = run_reference(setup_.structure, setup_.drive, initial_, steps);
    pulses_.assign(r.result.pulses.begin(), r.result.pulses.end());
    probe_.assign(r.result.probe.begin(), r.result.probe.end());
    if (drop_) pulses_[pulses_.size() / 2] = 0.5f;
    return clock.seconds();
  }
  std::vector<float> pulses() override { return pulses_; }
  std::vector<float> probe() override { return probe_; }

 private:
  const Setup& setup_;
  bool drop_;
  std::vector<float> initial_, pulses_, probe_;
};

Variant variant(const std::string& name, bool drop) {
  Variant v;
  v.info = {name, Backend::cpu, "the reference as a solver", "tests/test_chapter.cpp", "", "steady_clock", 1};
  v.opener = cpu_opener;
  v.make = [drop](const Setup& s, Session&) { return std::make_unique<ReferenceSolver>(s, drop); };
  return v;
}

const ChapterInfo kInfo{"99", "test", "test", "none"};

// The half-storage model (half_model.hpp) as a variant with its tolerance.
Variant half_variant() {
  Variant v = variant("half_model", false);
  v.storage = Storage::f16;
  v.make = [](const Setup& s, Session&) { return std::make_unique<checks::HalfStorageModel>(s); };
  return v;
}

int run(Chapter& chapter, std::vector<std::string> args, nlohmann::json* json = nullptr, std::string* out = nullptr) {
  const auto path = std::filesystem::temp_directory_path() / "gpgpu_test_tlm_chapter.json";
  args.insert(args.begin(), "test");
  args.insert(args.end(), {"--json", path.string(), "--threads", "1", "--repeat", "1", "--warmup", "0"});
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  testing::internal::CaptureStdout();
  int code = 0;
  try {
    code = chapter.run(static_cast<int>(argv.size()), argv.data());
  } catch (...) {
    testing::internal::GetCapturedStdout();
    throw;
  }
  const std::string text = testing::internal::GetCapturedStdout();
  if (out != nullptr) *out = text;
  if (json != nullptr) *json = nlohmann::json::parse(std::ifstream(path));
  std::filesystem::remove(path);
  return code;
}

TEST(TlmChapter, ACorrectSolverPassesAndPhysicsIsChecked) {
  Chapter chapter(kInfo);
  chapter.add(variant("good", false));
  nlohmann::json j;
  EXPECT_EQ(run(chapter, {"--quick"}, &j), 0);
  ASSERT_EQ(j["results"].size(), 1u);
  EXPECT_EQ(j["results"][0]["check"], "PASS");
  ASSERT_EQ(j["physics"].size(), 3u);  // energy, resonances, spurious lines (the cavity's three)
  for (const auto& c : j["physics"]) {
    EXPECT_TRUE(c["checked"].get<bool>()) << c["name"];
    EXPECT_TRUE(c["pass"].get<bool>()) << c["summary"];
  }
  EXPECT_EQ(j["problem"]["scenario"], "cavity");
}

TEST(TlmChapter, ALostPulseFails) {
  Chapter chapter(kInfo);
  chapter.add(variant("good", false));
  chapter.add(variant("drops_one", true));
  EXPECT_EQ(run(chapter, {"--quick", "--steps", "50"}), 1);
}

TEST(TlmChapter, HalfStoragePassesAtEveryStepCountAndSaysWhenItCannotBeJudged) {
  // From rest the source is e^-25 V at step 8, below half's smallest subnormal: the half run holds
  // zeros, passes on the floor and the run says it cannot be judged, its check in volts (not a
  // relative error of 1 against a relative tolerance of millions); from step 48 it is judged.
  for (int steps : checks::bound_steps()) {
    Chapter chapter(kInfo);
    chapter.add(variant("good", false));
    chapter.add(half_variant());
    std::string out;
    EXPECT_EQ(run(chapter, {"--nx", "19", "--ny", "7", "--nz", "5", "--steps", std::to_string(steps)}, nullptr, &out), 0)
        << out;
    const bool within_floor = steps <= 8;
    EXPECT_EQ(out.find("half_model           note: the field after") != std::string::npos, within_floor) << out;
    EXPECT_EQ(out.find("half_model           PASS: abs. error ") != std::string::npos, within_floor) << out;
    EXPECT_EQ(out.find(" V allowed (the field is within half storage's floor: not judged)\n") != std::string::npos,
              within_floor)
        << out;
    EXPECT_EQ(out.find("half_model           PASS: rel. error ") != std::string::npos, !within_floor) << out;
  }
}

TEST(TlmChapter, DumpAndPngWriteTheirFiles) {
  const auto dir = std::filesystem::temp_directory_path() / "gpgpu_test_tlm_dump";
  std::filesystem::remove_all(dir);
  const auto png = std::filesystem::temp_directory_path() / "gpgpu_test_tlm.png";
  Chapter chapter(kInfo);
  chapter.add(variant("good", false));
  std::vector<std::string> args{"--quick", "--scenario", "waveguide", "--steps", "300", "--dump", dir.string()};
  if (png_supported()) args.insert(args.end(), {"--png", png.string()});
  EXPECT_EQ(run(chapter, args), 0);
  for (const char* f : {"reference_probe.npy", "reference_energy.npy", "reference_field.npy", "spectrum.npy", "lines.npy",
                        "probe_good.npy", "field_good.npy"})
    EXPECT_TRUE(std::filesystem::exists(dir / f)) << f;
  // The probe: 300 steps of 6 float32 values behind the .npy header.
  std::ifstream probe(dir / "probe_good.npy", std::ios::binary);
  std::string header(128, '\0');
  probe.read(header.data(), 128);
  EXPECT_NE(header.find("'shape': (300, 6)"), std::string::npos) << header;
  if (png_supported()) {
    EXPECT_GT(std::filesystem::file_size(png), 100u);
    std::filesystem::remove(png);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gpgpu::tlm
