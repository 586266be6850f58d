#!/usr/bin/env python3
"""Chapter 09's results on the GPU machine, turned into what a person reads (scripts/device/matrix.sh).

  matrix_tables.py ncu RAW.csv OUT.csv   Nsight Compute's raw page -> one line per kernel: sectors per
                                         request of its global loads and stores, shared-memory bank
                                         conflicts, DRAM bytes, time
  matrix_tables.py summary DIR           a short text summary of the ch09_*.json and ch09_ncu.csv in DIR
                                         (the goals: met or missed)
  matrix_tables.py readme DIR            what scripts/report/readme_tables.py does not generate into the
                                         chapter README (Markdown): block A (limits and goals) replaces the
                                         text between its <!-- table A ... --> and <!-- end table A -->
                                         markers; block B gives the measured columns of its Nsight
                                         Compute table

Only the standard library: it runs wherever the chapter ran.
"""
import csv
import json
import math
import os
import re
import sys

GOALS = {"add": 95, "transpose": 90}  # the chapter's goals: % of the matched limit
NCU_METRICS = {"ld_sec": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
               "ld_req": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
               "st_sec": "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
               "st_req": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
               "bank_ld": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
               "bank_st": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
               "dram_read": "dram__bytes_read.sum", "dram_write": "dram__bytes_write.sum",
               "time": "gpu__time_duration.sum"}
NCU_COLUMNS = ["kernel", "ld_sectors_per_request", "st_sectors_per_request", "shared_ld_bank_conflicts",
               "shared_st_bank_conflicts", "dram_read_bytes", "dram_write_bytes", "time_ns"]


def number(v):
    try:
        return float(str(v).replace(",", ""))
    except (TypeError, ValueError):
        return math.nan


def sig(x, digits=3):
    """A time or rate with `digits` significant digits, '-' for none."""
    if x is None or not isinstance(x, (int, float)) or math.isnan(x):
        return "-"
    if x == 0:
        return "0"
    decimals = max(0, digits - 1 - int(math.floor(math.log10(abs(x)))))
    return f"{x:.{decimals}f}"


def load(directory, name):
    path = os.path.join(directory, name)
    return json.load(open(path)) if os.path.exists(path) else None


def op_of(row):
    return row["work"]["kernel"].split("_")[0]


def share(row):
    return 100 * row["limit_share"] if row.get("limit_share") is not None else math.nan


# ---------------------------------------------------------------------------------------------- ncu
def ncu(raw_path, dest_path):
    rows = [r for r in csv.reader(open(raw_path)) if r]
    head = next((i for i, r in enumerate(rows) if "Kernel Name" in r), None)
    if head is None:
        sys.exit(f"{raw_path}: no 'Kernel Name' column (did ncu profile anything?)")
    names = rows[head]
    launches = {}  # full kernel name -> its profiled launches, in launch order
    for r in rows[head + 1:]:
        if len(r) != len(names) or not r[0].strip().isdigit():
            continue  # the units row
        d = dict(zip(names, r))
        launches.setdefault(d["Kernel Name"], []).append(d)
    out = [NCU_COLUMNS + ["launches_profiled"]]
    for full, ds in launches.items():
        d = ds[1] if len(ds) > 1 else ds[0]  # the second launch is the timed call (the first loads the module)
        found = re.search(r"(add_[a-z0-9_]+|transpose_[a-z0-9_]+)", full)
        name = found.group(0) if found else full[:48]
        v = {k: number(d.get(c)) for k, c in NCU_METRICS.items()}
        ratio = lambda a, b: f"{a / b:.2f}" if b > 0 else "-"
        out.append([name, ratio(v["ld_sec"], v["ld_req"]), ratio(v["st_sec"], v["st_req"]), f"{v['bank_ld']:.0f}",
                    f"{v['bank_st']:.0f}", f"{v['dram_read']:.0f}", f"{v['dram_write']:.0f}", f"{v['time']:.0f}",
                    str(len(ds))])
    csv.writer(open(dest_path, "w", newline="")).writerows(out)
    print(f"{dest_path}: {len(out) - 1} kernels")


def best_rows(results):
    """(backend, op) -> the verified non-library variant with the largest share of its limit."""
    best = {}
    for r in results:
        op = op_of(r)
        if r["check"] != "PASS" or r["backend"] == "cpu" or "geam" in r["variant"] or op == "copy":
            continue
        if not math.isnan(share(r)) and share(r) > share(best.get((r["backend"], op), {"limit_share": -1})):
            best[(r["backend"], op)] = r
    return best


