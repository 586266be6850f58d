"""Chapter 13's plot: the efficiency T1 / (G TG) of every split variant against the number of GPUs G,
a panel per grid, a colour per variant, a marker and line style per machine. The numbers are the runs'
own (extra.efficiency of each row, against the one_gpu row of the same run), read by the functions
the chapter README's plot uses (readme_plots_ch13.py).
"""
from __future__ import annotations

import math
from collections import defaultdict

import matplotlib.pyplot as plt
from matplotlib.lines import Line2D

from plots import LINESTYLES, MARKERS, Figure, is_number, machines_of, plot, results_of, save
from readme_plots_ch13 import COLOURS, ORDER, efficiency_by_gpus, gpus_of
from results import Run


def _grid(run: Run) -> tuple[int, int] | None:
    p = run.doc.get("problem") if isinstance(run.doc.get("problem"), dict) else {}
    nx, ny = p.get("nx"), p.get("ny")
    return (nx, ny) if is_number(nx) and is_number(ny) else None


def _has_efficiency(run: Run) -> bool:
    return any(is_number((row.get("extra") or {}).get("efficiency")) for row in run.doc.get("results", [])
               if isinstance(row.get("extra", {}), dict))


@plot
def efficiency_against_gpus(chapter: str, runs: list[Run], out_dir: str) -> list[Figure]:
    grids: dict[tuple[int, int], dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for r in results_of(runs):
        if _grid(r) and _has_efficiency(r):
            grids[_grid(r)][r.machine].append((gpus_of(r.doc), r.doc))
    if not grids:
        return []
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
    handles = [Line2D([], [], color=colours[v], linewidth=2, label=v) for v in variants]
    handles += [Line2D([], [], color="black", marker=MARKERS[k % len(MARKERS)], linestyle=LINESTYLES[k % len(LINESTYLES)],
                       label=m) for k, m in enumerate(machines)]
    fig.legend(handles=handles, loc="lower center", ncol=min(len(handles), 6), fontsize=7, frameon=False)
    title = f"Chapter {chapter}: efficiency against the number of GPUs, per grid (1 GPU: 100% by definition)"
    if failed:
        title += f"\nFAILED verification, not drawn: {', '.join(failed[:3])}{' ...' if len(failed) > 3 else ''}"
    fig.suptitle(title, fontsize=9)
    name = save(fig, out_dir, f"ch{chapter}_efficiency_by_gpus.png",
                rect=(0, 0.04 + 0.03 * math.ceil(len(handles) / 6), 1, 1))
    return [(name,
             "Efficiency T1 / (G TG) of each split variant against the number of GPUs, a panel per grid; "
             "colour: the variant, marker and line style: the machine")]
