"""Chapter 12's roofline (paper 001's question: which routines can a GPU speed up?), drawn from the
result JSON's "roofline" key, which the chapter writes with Experiment::add_json("roofline", ...) in
its own layout (per backend: see _from_chapter_layout) or in this one.

The format (every number measured in the same run; a key that is missing or not a number leaves
its mark out and the plot says so, it never guesses a ceiling):

    "roofline": {
      "ceilings": {                         # one entry per backend that ran, keyed by backend name
        "cuda": {
          "device": "NVIDIA H100 80GB HBM3",  # optional: the panel's title
          "bandwidth_gbs": 3012.4,            # the measured bandwidth ceiling, GB/s (1e9 B/s): the
                                              # stream limit of the routines' read:write mix
          "bandwidth_limit": "CUDA stream 2:1, 128 MiB",   # optional: what measured it
          "fma_gflops": 51234.0,              # the measured FMA ceiling, GFLOP/s (the FMA kernel)
          "fma_limit": "FMA kernel, FP32"     # optional: what measured it
        },
        "cpu": {...}
      },
      "routines": [                         # one entry per variant that ran
        {"routine": "saxpy",                # the routine (the label on the plot)
         "variant": "cuda_saxpy_vec4",      # the variant (the chapter's --variant name)
         "backend": "cuda",                 # which ceilings judge it (a key of "ceilings")
         "flop_per_byte": 0.1667,           # arithmetic intensity: FLOPs over minimum bytes moved
         "gflops": 480.1,                   # measured GFLOP/s (FLOPs over the median time)
         "library": false,                  # optional: true for cuBLAS, OpenBLAS (hollow marker)
         "check": "PASS"}                   # "FAIL": not drawn (a wrong answer has no speed)
      ]
    }

A panel per machine and backend (a row per backend, a column per machine): the roof min(fma_gflops, bandwidth_gbs x intensity) on log-log
axes, its ridge point marked, each routine a point labelled with its routine name.
"""
from __future__ import annotations

import matplotlib.pyplot as plt

from plots import Figure, is_number, plot, results_of, save
from results import Run


def _from_chapter_layout(roof: dict) -> dict:
    """Chapter 12 writes the roofline per backend (problems/blas/src/roofline.cpp, roofline_json):
    {"cuda": {"device", "peak", "peak_gflops", "bandwidth": {limit}, "bandwidth_gbs", "points": [{routine,
    variant, intensity, gflops, library, pass, ...}]}, ...}; this is the same data in the format above."""
    ceilings, routines = {}, []
    for b, c in roof.items():
        if not isinstance(c, dict) or not ("peak_gflops" in c or "points" in c):
            continue
        bandwidth = c.get("bandwidth") if isinstance(c.get("bandwidth"), dict) else {}
        # One roof per panel: the fastest limit any routine's own read:write mix measured (each point
        # was judged by its own; the 1:1 ceiling alone would leave read-heavy routines above the roof).
        # SGEMM's matched limit is left out: it is compute-bound, and its operands fit the host's cache.
        limits = [p.get("limit_gbs") for p in c.get("points", [])
                  if isinstance(p, dict) and is_number(p.get("limit_gbs")) and p.get("routine") != "sgemm"]
        roof_gbs = max(([c["bandwidth_gbs"]] if is_number(c.get("bandwidth_gbs")) else []) + limits, default=None)
        ceilings[str(b)] = {"device": c.get("device"), "bandwidth_gbs": roof_gbs,
                            "bandwidth_limit": "the fastest of the routines' matched stream limits",
                            "fma_gflops": c.get("peak_gflops"), "fma_limit": c.get("peak")}
        for p in c.get("points", []) if isinstance(c.get("points"), list) else []:
            if isinstance(p, dict):
                routines.append({"routine": p.get("routine"), "variant": p.get("variant"), "backend": str(b),
                                 "flop_per_byte": p.get("intensity"), "gflops": p.get("gflops"),
                                 "library": p.get("library", False), "check": "PASS" if p.get("pass") else "FAIL"})
    return {"ceilings": ceilings, "routines": routines}


