"""Chapter 10's plot: GFLOP/s against n for every matrix-multiply step, with the libraries as lines
(SGEMM_CUDA's plot, with cuBLAS), from the --sweep JSON (schema gpgpu-then-and-now/gemm-sweep).

A panel per backend of our kernels (CUDA's steps, OpenCL's ports) and element type; every panel
draws the libraries of the run (cuBLAS strict FP32 and TF32, OpenBLAS) as thick black and grey
lines, so each step reads as a share of what a user would get from the library. A point that failed
its verification is left out and named in the panel's title.

Chapter 10b's plot: the chapter README's figure (readme_plots_ch10b.py draws it, and its functions
draw it here), TFLOP/s of each tensor-core step against cuBLAS, for every machine given. A GEMM has
no bandwidth limit, so plots.py draws no share of a limit for it.
"""
from __future__ import annotations

from collections import defaultdict

import matplotlib.pyplot as plt

from plots import (Figure, colour_of, element_type, is_number, legible_log_axis, line_style, machines_of, plot,
                   results_of, save)
from readme_plots_ch10b import ARITHMETICS, STEPS, draw_step_bars, library_tflops, step_rows
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
    fig, axes = plt.subplots(1, len(panels), figsize=(7 * len(panels), 5), squeeze=False)
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
        ax.set_ylabel("GFLOP/s (2n³ over the kernel's median time, log scale)")
        bad = [f for f in failed if any(f.split(" ")[1] == v for v in ours + libraries)]
        ax.set_title(f"{backend} steps" + (f", {kind}" if kind else "") +
                     (f"\nFAILED verification, not drawn: {', '.join(bad[:3])}{' ...' if len(bad) > 3 else ''}"
                      if bad else ""), fontsize=9)
        ax.legend(fontsize=6, loc="upper left")
        ax.grid(alpha=0.3, which="both")
    fig.suptitle(f"Chapter {chapter}: GFLOP/s against n, each step beside the libraries", fontsize=9)
    name = save(fig, out_dir, f"ch{chapter}_gemm_gflops.png")
    return [(name, "GFLOP/s of each matrix-multiply step against n, the libraries (cuBLAS, OpenBLAS) as thick lines")]


def gemm_size(run: Run) -> tuple[int, str]:
    """A product's size m n k and its label ("8192³", "4096x8192x1024"); (0, the file's name) without one."""
    p = run.doc.get("problem") if isinstance(run.doc.get("problem"), dict) else {}
    m, n, k = p.get("m"), p.get("n"), p.get("k")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (m, n, k)):
        return 0, run.size_label()
    return m * n * k, (f"{m}³" if m == n == k else f"{m}x{n}x{k}")


@plot
def tensor_core_steps(chapter: str, runs: list[Run], out_dir: str) -> list[Figure]:
    """Chapter 10b's figure (its README's, readme_plots_ch10b.py): TFLOP/s of each step beside cuBLAS in
    the same run, a panel per arithmetic (TF32, BF16), a bar per machine at its largest product."""
    chosen: dict[str, tuple[Run, list[dict]]] = {}
    for r in results_of(runs):
        rows = step_rows(r.doc)
        if rows and (r.machine not in chosen or gemm_size(r)[0] > gemm_size(chosen[r.machine][0])[0]):
            chosen[r.machine] = (r, rows)
    if not chosen:
        return []
    machines = list(chosen)
    arithmetics = [a for a in ARITHMETICS if any(row["arithmetic"] == a for _, rows in chosen.values() for row in rows)]
    failed = [f"{m} {row.get('variant')}" for m, (r, _) in chosen.items() for row in r.doc.get("results", [])
              if row.get("check") == "FAIL"]
    fig, axes = plt.subplots(1, len(arithmetics), figsize=(6.5 * len(arithmetics), 2.2 + 0.42 * len(STEPS)
                                                           * max(1, len(machines) / 2)), squeeze=False)
    for ax, arithmetic in zip(axes[0], arithmetics):
        series = [(f"{m}, {gemm_size(r)[1]}", colour_of(machines, m),
                   {row["step"]: row["tflops"] for row in rows if row["arithmetic"] == arithmetic})
                  for m, (r, rows) in chosen.items()]
        libraries = [(f"{m}: cuBLAS", colour_of(machines, m), library_tflops(r.doc)[arithmetic])
                     for m, (r, _) in chosen.items() if arithmetic in library_tflops(r.doc)]
        draw_step_bars(ax, series, libraries, "TFLOP/s (higher is better)")
        ax.set_title(arithmetic, fontsize=9)
    title = f"Chapter {chapter}: TFLOP/s per step beside cuBLAS (dashed) in the same run"
    if failed:
        title += f"\nFAILED verification, not drawn: {', '.join(failed[:4])}{' ...' if len(failed) > 4 else ''}"
    fig.suptitle(title, fontsize=9)
    name = save(fig, out_dir, f"ch{chapter}_tensor_core_steps.png")
    return [(name, "TFLOP/s of each tensor-core step per arithmetic, each machine at its largest product, "
                   "cuBLAS of the same run as a dashed line")]
