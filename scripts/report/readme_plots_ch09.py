"""Chapter 09's plots, drawn from its committed sweeps on the H200
(results/<H200_BATCHES>/ch09_sweep_*.json; results.py names the folder):

- ch09_paper_sizes: the paper's sizes, n = 16 ... 4096 (`--sweep paper --type int`): the add's and
  the naive transpose's times now (kernel only, and with the copies) beside paper 003's (Tabs. 8 and
  10, which include the copies), and each OpenCL port's time over its CUDA original, then and now;
- ch09_beyond_l2: `--sweep wide --type float` up to the largest n the run finished: each kernel's
  GB/s by the paper's formula (1) against n, and the OpenCL ports' time over CUDA's.

Each CSV row is one plotted point: the panel, the series (a variant or a paper table), n and the value
with its unit.
"""
from __future__ import annotations

import matplotlib.pyplot as plt

from readme_plots import committed_runs, readme_plot


def _sweep(root: str, name: str) -> dict:
    return committed_runs(root, name)[0].doc


def _points(doc: dict, variant: str, key: str) -> list[tuple[int, float]]:
    """(n, value) of one variant, n ascending; a failed point or a missing value is left out."""
    out = [(int(p["n"]), float(p[key])) for p in doc.get("points", [])
           if p.get("variant") == variant and p.get("check") == "PASS" and isinstance(p.get(key), (int, float))]
    return sorted(out)


def _ratios(doc: dict, variant: str, key: str) -> list[tuple[int, float]]:
    out = [(int(r["n"]), float(r[key])) for r in doc.get("port_ratios", [])
           if r.get("variant") == variant and isinstance(r.get(key), (int, float))]
    return sorted(out)


class _Plot:
    """Draws series on axes and keeps every plotted point as a CSV row."""

    def __init__(self) -> None:
        self.rows: list[dict] = []

    def line(self, ax, panel: str, series: str, unit: str, points: list[tuple[int, float]], **style) -> None:
        if not points:
            return
        ax.plot([n for n, _ in points], [v for _, v in points], label=series, marker=style.pop("marker", "o"),
                markersize=4, **style)
        self.rows += [{"panel": panel, "series": series, "n": n, "value": v, "unit": unit} for n, v in points]


def _size_axis(ax, ns: list[int]) -> None:
    ax.set_xscale("log", base=2)
    ax.set_xticks(ns)
    ax.set_xticklabels([str(n) for n in ns], rotation=45)
    ax.set_xlabel("n (n × n matrices)")
    ax.grid(True, which="major", alpha=0.3)


THEN = dict(color="black")
NOW_KERNEL = dict(color="tab:blue")
NOW_COPIES = dict(color="tab:orange")