# ------------------------------------------------------------------------------------------ summary
def summary(directory):
    ok = True
    j = load(directory, "ch09_8192_float.json")
    if j is None:
        print("  ch09_8192_float.json: no result")
    else:
        d = j["backends"].get("cuda", {}).get("device", {})
        st = j.get("startup", {})
        print(f"  ch09_8192_float.json: {d.get('name', '?')}, theoretical {number(d.get('nominal_bandwidth_gbs')):.0f} GB/s"
              f" (memory clock x bus width), start-up cuda {number(st.get('cuda', {}).get('total_s')):.3f} s,"
              f" opencl {number(st.get('opencl', {}).get('total_s')):.3f} s")
        print(f"    {'variant':31} {'ms/call':>9} {'GB/s':>7} {'% lim':>6} {'w/ copies ms':>12} {'check':>5}  limit")
        for r in j["results"]:
            print(f"    {r['variant']:31} {r['ms_per_step']:9.4f} {r['gbs_min']:7.1f} {share(r):5.1f}% "
                  f"{number(r['extra'].get('ms_with_copies')):12.3f} {r['check']:>5}  {r['limit']['gbs']:.0f} {r['limit']['mix']}")
            ok = ok and r["check"] == "PASS"
        for (backend, op), r in sorted(best_rows(j["results"]).items()):
            goal = GOALS[op]
            print(f"    best {backend} {op}: {r['variant']} {share(r):.1f}% of its limit "
                  f"(goal >= {goal}%: {'met' if share(r) >= goal else 'missed'})")
        for p in j.get("port_ratios", []):
            print(f"    {p['variant']:26} / {p['original']:26} kernel {number(p['kernel_ratio']):.2f}x, "
                  f"with copies {number(p['with_copies_ratio']):.2f}x")
    for name in ("ch09_sweep_int.json", "ch09_sweep_wide.json"):
        j = load(directory, name)
        if j is None:
            print(f"  {name}: no result")
            continue
        fails = [p for p in j["points"] if p["check"] != "PASS"]
        sizes = sorted({p["n"] for p in j["points"]})
        print(f"  {name}: {len(j['points'])} points, n = {sizes[0] if sizes else '-'} ... {sizes[-1] if sizes else '-'}, "
              f"{len(fails)} not PASS{'' if j.get('complete', True) else ', STOPPED before its end'}")
        ok = ok and not fails
        for r in j.get("port_ratios", []):
            if r["n"] in (16, 256, 4096, 16384):
                paper = number(r["paper_ratio"])
                print(f"    n={r['n']:5} {r['variant']:24} kernel {number(r['kernel_ratio']):6.2f}x  with copies "
                      f"{number(r['with_copies_ratio']):6.2f}x  then {paper:5.1f}x {r['paper_table']}")
    path = os.path.join(directory, "ch09_ncu.csv")
    if os.path.exists(path):
        print("  Nsight Compute, 4096^2 float:")
        for r in csv.reader(open(path)):
            print("    " + " ".join(f"{c:>14}" if i else f"{c:40}" for i, c in enumerate(r)))
    return 0 if ok else 1


# ------------------------------------------------------------------------------------------- readme
def md_table(header, rows, align):
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---:" if a == "r" else "---" for a in align) + " |"]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def table_a(j):
    """The run's limits, the theoretical bandwidth and the goals (the variants' table is generated
    into the README by scripts/report/readme_tables.py from the same JSON)."""
    limits = sorted({(r["backend"], r["limit"]["name"], round(r["limit"]["gbs"]), r["limit"]["working_set"])
                     for r in j["results"]})
    text = "Limits measured in the run:\n\n" + "\n".join(f"- {b}: {name}: {gbs} GB/s, {ws}" for b, name, gbs, ws in limits)
    d = j["backends"].get("cuda", {}).get("device", {})
    if d:
        text += (f"\n\nTheoretical (sec. 5.2's formula, memory clock x bus width x 2): "
                 f"{number(d.get('nominal_bandwidth_gbs')):.0f} GB/s ({d.get('name', '?')}).")
    goals = []
    for (backend, op), r in sorted(best_rows(j["results"]).items()):
        goal = GOALS[op]
        verdict = "met" if share(r) >= goal else f"missed by {goal - share(r):.1f} points"
        goals.append(f"- best {op} in {backend}: `{r['variant']}`, {share(r):.1f}% of its limit (goal {goal}%: {verdict})")
    if goals:
        text += "\n\nThe goals:\n\n" + "\n".join(goals)
    return text


def table_b(path):
    """Nsight Compute, one line per kernel."""
    rows = list(csv.reader(open(path)))[1:]
    body = [[f"`{r[0]}`", r[1], r[2], r[3], r[4], sig(number(r[5]) / 1e6), sig(number(r[6]) / 1e6), sig(number(r[7]) / 1e3)]
            for r in rows]
    return md_table(["kernel", "ld sectors/request", "st sectors/request", "shared ld conflicts", "shared st conflicts",
                     "DRAM MB read", "DRAM MB written", "µs"], body, "lrrrrrrr")


def readme(directory):
    parts = []
    single = load(directory, "ch09_8192_float.json")
    if single:
        parts.append("### A: limits and goals at 8192 × 8192 float (ch09_8192_float.json)\n\n" + table_a(single))
    path = os.path.join(directory, "ch09_ncu.csv")
    if os.path.exists(path):
        parts.append("### B: Nsight Compute at 4096 × 4096 float, the timed call of each kernel (ch09_ncu.csv)\n\n" + table_b(path))
    if not parts:
        print("no ch09_*.json or ch09_ncu.csv here", file=sys.stderr)
        return 1
    print("\n\n".join(parts))
    return 0


def main(argv):
    if len(argv) == 4 and argv[1] == "ncu":
        ncu(argv[2], argv[3])
        return 0
    if len(argv) == 3 and argv[1] == "summary":
        return summary(argv[2])
    if len(argv) == 3 and argv[1] == "readme":
        return readme(argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
