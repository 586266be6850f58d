"""The root README's plot of the same kernels on the H100 and the H200: each measured ratio of rates
(H200 / H100) beside the roofline's prediction for it (the ratio of the two runs' own limits), and the
two ceilings' ratios as reference lines (chapter 12's runs: the 1:1 copy limit, the FMA peak).

The rows and their files are machines_table.py's; a row measured on one machine only is not drawn
(the README's table names it)."""
from __future__ import annotations

import matplotlib.pyplot as plt

import machines_table
from readme_plots import readme_plot

LINES = {"memory": ("memory-bound: ratio of the copy limits", "#1d3557", "--"),
         "compute": ("compute-bound: ratio of the FMA peaks", "#e76f51", ":")}


@readme_plot("machines_ratio")
def machines_ratio(root: str):
    measured = [r for r in machines_table.rows(root) if r.ratio is not None]
    refs = {bound: new / old for bound, (old, new) in machines_table.references(root).items()}
    labels = [f"{r.pair.chapter} {r.pair.variant}" for r in measured]
    fig, ax = plt.subplots(figsize=(9, 5.6))
    xs = range(len(measured))
    ax.bar(xs, [r.ratio for r in measured], color="#2a9d8f", label="measured: H200 rate / H100 rate")
    predicted = [(x, r.prediction) for x, r in zip(xs, measured) if r.prediction is not None]
    ax.scatter([x for x, _ in predicted], [p for _, p in predicted], marker="_", s=600, linewidths=2.5,
               color="black", zorder=3, label="predicted: the row's two limits")
    for bound, ratio in refs.items():
        name, color, style = LINES[bound]
        ax.axhline(ratio, color=color, linestyle=style, linewidth=1.2, label=f"{name} ({ratio:.3f})")
    ax.set_xticks(list(xs), labels, rotation=35, ha="right", fontsize=8)
    ax.set_ylim(0, max([r.ratio for r in measured] + list(refs.values()) + [1.0]) * 1.2)
    ax.set_ylabel("H200 / H100 (same kernel, same size)")
    ax.set_title("The same kernel on two GPUs with the same SMs and clocks, different memory", fontsize=10)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.32), ncol=2, frameon=False)
    fig.tight_layout()
    csv_rows = [{"chapter": r.pair.chapter, "variant": r.pair.variant, "size": r.pair.label,
                 "h100_rate": r.sides["H100"].rate, "h200_rate": r.sides["H200"].rate, "ratio": r.ratio,
                 "predicted": r.prediction, "memory_line": refs.get("memory"), "compute_line": refs.get("compute")}
                for r in measured]
    return fig, csv_rows
