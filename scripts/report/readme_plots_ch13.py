"""Chapter 13's plots, drawn from its committed runs on 2 and 4 GPUs (results/h200x4/ch13/ch13_g*.json):

- ch13_efficiency: strong scaling, the efficiency T1 / (G TG) of every split variant against the
  grid's side n (n × n grids), on 2 GPUs (solid) and 4 (dashed), beside the time per iteration the
  one-GPU baseline needs (the compute that the exchange has to hide);
- ch13_by_gpus: the efficiency against G = 1, 2, 4 at 4096², 8192² and 16384², every variant, with
  the README's model E = T1 / (G (W/G + c0 + e)), W = T1 − c0;
- ch13_time_split: on 2 GPUs at each n, the one-GPU time halved (what two GPUs would take with a
  free exchange) beside each variant's compute alone and its exposed exchange (total minus compute);
- ch13_check_scaling: on 2 GPUs with the update norm's check (results/h200x2/ch13_check_sample/, one
  device call), the best variant's efficiency against n with no check, every 1 and every 10
  iterations, overlapped and waited for, beside the model with no check and NVIDIA's sample.

Each CSV row is one plotted point: the panel, the series (a variant), n and the value with its unit.
gpus_of(), passed_row() and efficiency_by_gpus() are shared with the lecture report (plots_multi_gpu.py).
"""
from __future__ import annotations

import os

import matplotlib.pyplot as plt

from readme_plots import committed_runs, readme_plot
from results import best_sample_run, read_nvidia_sample

MACHINE = "h200x4/ch13"
ORDER = ["host_staged", "peer_copy", "peer_store", "overlap", "nccl", "nccl_graph", "mpi"]
COLOURS = dict(zip(ORDER, plt.rcParams["axes.prop_cycle"].by_key()["color"]))
# The README's model (its section "A model of efficiency"): per iteration c0 µs that do not divide
# (kernels ramping up and draining, launch gaps), e µs of exchange left exposed.
C0_US, EXPOSED_US = 10.0, 1.0


def model_efficiency(t1_us: float, gpus: int) -> float:
    work = t1_us - C0_US
    return t1_us / (gpus * (work / gpus + C0_US + (EXPOSED_US if gpus > 1 else 0.0)))


def gpus_of(doc: dict) -> int:
    """The most GPUs any variant of a run used (its one_gpu baseline uses 1)."""
    return max(int((r.get("extra") or {}).get("gpus", 1)) for r in doc["results"])


def _square_runs(root: str) -> list[tuple[int, int, dict]]:
    """(G, n, run) of the strong-scaling runs (n × n grids), by G, then n."""
    out = []
    for run in committed_runs(root, "ch13_g*.json", MACHINE):
        p = run.doc["problem"]
        if p["nx"] == p["ny"]:
            out.append((gpus_of(run.doc), int(p["nx"]), run.doc))
    return sorted(out, key=lambda t: (t[0], t[1]))


def passed_row(doc: dict, variant: str) -> dict | None:
    """The variant's row when it passed its verification, else None."""
    for r in doc["results"]:
        if r.get("variant") == variant and r.get("check") == "PASS":
            return r
    return None


def efficiency_by_gpus(docs: list[tuple[int, dict]], variant: str) -> list[tuple[int, float]]:
    """(G, efficiency in %) of one variant on one grid from its runs on G GPUs ((G, run) pairs, by G),
    starting at (1, 100): the one-GPU baseline is the definition of 100%."""
    return [(1, 100.0)] + [(g, 100.0 * r["extra"]["efficiency"]) for g, doc in sorted(docs, key=lambda t: t[0])
                           if (r := passed_row(doc, variant)) is not None
                           and isinstance((r.get("extra") or {}).get("efficiency"), (int, float))]


def _log2_axis(ax, ns):
    ax.set_xscale("log", base=2)
    ax.set_xticks(ns)
    ax.set_xticklabels([str(n) for n in ns])
    ax.set_xlabel("n (n × n grid)")
    ax.grid(True, alpha=0.3)


