"""Chapter 10's plot: TFLOP/s of each step of the matrix multiply at 4096³ float on the H200, the
CUDA kernel and its OpenCL port side by side, against strict-FP32 cuBLAS measured in the same run
(results/<H200_BATCHES>/ch10_4096_float.json; results.py names the folder)."""
from __future__ import annotations


import matplotlib.pyplot as plt

from readme_plots import committed_runs, readme_plot

RESULT = "ch10_4096_float.json"
# The chapter's steps in order: (step, CUDA variant, OpenCL port or None).
STEPS = [
    ("1 naive", "cuda_naive", "cl_naive"),
    ("2 16 x 16 tile", "cuda_tile16", "cl_tile16"),
    ("3 8 per thread", "cuda_blocktile_1d", "cl_blocktile_1d"),
    ("4 8 x 8 per thread", "cuda_blocktile_2d", "cl_blocktile_2d"),
    ("5 16-byte loads", "cuda_vectorized", "cl_vectorized"),
    ("6 warp tiles", "cuda_warptile", "cl_warptile"),
    ("7 cp.async, 2 buffers", "cuda_double_buffer", None),
    ("8 TF32 (WMMA)", "cuda_tf32_wmma", None),
    ("9 three stages", "cuda_three_stage", None),
    ("10 prefetch", "cuda_prefetch", "cl_prefetch"),
]
LIBRARY = "cublas_sgemm"


@readme_plot("ch10_steps_4096_float")
def steps(root: str):
    doc = committed_runs(root, RESULT)[0].doc
    results = {r["variant"]: r for r in doc["results"] if r.get("check") == "PASS"}
    library = results[LIBRARY]["gflops"] / 1000
    rows = []
    for label, cuda, opencl in STEPS:
        for backend, name in (("CUDA", cuda), ("OpenCL", opencl)):
            if name is None or name not in results:
                continue
            r = results[name]
            tflops = r["gflops"] / 1000
            rows.append({"step": label, "backend": backend, "variant": name, "arithmetic": r["extra"]["arithmetic"],
                         "tflops": tflops, "share_of_cublas_sgemm": tflops / library})
    fig, ax = plt.subplots(figsize=(8, 4.6))
    # Steps 9 and 10 ran the configurations --tune kept: name them ("tuned: 128 x 256 tile, 8 x 16 per
    # thread, 2 stages; grid ..." in the run's launch line).
    def tuned(variant: str) -> str:
        kept = results[variant]["launch"].split(";")[0].replace("tuned: ", "").replace(" tile", "")
        return f"{kept.split(',')[0]}, {kept.split(',')[-1].strip()}"
    relabel = {"9 three stages": f"9 as tuned: {tuned('cuda_three_stage')}",
               "10 prefetch": f"10 prefetch, tuned: {tuned('cuda_prefetch')}"}
    for row in rows:
        row["step"] = relabel.get(row["step"], row["step"])
    labels = [relabel.get(label, label) for label, _, _ in STEPS]
    y = {label: i for i, label in enumerate(labels)}
    for row in rows:
        offset = -0.2 if row["backend"] == "CUDA" else 0.2
        color = "#2a6f97" if row["backend"] == "CUDA" else "#f4a261"
        if row["arithmetic"] == "TF32":
            color = "#6a4c93"
        ax.barh(y[row["step"]] + offset, row["tflops"], height=0.38, color=color)
        ax.text(row["tflops"] + 0.4, y[row["step"]] + offset, f"{row['tflops']:.1f}", va="center", fontsize=8)
    ax.axvline(library, color="black", linestyle="--", linewidth=1)
    ax.text(library - 0.5, -0.45, f"cuBLAS SGEMM (FP32): {library:.1f}", ha="right", va="top", fontsize=8)
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()
    ax.set_xlabel("TFLOP/s, 4096³ float, H200 (higher is better)")
    ax.set_xlim(0, library * 1.12)
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in ("#2a6f97", "#f4a261", "#6a4c93")]
    ax.legend(handles, ["CUDA, FP32", "OpenCL port, FP32", "CUDA, TF32 tensor cores"], loc="center right", fontsize=8)
    fig.tight_layout()
    return fig, rows
