"""Chapter 11's README plots, drawn from the committed H200 runs: the chapter's batch
(results/<H200_BATCHES>/ch11_*.json) and the lecture's cubes of 32³ and 96³
(results/<H200_LECTURE>/ch11_tlm_coalesced_mesh*.json); results.py names both folders."""
from __future__ import annotations


import os

import matplotlib.pyplot as plt

from readme_plots import committed_runs, readme_plot
from results import H200_BATCHES, H200_LECTURE

# The variants in the order the chapter introduces them, with one colour each.
VARIANTS = {
    "cpu_serial": "#9e9e9e", "cpu_openmp": "#616161",
    "cuda_aos": "#d62728", "cuda_coalesced": "#ff7f0e", "cuda_fused": "#1f77b4", "cuda_fused_half": "#17becf",
    "opencl_coalesced": "#bcbd22", "opencl_fused": "#2ca02c",
}
# The chapter's batch on the H200 (scripts/device/tlm.sh: the structures, the sweep, the goal run)
# and the lecture run (scripts/lecture.sh), whose cubes of 32³ and 96³ the batch does not have.
LECTURE_32, LECTURE_96 = "ch11_tlm_coalesced_mesh32.json", "ch11_tlm_coalesced_mesh96.json"
# The runs that are not cubes of the cavity: one marker each, named beside the points.
STRUCTURES = {"ch11_cavity.json": ("box 24x18x14", "s"), "ch11_waveguide.json": ("guide 16x8x48", "^"),
              "ch11_filter.json": ("filter 32x16x293", "D")}


def _runs(root: str) -> list[tuple[str, dict]]:
    runs = committed_runs(root, "ch11_*.json")
    runs += committed_runs(root, "ch11_tlm_coalesced_mesh*.json", machine=H200_LECTURE)
    return [(run.name, run.doc) for run in runs]


def _l2_bytes(runs: list[tuple[str, dict]]) -> int:
    """The L2 of the GPU the runs measured (its device record): one size, or the runs mix GPUs."""
    sizes = {int(d["l2_bytes"]) for _, doc in runs
             if (d := doc.get("backends", {}).get("cuda", {}).get("device", {})).get("l2_bytes")}
    if len(sizes) != 1:
        raise ValueError(f"chapter 11's runs record {len(sizes)} L2 sizes, not one: {sorted(sizes)}")
    return sizes.pop()


def _label(name: str, doc: dict) -> str:
    """What the run is, in words a reader of the table could not get from the old 'nx x ny' column."""
    p = doc["problem"]
    if name in STRUCTURES:
        return STRUCTURES[name][0]
    source = {LECTURE_32: "lecture run", LECTURE_96: "lecture run",
              "ch11_cavity_256.json": "goal run"}.get(name, "sweep")
    return f"cube {p['nx']}³ ({source})"


@readme_plot("ch11_variants")
def variants(root: str):
    """Every variant's node rate and share of its limit on every committed H200 run of the chapter,
    against the mesh's nodes; the cubes of the cavity as lines, the three structures as named markers."""
    rows, runs = [], _runs(root)
    l2 = _l2_bytes(runs)
    for name, doc in runs:
        p = doc["problem"]
        for r in doc.get("results", []):
            if r.get("variant") not in VARIANTS:
                continue
            rows.append({"run": name, "what": _label(name, doc), "scenario": p["scenario"],
                         "mesh": f"{p['nx']}x{p['ny']}x{p['nz']}", "nodes": int(p["nodes"]), "steps": int(p["steps"]),
                         "variant": r["variant"], "ms_per_step": float(r["ms_per_step"]),
                         "mnodes_per_s": float(r["items_per_s"]) / 1e6,
                         "limit_percent": 100.0 * float(r["limit_share"]),
                         "limit_working_set": r.get("limit", {}).get("working_set", ""),
                         "check": r.get("check", "?")})
    rows.sort(key=lambda r: (list(VARIANTS).index(r["variant"]), r["nodes"], r["run"]))

    fig, (rate, share) = plt.subplots(1, 2, figsize=(11, 4.6))
    for variant, colour in VARIANTS.items():
        mine = [r for r in rows if r["variant"] == variant]
        # Lines through the cubes; at 32³ the sweep's run (every GPU variant) is the line's point, the
        # lecture run's (every variant) an unconnected circle beside it.
        line = [r for r in mine if r["run"] not in STRUCTURES and r["run"] != LECTURE_32]
        loose = [r for r in mine if r["run"] == LECTURE_32]
        for ax, key in ((rate, "mnodes_per_s"), (share, "limit_percent")):
            ax.plot([r["nodes"] for r in line], [r[key] for r in line], "o-", color=colour, ms=4, lw=1.4,
                    label=variant if ax is rate else None)
            ax.plot([r["nodes"] for r in loose], [r[key] for r in loose], "o", color=colour, ms=4, mfc="none")
            for run, (_, marker) in STRUCTURES.items():
                pts = [r for r in mine if r["run"] == run]
                ax.plot([r["nodes"] for r in pts], [r[key] for r in pts], marker, color=colour, ms=6, mfc="none")
    # Where the fused FP32 kernel's two arrays (96 B per node) outgrow the GPU's L2.
    for ax in (rate, share):
        ax.set_xscale("log")
        ax.axvline(l2 / 96, color="k", lw=0.8, ls="--")
        ax.grid(True, which="major", alpha=0.3)
        ax.set_xlabel("nodes in the mesh")
    rate.set_yscale("log")
    rate.set_ylabel("MNodes/s (node updates per second / 10⁶)")
    share.set_ylabel("% of the limit measured in the same run")
    share.set_ylim(0, 105)
    for run, (what, marker) in STRUCTURES.items():
        share.plot([], [], marker, color="k", mfc="none", label=what)
    share.plot([], [], "o", color="k", mfc="none", label="cube 32³, lecture run")
    share.plot([], [], "o-", color="k", ms=4, label="cubes 32³-256³ (96³: lecture run, 256³: goal run)")
    share.plot([], [], "k--", lw=0.8, label=f"96 B x nodes = the {l2 / 2**20:.0f} MiB L2")
    rate.legend(fontsize=8, loc="lower right")
    # Below the axes: inside, the legend would hide the low shares (cuda_aos, the CPUs, 96³'s half).
    share.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=2)
    rate.set_title("rate: higher is faster")
    share.set_title("share of the limit")
    fig.suptitle(f"Chapter 11 on the H200: every variant, every committed run\n(results/{H200_BATCHES}/ch11_*.json, "
                 f"results/{H200_LECTURE}/ch11_tlm_coalesced_mesh*.json)", fontsize=10)
    fig.tight_layout()
    return fig, rows


