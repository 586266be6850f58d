"""Chapter 10's plot: GFLOP/s against n for every matrix-multiply step, with the libraries as lines
(SGEMM_CUDA's plot, with cuBLAS), from the --sweep JSON (schema gpgpu-then-and-now/gemm-sweep).

A panel per backend of our kernels (CUDA's steps, OpenCL's ports) and element type; every panel
draws the libraries of the run (cuBLAS strict FP32 and TF32, OpenBLAS) as thick black and grey
lines, so each step reads as a share of what a user would get from the library. A point that failed
its verification is left out and named in the panel's title.

Chapter 10b's steps (one product per run, not a sweep) are plots_tensor_cores.py's.
"""
from __future__ import annotations

from collections import defaultdict

import matplotlib.pyplot as plt

from plots import Figure, element_type, is_number, legend_below, legend_room, legible_log_axis, line_style, machines_of, plot, save
from results import Run

# The vendor libraries of the sweeps, by the variant's name (the sweep's points carry no flag; a
# point with "library": true counts as one too).
LIBRARY_NAMES = ("cublas", "openblas", "clblast")
LIBRARY_COLOURS = ["black", "0.45", "0.7"]
LIBRARY_STYLES = ["-", "--", ":", "-."]


def is_library(point: dict) -> bool:
    return point.get("library") is True or any(name in str(point.get("variant", "")) for name in LIBRARY_NAMES)


def _series(sweeps: list[Run]):
    """{(type, backend or "library", machine, variant): [(n, GFLOP/s)]} and the failed points' names."""
    series: dict[tuple, list] = defaultdict(list)
    failed = []
    for r in sweeps:
        for p in r.doc.get("points", []):
            if not is_number(p.get("n")):
                continue
            if p.get("check") == "FAIL":
                failed.append(f"{r.machine} {p.get('variant')} n={p['n']}")
            elif is_number(p.get("gflops")):
                group = "library" if is_library(p) else str(p.get("backend", "?"))
                series[(element_type(r), group, r.machine, str(p.get("variant")))].append((p["n"], p["gflops"]))
    return series, failed


@plot
def gemm_gflops(chapter: str, runs: list[Run], out_dir: str) -> list[Figure]:
    sweeps = [r for r in runs if r.kind == "gemm_sweep"]
    series, failed = _series(sweeps)
    if not series:
        return []
    machines = machines_of(sweeps)
    panels = sorted({(t, g) for t, g, _, _ in series if g != "library"}) or sorted({(t, "library") for t, *_ in series})
    # Each panel's legend below it (legend_below: inside, two machines' steps would cover the small
    # sizes' curves), room for the longest.
    entries = max(sum(1 for t, g, _, _ in series if t == kind and g in (backend, "library")) for kind, backend in panels)
    fig, axes = plt.subplots(1, len(panels), figsize=(7 * len(panels), 4.6 + legend_room(entries)),
                             squeeze=False)
    for ax, (kind, backend) in zip(axes[0], panels):
        # The steps in the sweep's order (naive first); cuBLAS first among the libraries (black).
        ours = list(dict.fromkeys(v for t, g, _, v in series if t == kind and g == backend and g != "library"))
        libraries = sorted({v for t, g, _, v in series if t == kind and g == "library"},
                           key=lambda v: ("cublas" not in v, "tf32" in v, v))
        for (t, g, machine, variant), pts in series.items():
            if t != kind or (g != backend and g != "library"):
                continue
            pts.sort()
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            if g == "library":
                k = libraries.index(variant)
                ax.plot(xs, ys, color=LIBRARY_COLOURS[k % len(LIBRARY_COLOURS)], linewidth=2.2,
                        linestyle=LIBRARY_STYLES[machines.index(machine) % len(LIBRARY_STYLES)],
                        label=f"{machine}: {variant} (library)")
            else:
                ax.plot(xs, ys, **line_style(machines, machine, ours.index(variant)), label=f"{machine}: {variant}")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")  # 0.01 GFLOP/s at n = 16 to 4e5 for TF32 cuBLAS at 8192
        legible_log_axis(ax.yaxis)
        ax.set_xlabel("n (n x n times n x n)")
        ax.set_ylabel("GFLOP/s (2n³ over the median time)")
        bad = [f for f in failed if any(f.split(" ")[1] == v for v in ours + libraries)]
        ax.set_title(f"{backend} steps" + (f", {kind}" if kind else "") +
                     (f"\nFAILED verification, not drawn: {', '.join(bad[:3])}{' ...' if len(bad) > 3 else ''}"
                      if bad else ""), fontsize=9)
        legend_below(ax)
        ax.grid(alpha=0.3, which="both")
    fig.suptitle(f"Chapter {chapter}: GFLOP/s against n, each step beside the libraries", fontsize=9)
    name = save(fig, out_dir, f"ch{chapter}_gemm_gflops.png")
    return [(name, "GFLOP/s of each matrix-multiply step against n, the libraries (cuBLAS, OpenBLAS) as thick lines")]

