#!/usr/bin/env python3
"""The same kernel on the H100 and on the H200, and whether the roofline predicts the ratio.

The two GPUs have the same 132 SMs at the same clock; the H200 has faster, larger memory. On a
roofline a kernel's attainable rate is the lower of two ceilings, the memory bandwidth times its
FLOPs per byte and the compute peak. So the roofline predicts, for one kernel on the two GPUs:
memory-bound, the ratio of the two runs' own measured limits (each result row's `limit.gbs`, the
stream with the kernel's read:write mix measured in the same run); compute-bound, the ratio of the
two runs' own measured FMA peaks (`extra.peak_gflops`). A row whose ratio is within 5% of that
prediction is "as predicted".

Each row (PAIRS below) is one variant at one size, read from one committed file per machine:

    chapter  variant                    size    H100 (results/...)                               H200 (results/...)
    02       rgba                       1024²   h100_lecture/ch02_glsl_pingpong_1024.json        h200_lecture/ch02_glsl_pingpong_1024.json
    03-07    the paper's five kernels   4096²   h100_lecture/<program>_4096.json                 h200_lecture/<program>_4096.json
    07b      multirow, symmetric        4096²   h100_lecture/ch07b_cuda_past_the_paper_4096.json h200_lecture/ch07b_cuda_past_the_paper_4096.json
    07c      overlapped_unrolled (s=4)  2048²   none                                             h200/ch07c_rows/ch07c_2048.json
    08       image                      4096²   h100_lecture/ch08_opencl_port_4096.json          h200_lecture/ch08_opencl_port_4096.json
    09       cuda_transpose_tile_multi  8192²   h100/ch09_8192_float.json                        H200_BATCHES/ch09_8192_float.json
    10       cublas_sgemm               4096³   h100/ch10_4096_float.json                        H200_BATCHES/ch10_4096_float.json
    10b      cublas_bf16                8192³   h100/ch10b_8192.json                             H200_BATCHES/ch10b_8192.json
    11       cuda_fused (cavity)        256³    h100/ch11_cavity_256.json                        H200_BATCHES/ch11_cavity_256.json
    12       cuda_sgemv_warp            16384²  h100/ch12_goals.json                             H200_BATCHES/ch12_goals.json
    13       overlap (4 GPUs)           16384²  none                                             h200x4/ch13/ch13_g4_16384x16384.json

Each H200 file is the counterpart of the H100's beside it, the same file name at the same size:
chapters 02-08 from the H200's lecture (H200_LECTURE, `scripts/lecture.sh`, like `h100_lecture/`),
chapters 09-12 from the focused batches the chapters quote (H200_BATCHES, like `h100/`), both at one
revision. Chapter 07c has no H100 run; its row is the 2048² run whose working set lies beyond the
H200's L2 (the lecture's 07c run is at 1024², inside it). Chapter 13 has no H100 run; its row is
the four-H200 run. The two runs of a row are of the same variant and size, not of the same revision
(each file's `revision` says which). Chapter 01 runs on the host's CPU alone and has no row. A side
that is missing, or whose variant failed its check, gets no rate ratio and no verdict, never a
number made up; a named file that is absent, lacks the variant, or measured another size is an
error (the list is wrong, not the data).

The README shows the table through `<!-- results:machines -->` (scripts/report/readme_tables.py) and the
plot docs/plots/machines_ratio.svg (readme_plots_machines.py). Run alone, it prints the table:

    python3 scripts/report/machines_table.py [--root REPO]
"""
from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import tables  # noqa: E402
from results import H200_BATCHES, H200_LECTURE, read_result  # noqa: E402

TOLERANCE = 0.05  # a ratio within 5% of the prediction is "as predicted"
MACHINES = ("H100", "H200")


class MachinesError(Exception):
    """A row names a file that is not there, a variant it lacks, or runs of different sizes."""


@dataclass(frozen=True)
class Pair:
    chapter: str
    variant: str
    size: dict            # the problem's keys that must hold these values on both machines
    label: str            # the size as the table writes it
    bound: str            # "memory" (rate GB/s, limit.gbs) or "compute" (rate GFLOP/s, extra.peak_gflops)
    h100: str | None      # under results/, or None: not measured on that machine
    h200: str | None
    note: str = ""        # what the kernel column adds to the variant's name
    held_by: str = ""     # what a memory-bound row's limit streams through, where not DRAM


def _grid(n: int) -> dict:
    return {"nx": n, "ny": n}


def _headline(chapter: str, variant: str, program: str) -> Pair:
    """Chapters 03-07 at 4096²: the H100's lecture run beside the H200's."""
    return Pair(chapter, variant, _grid(4096), "4096²", "memory", f"h100_lecture/{program}_4096.json",
                f"{H200_LECTURE}/{program}_4096.json")


