#include "gpgpu/experiment.hpp"

#include <algorithm>
#include <iomanip>
#include <ostream>

#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/limit_rule.hpp"
#include "gpgpu/output_file.hpp"
#include "gpgpu/sysinfo.hpp"

namespace gpgpu {

Experiment::Experiment(ChapterInfo info, CliDefaults defaults)
    : info_(std::move(info)), cli_(info_.program, "Chapter " + info_.id + ": " + info_.title, defaults) {}

Experiment::~Experiment() = default;

void Experiment::not_built(NotBuilt note) { not_built_.push_back(std::move(note)); }

void Experiment::print_not_built(std::ostream& out) const {
  for (const NotBuilt& n : not_built_)
    out << "Not built: " << (n.what.empty() ? std::string(backend_name(n.backend)) : n.what + " (" + std::string(backend_name(n.backend)) + ")")
        << ": " << n.reason << " (its variants are not in this executable)\n";
}

void Experiment::use(OpenerFactory factory) {
  std::unique_ptr<BackendOpener> opener = factory();
  for (const auto& d : openers_)
    if (d->backend() == opener->backend()) return;
  opener->add_options(cli_);
  openers_.push_back(std::move(opener));
}

const CoreOptions& Experiment::parse(int argc, const char* const* argv, std::vector<std::string> variant_names,
                                     std::vector<std::string> in_all) {
  cli_.set_variant_names(std::move(variant_names), std::move(in_all));
  cli_.parse(argc, argv);
  if (!options().dump_dir.empty())
    dump_.emplace(options().dump_dir, nlohmann::json{{"chapter", {{"id", info_.id}, {"program", info_.program}}},
                                                     {"command_line", cli_.command_line()}});
  return options();
}

void Experiment::open(std::ostream& out, const std::vector<Backend>& needed) {
  std::string first_reason;
  for (Backend b : needed) {
    if (sessions_.count(b) != 0 || absent_.count(b) != 0) continue;
    std::string reason;
    BackendOpener* opener = nullptr;
    for (const auto& d : openers_)
      if (d->backend() == b) opener = d.get();
    // A note closes a backend only when no variant declared it: one about a library within a built
    // backend (cuBLAS within CUDA) leaves the backend's other variants to run.
    for (const NotBuilt& n : not_built_)
      if (n.backend == b && opener == nullptr) reason = "not built: " + n.reason;
    if (reason.empty() && opener == nullptr) reason = "no opener declared (a chapter bug: Experiment::use)";
    if (reason.empty()) {
      try {
        std::unique_ptr<Session> s = opener->open();
        s->print(out);
        sessions_.emplace(b, std::move(s));
        continue;
      } catch (const BackendUnavailable& e) {
        reason = e.what();
      }
    }
    out << "Missing:  " << backend_name(b) << ": " << reason << " (its variants are skipped)\n";
    absent_.emplace(b, reason);
    if (first_reason.empty()) first_reason = std::string(backend_name(b)) + ": " + reason;
  }
  if (sessions_.empty() && !needed.empty()) throw BackendUnavailable(first_reason);
}

Session* Experiment::session(Backend b) {
  auto it = sessions_.find(b);
  return it == sessions_.end() ? nullptr : it->second.get();
}

std::string Experiment::absent_reason(Backend b) const {
  auto it = absent_.find(b);
  return it == absent_.end() ? std::string() : it->second;
}

Session& Experiment::session_of(const VariantInfo& v) {
  Session* s = session(v.backend);
  if (s == nullptr) throw std::logic_error("variant " + v.name + ": its backend is not open");
  return *s;
}

ResultRow Experiment::row_for(const VariantInfo& v) {
  ResultRow row;
  row.variant = v.name;
  row.backend = std::string(backend_name(v.backend));
  row.description = v.description;
  row.source = v.source;
  row.paper_name = v.paper_name;
  row.timer = v.timer;
  Session& s = session_of(v);
  if (v.backend == Backend::cpu) {
    const int threads = v.threads > 0 ? v.threads : cpu_threads(s);
    row.device = "CPU, " + std::to_string(threads) + (threads == 1 ? " thread" : " threads");
  } else {
    row.device = s.device();
  }
  return row;
}

void Experiment::print_header(std::ostream& out, const std::string& problem) const {
  out << "Chapter " << info_.id << ": " << info_.title << "\n"
      << "Retells:  " << info_.paper << "\n";
  print_host_info(out, host_info());
  out << "Problem:  " << problem << "\n"
      << "Timing:   " << options().repeat << " timed run(s) per variant after " << options().warmup
      << " warm-up run(s)\n";
}

Limit Experiment::limit(Backend b, const StreamMix& mix) {
  Session* s = session(b);
  if (s == nullptr) throw std::logic_error("limit of a backend that is not open");
  return s->stream_limit(mix);
}

void Experiment::print_limit(std::ostream& out, Backend b, const std::string& what, const Limit& l) {
  std::string line = std::string(backend_name(b)) + ", " + what + ": " + describe_limit(l);
  if (std::find(printed_limits_.begin(), printed_limits_.end(), line) != printed_limits_.end()) return;
  out << "Limit:    " << line << "\n";
  printed_limits_.push_back(std::move(line));
}

void Experiment::skip(std::ostream& out, const std::string& variant, const std::string& reason) {
  out << "  " << std::left << std::setw(20) << variant << std::right << " skipped: " << reason << "\n";
  skipped_.emplace_back(variant, reason);
}

const ResultRow& Experiment::record(std::ostream& out, ResultRow row) {
  if (!row.launch.empty()) out << "  " << std::left << std::setw(20) << row.variant << std::right << ' ' << row.launch << "\n";
  out << "  " << std::left << std::setw(20) << row.variant << std::right << ' ' << row.check.summary() << "\n";
  rows_.push_back(std::move(row));
  settle_row_limits();
  return rows_.back();
}

void Experiment::amend_rows(const std::function<void(ResultRow&)>& amend) {
  for (ResultRow& r : rows_) amend(r);
  settle_row_limits();
}

void Experiment::settle_row_limits() {
  // Every row so far is judged again: a faster verified run of the same mix raises their limit.
  settle_limits(rows_);
}

void Experiment::add_json(const std::string& key, nlohmann::json value) { extra_json_[key] = std::move(value); }

nlohmann::json Experiment::json_header(const std::string& schema) const {
  nlohmann::json j;
  j["schema"] = "gpgpu-then-and-now/" + schema;
  j["schema_version"] = kResultSchemaVersion;
  j["chapter"] = {{"id", info_.id}, {"program", info_.program}, {"title", info_.title}, {"paper", info_.paper}};
  j["command_line"] = cli_.command_line();
  const HostInfo host = host_info();
  j["revision"] = host.git_revision;
  j["host"] = host;
  j["backends"] = nlohmann::json::object();
  for (const auto& [b, s] : sessions_) j["backends"][std::string(backend_name(b))] = {{"status", "open"}, {"device", s->json()}};
  for (const auto& [b, why] : absent_)
    j["backends"][std::string(backend_name(b))] = {{"status", "missing"}, {"reason", why}};
  return j;
}

void Experiment::write_json(const std::string& path, const nlohmann::json& j) { write_file(path, j.dump(2) + '\n'); }

int Experiment::finish(std::ostream& out, const std::vector<Column>& extra, const ThenNowTable& then) {
  if (!rows_.empty()) {
    out << "\nResults (" << options().repeat << " timed run(s) each):\n";
    print_result_table(out, rows_, extra);
  }
  print_then_now(out, then);
  if (!options().csv_path.empty()) write_csv(options().csv_path, rows_);
  if (!options().json_path.empty()) {
    nlohmann::json j = json_header("result");
    j["options"] = {{"repeat", options().repeat}, {"warmup", options().warmup}, {"verify", options().verify},
                    {"quick", options().quick}};
    j["results"] = rows_;
    j["skipped"] = nlohmann::json::array();
    for (const auto& [v, why] : skipped_) j["skipped"].push_back({{"variant", v}, {"reason", why}});
    j["then_now"] = then;
    for (auto& [key, value] : extra_json_.items()) j[key] = value;
    write_json(options().json_path, j);
  }
  if (dump_) dump_->finish();
  const int code = print_verdict(out, rows_, "variant(s)", options().verify);
  if (!skipped_.empty()) out << ", " << skipped_.size() << " skipped";
  out << "\n";
  return code;
}

}  // namespace gpgpu
