"""Chapter 10c's plot: the FP8 steps at 8192³ on the H200 against cuBLASLt's FP8 and its BF16 product
in the same run (results/<H200_BATCHES>/ch10c_8192.json; results.py
names the folder).

The bars are drawn by tensor_core_steps.py, which chapter 10b's figure and the lecture report share.
"""
from __future__ import annotations

import matplotlib.pyplot as plt

from readme_plots import committed_runs, readme_plot
from tensor_core_steps import draw_step_bars, tflops_of

FP8_RESULT = "ch10c_8192.json"
FP8_LABELS = {"fp8_tensor": "1 a scale per tensor", "fp8_block": "2 a scale per block"}
FP8_C = {"FP32 C": ("", "#e76f51"), "BF16 C": ("_bf16c", "#264653")}


@readme_plot("ch10c_fp8_8192")
def fp8_steps(root: str):
    doc = committed_runs(root, FP8_RESULT)[0].doc
    by = {str(r.get("variant")): r for r in doc.get("results", []) if isinstance(r, dict)}
    series, rows = [], []
    for c_name, (suffix, colour) in FP8_C.items():
        bars = {}
        for stem, label in FP8_LABELS.items():
            rate = tflops_of(by.get(stem + suffix, {}))
            if rate is not None:
                bars[label] = rate
                rows.append({"step": label, "c": c_name, "variant": stem + suffix, "tflops": rate})
        series.append((f"FP8 inputs, {c_name}", colour, bars))
    references = [("cuBLASLt FP8, FP32 C", "#e76f51", "cublaslt_fp8"), ("cuBLASLt FP8, BF16 C", "#264653", "cublaslt_fp8_bf16c"),
                  ("cuBLASLt BF16", "#2a9d8f", "cublaslt_bf16")]
    libraries = [(name, colour, rate) for name, colour, v in references if (rate := tflops_of(by.get(v, {}))) is not None]
    fig, ax = plt.subplots(figsize=(8, 3.2))
    # The legend top left: the bars' values end on the right, the libraries' names sit above them.
    draw_step_bars(ax, series, libraries, "TFLOP/s, 8192³, H200 (higher is better)", labels=list(FP8_LABELS.values()),
                   legend_loc="upper left")
    fig.tight_layout()
    return fig, rows
