"""Chapter 13's plots, a colour per variant, a marker and line style per machine (the variants are what
the chapter compares, so they get the colours; two machines' curves of a variant share its colour):

- the efficiency T1 / (G TG) of every split variant against the number of GPUs G, a panel per grid;
  the numbers are the runs' own (extra.efficiency of each row, against the one_gpu row of the same
  run), read by the functions the chapter README's plot uses (readme_plots_ch13.py);
- the time per iteration against the grid's size (nx ny unknowns), a panel per number of GPUs, the
  one-GPU baseline in black: where the exchange stops mattering.

A machine with one GPU runs no split variant: the report then says why each figure is missing.
"""
from __future__ import annotations

import math
from collections import defaultdict

import matplotlib.pyplot as plt
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter

from plots import LINESTYLES, MARKERS, Figure, LeftOut, is_number, legible_log_axis, machines_of, plot, results_of, save
from readme_plots_ch13 import COLOURS, ORDER, efficiency_by_gpus, gpus_of
from results import Run


def _grid(run: Run) -> tuple[int, int] | None:
    p = run.doc.get("problem") if isinstance(run.doc.get("problem"), dict) else {}
    nx, ny = p.get("nx"), p.get("ny")
    return (nx, ny) if is_number(nx) and is_number(ny) else None


def _has_efficiency(run: Run) -> bool:
    return any(is_number((row.get("extra") or {}).get("efficiency")) for row in run.doc.get("results", [])
               if isinstance(row.get("extra", {}), dict))


def _multi_gpu_runs(runs: list[Run]) -> list[Run]:
    """The runs whose rows say how many GPUs they used (chapter 13's extra.gpus)."""
    return [r for r in results_of(runs) if _grid(r) and any(
        isinstance(row.get("extra"), dict) and "gpus" in row["extra"] for row in r.doc.get("results", []))]


def _finish(fig, out_dir: str, name: str, variants: list[str], colours: dict, machines: list[str], failed: list[str],
            title: str, shown: list[str] | None = None) -> str:
    """The legend below the panels (a colour per variant, a marker and line style per machine: each
    machine keeps its index in `machines`, and only those in `shown` are named, all when None), the
    title with the points that FAILED verification, and the file."""
    handles = [Line2D([], [], color=colours[v], linewidth=2, label=v) for v in variants]
    handles += [Line2D([], [], color="grey", marker=MARKERS[k % len(MARKERS)], linestyle=LINESTYLES[k % len(LINESTYLES)],
                       label=m) for k, m in enumerate(machines) if shown is None or m in shown]
    fig.legend(handles=handles, loc="lower center", ncol=min(len(handles), 6), fontsize=7, frameon=False)
    if failed:
        title += f"\nFAILED verification, not drawn: {', '.join(failed[:3])}{' ...' if len(failed) > 3 else ''}"
    fig.suptitle(title, fontsize=9)
    return save(fig, out_dir, name, rect=(0, 0.05 + 0.035 * math.ceil(len(handles) / 6), 1, 1))


NO_SPLIT = LeftOut("efficiency against the number of GPUs", "no variant ran split over two GPUs or more "
                   "(the machine has one GPU, or the split variants were skipped)")


@plot
def efficiency_against_gpus(chapter: str, runs: list[Run], out_dir: str) -> list[Figure]:
    grids: dict[tuple[int, int], dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for r in results_of(runs):
        if _grid(r) and _has_efficiency(r):
            grids[_grid(r)][r.machine].append((gpus_of(r.doc), r.doc))
    if not grids:
        return [NO_SPLIT] if _multi_gpu_runs(runs) else []
    machines = machines_of([r for r in results_of(runs) if _grid(r) and _has_efficiency(r)])
    found = {row.get("variant") for by in grids.values() for docs in by.values() for _, doc in docs
             for row in doc["results"] if is_number((row.get("extra") or {}).get("efficiency"))}
    variants = [v for v in ORDER if v in found] + sorted(str(v) for v in found - set(ORDER))
    colours = {v: COLOURS.get(v, plt.get_cmap("tab10")(i % 10)) for i, v in enumerate(variants)}
    panels = sorted(grids, key=lambda g: (g[0] * g[1], g))
    cols = min(4, len(panels))
    rows = math.ceil(len(panels) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 3.1 * rows + 1.2), squeeze=False, sharey=True)
    failed = []
    for ax, (nx, ny) in zip(axes.flat, panels):
        gs = {1}
        for machine, docs in grids[(nx, ny)].items():
            k = machines.index(machine)
            failed += [f"{machine} {nx}x{ny} G={g} {row.get('variant')}" for g, doc in docs for row in doc["results"]
                       if row.get("check") == "FAIL"]
            for variant in variants:
                pts = efficiency_by_gpus(docs, variant)
                if len(pts) < 2:
                    continue
                gs |= {g for g, _ in pts}
                ax.plot([g for g, _ in pts], [v for _, v in pts], color=colours[variant],
                        marker=MARKERS[k % len(MARKERS)], linestyle=LINESTYLES[k % len(LINESTYLES)],
                        markersize=4, linewidth=1)
        ax.axhline(100, color="grey", linewidth=0.8)
        ax.set_xscale("log", base=2)
        ax.set_xticks(sorted(gs), [str(g) for g in sorted(gs)])
        ax.minorticks_off()
        ax.set_title(f"{nx}²" if nx == ny else f"{nx} x {ny}", fontsize=9)
        ax.set_xlabel("GPUs G", fontsize=8)
        ax.grid(alpha=0.3)
    for ax in axes.flat[len(panels):]:
        ax.set_visible(False)
    for ax in axes[:, 0]:
        ax.set_ylabel("efficiency T1 / (G TG), %", fontsize=8)
    name = _finish(fig, out_dir, f"ch{chapter}_efficiency_by_gpus.png", variants, colours, machines, failed,
                   f"Chapter {chapter}: efficiency against the number of GPUs, per grid (1 GPU: 100% by definition)")
    return [(name,
             "Efficiency T1 / (G TG) of each split variant against the number of GPUs, a panel per grid; "
             "colour: the variant, marker and line style: the machine")]


