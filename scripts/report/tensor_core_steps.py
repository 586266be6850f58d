"""The tensor-core chapters' steps read from their JSON (10b's in TF32 and BF16, 10c's in FP8), and the
bars that draw them; shared by the chapter READMEs' figures (readme_plots_ch10b.py, readme_plots_ch10c.py)
and the lecture report's (plots_tensor_cores.py).

A run's rows fall into panels by arithmetic: TF32, BF16 and, when the run has it, FP8 (E4M3 inputs,
with FP32 or BF16 C). In a panel the chapter's steps come first, in the chapter's order, then the
libraries' rows (cublas_*, cublaslt_*) of the same arithmetic; a row that failed its verification
has no speed.
"""
from __future__ import annotations

# Chapter 10b's steps in order: (label, variant stem; the TF32 and BF16 variants are stem_tf32, stem_bf16).
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
    ("11 C through TMA stores (BF16 only)", "tma_store"),
]
ARITHMETICS = ("TF32", "BF16")
# Chapter 10b's step 11 with C rounded to BF16 (extra.arithmetic BF16_BF16C), in the BF16 panel after
# the steps, judged against cuBLAS's BF16 product with BF16 C: (label, variant, library row).
BF16C_STEPS = [
    ("11 with BF16 C", "tma_store_bf16_bf16c", "cublas_bf16_bf16c"),
    ("11 with BF16 C, fewest clusters", "tma_store_bf16_bf16c_even", "cublas_bf16_bf16c"),
]
# Chapter 10c's steps, in FP8 alone, with C in FP32 or BF16: (label, variant, the library row it is
# judged against; none for step 2, whose block scales no library row has).
FP8_STEPS = [
    ("1 FP8, FP32 C", "fp8_tensor", "cublaslt_fp8"),
    ("1 FP8, BF16 C", "fp8_tensor_bf16c", "cublaslt_fp8_bf16c"),
    ("2 FP8 blocks, FP32 C", "fp8_block", None),
    ("2 FP8 blocks, BF16 C", "fp8_block_bf16c", None),
]
PANELS = ("TF32", "BF16", "FP8")


def step_variants() -> list[tuple[str, str, str, str]]:
    """(panel, step label, variant, the library variant it is judged against), in the chapter's order."""
    steps = [(a, label, f"{stem}_{a.lower()}", f"cublas_{a.lower()}") for label, stem in STEPS for a in ARITHMETICS]
    steps += [("BF16", label, name, library) for label, name, library in BF16C_STEPS]
    return steps + [("FP8", label, name, library) for label, name, library in FP8_STEPS]


def is_library(row: dict) -> bool:
    return str(row.get("variant", "")).startswith(("cublas_", "cublaslt_"))


def panel_of(row: dict) -> str | None:
    """TF32, BF16 or FP8: the inputs of the row's extra.arithmetic, its part before the first "_"
    (FP8_BLOCKS_BF16C: FP8 inputs, a scale per block, BF16 C; BF16_BF16C: BF16 inputs and C), else
    from its name."""
    extra = row.get("extra") if isinstance(row.get("extra"), dict) else {}
    arithmetic = str(extra.get("arithmetic", "")).upper()
    if not arithmetic:
        name = str(row.get("variant", ""))
        arithmetic = "FP8" if "fp8" in name else "TF32" if "_tf32" in name else "BF16" if "_bf16" in name else ""
    inputs = arithmetic.split("_")[0]
    return inputs if inputs in PANELS else None


def tflops_of(row: dict) -> float | None:
    """The row's TFLOP/s when it passed its verification and has a rate, else None."""
    rate = row.get("gflops")
    if row.get("check") != "PASS" or isinstance(rate, bool) or not isinstance(rate, (int, float)) or rate != rate:
        return None
    return rate / 1000


def _passed(doc: dict) -> dict[str, float]:
    rows = [r for r in doc.get("results", []) if isinstance(r, dict)]
    return {str(r.get("variant")): t for r in rows if (t := tflops_of(r)) is not None}


def library_tflops(doc: dict) -> dict[str, float]:
    """cuBLAS's TFLOP/s per arithmetic in one run (verified rows only; an arithmetic without it is absent)."""
    passed = _passed(doc)
    return {a: passed[f"cublas_{a.lower()}"] for a in ARITHMETICS if f"cublas_{a.lower()}" in passed}