PAIRS = [
    Pair("02", "rgba", _grid(1024), "1024²", "memory",
         "h100_lecture/ch02_glsl_pingpong_1024.json", f"{H200_LECTURE}/ch02_glsl_pingpong_1024.json",
         held_by="pixel-path"),
    *(_headline(chapter, variant, program) for chapter, variant, program in (
        ("03", "simple", "ch03_cuda_simple"), ("04", "aligned", "ch04_cuda_aligned"),
        ("05", "pitched", "ch05_cuda_pitched"), ("06", "shared", "ch06_cuda_shared"),
        ("07", "texture", "ch07_cuda_texture"))),
    Pair("07b", "multirow", _grid(4096), "4096²", "memory",
         "h100_lecture/ch07b_cuda_past_the_paper_4096.json", f"{H200_LECTURE}/ch07b_cuda_past_the_paper_4096.json"),
    Pair("07b", "symmetric", _grid(4096), "4096²", "memory",
         "h100_lecture/ch07b_cuda_past_the_paper_4096.json", f"{H200_LECTURE}/ch07b_cuda_past_the_paper_4096.json"),
    Pair("07c", "overlapped_unrolled", _grid(2048), "2048²", "memory",
         None, "h200/ch07c_rows/ch07c_2048.json", "s = 4 sweeps per trip to memory"),
    Pair("08", "image", _grid(4096), "4096²", "memory", "h100_lecture/ch08_opencl_port_4096.json",
         f"{H200_LECTURE}/ch08_opencl_port_4096.json", "OpenCL"),
    Pair("09", "cuda_transpose_tile_multi", {"rows": 8192, "cols": 8192, "type": "float"}, "8192² float", "memory",
         "h100/ch09_8192_float.json", f"{H200_BATCHES}/ch09_8192_float.json"),
    Pair("10", "cublas_sgemm", {"m": 4096, "n": 4096, "k": 4096, "type": "float"}, "4096³", "compute",
         "h100/ch10_4096_float.json", f"{H200_BATCHES}/ch10_4096_float.json"),
    Pair("10b", "cublas_bf16", {"m": 8192, "n": 8192, "k": 8192}, "8192³", "compute", "h100/ch10b_8192.json",
         f"{H200_BATCHES}/ch10b_8192.json"),
    Pair("11", "cuda_fused", {"nx": 256, "ny": 256, "nz": 256, "scenario": "cavity", "steps": 60}, "256³",
         "memory", "h100/ch11_cavity_256.json", f"{H200_BATCHES}/ch11_cavity_256.json", "cavity"),
    Pair("12", "cuda_sgemv_warp", {"gemv_rows": 16384, "gemv_cols": 16384}, "16384²", "memory",
         "h100/ch12_goals.json", f"{H200_BATCHES}/ch12_goals.json"),
    Pair("13", "overlap", {"nx": 16384, "ny": 16384}, "16384²", "memory",
         None, "h200x4/ch13/ch13_g4_16384x16384.json", "4 GPUs, GB/s summed"),
]


@dataclass
class Side:
    """One machine's measurement of a pair's variant."""
    file: str             # under results/
    rate: float | None    # GB/s (memory) or GFLOP/s (compute); None when the variant failed its check
    limit: float | None   # the run's limit in the same unit
    share: float | None   # the run's share of that limit, as it recorded it
    check: str


@dataclass
class Row:
    pair: Pair
    sides: dict           # "H100"/"H200" -> Side, or None when not measured
    ratio: float | None = None       # H200 rate / H100 rate
    prediction: float | None = None  # H200 limit / H100 limit

    @property
    def deviation(self) -> float | None:
        """How far the measured ratio is from the prediction, as a fraction of it."""
        if self.ratio is None or self.prediction is None:
            return None
        return self.ratio / self.prediction - 1.0


def _side(root: str, pair: Pair, rel: str) -> Side:
    path = os.path.join(root, "results", rel)
    if not os.path.exists(path):
        raise MachinesError(f"{pair.chapter} {pair.variant}: results/{rel} does not exist")
    run = read_result(path, rel.split("/")[0])
    if not run.readable:
        raise MachinesError(f"results/{rel}: {run.status}: {run.message}")
    problem = run.doc.get("problem") or {}
    wrong = {k: problem.get(k) for k, v in pair.size.items() if problem.get(k) != v}
    if wrong:
        raise MachinesError(f"results/{rel}: problem {wrong}, not the row's {pair.size}")
    row = next((r for r in run.doc.get("results", []) if isinstance(r, dict) and r.get("variant") == pair.variant), None)
    if row is None:
        raise MachinesError(f"results/{rel} has no variant {pair.variant}")
    check = str(row.get("check", "?"))
    if pair.bound == "memory":
        rate, limit = row.get("gbs_min"), (row.get("limit") or {}).get("gbs")
        share = row.get("limit_share")
    else:
        extra = row.get("extra") or {}
        rate, limit, share = row.get("gflops"), extra.get("peak_gflops"), extra.get("peak_share")
    numeric = lambda x: isinstance(x, (int, float)) and not isinstance(x, bool)  # noqa: E731
    return Side(rel, rate if check == "PASS" and numeric(rate) else None,
                limit if numeric(limit) else None, share if numeric(share) else None, check)


