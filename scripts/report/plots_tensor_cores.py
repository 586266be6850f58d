"""The tensor-core chapters' figure in the report (10b, 10c): TFLOP/s of each step (WMMA, mma.sync, wgmma, TMA,
the ring, the producer / consumer split, the wide tile, persistent, clusters, stream-K, FP8) beside
the libraries' rows of the same run (cublas_*, cublaslt_*), a figure per size the runs have and in
it a panel per arithmetic (TF32, BF16, FP8 when a run has it); the rows are read by
tensor_core_steps.py, which the chapter README's figure shares.

The machines share each panel, a colour each, their bars side by side in every row: the question an
instructor asks of two machines is "what changed at this step", which neighbouring bars on one scale
answer at a glance; a panel per machine would put the two bars of a step in different panels, and
their scales would differ. The exact ratios are in the report's "Machines compared" table.

A panel that holds only libraries' rows on every machine (chapter 10c's BF16 cuBLASLt, the rate its
FP8 steps are set against) gets no panel of its own: its rows join the first panel with steps, on
that panel's scale.

A GEMM has no bandwidth limit and no paper measured these products, so the chapter gets no share of
a limit and no then-and-now (plots.py says so in the report).
"""
from __future__ import annotations

import re

import matplotlib.pyplot as plt
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from compare import runs_by_setting
from plots import Figure, colour_of, plot, save
from results import Run
from tensor_core_steps import draw_step_bars, panel_bars

PANEL_TITLES = {"TF32": "TF32 (inputs rounded to TF32, FP32 sums)", "BF16": "BF16 inputs, FP32 sums",
                "FP8": "FP8 (E4M3 inputs, a scale per tensor or per block)"}
# The library row each panel's steps are measured against (a dashed line per machine).
REFERENCE = {"TF32": "cublas_tf32", "BF16": "cublas_bf16", "FP8": "cublaslt_fp8"}


def _fold_library_panels(bars_of: dict[str, dict], panels: list[str]) -> tuple[list[str], dict[str, str]]:
    """The panels to draw: a panel with libraries' rows only, on every machine, joins the first panel
    with steps (its rows appended to that panel's libraries). Returns the panels left and, for each
    panel that took others' rows, the panels it took them from."""
    with_steps = [p for p in panels if any(bars.get(p, {}).get("steps") for bars in bars_of.values())]
    if not with_steps:
        return panels, {}
    host, joined = with_steps[0], {}
    for p in panels:
        if p in with_steps:
            continue
        for bars in bars_of.values():
            if p in bars:
                bars.setdefault(host, {"steps": [], "libraries": []})["libraries"] += bars.pop(p)["libraries"]
        joined.setdefault(host, []).append(p)
    return [p for p in panels if p in with_steps], {h: ", ".join(ps) for h, ps in joined.items()}


def product_size(run: Run) -> int:
    p = run.doc.get("problem") if isinstance(run.doc.get("problem"), dict) else {}
    dims = [p.get(k) for k in ("m", "n", "k")]
    return dims[0] * dims[1] * dims[2] if all(isinstance(v, int) for v in dims) else 0


def _panel_layout(bars_of: dict[str, dict], panel: str) -> tuple[list[str], frozenset[str]]:
    """The rows of one panel over every machine: the steps in the chapter's order, then the libraries."""
    steps = list(dict.fromkeys(label for bars in bars_of.values() for label, _ in bars.get(panel, {}).get("steps", [])))
    libraries = list(dict.fromkeys(name for bars in bars_of.values()
                                   for name, _ in bars.get(panel, {}).get("libraries", [])))
    return steps + libraries, frozenset(libraries)


def _draw_size(chapter: str, setting: str, by_machine: dict[str, Run], machines: list[str], out_dir: str) -> Figure:
    bars_of = {m: panel_bars(r.doc) for m, r in by_machine.items()}
    panels, joined = _fold_library_panels(bars_of, [p for p in PANEL_TITLES if any(p in bars for bars in bars_of.values())])
    layouts = {p: _panel_layout(bars_of, p) for p in panels}
    most_rows = max(len(labels) for labels, _ in layouts.values())
    fig, axes = plt.subplots(1, len(panels), figsize=(6.8 * len(panels), 2.4 + 0.3 * most_rows * max(1.0, len(by_machine) / 1.6)),
                             squeeze=False)
    failed = []
    for ax, panel in zip(axes[0], panels):
        labels, libraries = layouts[panel]
        series, references, fails = [], [], []
        for k, (m, bars) in enumerate(bars_of.items()):
            rows = bars.get(panel, {"steps": [], "libraries": []})
            values = dict(rows["steps"] + rows["libraries"])
            series.append((m, colour_of(machines, m), {label: v for label, v in values.items() if v is not None}))
            fails += [(k, label) for label, v in values.items() if v is None]
            failed += [f"{m} {label}" for label, v in values.items() if v is None]
            if values.get(REFERENCE[panel]) is not None:
                references.append((f"{m}: {REFERENCE[panel]}", colour_of(machines, m), values[REFERENCE[panel]]))
        draw_step_bars(ax, series, references, "TFLOP/s (2mnk over the kernel's median time; higher is better)",
                       labels=labels, hatched=libraries, failed=fails, legend=False)
        ax.tick_params(axis="y", labelsize=8)
        ax.set_title(PANEL_TITLES[panel] + (f"; {joined[panel]}'s library rows below" if panel in joined else ""),
                     fontsize=9)
        ax.grid(axis="x", alpha=0.3)
    handles = [Patch(color=colour_of(machines, m), label=m) for m in by_machine]
    handles += [Patch(facecolor="0.6", hatch="//", edgecolor="white", label="a library's row (cuBLAS, cuBLASLt)"),
                Line2D([], [], color="0.3", linestyle="--", label="the panel's reference library, per machine")]
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=8, frameon=False)
    title = f"Chapter {chapter}: TFLOP/s per step at {setting}, beside the libraries of the same run"
    if failed:
        title += f"\nFAILED verification, no bar: {', '.join(failed[:4])}{' ...' if len(failed) > 4 else ''}"
    fig.suptitle(title, fontsize=9)
    slug = re.sub(r"[^0-9A-Za-z]+", "_", setting.replace("³", "")).strip("_")
    name = save(fig, out_dir, f"ch{chapter}_tensor_core_steps_{slug}.png", rect=(0, 0.05, 1, 1))
    return name, (f"{setting}: TFLOP/s of each tensor-core step per arithmetic, a colour per machine; the libraries' "
                  "rows hatched below the steps, the panel's reference library dashed")


@plot
def tensor_core_steps(chapter: str, runs: list[Run], out_dir: str) -> list[Figure]:
    with_steps = [r for r in runs if r.kind == "result"
                  and any(bars["steps"] for bars in panel_bars(r.doc).values())]
    settings = runs_by_setting(with_steps)
    if not settings:
        return []
    machines = list(dict.fromkeys(m for by in settings.values() for m in by))
    order = sorted(settings, key=lambda s: (max(product_size(r) for r in settings[s].values()), s))
    return [_draw_size(chapter, s, settings[s], machines, out_dir) for s in order]