def step_rows(doc: dict) -> list[dict]:
    """One row per step and arithmetic that passed its verification: TFLOP/s and the share of the
    library in the same arithmetic (None when the run has no such library row)."""
    passed = _passed(doc)
    return [{"step": label, "arithmetic": panel, "variant": name, "tflops": passed[name],
             "share_of_cublas": passed[name] / passed[library] if library in passed else None}
            for panel, label, name, library in step_variants() if name in passed]


def panel_bars(doc: dict) -> dict[str, dict[str, list[tuple[str, float | None]]]]:
    """{panel: {"steps": [(step label, TFLOP/s or None when FAILED)], "libraries": [(variant, TFLOP/s or None)]}}
    for the panels the run has rows in; a step or library the run did not run is absent."""
    rows = {str(r.get("variant")): r for r in doc.get("results", []) if isinstance(r, dict)}
    out: dict[str, dict[str, list]] = {}
    for panel, label, name, _ in step_variants():
        if name in rows:
            out.setdefault(panel, {"steps": [], "libraries": []})["steps"].append((label, tflops_of(rows[name])))
    for name, row in rows.items():
        panel = panel_of(row)
        if is_library(row) and panel:
            out.setdefault(panel, {"steps": [], "libraries": []})["libraries"].append((name, tflops_of(row)))
    return {p: out[p] for p in PANELS if p in out}


def rate_text(tflops: float) -> str:
    """A bar's value: whole TFLOP/s, with decimals for a small product's small rates."""
    return f"{tflops:.0f}" if tflops >= 10 else f"{tflops:.2g}"


def draw_step_bars(ax, series: list[tuple[str, object, dict[str, float]]],
                   libraries: list[tuple[str, object, float]], xlabel: str, labels: list[str] | None = None,
                   hatched: frozenset[str] = frozenset(), failed: list[tuple[int, str]] = (), legend: bool = True,
                   legend_loc: str = "center right") -> int:
    """Horizontal bars, a row per label (top down; default: the ten steps) and a bar per series in it
    ((name, colour, {label: TFLOP/s})), each with its value; the rows named in `hatched` (the
    libraries' own rows) hatched, below a line; a dashed vertical line per reference library ((name,
    colour, TFLOP/s)), named in a row above the first. `failed`: (series index, label) pairs that get
    the word FAIL instead of a bar; `legend_loc`, where the series' legend goes. Returns the number
    of bars drawn."""
    labels = [label for label, _ in STEPS] if labels is None else labels
    height = 0.76 / max(1, len(series))
    right = max([v for _, _, bars in series for v in bars.values()] + [rate for *_, rate in libraries] + [1.0])
    drawn = 0
    for k, (_, colour, bars) in enumerate(series):
        offset = (k - (len(series) - 1) / 2) * height
        for i, label in enumerate(labels):
            if label in bars:
                ax.barh(i + offset, bars[label], height=height * 0.95, color=colour,
                        hatch="//" if label in hatched else None, edgecolor="white" if label in hatched else None)
                ax.text(bars[label] + right * 0.01, i + offset, rate_text(bars[label]), va="center",
                        fontsize=8 if len(series) <= 2 else 6)
                drawn += 1
            elif (k, label) in failed:
                ax.text(right * 0.01, i + offset, "FAIL", va="center", color="red", fontweight="bold", fontsize=7)
    first_library = min((i for i, label in enumerate(labels) if label in hatched), default=None)
    if first_library is not None and first_library > 0:
        ax.axhline(first_library - 0.5, color="0.5", linewidth=0.8)
    for k, (name, colour, rate) in enumerate(libraries):
        ax.axvline(rate, color=colour, linestyle="--", linewidth=1)
        ax.text(rate - right * 0.01, -0.85 - 0.35 * k, f"{name}: {rate_text(rate)}", ha="right", va="center", fontsize=8,
                color=colour)
    ax.set_yticks(range(len(labels)), labels)
    # Top down, with a row above the first for the libraries' names.
    ax.set_ylim(len(labels) - 0.5, -0.9 - 0.35 * max(1, len(libraries)))
    ax.set_xlabel(xlabel)
    ax.set_xlim(0, right * 1.12)
    if legend:
        import matplotlib.pyplot as plt
        ax.legend([plt.Rectangle((0, 0), 1, 1, color=c) for _, c, _ in series], [name for name, _, _ in series],
                  loc=legend_loc, fontsize=8)
    return drawn