def roofline_of(run: Run) -> tuple[dict, list[dict]]:
    """The run's ceilings per backend and its routine points, whatever the JSON lacks."""
    roof = run.doc.get("roofline") if isinstance(run.doc.get("roofline"), dict) else {}
    if "ceilings" not in roof and "routines" not in roof:
        roof = _from_chapter_layout(roof)
    ceilings = roof.get("ceilings") if isinstance(roof.get("ceilings"), dict) else {}
    ceilings = {str(b): c for b, c in ceilings.items() if isinstance(c, dict)}
    routines = [p for p in roof.get("routines", []) if isinstance(p, dict)] if isinstance(roof.get("routines"), list) else []
    return ceilings, routines


def _panels(runs: list[Run]) -> list[tuple[Run, str, dict, list[dict]]]:
    """(run, backend, ceilings, points) for every backend of each machine's richest roofline run (the
    one with the most routine points: a lecture folder also holds single-routine runs, such as the
    SAXPY sizes of the crossover, whose one point per backend would each take a panel)."""
    best: dict[str, Run] = {}
    for r in results_of(runs):
        if r.machine not in best or len(roofline_of(r)[1]) > len(roofline_of(best[r.machine])[1]):
            best[r.machine] = r
    panels = []
    for r in best.values():
        ceilings, routines = roofline_of(r)
        backends = list(dict.fromkeys(list(ceilings) + [str(p.get("backend", "?")) for p in routines]))
        for b in backends:
            panels.append((r, b, ceilings.get(b, {}), [p for p in routines if str(p.get("backend", "?")) == b]))
    return panels


LABEL_SIZE = 6  # points


def _label_points(ax, drawn: list[dict]) -> None:
    """Each point's variant name beside it; where names would overlap (routines of equal intensity and
    near-equal rates, such as a kernel and its library), a name moves down below the one above it,
    with a thin line back to its point. The boxes are estimated from the text's length in the axes'
    display coordinates before layout, which is close enough to keep the names apart."""
    dpi = ax.figure.dpi
    height = LABEL_SIZE * 1.25 * dpi / 72
    placed = []  # (x0, y0, x1, y1) in display pixels
    for p in sorted(drawn, key=lambda p: (-p["gflops"], p["flop_per_byte"])):
        text = str(p.get("variant", p.get("routine", "")))
        x, y = ax.transData.transform((p["flop_per_byte"], p["gflops"]))
        width = 0.6 * LABEL_SIZE * len(text) * dpi / 72
        x0, shift = x + 4 * dpi / 72, 0.0
        while any(x0 < b[2] and x0 + width > b[0] and y - shift < b[3] and y - shift + height > b[1] for b in placed):
            shift += height
        placed.append((x0, y - shift, x0 + width, y - shift + height))
        moved = shift > 0
        ax.annotate(text, (p["flop_per_byte"], p["gflops"]), fontsize=LABEL_SIZE, xytext=(4, 2 - shift * 72 / dpi),
                    textcoords="offset points", va="bottom",
                    arrowprops=dict(arrowstyle="-", linewidth=0.4, color="0.5", shrinkA=0, shrinkB=2) if moved else None)


