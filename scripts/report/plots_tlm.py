"""Chapter 11's plots (paper 002, the SCN-TLM solver), from the chapter's result JSON:

- MNodes/s against mesh size: each variant's node rate (a result row's items_per_s) at each mesh
  the folder has (problem.nodes: the cavity and the waveguide of about 6,000 nodes, the filter of
  150,016, and any further meshes such as scripts/device/tlm.sh's sweep of cubes), the paper's rates
  (the then-and-now table's "then" rows in MNodes/s) as horizontal lines (paper 002, sec. VI, Fig. 11).
- The resonances against the analytic modes: the result's physics checks carry, per line, the mode,
  its analytic frequency (the continuous cavity or guide), the frequency the mesh's dispersion moves
  it to, the measured peak and the bound allowed. The JSON holds these peaks, not the spectrum's
  curve: the plot puts the analytic modes on the frequency axis and each measured peak and mesh
  prediction at its offset from its mode, beside the bound. Where the chapter's --dump spectrum
  (spectrum.npy: rows of frequency in Hz and |X|) lies beside the JSON, as NAME.spectrum.npy or in
  NAME_dump/ (scripts/lecture.sh dumps the cavity there), the curve is drawn above, the analytic modes
  over it.
"""
from __future__ import annotations

import os
from collections import defaultdict

import matplotlib.pyplot as plt

from plots import Figure, is_number, line_style, machines_of, plot, results_of, save
from results import Run


def _nodes(run: Run):
    problem = run.doc.get("problem") if isinstance(run.doc.get("problem"), dict) else {}
    return problem.get("nodes") if is_number(problem.get("nodes")) else None


def _scenario(run: Run) -> str:
    problem = run.doc.get("problem") if isinstance(run.doc.get("problem"), dict) else {}
    return str(problem.get("scenario") or run.size_label())


def _mesh(run: Run) -> str:
    problem = run.doc.get("problem") if isinstance(run.doc.get("problem"), dict) else {}
    dims = [problem.get(k) for k in ("nx", "ny", "nz")]
    shape = " x ".join(str(d) for d in dims) if all(isinstance(d, int) for d in dims) else run.size_label()
    return f"{shape}, {_nodes(run) or '?'} nodes"


def _paper_rates(runs: list[Run]) -> list[tuple[str, float]]:
    """The then-and-now table's "then" rows whose first column is MNodes/s: the paper's rates."""
    for r in runs:
        t = r.doc.get("then_now") if isinstance(r.doc.get("then_now"), dict) else {}
        columns = t.get("columns") if isinstance(t.get("columns"), list) else []
        if not columns or not isinstance(columns[0], dict) or columns[0].get("header") != "MNodes/s":
            continue
        return [(f"then: {row.get('implementation', '')}", row["values"][0]) for row in t.get("rows", [])
                if isinstance(row, dict) and row.get("when") == "then" and isinstance(row.get("values"), list)
                and row["values"] and is_number(row["values"][0])]
    return []


@plot
def tlm_rates(chapter: str, runs: list[Run], out_dir: str) -> list[Figure]:
    """MNodes/s of each variant against the mesh's node count (log-log)."""
    meshes = [r for r in results_of(runs) if _nodes(r) is not None]
    series: dict[tuple[str, str], list] = defaultdict(list)
    failed = []
    for r in meshes:
        for row in r.doc.get("results", []):
            if row.get("check") == "FAIL":
                failed.append(f"{r.machine} {row.get('variant')} ({_scenario(r)})")
            elif is_number(row.get("items_per_s")):
                series[(r.machine, str(row.get("variant")))].append((_nodes(r), row["items_per_s"] / 1e6))
    if not series:
        return []
    machines = machines_of(meshes)
    variants = list(dict.fromkeys(v for _, v in series))
    fig, ax = plt.subplots(figsize=(9, 5))
    for (machine, variant), pts in series.items():
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], **line_style(machines, machine, variants.index(variant)),
                label=f"{machine}: {variant}")
    for k, (label, rate) in enumerate(_paper_rates(meshes)):
        ax.axhline(rate, color="0.5", linewidth=1.5, linestyle=["--", ":"][k % 2], label=f"{label}: {rate:g}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("mesh size (nodes)")
    ax.set_ylabel("MNodes/s (1e6 node updates per second)")
    seen = sorted({(_nodes(r), _scenario(r)) for r in meshes})
    title = f"Chapter {chapter}: node rate against mesh size\nmeshes: " + ", ".join(f"{s} {n:,}" for n, s in seen[:6])
    if failed:
        title += f"\nFAILED verification, not drawn: {', '.join(failed[:4])}{' ...' if len(failed) > 4 else ''}"
    ax.set_title(title, fontsize=8)
    ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1))
    ax.grid(alpha=0.3, which="both")
    name = save(fig, out_dir, f"ch{chapter}_tlm_rates.png")
    return [(name, "MNodes/s of each variant against the mesh's size, the paper's rates as lines (paper 002, Fig. 11)")]


def _lines(run: Run) -> list[tuple[str, dict]]:
    """(check name, line) for every resonance line of a run's physics checks that has its numbers."""
    found = []
    for check in run.doc.get("physics", []) if isinstance(run.doc.get("physics"), list) else []:
        if not isinstance(check, dict) or not isinstance(check.get("lines"), list):
            continue
        for line in check["lines"]:
            if isinstance(line, dict) and all(is_number(line.get(k)) for k in ("f_analytic_hz", "f_measured_hz")):
                found.append((str(check.get("name", "")), line))
    return found


