#!/usr/bin/env python3
"""What scripts/device/bandwidth.sh reads back from the files it wrote:

  bandwidth_summary.py launch JSON VARIANT
      the launch a Jacobi run tuned for VARIANT, as chapter options ("--block 256 --rows-per-thread 2"),
      so that its profile sees that launch and not the tuner's candidates; nothing when the run has none
  bandwidth_summary.py table OUT
      the five kernels beside their peers at the task's sizes (rate, share of the limit as the chapter
      reports it, the goal and whether it is met), from OUT/runs/*.json; then what Nsight Compute found
      in each profile under OUT/ncu/<name>/raw.csv (time, DRAM throughput, occupancy, sectors per
      request, issue activity, the largest stall reasons), also written to OUT/bandwidth_ncu.csv
"""
import csv
import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from profile_kernels import base_name  # noqa: E402  (scripts/: the profile's own kernel names)

# (kernel, size, run file under runs/, our variant, its peer, goal); a "before" row keeps the step our
# variant replaced in the table, judged by the same goal. A goal is (kind, value):
#   share       our share of the limit at least value
#   share_peer  that, and our rate at least the peer's
#   ratio       our rate at least value times the peer's (the port against the kernel it ports)


# Chapter 09's transpose steps, newest first, each with its OpenCL port: step 14's TMA kernel has no
# OpenCL form, its port moves strips of two tiles instead.
TRANSPOSE_STEPS = (("cuda_transpose_tma", "cl_transpose_strip"),
                   ("cuda_transpose_persistent", "cl_transpose_persistent"),
                   ("cuda_transpose_tile_panels", "cl_transpose_tile_panels"),
                   ("cuda_transpose_tile_vec4", "cl_transpose_tile_vec4"))


def _transpose_goals():
    """Chapter 09 at both sizes: the last step and the steps before it against geam, each OpenCL port
    against the CUDA kernel it ports."""
    rows = []
    for n in ("8192", "16384"):
        run = f"ch09_{n}_float.json"
        for i, (cuda, cl) in enumerate(TRANSPOSE_STEPS):
            rows.append(("transpose" if i == 0 else "transpose before", f"{n}²", run, cuda, "cuda_geam_transpose",
                         ("share_peer", 0.95)))
            rows.append(("transpose (OpenCL)" if i == 0 else "OpenCL before", f"{n}²", run, cl, cuda, ("ratio", 0.95)))
    return rows


GOALS = _transpose_goals() + [
    ("Jacobi symmetric", "4096²", "ch07b_4096.json", "symmetric_ring", "multirow", ("share", 0.98)),
    ("Jacobi symmetric", "4096²", "ch07b_4096.json", "symmetric_prefetch", "multirow", ("share", 0.98)),  # before
    ("Jacobi symmetric", "4096²", "ch07b_4096.json", "symmetric", "multirow", ("share", 0.98)),  # before
    ("Jacobi symmetric", "8192²", "ch07b_8192.json", "symmetric_ring", "multirow", ("share", 0.98)),
    ("Jacobi symmetric", "8192²", "ch07b_8192.json", "symmetric_prefetch", "multirow", ("share", 0.98)),  # before
    ("Jacobi symmetric", "8192²", "ch07b_8192.json", "symmetric", "multirow", ("share", 0.98)),  # before
    ("SGEMV", "16384²", "ch12_gemv_conv.json", "cuda_sgemv_warp", "cublas_sgemv", ("share", 0.98)),
    ("SGEMV transposed", "16384²", "ch12_gemv_conv.json", "cuda_sgemv_t_tiled", "cublas_sgemv_t", ("share", 0.98)),
    ("conv k = 3 aligned", "8192²", "ch12_gemv_conv.json", "cuda_conv2d_aligned", "npp_conv2d", ("share", 0.85)),
    ("conv k = 3 register", "8192²", "ch12_gemv_conv.json", "cuda_conv2d_register", "npp_conv2d", ("share", 0.85)),  # before
    ("conv k = 3 float4", "8192²", "ch12_gemv_conv.json", "cuda_conv2d_float4", "npp_conv2d", ("share", 0.85)),
    ("TLM fused FP32", "256³", "ch11_256.json", "cuda_fused_x4", "cuda_fused", ("share", 0.97)),
    ("TLM fused FP32", "256³", "ch11_256.json", "cuda_fused", None, ("share", 0.97)),  # before
    ("TLM fused FP16", "256³", "ch11_256.json", "cuda_fused_half_loads_first", "cuda_fused_half", ("share", 0.75)),
    ("TLM fused FP16", "256³", "ch11_256.json", "cuda_fused_half_x4", "cuda_fused_half", ("share", 0.75)),  # before
    ("TLM fused FP16", "256³", "ch11_256.json", "cuda_fused_half", "cuda_fused", ("share", 0.75)),  # before
    ("TLM fused FP32", "384³", "ch11_384.json", "cuda_fused_x4", "cuda_fused", ("share", 0.97)),
    ("TLM fused FP32", "384³", "ch11_384.json", "cuda_fused", None, ("share", 0.97)),  # before
    ("TLM fused FP16", "384³", "ch11_384.json", "cuda_fused_half_loads_first", "cuda_fused_half", ("share", 0.75)),
    ("TLM fused FP16", "384³", "ch11_384.json", "cuda_fused_half_x4", "cuda_fused_half", ("share", 0.75)),  # before
    ("TLM fused FP16", "384³", "ch11_384.json", "cuda_fused_half", "cuda_fused", ("share", 0.75)),  # before
]


