// Chapter 10's --tune: every compiled configuration of a kernel (tile shapes, thread tiles, stages)
// verified first and timed only if it passed, the fastest kept, and all of them in the row.
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <ostream>

#include "gpgpu/blas/chapter.hpp"
#include "gpgpu/blas/work.hpp"
#include "gpgpu/table.hpp"
#include "gpgpu/timing.hpp"

namespace gpgpu::blas {

//! [tune]
std::vector<TuneTrial> GemmProblem::tune(Experiment& run, GemmOperation& op, const GemmVariant& v, std::size_t& fastest) {
  const CoreOptions& core = run.options();
  const std::vector<std::string> names = op.configurations();
  std::vector<TuneTrial> trials;
  fastest = 0;
  double best = 0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    op.configure(i);
    TuneTrial trial{names[i], {}, std::nan("")};
    op.upload(operands_);  // C poisoned: the configuration must write every element itself
    (void)op.run(1);
    trial.check = compare(op.download(), reference_, v.arithmetic(options_.type));
    if (trial.check.pass) {
      const std::vector<double> s = repeat_runs(core.warmup, core.repeat, [&] { return op.run(options_.calls); });
      trial.gflops = gemm_work(options_.dims, options_.type, options_.calls).flops / median(s) / 1e9;
      if (trial.gflops > best) {
        best = trial.gflops;
        fastest = i;
      }
    }
    trials.push_back(std::move(trial));
  }
  op.configure(fastest);
  return trials;
}
//! [tune]

void GemmProblem::record_tuning(std::ostream& out, const GemmVariant& v, const std::vector<TuneTrial>& trials,
                                std::size_t tuned, ResultRow& row) const {
  nlohmann::json json = nlohmann::json::array();
  std::vector<Verification> checks{row.check};
  for (const TuneTrial& t : trials) {
    out << "  " << std::left << std::setw(22) << v.info.name << std::right << " tune: " << t.configuration << ": "
        << (t.check.pass ? fmt("%.0f GFLOP/s", t.gflops) + ", PASS" : "not timed, " + t.check.summary()) << "\n";
    json.push_back({{"configuration", t.configuration},
                    {"gflops", json_number(t.gflops)},
                    {"check", t.check.pass ? "PASS" : "FAIL"},
                    {"error_over_bound", json_number(t.check.rel_max / t.check.tolerance)}});
    checks.push_back(t.check);
  }
  const std::string& chosen = trials[tuned].configuration;
  const auto passed = std::count_if(trials.begin(), trials.end(), [](const TuneTrial& t) { return t.check.pass; });
  out << "  " << std::left << std::setw(22) << v.info.name << std::right << " tuned: " << chosen << ", the fastest of the "
      << passed << " configurations that passed their check (" << trials.size() << " tried)\n";
  row.extra["tuning"] = std::move(json);
  row.extra["tuned"] = chosen;
  row.launch = "tuned: " + chosen + (row.launch.empty() ? "" : "; " + row.launch);
  row.check = all_of(checks);  // a configuration that fails its check fails the variant, chosen or not
}

}  // namespace gpgpu::blas
