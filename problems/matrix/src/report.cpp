#include "gpgpu/matrix/report.hpp"

#include <cmath>
#include <ostream>

#include "gpgpu/matrix/paper003.hpp"
#include "gpgpu/result.hpp"
#include "gpgpu/table.hpp"

namespace gpgpu::matrix {
namespace {

// "driver_init_s" -> "driver init".
std::string step_name(std::string key) {
  if (key.ends_with("_s")) key.resize(key.size() - 2);
  for (char& c : key)
    if (c == '_') c = ' ';
  return key;
}

const paper003::TimeRow* paper_row(std::string_view op, std::string_view implementation, std::string_view table) {
  for (const paper003::TimeRow& r : paper003::kAddTranspose)
    if (r.operation == op && r.implementation == implementation && (table.empty() || r.table == table)) return &r;
  return nullptr;
}

}  // namespace

nlohmann::json print_startup(std::ostream& out, Experiment& experiment) {
  nlohmann::json all = nlohmann::json::object();
  std::vector<std::vector<std::string>> t{{"API", "step", "seconds"}};
  for (Backend b : {Backend::cuda, Backend::opencl, Backend::gl}) {
    Session* s = experiment.session(b);
    if (s == nullptr) continue;
    const nlohmann::json device = s->json();
    if (!device.contains("startup")) continue;
    const nlohmann::json& startup = device.at("startup");
    const std::string api(backend_name(b));
    all[api] = startup;
    // The steps in the order a program takes them (JSON objects come back sorted by key).
    for (const char* key : {"driver_init_s", "discovery_s", "context_s", "queue_s"})
      if (startup.contains(key)) t.push_back({api, step_name(key), fmt("%.4f", startup.at(key).get<double>())});
    if (startup.contains("builds"))
      for (const nlohmann::json& build : startup.at("builds"))
        t.push_back({api, "build " + build.at("source").get<std::string>(), fmt("%.4f", build.at("seconds").get<double>())});
    if (startup.contains("total_s")) t.push_back({api, "total", fmt("%.4f", startup.at("total_s").get<double>())});
  }
  if (t.size() == 1) return all;
  out << "\nStart-up of each API before its first kernel (host clock; paper 003, sec. 6.6: OpenCL about "
      << paper003::kOpenClStartupSeconds << " s, CUDA negligible):\n";
  print_text_table(out, t, 2);
  out << "  CUDA: the process's first runtime calls (driver, context); its kernels were compiled with the program\n"
         "  and load on their first launch (the result table's first-call column). OpenCL: every step is explicit\n"
         "  and the kernels are compiled from source now (drivers may cache the binaries between runs).\n";
  return all;
}

void to_json(nlohmann::json& j, const PortRatio& r) {
  j = {{"n", r.n},
       {"variant", r.variant},
       {"original", r.original},
       {"kernel_ratio", json_number(r.kernel_ratio)},
       {"with_copies_ratio", json_number(r.copies_ratio)},
       {"paper_ratio", json_number(r.paper_ratio)},
       {"paper_table", r.paper_table}};
}

double paper_port_ratio(Op op, const std::string& port_paper_name, const std::string& original_paper_name,
                        std::int64_t n, std::string* table) {
  const int index = n <= 1 << 30 ? paper003::size_index(static_cast<int>(n)) : -1;
  const paper003::TimeRow* port = paper_row(op_name(op), port_paper_name, "");
  if (index < 0 || port == nullptr || original_paper_name.empty()) return std::nan("");
  const paper003::TimeRow* original = paper_row(op_name(op), original_paper_name, port->table);
  if (original == nullptr) return std::nan("");
  if (table != nullptr) *table = std::string(port->table);
  return port->ms[static_cast<std::size_t>(index)] / original->ms[static_cast<std::size_t>(index)];
}

void print_port_ratios(std::ostream& out, const std::vector<PortRatio>& ratios) {
  if (ratios.empty()) return;
  out << "\nEach port over its original on the same device (time / time; paper 003's \"CUDA vs OpenCL\" rows):\n";
  std::vector<std::vector<std::string>> t{{"n", "port", "original", "kernel only", "with copies", "then", "table"}};
  for (const PortRatio& r : ratios)
    t.push_back({std::to_string(r.n), r.variant, r.original, fmt("%.2fx", r.kernel_ratio), fmt("%.2fx", r.copies_ratio),
                 fmt("%.1fx", r.paper_ratio), r.paper_table.empty() ? "-" : r.paper_table});
  print_text_table(out, t, 3);
  out << "  then: the paper's OpenCL time over its CUDA time at the same n (its times include the copies and the\n"
         "  per-call overheads of 2010's drivers, but not OpenCL's start-up, reported apart).\n";
}

}  // namespace gpgpu::matrix