def load_rows(path):
    """The run's result rows by variant, or None when the run left no readable JSON."""
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return None
    return {r.get("variant"): r for r in doc.get("results", [])}


def pct(v):
    return "-" if v is None else f"{100 * v:.1f}%"


def goal_text(goal):
    kind, value = goal
    if kind == "share":
        return f">= {100 * value:.0f}% of limit"
    if kind == "share_peer":
        return f">= {100 * value:.0f}% and >= peer"
    return f"rate >= {100 * value:.0f}% of peer"


def verdict(goal, ours, peer):
    """met, missed, or why it cannot be said (no row, a failed check, no share)."""
    if ours is None:
        return "not run"
    if ours.get("check") not in ("PASS", None):
        return f"check {ours.get('check')}"
    kind, value = goal
    share = ours.get("limit_share")
    if kind in ("share", "share_peer") and share is None:
        return "no share"
    if kind in ("share_peer", "ratio") and peer is None:
        return "no peer"
    if kind == "share":
        ok = share >= value
    elif kind == "share_peer":
        ok = share >= value and ours["gbs_min"] >= peer["gbs_min"]
    else:
        ok = ours["gbs_min"] >= value * peer["gbs_min"]
    return "met" if ok else "missed"


def goals_table(out):
    runs = os.path.join(out, "runs")
    cache = {}
    lines = ["%-20s %-7s %-26s %9s %8s %6s  %-26s %8s %7s  %-26s %s" % (
        "kernel", "size", "variant", "GB/s", "% limit", "check", "peer", "% limit", "/peer", "goal", "verdict")]
    for kernel, size, name, variant, peer_name, goal in GOALS:
        if name not in cache:
            cache[name] = load_rows(os.path.join(runs, name))
        rows = cache[name]
        if rows is None:
            lines.append(f"{kernel:20} {size:7} {variant:26} (no result: {name} missing or unreadable)")
            continue
        ours, peer = rows.get(variant), rows.get(peer_name) if peer_name else None
        rate = f"{ours['gbs_min']:9.1f}" if ours else "        -"
        ratio = f"{ours['gbs_min'] / peer['gbs_min']:7.3f}" if ours and peer and peer.get("gbs_min") else "      -"
        lines.append("%-20s %-7s %-26s %s %8s %6s  %-26s %8s %s  %-26s %s" % (
            kernel, size, variant, rate, pct(ours and ours.get("limit_share")), (ours or {}).get("check", "-"),
            peer_name or "-", pct(peer and peer.get("limit_share")), ratio, goal_text(goal), verdict(goal, ours, peer)))
    return lines