def measure(root: str, pair: Pair) -> Row:
    """The pair's row: both sides as their files hold them, and the ratios only where both passed."""
    sides = {m: (_side(root, pair, rel) if rel else None) for m, rel in zip(MACHINES, (pair.h100, pair.h200))}
    row = Row(pair, sides)
    old, new = sides["H100"], sides["H200"]
    if old and new and old.rate is not None and new.rate is not None:
        row.ratio = new.rate / old.rate
        if old.limit and new.limit:
            row.prediction = new.limit / old.limit
    return row


# The two ceilings of the roofline on each machine, from chapter 12's runs (its "roofline" key: the
# 1:1 copy limit and the FMA kernel's peak, measured in the run): the plot's two reference lines.
REFERENCE_PAIR = next(p for p in PAIRS if p.chapter == "12")


def references(root: str) -> dict:
    """{"memory": (H100 GB/s, H200 GB/s), "compute": (H100 GFLOP/s, H200 GFLOP/s)}: the ceilings
    chapter 12's row's two runs measured; a ceiling either run lacks is left out."""
    ceilings = []
    for rel in (REFERENCE_PAIR.h100, REFERENCE_PAIR.h200):
        run = read_result(os.path.join(root, "results", rel), rel.split("/")[0])
        ceilings.append(((run.doc.get("roofline") or {}).get("cuda") or {}) if run.readable else {})
    found = {}
    for bound, key in (("memory", "bandwidth_gbs"), ("compute", "peak_gflops")):
        pair = tuple(c.get(key) for c in ceilings)
        if all(isinstance(x, (int, float)) and x > 0 for x in pair):
            found[bound] = pair
    return found


def references_note(root: str) -> str:
    units = {"memory": ("1:1 copy limit", "GB/s"), "compute": ("FMA peak (float)", "GFLOP/s")}
    lines = [f"- {bound}-bound: the {units[bound][0]} {new:,.0f} against {old:,.0f} {units[bound][1]}, "
             f"ratio {new / old:.3f}" for bound, (old, new) in references(root).items()]
    if not lines:
        return ""
    return (f"\nThe roofline's two ceilings measured in chapter 12's runs (`results/{REFERENCE_PAIR.h200}` "
            f"against `results/{REFERENCE_PAIR.h100}`), the plot's reference lines:\n\n" + "\n".join(lines) + "\n")


def rows(root: str) -> list[Row]:
    return [measure(root, p) for p in PAIRS]


def files(root: str) -> list[str]:
    """The files the table is generated from, under results/, in the rows' order."""
    return list(dict.fromkeys(rel for p in PAIRS for rel in (p.h100, p.h200) if rel))


def _rate_cell(side: Side | None, bound: str, machine: str) -> str:
    if side is None:
        return f"not measured on the {machine}"
    if side.rate is None:
        return f"{side.check}: no rate"
    rate = (f"{side.rate:,.0f} GB/s" if bound == "memory" else f"{side.rate / 1000:,.1f} TFLOP/s")
    of = "limit" if bound == "memory" else "FMA peak"
    return rate + (f" ({tables.share_cell(side.share)}% of {of})" if side.share is not None else "")


def _prediction_cell(row: Row) -> str:
    if row.prediction is None:
        return "-"
    old, new = row.sides["H100"], row.sides["H200"]
    what = "limits" if row.pair.bound == "memory" else "FMA peaks"
    unit = "GB/s" if row.pair.bound == "memory" else "GFLOP/s"
    # Chapter 02's fragment shaders are held by the pixel path's stream (a few SMs), not by DRAM:
    # the prediction is still the ratio of the run's own limits, of that path.
    bound = row.pair.held_by or row.pair.bound
    return f"{row.prediction:.3f} ({bound}-bound: {what} {new.limit:,.0f} / {old.limit:,.0f} {unit})"


def verdict(row: Row) -> str:
    missing = [m for m in MACHINES if row.sides[m] is None]
    if missing:
        return f"not measured on the {' and '.join(missing)}"
    failed = [m for m in MACHINES if row.sides[m].rate is None]
    if failed:
        return f"no ratio: failed its check on the {' and '.join(failed)}"
    d = row.deviation
    if d is None:
        return "no prediction: a run recorded no limit"
    if abs(d) <= TOLERANCE:
        return f"as predicted ({d:+.1%})"
    return f"{'below' if d < 0 else 'above'} the prediction by {abs(d):.1%}"


def markdown(root: str) -> str:
    header = ["chapter", "kernel", "size", "H100", "H200", "H200 / H100", "roofline predicts", "verdict"]
    body = []
    for row in rows(root):
        p = row.pair
        kernel = f"`{p.variant}`" + (f" ({p.note})" if p.note else "")
        body.append([p.chapter, kernel, p.label, _rate_cell(row.sides["H100"], p.bound, "H100"),
                     _rate_cell(row.sides["H200"], p.bound, "H200"), tables.number(row.ratio, ".3f"),
                     _prediction_cell(row), verdict(row)])
    return tables.markdown(header, body, right=range(3, 6))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    args = parser.parse_args(argv)
    try:
        sys.stdout.write(markdown(os.path.normpath(args.root)))
    except MachinesError as e:
        print(f"machines_table: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
