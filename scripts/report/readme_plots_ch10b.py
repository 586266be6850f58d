"""Chapter 10b's plot: TFLOP/s of each step at 8192³ on the H200, in TF32 and in BF16, against cuBLAS
in the same run and arithmetic (results/<H200_BATCHES>/ch10b_8192.json;
results.py names the folder).

The steps are read and drawn by tensor_core_steps.py, which the lecture report's figure
(plots_tensor_cores.py) shares.
"""
from __future__ import annotations


import matplotlib.pyplot as plt

from readme_plots import committed_runs, readme_plot
from tensor_core_steps import ARITHMETICS, STEPS, draw_step_bars, library_tflops, step_rows

RESULT = "ch10b_8192.json"
COLORS = {"TF32": "#6a4c93", "BF16": "#2a9d8f"}


@readme_plot("ch10b_steps_8192")
def steps(root: str):
    doc = committed_runs(root, RESULT)[0].doc
    # The chapter's steps against cuBLAS with FP32 C (step 11 with BF16 C, judged against cuBLAS with
    # BF16 C, is in the chapter's table, not here).
    drawn = {label for label, _ in STEPS}
    rows = [r for r in step_rows(doc) if r["step"] in drawn]
    names = {"TF32": "TF32 (floats rounded to TF32)", "BF16": "BF16 inputs, FP32 sums"}
    series = [(names[a], COLORS[a], {r["step"]: r["tflops"] for r in rows if r["arithmetic"] == a}) for a in ARITHMETICS]
    libraries = [(f"cuBLAS {a}", COLORS[a], rate) for a, rate in library_tflops(doc).items()]
    fig, ax = plt.subplots(figsize=(8, 4.8))
    draw_step_bars(ax, series, libraries, "TFLOP/s, 8192³, H200 (higher is better)")
    fig.tight_layout()
    return fig, rows