# Nsight Compute's raw page: one column per metric, its unit in the second row, then one row per
# profiled launch; numbers may carry thousands separators, and units SI prefixes.
PREFIX = {"": 1.0, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
TIME = {"ns": 1e-9, "nsecond": 1e-9, "us": 1e-6, "usecond": 1e-6, "ms": 1e-3, "msecond": 1e-3, "s": 1.0, "second": 1.0}


def scaled(value, unit):
    """The value in base units (seconds, bytes, bytes per second), or None when it is no number."""
    try:
        v = float(value.replace(",", ""))
    except (AttributeError, ValueError):
        return None
    unit = unit.strip()
    if unit in TIME:
        return v * TIME[unit]
    m = re.fullmatch(r"([KMGTP]?)byte(/s(econd)?)?", unit)
    return v * PREFIX[m.group(1)] if m else v


def read_raw(path):
    """The launches of one raw page, each a dict metric -> value in base units (strings kept for names)."""
    with open(path, newline="") as f:
        table = [r for r in csv.reader(f) if r]
    head = next((i for i, r in enumerate(table) if "Kernel Name" in r), None)
    if head is None or head + 1 >= len(table):
        return []
    header, units = table[head], table[head + 1]
    launches = []
    for r in table[head + 2:]:
        if len(r) != len(header):
            continue
        launch = {}
        for name, unit, value in zip(header, units, r):
            number = scaled(value, unit)
            launch[name] = value if number is None else number
        launches.append(launch)
    return launches


def first(launch, *metrics):
    for m in metrics:
        v = launch.get(m)
        if isinstance(v, float):
            return v
    return None


def per_request(launch, op):
    sectors = first(launch, f"l1tex__t_sectors_pipe_lsu_mem_global_op_{op}.sum")
    requests = first(launch, f"l1tex__t_requests_pipe_lsu_mem_global_op_{op}.sum")
    return sectors / requests if sectors is not None and requests else None


STALL = re.compile(r"smsp__average_warps?_issue_stalled_(\w+?)_per_issue_active\.ratio")


def stalls(launch, top=3):
    """The largest stall reasons, cycles per issued instruction ('selected' is the issue itself)."""
    found = [(v, m.group(1)) for k, v in launch.items() if isinstance(v, float) and (m := STALL.fullmatch(k))]
    found = [(v, n) for v, n in found if n != "selected" and v > 0]
    return ", ".join(f"{n} {v:.2f}" for v, n in sorted(found, reverse=True)[:top])


NCU_COLUMNS = ["profile", "kernel", "launches", "us", "dram_tbs", "dram_pct", "mem_pct", "sm_pct", "issue_pct",
               "occ_achieved_pct", "occ_theoretical_pct", "registers", "ld_sectors_per_req", "st_sectors_per_req",
               "stalls_per_issue"]


def ncu_rows(out):
    """One row per kernel of each profile (its last profiled launch), in the order of NCU_COLUMNS; the
    profiles in the order they were made."""
    rows = []
    for path in sorted(glob.glob(os.path.join(out, "ncu", "*", "raw.csv")), key=lambda p: (os.path.getmtime(p), p)):
        profile = os.path.basename(os.path.dirname(path))
        launches = read_raw(path)
        by_kernel = {}
        for launch in launches:
            by_kernel.setdefault(base_name(str(launch.get("Kernel Name", "?"))), []).append(launch)
        if not by_kernel:
            rows.append([profile, "(no launch in raw.csv)"] + [None] * (len(NCU_COLUMNS) - 2))
        for kernel, ls in by_kernel.items():
            k = ls[-1]
            seconds = first(k, "gpu__time_duration.sum")
            dram = first(k, "dram__bytes.sum.per_second")
            rows.append([
                profile, kernel, len(ls), seconds * 1e6 if seconds is not None else None,
                dram / 1e12 if dram is not None else None,
                first(k, "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
                      "dram__throughput.avg.pct_of_peak_sustained_elapsed"),
                first(k, "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"),
                first(k, "sm__throughput.avg.pct_of_peak_sustained_elapsed"),
                first(k, "smsp__issue_active.avg.pct_of_peak_sustained_active"),
                first(k, "sm__warps_active.avg.pct_of_peak_sustained_active"),
                first(k, "sm__maximum_warps_per_active_cycle_pct"),
                first(k, "launch__registers_per_thread"),
                per_request(k, "ld"), per_request(k, "st"), stalls(k),
            ])
    return rows


def ncu_table(out):
    rows = ncu_rows(out)
    if not rows:
        return ["no Nsight Compute profile (ncu/*/raw.csv)"]
    with open(os.path.join(out, "bandwidth_ncu.csv"), "w", newline="") as f:
        csv.writer(f).writerows([NCU_COLUMNS] + rows)

    def f(v, fmt):
        return "-" if v is None else fmt % v
    lines = ["%-30s %-28s %8s %6s %6s %6s %6s %6s %9s %4s %7s  %s" % (
        "profile", "kernel", "us", "DRAM", "DRAM%", "mem%", "SM%", "issue%", "occ a/t %", "regs", "sec/req",
        "largest stalls (cycles per issue)")]
    for r in rows:
        occupancy = f"{f(r[9], '%.0f')}/{f(r[10], '%.0f')}"
        sectors = f"{f(r[12], '%.1f')}/{f(r[13], '%.1f')}"
        lines.append("%-30s %-28s %8s %6s %6s %6s %6s %6s %9s %4s %7s  %s" % (
            r[0][:30], str(r[1])[:28], f(r[3], "%.1f"), f(r[4], "%.2fT"), f(r[5], "%.1f"), f(r[6], "%.1f"),
            f(r[7], "%.1f"), f(r[8], "%.1f"), occupancy, f(r[11], "%.0f"), sectors, r[14] or "-"))
    lines.append("  (DRAM: TB/s; sec/req: 32-byte sectors per global load/store request, 4 for a warp's coalesced "
                 "floats; occ a/t: achieved/theoretical occupancy)")
    return lines


def tuned_launch(path, variant):
    rows = load_rows(path) or {}
    launch = (rows.get(variant) or {}).get("launch", "")
    m = re.search(r"block (\d+), \d+ columns x (\d+) rows per thread", launch)
    return f"--block {m.group(1)} --rows-per-thread {m.group(2)}" if m else ""


def main(argv):
    if len(argv) == 4 and argv[1] == "launch":
        print(tuned_launch(argv[2], argv[3]))
        return 0
    if len(argv) == 3 and argv[1] == "table":
        print("\n".join(["the five kernels beside their peers (runs/):"] + goals_table(argv[2]) + ["",
                         "Nsight Compute (ncu/<profile>/: details.txt, raw.csv, sass.txt):"] + ncu_table(argv[2])))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