@readme_plot("ch13_efficiency")
def efficiency(root: str):
    runs = _square_runs(root)
    ns = sorted({n for _, n, _ in runs})
    rows: list[dict] = []
    fig, (ax, ax_t) = plt.subplots(1, 2, figsize=(11, 4.4), gridspec_kw={"width_ratios": [3, 2]})
    for gpus, style in ((2, "-"), (4, "--")):
        for variant in ORDER:
            pts = [(n, 100.0 * r["extra"]["efficiency"]) for g, n, doc in runs
                   if g == gpus and (r := passed_row(doc, variant)) is not None and "efficiency" in r["extra"]]
            if not pts:
                continue
            ax.plot([n for n, _ in pts], [v for _, v in pts], style, marker="o", markersize=3.5, color=COLOURS[variant],
                    label=variant if gpus == 2 else None)
            rows += [{"panel": f"efficiency, G={gpus}", "series": variant, "n": n, "value": v, "unit": "%"} for n, v in pts]
    ax.plot([], [], "k-", label="2 GPUs")
    ax.plot([], [], "k--", label="4 GPUs")
    ax.axhline(100, color="grey", lw=0.8)
    ax.set_ylabel("efficiency T1 / (G TG), %")
    ax.set_title("Strong scaling on 2 and 4 GPUs")
    base = [(n, r["ms_per_step"]) for g, n, doc in runs if g == 2 and (r := passed_row(doc, "one_gpu")) is not None]
    ax_t.plot([n for n, _ in base], [v * 1e3 for _, v in base], marker="s", color="black", label="one_gpu")
    rows += [{"panel": "one_gpu", "series": "one_gpu", "n": n, "value": v, "unit": "ms/iter"} for n, v in base]
    ax_t.set_yscale("log")
    ax_t.set_ylabel("µs per iteration, one GPU")
    ax_t.set_title("The compute the exchange must hide")
    for a in (ax, ax_t):
        _log2_axis(a, ns)
    ax.legend(fontsize=7.5, ncol=3)
    fig.tight_layout()
    return fig, rows


@readme_plot("ch13_by_gpus")
def by_gpus(root: str):
    runs = _square_runs(root)
    sizes = [n for n in (4096, 8192, 16384) if sum(1 for _, m, _ in runs if m == n) >= 2]
    rows: list[dict] = []
    fig, axes = plt.subplots(1, len(sizes), figsize=(4.0 * len(sizes), 4.0), sharey=True)
    for ax, n in zip(axes, sizes):
        docs = sorted((g, doc) for g, m, doc in runs if m == n)
        t1 = passed_row(docs[0][1], "one_gpu")["ms_per_step"] * 1e3
        for variant in ORDER:
            pts = efficiency_by_gpus(docs, variant)
            if len(pts) < 2:
                continue
            ax.plot([g for g, _ in pts], [v for _, v in pts], marker="o", markersize=3.5, color=COLOURS[variant], label=variant)
            rows += [{"panel": f"n={n}", "series": variant, "n": g, "value": v, "unit": "% (n is G here)"} for g, v in pts]
        gs = [1, 2, 4, 8]
        model = [100.0 * model_efficiency(t1, g) for g in gs]
        ax.plot(gs, model, "k:", lw=1.5, label="model (c0 = 10 µs)")
        rows += [{"panel": f"n={n}", "series": "model", "n": g, "value": v, "unit": "% (n is G here)"} for g, v in zip(gs, model)]
        ax.set_xscale("log", base=2)
        ax.set_xticks(gs)
        ax.set_xticklabels([str(g) for g in gs])
        ax.set_xlabel("GPUs G (8: the model only)")
        ax.set_title(f"{n}², T1 = {t1:.0f} µs")
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("efficiency T1 / (G TG), %")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    return fig, rows


@readme_plot("ch13_time_split")
def time_split(root: str):
    runs = [(n, doc) for g, n, doc in _square_runs(root) if g == 2]
    rows: list[dict] = []
    fig, axes = plt.subplots(1, len(runs), figsize=(3.2 * len(runs), 3.8), sharey=False)
    for ax, (n, doc) in zip(axes, runs):
        half = passed_row(doc, "one_gpu")["ms_per_step"] * 1e3 / 2
        names, compute, exposed = [], [], []
        for variant in ORDER:
            r = passed_row(doc, variant)
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
        ax.set_title(f"{n}², 2 GPUs")
        ax.set_ylabel("µs per iteration")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    return fig, rows