def _draw_panel(ax, run: Run, backend: str, ceiling: dict, points: list[dict]) -> None:
    notes = []
    drawn = [p for p in points if p.get("check") != "FAIL" and is_number(p.get("flop_per_byte"))
             and is_number(p.get("gflops")) and p["flop_per_byte"] > 0 and p["gflops"] > 0]
    failed = [str(p.get("variant", p.get("routine", "?"))) for p in points if p.get("check") == "FAIL"]
    if failed:
        notes.append(f"FAILED verification, not drawn: {', '.join(failed[:4])}{' ...' if len(failed) > 4 else ''}")
    unusable = len(points) - len(drawn) - len(failed)
    if unusable:
        notes.append(f"{unusable} point(s) without intensity or GFLOP/s")
    xs = [p["flop_per_byte"] for p in drawn]
    bw, fma = ceiling.get("bandwidth_gbs"), ceiling.get("fma_gflops")
    have_bw, have_fma = is_number(bw) and bw > 0, is_number(fma) and fma > 0
    lo = min(xs + ([fma / bw] if have_bw and have_fma else []), default=0.1) / 4
    hi = max(xs + ([fma / bw] if have_bw and have_fma else []), default=10.0) * 4
    grid = [lo * (hi / lo) ** (i / 200) for i in range(201)]
    if have_bw and have_fma:
        ax.plot(grid, [min(fma, bw * x) for x in grid], color="black", linewidth=2,
                label=f"roof: {bw:,.0f} GB/s x intensity, {fma:,.0f} GFLOP/s")
        ridge = fma / bw
        ax.axvline(ridge, color="0.6", linestyle=":", linewidth=1)
        ax.annotate(f"ridge {ridge:.3g} FLOP/B", (ridge, fma), fontsize=7, xytext=(4, -12), textcoords="offset points")
    elif have_bw:
        ax.plot(grid, [bw * x for x in grid], color="black", linewidth=2, label=f"bandwidth: {bw:,.0f} GB/s")
        notes.append("no FMA ceiling in the JSON")
    elif have_fma:
        ax.axhline(fma, color="black", linewidth=2, label=f"FMA: {fma:,.0f} GFLOP/s")
        notes.append("no bandwidth ceiling in the JSON")
    else:
        notes.append("no measured ceilings in the JSON: points only")
    routines = list(dict.fromkeys(str(p.get("routine", "?")) for p in drawn))
    for p in drawn:
        k = routines.index(str(p.get("routine", "?")))
        colour = plt.get_cmap("tab10")(k % 10)
        library = p.get("library") is True
        ax.plot(p["flop_per_byte"], p["gflops"], "o" if not library else "s", markersize=6,
                markerfacecolor="none" if library else colour, markeredgecolor=colour)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    _label_points(ax, drawn)
    ax.set_xlabel("arithmetic intensity (FLOP per byte of minimum traffic)")
    ax.set_ylabel("GFLOP/s")
    device = ceiling.get("device") or backend
    ax.set_title(f"{run.machine}, {backend}: {device}" + ("\n" + "; ".join(notes) if notes else ""), fontsize=8)
    handles, labels = ax.get_legend_handles_labels()
    handles += [plt.Line2D([], [], marker="o", color="0.4", linestyle="", label="our kernel"),
                plt.Line2D([], [], marker="s", color="0.4", markerfacecolor="none", linestyle="", label="library")]
    ax.legend(handles=handles, fontsize=6, loc="lower right")
    ax.grid(alpha=0.3, which="both")


@plot
def roofline(chapter: str, runs: list[Run], out_dir: str) -> list[Figure]:
    """A row per backend, a column per run (machine): the same backend of two machines side by side."""
    panels = _panels(runs)
    if not panels:
        return []
    backends = list(dict.fromkeys(b for _, b, _, _ in panels))
    columns = list(dict.fromkeys(id(r) for r, _, _, _ in panels))
    fig, axes = plt.subplots(len(backends), len(columns), figsize=(6.5 * len(columns), 4.8 * len(backends)),
                             squeeze=False)
    for ax in axes.flat:
        ax.set_visible(False)
    for run, backend, ceiling, points in panels:
        ax = axes[backends.index(backend), columns.index(id(run))]
        ax.set_visible(True)
        _draw_panel(ax, run, backend, ceiling, points)
    fig.suptitle(f"Chapter {chapter}: the roofline, each routine against the ceilings measured in its run", fontsize=9)
    name = save(fig, out_dir, f"ch{chapter}_roofline.png", rect=(0, 0, 1, 0.985))
    return [(name, "The roofline: each routine's GFLOP/s at its arithmetic intensity, under the measured "
                   "bandwidth and FMA ceilings")]