def _ms_per_iteration(run: Run) -> dict[str, float]:
    """{variant: ms per iteration} of the rows that passed their verification."""
    return {str(row.get("variant")): row["ms_per_step"] for row in run.doc.get("results", [])
            if row.get("check") == "PASS" and is_number(row.get("ms_per_step")) and row["ms_per_step"] > 0}


@plot
def time_against_grid(chapter: str, runs: list[Run], out_dir: str) -> list[Figure]:
    """Time per iteration against nx ny, a panel per number of GPUs G, every variant of the runs on G
    GPUs (one_gpu, in black, is each run's one-GPU baseline)."""
    multi = _multi_gpu_runs(runs)
    if not multi:
        return []
    panels: dict[int, dict[str, list[Run]]] = defaultdict(lambda: defaultdict(list))
    for r in multi:
        panels[r.gpus()][r.machine].append(r)
    curves = {(g, m) for g, by in panels.items() for m, rs in by.items() if len({_grid(r) for r in rs}) > 1}
    if not curves:
        return [LeftOut("time per iteration against grid size", "each machine ran one grid per number of GPUs: "
                        "no curve to draw (the times are in the tables below)")]
    machines = machines_of(multi)
    found = {v for r in multi for v in _ms_per_iteration(r)}
    variants = [v for v in ["one_gpu", *ORDER] if v in found] + sorted(found - {"one_gpu", *ORDER})
    colours = {v: "black" if v == "one_gpu" else COLOURS.get(v, plt.get_cmap("tab10")(i % 10))
               for i, v in enumerate(variants)}
    gs = sorted(g for g in panels if any((g, m) in curves for m in panels[g]))
    fig, axes = plt.subplots(1, len(gs), figsize=(5.2 * len(gs), 4.6), squeeze=False, sharey=True)
    failed, drawn = [], set()
    for ax, g in zip(axes[0], gs):
        for machine, rs in panels[g].items():
            k = machines.index(machine)
            rs = sorted(rs, key=lambda r: _grid(r)[0] * _grid(r)[1])
            failed += [f"{machine} {r.size_label()} {row.get('variant')}" for r in rs for row in r.doc["results"]
                       if row.get("check") == "FAIL"]
            for variant in variants:
                pts = [(_grid(r)[0] * _grid(r)[1] / 1e6, _ms_per_iteration(r)[variant]) for r in rs
                       if variant in _ms_per_iteration(r)]
                if pts:
                    drawn.add((machine, variant))
                    ax.plot([x for x, _ in pts], [y for _, y in pts], color=colours[variant],
                            marker=MARKERS[k % len(MARKERS)], linestyle=LINESTYLES[k % len(LINESTYLES)],
                            markersize=4, linewidth=1.4 if variant == "one_gpu" else 1)
        ax.set_xscale("log")
        ax.set_yscale("log")
        for axis in (ax.xaxis, ax.yaxis):
            legible_log_axis(axis, most=5)
            axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.set_title(f"{g} GPUs (one_gpu: the same grid on one)", fontsize=9)
        ax.set_xlabel("grid size nx · ny, millions of unknowns (log scale)", fontsize=8)
        ax.grid(alpha=0.3, which="both")
    axes[0][0].set_ylabel("ms per iteration (median, log scale)", fontsize=8)
    # The legend names what the panels show: a machine or variant only in runs on a number of GPUs
    # without a panel (a one-GPU lecture run beside several GPUs' runs) is not drawn.
    shown = [m for m in machines if any(m == dm for dm, _ in drawn)]
    name = _finish(fig, out_dir, f"ch{chapter}_time_by_grid.png", [v for v in variants if any(v == dv for _, dv in drawn)],
                   colours, machines, failed,
                   f"Chapter {chapter}: time per iteration against grid size, a panel per number of GPUs", shown)
    return [(name, "Time per iteration of each variant against the grid's size, a panel per number of GPUs; "
                   "colour: the variant (one_gpu black), marker and line style: the machine")]
