"""Chapter 13's plots, drawn from its committed runs on two GPUs (results/h200x2/ch13/ch13_*.json):

- ch13_efficiency: strong scaling, the efficiency T1 / (2 T2) of every two-GPU variant against the
  grid's side n (n × n grids), beside the time per iteration the one-GPU baseline needs (the compute
  that the exchange has to hide);
- ch13_time_split: at each n, the one-GPU time halved (what two GPUs would take with a free
  exchange) beside each variant's compute alone and its exposed exchange (total minus compute).

Each CSV row is one plotted point: the panel, the series (a variant), n and the value with its unit.
"""
from __future__ import annotations

import matplotlib.pyplot as plt

from readme_plots import committed_runs, readme_plot

MACHINE = "h200x2/ch13"
ORDER = ["host_staged", "peer_copy", "peer_store", "overlap", "nccl", "nccl_graph", "mpi"]


def _square_runs(root: str) -> list[tuple[int, dict]]:
    """(n, run) of the strong-scaling runs (n × n grids), n ascending."""
    out = []
    for run in committed_runs(root, "ch13_*.json", MACHINE):
        p = run.doc["problem"]
        if p["nx"] == p["ny"]:
            out.append((int(p["nx"]), run.doc))
    return sorted(out, key=lambda t: t[0])


def _row(doc: dict, variant: str) -> dict | None:
    for r in doc["results"]:
        if r["variant"] == variant and r["check"] == "PASS":
            return r
    return None


@readme_plot("ch13_efficiency")
def efficiency(root: str):
    runs = _square_runs(root)
    ns = [n for n, _ in runs]
    rows: list[dict] = []
    fig, (ax, ax_t) = plt.subplots(1, 2, figsize=(11, 4.2), gridspec_kw={"width_ratios": [3, 2]})
    for variant in ORDER:
        pts = [(n, 100.0 * r["extra"]["efficiency"]) for n, doc in runs
               if (r := _row(doc, variant)) is not None and "efficiency" in r["extra"]]
        if not pts:
            continue
        ax.plot([n for n, _ in pts], [v for _, v in pts], marker="o", markersize=4, label=variant)
        rows += [{"panel": "efficiency", "series": variant, "n": n, "value": v, "unit": "%"} for n, v in pts]
    ax.axhline(100, color="grey", lw=0.8)
    ax.set_ylabel("efficiency T1 / (2 T2), %")
    ax.set_title("Strong scaling on two GPUs")
    base = [(n, r["ms_per_step"]) for n, doc in runs if (r := _row(doc, "one_gpu")) is not None]
    ax_t.plot([n for n, _ in base], [v * 1e3 for _, v in base], marker="s", color="black", label="one_gpu")
    rows += [{"panel": "one_gpu", "series": "one_gpu", "n": n, "value": v, "unit": "ms/iter"} for n, v in base]
    ax_t.set_yscale("log")
    ax_t.set_ylabel("µs per iteration, one GPU")
    ax_t.set_title("The compute the exchange must hide")
    for a in (ax, ax_t):
        a.set_xscale("log", base=2)
        a.set_xticks(ns)
        a.set_xticklabels([str(n) for n in ns])
        a.set_xlabel("n (n × n grid)")
        a.grid(True, alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    return fig, rows


@readme_plot("ch13_time_split")
def time_split(root: str):
    runs = _square_runs(root)
    rows: list[dict] = []
    fig, axes = plt.subplots(1, len(runs), figsize=(3.2 * len(runs), 3.8), sharey=False)
    for ax, (n, doc) in zip(axes, runs):
        half = _row(doc, "one_gpu")["ms_per_step"] * 1e3 / 2
        names, compute, exposed = [], [], []
        for variant in ORDER:
            r = _row(doc, variant)
            if r is None or "compute_ms" not in r["extra"]:
                continue
            names.append(variant)
            compute.append(r["extra"]["compute_ms"] * 1e3)
            exposed.append(max(0.0, r["extra"]["exposed_exchange_ms"] * 1e3))
            rows.append({"panel": f"n={n}", "series": variant, "n": n, "value": compute[-1], "unit": "µs compute"})
            rows.append({"panel": f"n={n}", "series": variant, "n": n, "value": exposed[-1], "unit": "µs exposed exchange"})
        x = range(len(names))
        ax.bar(x, compute, color="tab:blue", label="compute alone")
        ax.bar(x, exposed, bottom=compute, color="tab:red", label="exposed exchange")
        ax.axhline(half, color="black", ls="--", lw=1, label="one GPU / 2")
        ax.set_xticks(list(x))
        ax.set_xticklabels(names, rotation=60, fontsize=7)
        ax.set_title(f"{n}²")
        ax.set_ylabel("µs per iteration")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    return fig, rows
