"""The report's plots, drawn with matplotlib (Debian's python3-matplotlib).

Every plot is a function registered with @plot: it gets one chapter's readable runs (from every
result folder, so machines appear side by side) and the output folder, and returns the figures it
drew as (file name, caption) pairs, or nothing when the chapter has no data for it; a plot that
applies to the chapter's runs but finds nothing to draw in them (a share of the limit for a GEMM,
which has no bandwidth limit; a then-and-now without a paper's numbers) returns a LeftOut instead,
which the report prints as one line saying which figure is missing and why. This module holds
the helpers and the plots of chapters 01-09 (then and now, % of the limit, the width sweep, OpenCL over
CUDA, GB/s against n); a chapter's own plots live in their module (plots_gemm.py: chapter 10's GFLOP/s
against n; plots_tlm.py: chapter 11's node rate against mesh size and resonances; plots_roofline.py:
chapter 12's roofline, with the JSON format it reads), imported at the end of this file. The report
picks a plot up for every chapter whose JSON has what it needs. A plot must leave out a failed
variant's speed and say so, and must not raise on a missing key (draw() turns an exception into a line).
"""
from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass
from typing import Callable

import matplotlib

matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt  # noqa: E402

from results import Run  # noqa: E402

Figure = tuple[str, str]  # (file name in the output folder, caption)


@dataclass(frozen=True)
class LeftOut:
    """A figure the chapter's runs call for but cannot fill: its name and why."""
    figure: str
    why: str

PLOTS: list[Callable[[str, list[Run], str], list[Figure]]] = []


def plot(func):
    """Registers a plot function: func(chapter_id, runs, out_dir) -> [(file, caption), ...]."""
    PLOTS.append(func)
    return func


def machines_of(runs: list[Run]) -> list[str]:
    return list(dict.fromkeys(r.machine for r in runs))


def colour_of(machines: list[str], machine: str):
    return plt.get_cmap("tab10")(machines.index(machine) % 10)


LINESTYLES = ["-", "--", ":", "-."]
MARKERS = "os^vD<>px*"


def line_style(machines: list[str], machine: str, k: int) -> dict:
    """Lines of curves: the colour and marker tell the variant (k), the line style the machine."""
    return {"color": plt.get_cmap("tab10")(k % 10), "marker": MARKERS[k % len(MARKERS)], "markersize": 3,
            "linewidth": 1, "linestyle": LINESTYLES[machines.index(machine) % len(LINESTYLES)]}


def legible_log_axis(axis, most: int = 6) -> None:
    """A log axis (ax.xaxis or ax.yaxis) with at most `most` labelled ticks and no labels on the minor
    ones: across less than a decade matplotlib labels its minor ticks too, and they collide. Call it
    after the data are drawn: an axis whose data span less than a decade (an OpenCL / CUDA ratio of
    0.95 to 1.1) would keep one labelled tick or none, so it gets up to `most` plain numbers instead."""
    from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator, NullFormatter, NullLocator
    base = getattr(axis.get_major_locator(), "_base", 10.0)
    lo, hi = sorted(axis.get_view_interval())
    if 0 < lo and hi / lo < base:
        axis.set_major_locator(MaxNLocator(nbins=most - 1))
        axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        axis.set_minor_locator(NullLocator())
        return
    axis.set_major_locator(LogLocator(base=base, numticks=most))
    axis.set_minor_formatter(NullFormatter())