# --- What half storage does to the spectrum -------------------------------------------------------

# The probes of the cavity run that scripts/device/tlm.sh's step "spectra" dumps (23x17x11 cells,
# 20000 steps), committed under results/h200/ch11_spectra/: steps x 6 (Vx Vy Vz Z0Ix Z0Iy Z0Iz).
SPECTRA = "results/h200/ch11_spectra"
SPECTRUM_CURVES = {"reference_probe.npy": ("CPU reference (double)", "#616161"),
                   "probe_cuda_fused.npy": ("cuda_fused (FP32 pulses)", "#1f77b4"),
                   "probe_cuda_fused_half.npy": ("cuda_fused_half (FP16 pulses)", "#17becf")}
PROBE_VZ = 2  # the cavity's probe field is Vz


def probe_spectrum(x, oversampling: int = 4):
    """The chapter's spectrum (problems/tlm/src/spectrum.cpp): the mean removed, a Hann window, the
    DFT's magnitude, here on a grid of 1/oversampling bin (the zero-padded FFT) from 0 to 1/2 cycle
    per step. Returns (cycles per step, magnitudes)."""
    import numpy as np

    n = len(x)
    w = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n) / (n - 1))
    magnitude = np.abs(np.fft.rfft(w * (x - x.mean()), n=oversampling * n))
    return np.arange(len(magnitude)) / (oversampling * n), magnitude


@readme_plot("ch11_half_spectrum")
def half_spectrum(root: str):
    """The probe spectra of the PEC box with FP32 and FP16 pulses and of the CPU reference, each
    relative to its own strongest line, up to 1/16 cycle per step (λ = 8Δl), with the chapter's
    spurious-line threshold."""
    import numpy as np

    curves = {}
    for file, (label, _) in SPECTRUM_CURVES.items():
        path = os.path.join(root, SPECTRA, file)
        if not os.path.exists(path):
            raise FileNotFoundError(f"{path}: missing (STEPS=spectra scripts/device/tlm.sh dumps it)")
        cycles, magnitude = probe_spectrum(np.load(path)[:, PROBE_VZ].astype(np.float64))
        keep = cycles < 1.0 / 16.0
        curves[label] = (cycles[keep], magnitude[keep] / magnitude[keep].max())
    steps = len(np.load(os.path.join(root, SPECTRA, "reference_probe.npy")))
    fig, ax = plt.subplots(figsize=(9, 4.2))
    for file, (label, colour) in SPECTRUM_CURVES.items():
        ax.semilogy(*curves[label], label=label, color=colour, lw=0.7)
    ax.axhline(1e-3, color="#d62728", lw=0.8, ls="--", label="spurious-line threshold (physics.hpp)")
    ax.set_xlabel("frequency (cycles per step)")
    ax.set_ylabel("|Hann-windowed DFT| / strongest line")
    ax.set_title(f"Probe Ez of the 23x17x11 PEC box, {steps} steps")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    labels = list(curves)
    cycles = curves[labels[0]][0]
    rows = [{"cycles_per_step": f"{c:.7f}", **{label: f"{curves[label][1][k]:.3e}" for label in labels}}
            for k, c in enumerate(cycles)]
    return fig, rows