@readme_plot("ch09_paper_sizes")
def paper_sizes(root: str):
    doc = _sweep(root, "ch09_sweep_int.json")
    ns = sorted({int(p["n"]) for p in doc.get("points", [])})
    plot = _Plot()
    fig = plt.figure(figsize=(11, 8.5))
    grid = fig.add_gridspec(2, 2, height_ratios=[1.15, 1])
    panels = [("add (Tab. 8: int, Tesla C1060)", "add_rowmajor"),
              ("naive transpose (Tab. 10: float, GT 240)", "transpose_naive")]
    for col, (title, kernel) in enumerate(panels):
        ax = fig.add_subplot(grid[0, col])
        panel = f"time: {title}"
        cuda, cl = f"cuda_{kernel}", f"cl_{kernel}"
        plot.line(ax, panel, f"then: CUDA, {cuda}'s namesake", "ms", _points(doc, cuda, "paper_ms"), **THEN, linestyle="-")
        plot.line(ax, panel, f"then: OpenCL, {cl}'s namesake", "ms", _points(doc, cl, "paper_ms"), **THEN, linestyle="--", marker="s")
        plot.line(ax, panel, f"now: {cuda} with copies", "ms", _points(doc, cuda, "ms_with_copies"), **NOW_COPIES, linestyle="-")
        plot.line(ax, panel, f"now: {cl} with copies", "ms", _points(doc, cl, "ms_with_copies"), **NOW_COPIES, linestyle="--", marker="s")
        plot.line(ax, panel, f"now: {cuda} kernel only", "ms", _points(doc, cuda, "ms_kernel"), **NOW_KERNEL, linestyle="-")
        plot.line(ax, panel, f"now: {cl} kernel only", "ms", _points(doc, cl, "ms_kernel"), **NOW_KERNEL, linestyle="--", marker="s")
        ax.set_yscale("log")
        ax.set_ylabel("milliseconds per operation")
        ax.set_title(title, fontsize=11)
        _size_axis(ax, ns)
        ax.legend(fontsize=7.5, loc="upper left")
    ax = fig.add_subplot(grid[1, :])
    panel = "OpenCL time / CUDA time"
    for kernel, marker in (("add_rowmajor", "o"), ("transpose_naive", "s")):
        cl = f"cl_{kernel}"
        plot.line(ax, panel, f"then: {kernel}", "ratio", _ratios(doc, cl, "paper_ratio"), **THEN, marker=marker)
        plot.line(ax, panel, f"now: {kernel}, with copies", "ratio", _ratios(doc, cl, "with_copies_ratio"), **NOW_COPIES, marker=marker)
        plot.line(ax, panel, f"now: {kernel}, kernel only", "ratio", _ratios(doc, cl, "kernel_ratio"), **NOW_KERNEL, marker=marker)
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_ylabel("OpenCL time / CUDA time")
    ax.set_title("the same kernel in OpenCL over CUDA: then (paper 003) and now (H200)", fontsize=11)
    _size_axis(ax, ns)
    ax.legend(fontsize=7.5, ncol=2, loc="upper right")
    fig.suptitle("Chapter 09 at the paper's sizes: paper 003 (2010) and the H200 (ch09_sweep_int.json, int)", fontsize=12)
    fig.tight_layout()
    return fig, plot.rows


WIDE_KERNELS = [("cuda_add_vec4", "tab:blue", "-"), ("cuda_add_rowmajor", "tab:cyan", "-"),
                ("cuda_transpose_naive", "tab:red", "-"), ("cuda_transpose_tile_multi", "tab:green", "-"),
                ("cuda_geam_transpose", "tab:olive", ":"), ("cuda_memcpy", "black", ":")]
WIDE_PORTS = [("cl_add_rowmajor", "tab:cyan"), ("cl_add_vec4", "tab:blue"), ("cl_transpose_naive", "tab:red"),
              ("cl_transpose_tile_multi", "tab:green"), ("cl_copy", "black")]


@readme_plot("ch09_beyond_l2")
def beyond_l2(root: str):
    doc = _sweep(root, "ch09_sweep_wide.json")
    ns = sorted({int(p["n"]) for p in doc.get("points", [])})
    plot = _Plot()
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(10, 8.5), height_ratios=[1.4, 1])
    panel = "GB/s kernel (formula (1))"
    for variant, color, style in WIDE_KERNELS:
        plot.line(top, panel, variant, "GB/s", _points(doc, variant, "gbs_kernel"), color=color, linestyle=style)
    top.set_ylabel("GB/s, kernel only (paper 003's formula (1))")
    top.set_ylim(bottom=0)
    top.set_title("CUDA kernels and the library: launch-bound (n ≤ 512), a transpose in the L2 (2048²: 32 MB), HBM (from 4096²)", fontsize=11)
    _size_axis(top, ns)
    top.legend(fontsize=8, loc="upper left")
    panel = "OpenCL time / CUDA time, kernel only"
    for variant, color in WIDE_PORTS:
        plot.line(bottom, panel, variant, "ratio", _ratios(doc, variant, "kernel_ratio"), color=color)
    bottom.axhline(1.0, color="grey", linewidth=0.8)
    bottom.set_ylabel("OpenCL time / CUDA time")
    bottom.set_title("each OpenCL port over its CUDA original (kernel only)", fontsize=11)
    _size_axis(bottom, ns)
    bottom.legend(fontsize=8, ncol=2, loc="upper right")
    fig.suptitle(f"Chapter 09, float, n = {ns[0]} ... {ns[-1]} on the H200 (ch09_sweep_wide.json)", fontsize=12)
    fig.tight_layout()
    return fig, plot.rows
