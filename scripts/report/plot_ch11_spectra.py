"""Chapter 11's figure of what half storage does to the spectrum: the probe spectra of cuda_fused and
cuda_fused_half (and the CPU reference) from a --dump of the cavity run that scripts/device/tlm.sh's
step "spectra" makes (23x17x11 cells, 20000 steps).

Usage: python3 scripts/report/plot_ch11_spectra.py DUMP_DIR [OUT_STEM]
DUMP_DIR holds reference_probe.npy and probe_<variant>.npy (steps x 6: Vx Vy Vz Z0Ix Z0Iy Z0Iz; the
cavity's probe is Vz); OUT_STEM defaults to docs/plots/ch11_half_spectrum (writes .svg and .csv).
The spectrum is the chapter's (problems/tlm/src/spectrum.cpp): the mean removed, a Hann window, the
magnitude at any frequency, here on a grid of a quarter bin up to 1/16 cycle per step (λ = 8Δl),
each curve relative to its own strongest line."""
from __future__ import annotations

import csv
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

CURVES = {"reference_probe.npy": ("CPU reference (double)", "#616161"),
          "probe_cuda_fused.npy": ("cuda_fused (FP32 pulses)", "#1f77b4"),
          "probe_cuda_fused_half.npy": ("cuda_fused_half (FP16 pulses)", "#17becf")}
PROBE_VZ = 2


def spectrum(x: np.ndarray, cycles: np.ndarray) -> np.ndarray:
    n = len(x)
    w = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n) / (n - 1))
    y = w * (x - x.mean())
    out = np.empty(len(cycles))
    for start in range(0, len(cycles), 256):  # a block of frequencies at a time: N x 256 complex values
        f = cycles[start:start + 256]
        out[start:start + 256] = np.abs(np.exp(-2j * np.pi * np.outer(f, np.arange(n))) @ y)
    return out


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    dump, stem = argv[0], argv[1] if len(argv) > 1 else "docs/plots/ch11_half_spectrum"
    signals = {}
    for name in CURVES:
        path = os.path.join(dump, name)
        if not os.path.exists(path):
            print(f"{path}: missing (run the cavity with --variant cuda_fused,cuda_fused_half --dump)", file=sys.stderr)
            return 1
        signals[name] = np.load(path)[:, PROBE_VZ].astype(np.float64)
    steps = len(next(iter(signals.values())))
    cycles = np.arange(0.0, 1.0 / 16.0, 0.25 / steps)
    spectra = {name: spectrum(x, cycles) for name, x in signals.items()}
    fig, ax = plt.subplots(figsize=(9, 4.2))
    for name, (label, colour) in CURVES.items():
        ax.semilogy(cycles, spectra[name] / spectra[name].max(), label=label, color=colour, lw=0.7)
    ax.axhline(1e-3, color="#d62728", lw=0.8, ls="--", label="spurious-line threshold (physics.hpp)")
    ax.set_xlabel("frequency (cycles per step)")
    ax.set_ylabel("|Hann-windowed DFT| / strongest line")
    ax.set_title(f"Probe Ez of the 23x17x11 PEC box, {steps} steps")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(stem + ".svg")
    with open(stem + ".csv", "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["cycles_per_step"] + [CURVES[name][0] for name in CURVES])
        for k, c in enumerate(cycles):
            out.writerow([f"{c:.7f}"] + [f"{spectra[name][k] / spectra[name].max():.4e}" for name in CURVES])
    print(f"{stem}.svg, {stem}.csv: {steps} steps")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