CHECK_RUNS = "h200x2/ch13_check_sample"  # the check step and NVIDIA's sample, one device call


def _best_efficiency(doc: dict) -> float | None:
    """The best passing split variant's efficiency in a run, in %, or None."""
    effs = [100.0 * r["extra"]["efficiency"] for r in doc["results"] if r.get("check") == "PASS"
            and r.get("variant") != "one_gpu" and isinstance((r.get("extra") or {}).get("efficiency"), (int, float))]
    return max(effs, default=None)


@readme_plot("ch13_check_scaling")
def check_scaling(root: str):
    """Strong scaling on 2 GPUs with the update norm's check: the best split variant against n with no
    check, and with the check every 1 and every 10 iterations, overlapped and waited for (each against
    the one-GPU run of its own file, which checks as often and in the same mode), beside the model with
    no check and NVIDIA's sample (its best variant, which waits for every check) from the same call."""
    series = {("none", None): "no check", (1, True): "every 1, overlapped", (10, True): "every 10, overlapped",
              (1, False): "every 1, waited for", (10, False): "every 10, waited for"}
    styles = {("none", None): ("black", "-", "o"), (1, True): ("tab:blue", "-", "o"), (10, True): ("tab:blue", "--", "s"),
              (1, False): ("tab:red", "-", "o"), (10, False): ("tab:red", "--", "s")}
    points: dict = {k: [] for k in series}
    t1_none: dict[int, float] = {}
    for run in committed_runs(root, "ch13_check_g2_*.json", f"{CHECK_RUNS}/check"):
        doc = run.doc
        n = int(doc["problem"]["nx"])
        conv = doc["problem"].get("convergence") or {}
        key = (int(conv["check_every"]), bool(conv.get("check_overlap"))) if conv.get("check_every") else ("none", None)
        best = _best_efficiency(doc)
        if best is not None:
            points[key].append((n, best))
        if key == ("none", None):  # the model's T1: one_gpu with no check (the reference, not verified)
            t1_none[n] = next(r for r in doc["results"] if r.get("variant") == "one_gpu")["ms_per_step"] * 1e3
    sample = read_nvidia_sample(os.path.join(root, "results", CHECK_RUNS, "sample", "nvidia_sample.json"))
    rows: list[dict] = []
    fig, ax = plt.subplots(figsize=(7.5, 4.4))
    for key, label in series.items():
        pts = sorted(points[key])
        colour, ls, marker = styles[key]
        ax.plot([n for n, _ in pts], [v for _, v in pts], ls, marker=marker, markersize=4, color=colour, label=f"ours, {label}")
        rows += [{"panel": "G=2", "series": f"ours, {label}", "n": n, "value": v, "unit": "%"} for n, v in pts]
    ns = sorted(t1_none)
    for every, ls in ((1, "-"), (10, "--")):
        pts = [(n, r["efficiency_percent"]) for n in ns if (r := best_sample_run(sample, 2, n, n, every)) is not None]
        ax.plot([n for n, _ in pts], [v for _, v in pts], ls, marker="^", markersize=4, color="tab:green",
                label=f"NVIDIA's sample, every {every} (waits)")
        rows += [{"panel": "G=2", "series": f"sample, every {every}", "n": n, "value": v, "unit": "%"} for n, v in pts]
    model = [100.0 * model_efficiency(t1_none[n], 2) for n in ns]
    ax.plot(ns, model, "k:", lw=1.5, label=f"model, no check (c0 = {C0_US:.0f} µs)")
    rows += [{"panel": "G=2", "series": "model, no check", "n": n, "value": v, "unit": "%"} for n, v in zip(ns, model)]
    ax.axhline(100, color="grey", lw=0.8)
    _log2_axis(ax, ns)
    ax.set_ylabel("best efficiency T1 / (G TG), %")
    ax.set_title("2 GPUs with the update norm: the best variant of each run")
    ax.legend(fontsize=7, ncol=2, loc="lower right")
    fig.tight_layout()
    return fig, rows
