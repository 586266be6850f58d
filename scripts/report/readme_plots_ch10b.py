"""Chapter 10b's plot: TFLOP/s of each step at 8192³ on the H100, in TF32 and in BF16, against cuBLAS
in the same run and arithmetic (results/h100/ch10b_8192.json).

step_rows() and draw_step_bars() are shared with the lecture report (plots_gemm.py), which draws the
same bars for every machine it is given, a panel per arithmetic.
"""
from __future__ import annotations


import matplotlib.pyplot as plt

from readme_plots import committed_runs, readme_plot

RESULT = "ch10b_8192.json"
# The chapter's steps in order: (label, variant stem; the TF32 and BF16 variants are stem_tf32, stem_bf16).
STEPS = [
    ("1 WMMA (TF32 only)", "wmma"),
    ("2 mma.sync + ldmatrix", "mma_sync"),
    ("3 wgmma", "wgmma"),
    ("4 TMA", "tma"),
    ("5 4-stage ring", "pipeline"),
    ("6 producer / consumer", "ws"),
    ("7 128 x 256, 2 consumers", "wide"),
    ("8 persistent", "persistent"),
    ("9 clusters, multicast", "cluster"),
    ("10 stream-K (slower)", "stream_k"),
]
ARITHMETICS = ("TF32", "BF16")
COLORS = {"TF32": "#6a4c93", "BF16": "#2a9d8f"}


def library_tflops(doc: dict) -> dict[str, float]:
    """cuBLAS's TFLOP/s per arithmetic in one run (verified rows only; an arithmetic without it is absent)."""
    passed = {r.get("variant"): r for r in doc.get("results", []) if r.get("check") == "PASS"}
    return {a: passed[f"cublas_{a.lower()}"]["gflops"] / 1000 for a in ARITHMETICS
            if isinstance(passed.get(f"cublas_{a.lower()}", {}).get("gflops"), (int, float))}


def step_rows(doc: dict) -> list[dict]:
    """One row per step and arithmetic that passed its verification: TFLOP/s and the share of cuBLAS
    in the same arithmetic (None when the run has no cuBLAS of that arithmetic)."""
    passed = {r.get("variant"): r for r in doc.get("results", []) if r.get("check") == "PASS"}
    library = library_tflops(doc)
    rows = []
    for label, stem in STEPS:
        for arithmetic in ARITHMETICS:
            name = f"{stem}_{arithmetic.lower()}"
            if not isinstance(passed.get(name, {}).get("gflops"), (int, float)):
                continue
            tflops = passed[name]["gflops"] / 1000
            rows.append({"step": label, "arithmetic": arithmetic, "variant": name, "tflops": tflops,
                         "share_of_cublas": tflops / library[arithmetic] if arithmetic in library else None})
    return rows


def draw_step_bars(ax, series: list[tuple[str, object, dict[str, float]]],
                   libraries: list[tuple[str, object, float]], xlabel: str) -> None:
    """Horizontal bars, a row per step (top down) and a bar per series in it ((name, colour,
    {step label: TFLOP/s})), each with its value; a dashed vertical line per library ((name, colour,
    TFLOP/s)), named in a row above step 1."""
    height = 0.76 / max(1, len(series))
    right = max([v for _, _, bars in series for v in bars.values()] + [rate for *_, rate in libraries] + [1.0])
    for k, (_, colour, bars) in enumerate(series):
        offset = (k - (len(series) - 1) / 2) * height
        for i, (label, _) in enumerate(STEPS):
            if label in bars:
                ax.barh(i + offset, bars[label], height=height * 0.95, color=colour)
                ax.text(bars[label] + right * 0.01, i + offset, f"{bars[label]:.0f}", va="center",
                        fontsize=8 if len(series) <= 2 else 6)
    for k, (name, colour, rate) in enumerate(libraries):
        ax.axvline(rate, color=colour, linestyle="--", linewidth=1)
        ax.text(rate - right * 0.01, -0.85 - 0.35 * k, f"{name}: {rate:.0f}", ha="right", va="center", fontsize=8,
                color=colour)
    ax.set_yticks(range(len(STEPS)), [label for label, _ in STEPS])
    # Top down, with a row above step 1 for the libraries' names.
    ax.set_ylim(len(STEPS) - 0.5, -0.9 - 0.35 * max(1, len(libraries)))
    ax.set_xlabel(xlabel)
    ax.set_xlim(0, right * 1.12)
    ax.legend([plt.Rectangle((0, 0), 1, 1, color=c) for _, c, _ in series], [name for name, _, _ in series],
              loc="center right", fontsize=8)


@readme_plot("ch10b_steps_8192")
def steps(root: str):
    doc = committed_runs(root, RESULT)[0].doc
    rows = step_rows(doc)
    names = {"TF32": "TF32 (floats rounded to TF32)", "BF16": "BF16 inputs, FP32 sums"}
    series = [(names[a], COLORS[a], {r["step"]: r["tflops"] for r in rows if r["arithmetic"] == a}) for a in ARITHMETICS]
    libraries = [(f"cuBLAS {a}", COLORS[a], rate) for a, rate in library_tflops(doc).items()]
    fig, ax = plt.subplots(figsize=(8, 4.8))
    draw_step_bars(ax, series, libraries, "TFLOP/s, 8192³, H100 (higher is better)")
    fig.tight_layout()
    return fig, rows