def legend_room(entries: int) -> float:
    """Inches to add below a panel for legend_below's legend of `entries` names (two a line)."""
    return 0.11 * ((entries + 1) // 2) + 0.3


def legend_below(ax, offset: float = -0.13) -> None:
    """The panel's legend below it, two names a line, its top `offset` (in the axes' height) under
    the axes: inside, two machines' curves of many variants would be covered by it."""
    ax.legend(fontsize=6, loc="upper center", bbox_to_anchor=(0.5, offset), ncol=2, frameon=False)


def save(fig, out_dir: str, name: str, rect=None) -> str:
    """Writes the figure as OUT/name (PNG); rect: the part of the figure tight_layout may fill (room
    left for a legend below the panels)."""
    fig.tight_layout(rect=rect)
    fig.savefig(os.path.join(out_dir, name), dpi=110)
    plt.close(fig)
    return name


def is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v == v and abs(v) != float("inf")


def results_of(runs: list[Run]) -> list[Run]:
    return sorted((r for r in runs if r.kind == "result"), key=lambda r: (r.machine, r.sort_key()))


@plot
def then_and_now(chapter: str, runs: list[Run], out_dir: str) -> list[Figure]:
    """The paper's machines against this run's, in the first column of the chapter's then-now table
    that has a paper's number (seconds for 1000 iterations for the Jacobi chapters), on a log scale."""
    chosen: dict[str, Run] = {}
    for r in results_of(runs):
        t = r.doc.get("then_now")
        if isinstance(t, dict) and t.get("rows") and t.get("columns"):
            chosen.setdefault(r.machine, r)  # the smallest size of each machine: the paper's
    # The paper's numbers ("then" rows) of the first run that has any, in the first column that has
    # them; without them there is no "then" to draw (chapter 10 at 4096², chapter 10b): no figure.
    def then_values(r: Run) -> list[tuple[dict, list]]:
        return [(row, row.get("values")) for row in r.doc["then_now"]["rows"]
                if isinstance(row, dict) and row.get("when") == "then" and isinstance(row.get("values"), list)]
    with_then = [r for r in chosen.values() if any(is_number(v) for _, values in then_values(r) for v in values)]
    if not with_then:
        return [LeftOut("then and now", "no paper measured these runs: their then-and-now table has no 'then' numbers")
                ] if results_of(runs) else []
    first = with_then[0]
    at = min(i for _, values in then_values(first) for i, v in enumerate(values) if is_number(v))
    columns = first.doc["then_now"]["columns"]
    column = columns[at] if at < len(columns) and isinstance(columns[at], dict) else {}
    labels, values, colours, notes = [], [], [], []
    machines = list(chosen)
    for row, row_values in then_values(first):
        v = row_values[at] if at < len(row_values) else None
        if is_number(v):
            labels.append(f"then: {row.get('machine', '')}, {row.get('implementation', '')}")
            values.append(v)
            colours.append("0.6")
    for machine, r in chosen.items():
        if r.status == "failed":
            notes.append(f"{machine}: left out, a variant FAILED verification")
            continue
        for row in r.doc["then_now"]["rows"]:
            row_values = row.get("values") if isinstance(row, dict) and isinstance(row.get("values"), list) else []
            v = row_values[at] if at < len(row_values) else None
            if is_number(v) and row.get("when") == "now":
                labels.append(f"{machine}, {r.size_label()}: {row.get('implementation', '')}")
                values.append(v)
                colours.append(colour_of(machines, machine))
    if all(c == "0.6" for c in colours):  # the paper alone: no "now" to compare
        return [LeftOut("then and now", "every run FAILED verification: no 'now' to set beside the paper")]
    fig, ax = plt.subplots(figsize=(9, 0.28 * len(values) + 1.6))
    y = range(len(values))
    ax.barh(list(y), values, color=colours)
    ax.set_yticks(list(y), labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xscale("log")
    legible_log_axis(ax.xaxis)
    ax.set_xlabel(f"{column.get('header', '')} (log scale)", fontsize=8)
    ax.set_title(f"Chapter {chapter}: then (the papers) and now (each machine's smallest run)" + ("\n" + "; ".join(notes) if notes else ""),
                 fontsize=9)
    name = save(fig, out_dir, f"ch{chapter}_then_now.png")
    return [(name, f"Then and now: {column.get('header', '')}: {column.get('unit', '')}")]


X_MAX = 110  # % of the limit: the share plot's axis ends a little past 100


@plot
def share_of_limit(chapter: str, runs: list[Run], out_dir: str) -> list[Figure]:
    """Each variant's minimum-traffic GB/s as a share of the limit measured in its own run, per
    machine and size; a failed variant gets the word FAIL instead of a bar."""
    results = results_of(runs)
    groups = [(r, [row for row in r.doc.get("results", [])]) for r in results]
    # A run without a single share (a GEMM is judged by its FLOP rate, not by a bandwidth limit) gets
    # no bars: leave it out, and draw no figure when no run has one.
    groups = [(r, rows) for r, rows in groups if any(is_number(row.get("limit_share")) for row in rows)]
    # A run split over several GPUs (chapter 13) is judged against G GPUs' summed limit; its efficiency
    # and time per iteration (plots_multi_gpu.py) say more, and a dozen grids times G would bury the bars.
    split = [r for r, _ in groups if r.gpus() > 1]
    groups = [(r, rows) for r, rows in groups if r.gpus() == 1]
    left_out = [LeftOut("share of the limit" + (" of the runs on several GPUs" if groups else ""),
                        "a share of G GPUs' summed limit says less than the efficiency and the time per iteration "
                        "drawn for them (the shares are in the table)")] if split else []
    if not groups:
        return left_out or ([LeftOut("share of the limit", "no variant has a bandwidth limit (a GEMM is judged by "
                                     "its FLOP rate: see its TFLOP/s beside the libraries')")] if results else [])
    variants = list(dict.fromkeys(str(row.get("variant")) for _, rows in groups for row in rows))
    # A variant that has a share (or FAILED) in no run gets no empty row: the report names it instead.
    # With a limit measured and no share, the run says the variant reuses its data across steps
    # (chapter 07c's several sweeps per trip to memory): it does not move the bytes the limit counts.
    drawn = {str(row.get("variant")) for _, rows in groups for row in rows
             if row.get("check") == "FAIL" or is_number(row.get("limit_share"))}
    shareless = [v for v in variants if v not in drawn]
    if shareless:
        variants = [v for v in variants if v in drawn]
        reuse = all(isinstance(row.get("limit"), dict) and is_number(row["limit"].get("gbs"))
                    for _, rows in groups for row in rows if str(row.get("variant")) in shareless)
        left_out.append(LeftOut(f"share of the limit of {', '.join(shareless)}",
                                "their runs give them none: they reuse their data across steps, so they do not move "
                                "the bytes the limit's rate counts (their times are in the table)" if reuse else
                                "their runs record no share of a limit"))
    machines = machines_of([r for r, _ in groups])
    height = 0.8 / len(groups)
    fig, ax = plt.subplots(figsize=(9, 0.22 * len(variants) * len(groups) + 1.8))
    hatches = ["", "//", "..", "xx", "\\\\", "--"]
    sizes = list(dict.fromkeys(r.size_label() for r, _ in groups))
    for g, (r, rows) in enumerate(groups):
        by_variant = {str(row.get("variant")): row for row in rows}
        for i, v in enumerate(variants):
            row = by_variant.get(v)
            if row is None:
                continue
            y = i + g * height
            if row.get("check") == "FAIL":
                ax.text(1, y, "FAIL", va="center", fontsize=7, color="red", fontweight="bold")
            elif is_number(row.get("limit_share")):
                share = 100 * row["limit_share"]
                # Above 100% the limit's measurement was disturbed: the bar stops at the axis' end
                # and the figure is written beside it, marked, instead of squashing every other bar.
                ax.barh(y, min(share, X_MAX), height=height, color=colour_of(machines, r.machine),
                        hatch=hatches[sizes.index(r.size_label()) % len(hatches)], edgecolor="white",
                        label=f"{r.machine}, {r.size_label()}")
                if share > 100:
                    ax.text(min(share, X_MAX) + 1, y, f"{share:.0f}% !", va="center", fontsize=6, color="red")
    ax.set_xlim(0, X_MAX + 15)
    ax.axvline(100, color="black", linewidth=0.8)
    ax.set_yticks([i + 0.4 - height / 2 for i in range(len(variants))], variants, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("minimum-traffic GB/s, % of the limit measured in the same run (same read:write mix)", fontsize=8)
    ax.set_title(f"Chapter {chapter}: share of the limit per variant", fontsize=9)
    handles, labels = ax.get_legend_handles_labels()
    unique = dict(zip(labels, handles))
    if unique:
        ax.legend(unique.values(), unique.keys(), fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    name = save(fig, out_dir, f"ch{chapter}_limit_share.png")
    return [(name, "% of the limit per variant, each against the limit measured in its own run"), *left_out]


@plot
def width_sweep(chapter: str, runs: list[Run], out_dir: str) -> list[Figure]:
    """Paper 000's Fig. 19: time per iteration against the grid's width (chapters 03-05's --sweep)."""
    sweeps = [r for r in runs if r.kind == "width_sweep"]
    if not sweeps:
        return []
    machines = machines_of(sweeps)
    fig, ax = plt.subplots(figsize=(9, 4.5))
    failed = []
    variants = list(dict.fromkeys(str(p.get("variant")) for r in sweeps for p in r.doc.get("points", [])))
    for r in sweeps:
        by_variant: dict[str, list] = defaultdict(list)
        for p in r.doc.get("points", []):
            by_variant[str(p.get("variant"))].append(p)
        for variant, points in by_variant.items():
            points.sort(key=lambda p: p.get("width", 0))
            ok = [p for p in points if p.get("check") != "FAIL" and is_number(p.get("seconds")) and p.get("iters")]
            failed += [f"{r.machine} {variant} w={p.get('width')}" for p in points if p.get("check") == "FAIL"]
            ax.plot([p["width"] for p in ok], [1e3 * p["seconds"] / p["iters"] for p in ok],
                    **line_style(machines, r.machine, variants.index(variant)), label=f"{r.machine}: {variant}")
    ax.set_xlabel("grid width (unknowns per row)")
    ax.set_ylabel("ms per iteration (median)")
    title = f"Chapter {chapter}: time against width (paper 000, Fig. 19)"
    if failed:
        title += f"\nFAILED verification, not drawn: {', '.join(failed[:4])}{' ...' if len(failed) > 4 else ''}"
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    name = save(fig, out_dir, f"ch{chapter}_width_sweep.png")
    return [(name, "The width sweep: an unaligned width costs time (paper 000, Fig. 19 and Tables 1-2)")]


def element_type(run: Run) -> str:
    """A sweep's element type ("int", "float"), or "" when the run does not say."""
    problem = run.doc.get("problem") if isinstance(run.doc.get("problem"), dict) else {}
    return str(problem.get("type", ""))


def _port_points(runs: list[Run]):
    """(panel, machine, pair, n, ratio, paper ratio) from chapter 08's cuda_comparison and the
    sweeps' port_ratios; a sweep's panel is its element type, so int and float never share a line."""
    points = []
    for r in runs:
        if r.kind == "result" and r.status != "failed":
            port = r.doc.get("opencl_port")
            problem = r.doc.get("problem") if isinstance(r.doc.get("problem"), dict) else {}
            if isinstance(port, dict) and isinstance(port.get("cuda_comparison"), list) and is_number(problem.get("nx")):
                for c in port["cuda_comparison"]:
                    if isinstance(c, dict) and is_number(c.get("opencl_over_cuda")):
                        points.append((element_type(r), r.machine, f"{c.get('variant')} / {c.get('cuda_variant')}",
                                       problem["nx"], c["opencl_over_cuda"], None))
        elif r.kind in ("matrix_sweep", "gemm_sweep") and isinstance(r.doc.get("port_ratios"), list):
            bad = {p.get("variant") for p in r.doc.get("points", []) if p.get("check") == "FAIL"}
            for q in r.doc["port_ratios"]:
                if (isinstance(q, dict) and is_number(q.get("kernel_ratio")) and is_number(q.get("n"))
                        and q.get("variant") not in bad and q.get("original") not in bad):
                    points.append((element_type(r), r.machine, f"{q.get('variant')} / {q.get('original')}", q["n"],
                                   q["kernel_ratio"], q.get("paper_ratio") if is_number(q.get("paper_ratio")) else None))
    return points


@plot
def opencl_over_cuda(chapter: str, runs: list[Run], out_dir: str) -> list[Figure]:
    """The port's time over the original's on the same GPU against n (paper 003's Tabs. 4-10,
    paper 002's Fig. 11), one panel per element type; the paper's ratio as a wide pale line."""
    points = _port_points(runs)
    if not points:
        return []
    machines = machines_of([Run(machine=m, name="") for _, m, *_ in points])
    panels = sorted({p[0] for p in points})
    # Each panel's legend below it (legend_below), room for the longest.
    entries = max(len({(m, label) for t, m, label, *_ in points if t == panel})
                  + len({label for t, _, label, _, _, paper in points if t == panel and paper is not None})
                  for panel in panels)
    fig, axes = plt.subplots(1, len(panels), figsize=(7 * len(panels), 4.4 + legend_room(entries)),
                             squeeze=False)
    for ax, panel in zip(axes[0], panels):
        series: dict[tuple[str, str], list] = defaultdict(list)
        for _, machine, label, n, ratio, paper in (p for p in points if p[0] == panel):
            series[(machine, label)].append((n, ratio, paper))
        labels = sorted({label for _, label in series})
        papers_drawn = set()
        for (machine, label), pts in sorted(series.items()):
            pts.sort()
            k = labels.index(label)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], **line_style(machines, machine, k),
                    label=f"{machine}: {label}")
            paper = [p for p in pts if p[2] is not None]
            if paper and label not in papers_drawn:  # the paper's ratio, once per pair
                papers_drawn.add(label)
                ax.plot([p[0] for p in paper], [p[2] for p in paper], color=plt.get_cmap("tab10")(k % 10),
                        linewidth=2.5, alpha=0.35, label=f"the paper: {label}")
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        legible_log_axis(ax.yaxis)
        ax.set_xlabel("n (grid or matrix is n x n)")
        ax.set_ylabel("OpenCL time / CUDA time (same GPU)")
        ax.set_title(panel or "grid", fontsize=9)
        legend_below(ax)
        ax.grid(alpha=0.3, which="both")
    fig.suptitle(f"Chapter {chapter}: OpenCL over CUDA, kernel time (1 = the same; above 1: OpenCL slower)", fontsize=9)
    name = save(fig, out_dir, f"ch{chapter}_opencl_over_cuda.png")
    return [(name, "OpenCL's time over CUDA's for the same kernel on the same GPU, against n, beside the paper's")]


@plot
def matrix_bandwidth(chapter: str, runs: list[Run], out_dir: str) -> list[Figure]:
    """Chapter 09: GB/s against n, a panel per operation (add, copy, transpose), a row per element
    type (int, float): a sweep's int and float points never share a line."""
    sweeps = [r for r in runs if r.kind == "matrix_sweep"]
    if not sweeps:
        return []
    machines = machines_of(sweeps)
    ops = sorted({str(p.get("op", "")) for r in sweeps for p in r.doc.get("points", [])})
    types = sorted({element_type(r) for r in sweeps})
    if not ops:
        return []
    # Each panel's legend below it (legend_below), room for the longest.
    entries = max(len({(r.machine, str(p.get("variant"))) for r in sweeps if element_type(r) == kind
                       for p in r.doc.get("points", []) if str(p.get("op", "")) == op}) for kind in types for op in ops)
    fig, axes = plt.subplots(len(types), len(ops), figsize=(5.2 * len(ops), (3.8 + legend_room(entries)) * len(types)),
                             squeeze=False)
    for row, kind in enumerate(types):
        for ax, op in zip(axes[row], ops):
            mine = [r for r in sweeps if element_type(r) == kind]
            variants = sorted({str(p.get("variant")) for r in mine for p in r.doc.get("points", [])
                               if str(p.get("op", "")) == op})
            for r in mine:
                by_variant: dict[str, list] = defaultdict(list)
                for p in r.doc.get("points", []):
                    if str(p.get("op", "")) == op and is_number(p.get("n")):
                        by_variant[str(p.get("variant"))].append(p)
                for variant, pts in sorted(by_variant.items()):
                    pts.sort(key=lambda p: p["n"])
                    ok = [p for p in pts if p.get("check") != "FAIL" and is_number(p.get("gbs_kernel"))]
                    ax.plot([p["n"] for p in ok], [p["gbs_kernel"] for p in ok],
                            **line_style(machines, r.machine, variants.index(variant)),
                            label=f"{r.machine}: {variant}" + (" (FAIL points left out)" if len(ok) < len(pts) else ""))
            ax.set_xscale("log", base=2)
            ax.set_xlabel("n (n x n matrix)")
            ax.set_ylabel("GB/s (kernel only)")
            ax.set_title(f"{op}" + (f", {kind}" if kind else ""), fontsize=9)
            if ax.get_legend_handles_labels()[0]:
                legend_below(ax, -0.2)
            ax.grid(alpha=0.3)
    fig.suptitle(f"Chapter {chapter}: bandwidth against n (minimum traffic over kernel time)", fontsize=9)
    name = save(fig, out_dir, f"ch{chapter}_matrix_gbs.png")
    return [(name, "GB/s of each variant against n, kernel time only, per operation and element type")]


def draw(chapter: str, runs: list[Run], out_dir: str) -> tuple[list[Figure], list[str], list[LeftOut]]:
    """Every registered plot for one chapter: the figures drawn, a line for each plot that broke on odd
    data (not a crash), and the figures left out for want of data."""
    figures, problems, left_out = [], [], []
    readable = [r for r in runs if r.readable]
    for func in PLOTS:
        try:
            for item in func(chapter, readable, out_dir) or []:
                (left_out if isinstance(item, LeftOut) else figures).append(item)
        except Exception as e:  # noqa: BLE001 - one bad plot must not cost the others
            plt.close("all")
            problems.append(f"plot {func.__name__} failed: {type(e).__name__}: {e}")
    return figures, problems, left_out


# The chapters' own plots, each in its module, register themselves here (after the helpers above).
import plots_gemm, plots_multi_gpu, plots_roofline, plots_tensor_cores, plots_tlm  # noqa: E402,F401