def spectrum_beside(run: Run):
    """The probe's spectrum dumped beside the run's JSON, as (GHz, |X|) lists; None when there is none;
    a reason (str) when a file is there but unusable."""
    if not run.path:
        return None
    stem = os.path.splitext(run.path)[0]
    for path in (stem + ".spectrum.npy", os.path.join(stem + "_dump", "spectrum.npy")):
        if not os.path.exists(path):
            continue
        try:
            import numpy  # comes with matplotlib
            table = numpy.load(path, allow_pickle=False)
        except (OSError, ValueError, ImportError) as e:
            return f"{os.path.basename(path)} unreadable: {e}"
        if table.ndim != 2 or table.shape[1] != 2 or table.shape[0] < 2:
            return f"{os.path.basename(path)} is not rows of (Hz, |X|): shape {table.shape}"
        return [float(f) / 1e9 for f in table[:, 0]], [float(m) for m in table[:, 1]]
    return None


def _draw_curve(ax, spectrum, lines: list[tuple[str, dict]]) -> None:
    ghz, magnitude = spectrum
    ax.plot(ghz, magnitude, color="black", linewidth=0.8, label="probe spectrum (reference run)")
    for k, (_, line) in enumerate(lines):
        ax.axvline(line["f_analytic_hz"] / 1e9, color="0.6", linewidth=0.8, linestyle=":",
                   label="analytic modes" if k == 0 else None)
        ax.axvline(line["f_measured_hz"] / 1e9, color="green" if line.get("pass") is not False else "red",
                   linewidth=0.8, alpha=0.6, label="measured peaks" if k == 0 else None)
    if min(magnitude) > 0:
        ax.set_yscale("log")
    ax.set_ylabel("|X| (windowed DFT)", fontsize=8)
    ax.legend(fontsize=6, loc="upper right")
    ax.grid(alpha=0.3)


@plot
def tlm_spectrum(chapter: str, runs: list[Run], out_dir: str) -> list[Figure]:
    """A panel per mesh with resonances: the analytic modes as vertical lines, the measured peaks and
    the mesh's predictions as their offsets from the analytic frequency, the allowed dispersion bound
    as a grey bar below zero (the mesh lowers every frequency)."""
    chosen = sorted((r for r in results_of(runs) if _lines(r)), key=lambda r: (r.machine, r.name))
    if not chosen:
        return []
    spectra = {id(r): spectrum_beside(r) for r in chosen}
    panels = [(r, "curve") for r in chosen if isinstance(spectra[id(r)], tuple)] + [(r, "offsets") for r in chosen]
    panels.sort(key=lambda p: (chosen.index(p[0]), p[1] != "curve"))
    fig, axes = plt.subplots(len(panels), 1, figsize=(9, 3.3 * len(panels)), squeeze=False)
    for ax, (r, kind) in zip(axes[:, 0], panels):
        lines = _lines(r)
        if kind == "curve":
            _draw_curve(ax, spectra[id(r)], lines)
            ax.set_title(f"{r.machine}, {_scenario(r)} ({_mesh(r)}): the probe's spectrum", fontsize=8)
            continue
        width = 0.01 * max(line["f_analytic_hz"] for _, line in lines) / 1e9  # the bound's bar, 1% of the axis
        verdicts = [line.get("pass") for _, line in lines]
        for _, line in lines:
            f0 = line["f_analytic_hz"]
            x = f0 / 1e9
            ax.axvline(x, color="0.6", linewidth=0.8, linestyle=":")
            ax.annotate(str(line.get("mode", "")), (x, 1.0), xycoords=("data", "axes fraction"), fontsize=7,
                        ha="center", va="bottom", rotation=90)
            if is_number(line.get("dispersion_bound")):
                ax.bar(x, -100 * abs(line["dispersion_bound"]), width=width, color="0.85", zorder=0)
            if is_number(line.get("f_discrete_hz")):
                ax.plot(x, 100 * (line["f_discrete_hz"] - f0) / f0, "bx", markersize=7)
            ax.plot(x, 100 * (line["f_measured_hz"] - f0) / f0, "o", markersize=4,
                    color="red" if line.get("pass") is False else "green")
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_xlabel("frequency (GHz); dotted: the analytic modes")
        ax.set_ylabel("offset from the analytic\nfrequency (%)", fontsize=8)
        ok = sum(v is True for v in verdicts)
        why = spectra[id(r)]
        ax.set_title(f"{r.machine}, {_scenario(r)} ({_mesh(r)}): {ok} of {len(lines)} lines within the bound"
                     + (f"\n{why}" if isinstance(why, str) else ""), fontsize=8, pad=28)
        ax.grid(alpha=0.3, axis="y")
    handles = [plt.Line2D([], [], color="green", marker="o", linestyle="", label="measured peak (red: outside the bound)"),
               plt.Line2D([], [], color="blue", marker="x", linestyle="", label="the mesh's dispersion predicts"),
               plt.Rectangle((0, 0), 1, 1, color="0.85", label="allowed: the dispersion bound")]
    offsets = next(ax for ax, (_, kind) in zip(axes[:, 0], panels) if kind == "offsets")
    offsets.legend(handles=handles, fontsize=7, loc="lower left")
    fig.suptitle(f"Chapter {chapter}: the resonances found against the analytic modes", fontsize=9)
    name = save(fig, out_dir, f"ch{chapter}_tlm_spectrum.png")
    return [(name, "The resonances the run measured, against the analytic modes and the mesh's dispersion")]
