"""Chapter 10b's plot: TFLOP/s of each step at 8192³ on the H100, in TF32 and in BF16, against cuBLAS
in the same run and arithmetic (results/h100/ch10b_8192.json)."""
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
COLORS = {"TF32": "#6a4c93", "BF16": "#2a9d8f"}


@readme_plot("ch10b_steps_8192")
def steps(root: str):
    doc = committed_runs(root, RESULT)[0].doc
    results = {r["variant"]: r for r in doc["results"] if r.get("check") == "PASS"}
    library = {"TF32": results["cublas_tf32"]["gflops"] / 1000, "BF16": results["cublas_bf16"]["gflops"] / 1000}
    rows = []
    for label, stem in STEPS:
        for arithmetic in ("TF32", "BF16"):
            name = f"{stem}_{arithmetic.lower()}"
            if name not in results:
                continue
            tflops = results[name]["gflops"] / 1000
            rows.append({"step": label, "arithmetic": arithmetic, "variant": name, "tflops": tflops,
                         "share_of_cublas": tflops / library[arithmetic]})
    fig, ax = plt.subplots(figsize=(8, 4.8))
    y = {label: i for i, (label, _) in enumerate(STEPS)}
    for row in rows:
        offset = -0.2 if row["arithmetic"] == "TF32" else 0.2
        ax.barh(y[row["step"]] + offset, row["tflops"], height=0.38, color=COLORS[row["arithmetic"]])
        ax.text(row["tflops"] + 6, y[row["step"]] + offset, f"{row['tflops']:.0f}", va="center", fontsize=8)
    for arithmetic, rate in library.items():
        ax.axvline(rate, color=COLORS[arithmetic], linestyle="--", linewidth=1)
        ax.text(rate - 8, -0.85, f"cuBLAS {arithmetic}: {rate:.0f}", ha="right", va="center", fontsize=8,
                color=COLORS[arithmetic])
    ax.set_yticks(range(len(STEPS)), [label for label, _ in STEPS])
    ax.set_ylim(len(STEPS) - 0.5, -1.2)  # top down, with a row above step 1 for the cuBLAS labels
    ax.set_xlabel("TFLOP/s, 8192³, H100 (higher is better)")
    ax.set_xlim(0, max(library.values()) * 1.12)
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in COLORS.values()]
    ax.legend(handles, ["TF32 (floats rounded to TF32)", "BF16 inputs, FP32 sums"], loc="center right", fontsize=8)
    fig.tight_layout()
    return fig, rows
