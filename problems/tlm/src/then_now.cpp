#include "gpgpu/tlm/then_now.hpp"

#include <cmath>
#include <cstdio>

#include "gpgpu/table.hpp"
#include "gpgpu/tlm/paper002.hpp"
#include "gpgpu/tlm/work.hpp"

namespace gpgpu::tlm {
namespace {

namespace p = paper002;
const double kNaN = std::nan("");

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

const ResultRow* find(const std::vector<ResultRow>& rows, const std::string& variant) {
  for (const ResultRow& r : rows)
    if (r.variant == variant && r.seconds() > 0) return &r;
  return nullptr;
}

double node_rate(const ResultRow& r) { return r.work.items / r.seconds(); }

}  // namespace

ThenNowTable then_now(const std::vector<ResultRow>& rows, const Structure& structure) {
  ThenNowTable t;
  t.title = "Then (paper 002) and now (this run): SCN TLM, million node updates per second";
  t.columns = {
      {"MNodes/s", "1e6 node updates (one scatter and connect of a node) per second, the paper's unit", "%.1f"},
      {"B/node", "bytes of memory traffic per node and step (ours: work.hpp; the paper gives none)", "%.0f"},
      {"GB/s", "1e9 B/s: then Fig. 5's memory test (read-write round trip); now MNodes/s x B/node", "%.1f"},
      {"x 293", "MNodes/s over the paper's best, 293 MNodes/s (sec. VI)", "%.1f"},
      {"% limit", "now only: GB/s over the limit measured in this run (12 arrays read : 12 written)", "%.1f%%"},
  };
  t.rows.push_back({"then", "NVIDIA GPU of the paper (2007 parts; not named)", "CUDA, empty structure", "paper 002, sec. VI",
                    {p::kCudaBestMNodesPerSecond, kNaN, kNaN, 1.0, kNaN}});
  t.rows.push_back({"then", "NVIDIA GPU of the paper (2007 parts; not named)", "CUDA, with the filter", "paper 002, sec. VI",
                    {p::kCudaFilterMNodesPerSecond, kNaN, kNaN, p::kCudaFilterMNodesPerSecond / p::kCudaBestMNodesPerSecond, kNaN}});
  t.rows.push_back({"then", "Quadro FX 5600", "coalesced access (memory test)", "paper 002, sec. IV, Fig. 5",
                    {kNaN, kNaN, p::kCoalescedGBs, kNaN, kNaN}});
  t.rows.push_back({"then", "Quadro FX 5600", "uncoalesced access (memory test)", "paper 002, sec. IV, Fig. 5",
                    {kNaN, kNaN, p::kUncoalescedGBs, kNaN, kNaN}});
  for (const ResultRow& r : rows) {
    if (r.work.items <= 0 || !(r.seconds() > 0)) continue;
    const double mnodes = node_rate(r) / 1e6;
    const double bytes = r.work.bytes_min / r.work.items;
    t.rows.push_back({"now", r.device, r.variant, "this run",
                      {mnodes, bytes, mnodes * bytes / 1e3, mnodes / p::kCudaBestMNodesPerSecond, 100.0 * r.limit_share()}});
  }
  const Mesh& m = structure.mesh;
  t.notes.push_back("this run: " + std::string(scenario_name(structure.scenario)) + ", " + m.str() + " = " +
                    fmt("%.0f", static_cast<double>(m.nodes())) + " nodes; the paper's filter (Fig. 7) has " +
                    fmt("%.0f", p::kFilterNodes) + ", run on 1 to 4 CPUs against the GPU (the text gives no values)");
  t.notes.push_back("the paper does not say what its kernel moves per node: 293 MNodes/s is 28 GB/s at 96 B (12 pulses "
                    "read and written once) and 56 GB/s at 192 B (scatter and connect as two passes), against the FX "
                    "5600's 76.8 GB/s (38.4 'read+write round trip')");
  t.notes.push_back("Fig. 11: OpenCL matched CUDA from about " + fmt("%.0f", p::kOpenClMatchesCudaFromNodes / 1e6) +
                    " million nodes; the comparison table above has this run's OpenCL/CUDA ratios");
  return t;
}

std::vector<Comparison> comparisons(const std::vector<ResultRow>& rows, double nodes) {
  struct Pair {
    const char *what, *first, *second, *paper;
  };
  const std::string crossover = fmt("%.0f", p::kOpenClMatchesCudaFromNodes / 1e6);
  const std::string fig11 = "Fig. 11: slower on small meshes, equal from about " + crossover + " million nodes" +
                            (nodes < p::kOpenClMatchesCudaFromNodes ? " (this mesh is below that)" : " (this mesh is above)");
  const Pair pairs[] = {
      {"coalesced over array of structures", "cuda_coalesced", "cuda_aos", "Fig. 5: about 25 vs 3 GB/s, 'over 8 times'"},
      {"OpenCL over CUDA, the paper's kernels", "opencl_coalesced", "cuda_coalesced", fig11.c_str()},
      {"OpenCL over CUDA, fused", "opencl_fused", "cuda_fused", fig11.c_str()},
      {"fused over the paper's two kernels", "cuda_fused", "cuda_coalesced", "past the paper (96 B against 192 B)"},
      {"half storage over FP32", "cuda_fused_half", "cuda_fused", "past the paper (48 B against 96 B)"},
      {"OpenMP over one thread", "cpu_openmp", "cpu_serial", "Fig. 7: 1 to 4 CPUs (no values in the text)"},
      {"CUDA fused over CPU OpenMP", "cuda_fused", "cpu_openmp", "Fig. 7: GPU against CPUs"},
  };
  std::vector<Comparison> out;
  for (const Pair& pair : pairs) {
    const ResultRow* a = find(rows, pair.first);
    const ResultRow* b = find(rows, pair.second);
    if (a == nullptr || b == nullptr) continue;
    out.push_back({pair.what, pair.first, pair.second, node_rate(*a) / node_rate(*b), pair.paper});
  }
  return out;
}

nlohmann::json print_comparisons(std::ostream& out, const std::vector<ResultRow>& rows, double nodes) {
  const std::vector<Comparison> pairs = comparisons(rows, nodes);
  nlohmann::json json = nlohmann::json::array();
  if (pairs.empty()) return json;
  out << "\nComparisons (node rate of the first over the second, same run):\n";
  std::vector<std::vector<std::string>> t{{"comparison", "first", "second", "ratio", "the paper"}};
  for (const Comparison& c : pairs) {
    t.push_back({c.what, c.first, c.second, fmt("%.2f", c.ratio), c.paper});
    json.push_back({{"what", c.what}, {"first", c.first}, {"second", c.second}, {"ratio", c.ratio}, {"paper", c.paper}});
  }
  print_text_table(out, t, 3);
  return json;
}

}  // namespace gpgpu::tlm
