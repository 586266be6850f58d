"""Chapter 07c's plot, drawn from its committed H200 runs (results/h200/ch07c*/ch07c_<n>_s<s>.json, one s
each, and ch07c_<n>.json, a --sweeps-per-trip list whose variants are named <variant>_s<s>):

- ch07c_time_vs_s: on the left, each temporal-blocking variant's time per iteration over the
  one-sweep floor of its own run (time/floor: below 1 is faster than any kernel that reads the storage
  once per sweep) against s, the sweeps per trip to memory, at each committed grid size, beside the
  model's memory-bound time/floor for the tiles the tuner chose most (64 x 16 and 56 x 16) and for a
  64 x 64 tile; on the right, the model itself for a T x T tile: the bytes per node and sweep over the
  one-sweep bytes, and the updates per needed update (the halo's redundant work), against s.

The model is the chapter README's (section "The model: traffic against redundant work"): per node and
sweep, [28 B (Tx + 2hx)(Ty + 2s) + 4 B Tx Ty] / (Tx Ty s) with hx = 4 ceil(s/4), against 32 B; updates
Σ_{t<s} (Tx + 2(s-1-t))(Ty + 2(s-1-t)) per s Tx Ty. Each CSV row is one plotted point: the panel, the
series, s and the value.
"""
from __future__ import annotations

import matplotlib.pyplot as plt

from readme_plots import committed_runs, readme_plot
from results import sweeps_rows

VARIANTS = {"overlapped": "#ff7f0e", "overlapped_columns": "#1f77b4", "overlapped_unrolled": "#2ca02c"}
SIZE_MARKERS = {2048: "o", 8192: "s", 1024: "^", 16384: "D"}
MODEL_TILES = {"64x16": (64, 16), "56x16": (56, 16), "64x64": (64, 64)}
MAX_S = 8
# The model's floor is memory's (DRAM); at 1024² the system sits in the L2 and the floor is the L2's,
# another limit on another axis, so the plot starts at 2048² (the README's tables show 1024²).
MIN_SIZE = 2048


def halo_x(s: int) -> int:
    return (s + 3) // 4 * 4


def traffic_share(s: int, tx: int, ty: int) -> float:
    """The model's bytes per node and sweep over the one-sweep 32 B."""
    hx = halo_x(s)
    return (28.0 * (tx + 2 * hx) * (ty + 2 * s) + 4.0 * tx * ty) / (tx * ty * s) / 32.0


def redundancy(s: int, tx: int, ty: int) -> float:
    """Updates per needed update: each sweep t updates the tile grown by s-1-t rings."""
    return sum((tx + 2 * (s - 1 - t)) * (ty + 2 * (s - 1 - t)) for t in range(s)) / (s * tx * ty)


def _points(root: str) -> dict[tuple[str, int, int], float]:
    """(variant, n, s) -> time/floor over every committed run; where two runs measured the same
    point, the one in results/h200/ch07c/ (the newest batch) wins."""
    points: dict[tuple[str, int, int], float] = {}
    for pattern in ("ch07c_sweeps/ch07c_*.json", "ch07c/ch07c_*.json"):  # later ones override
        for run in committed_runs(root, pattern, "h200"):
            n = int((run.doc.get("problem") or {}).get("nx") or 0)
            if n < MIN_SIZE:
                continue
            floors = run.doc.get("floor_and_speedup") or {}
            for v, s, r in sweeps_rows(run):
                t = (floors.get(str(r.get("variant"))) or {}).get("time_over_floor")
                if v in VARIANTS and r.get("check") == "PASS" and isinstance(t, (int, float)):
                    points[(v, n, s)] = float(t)
    return points


@readme_plot("ch07c_time_vs_s")
def time_vs_s(root: str):
    points = _points(root)
    rows = []
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 5.6))
    sizes = sorted({n for _, n, _ in points})
    for v, colour in VARIANTS.items():
        for n in sizes:
            xs = sorted(s for (pv, pn, s) in points if pv == v and pn == n)
            if not xs:
                continue
            ys = [points[(v, n, s)] for s in xs]
            left.plot(xs, ys, color=colour, marker=SIZE_MARKERS.get(n, "x"), lw=1, label=f"{v}, {n}²")
            rows += [{"panel": "measured time/floor", "series": f"{v} {n}", "s": s, "value": f"{y:.4f}"}
                     for s, y in zip(xs, ys)]
    s_axis = list(range(1, MAX_S + 1))
    for (name, (tx, ty)), style in zip(MODEL_TILES.items(), (":", "-.", "--")):
        ys = [traffic_share(s, tx, ty) for s in s_axis]
        left.plot(s_axis, ys, color="#616161", ls=style, lw=1, label=f"model, memory-bound, tile {name}")
        rows += [{"panel": "model time/floor", "series": f"memory-bound {name}", "s": s, "value": f"{y:.4f}"}
                 for s, y in zip(s_axis, ys)]
    left.axhline(1.0, color="#d62728", lw=0.8, label="one-sweep floor")
    left.set_xlabel("s (sweeps per trip to memory)")
    left.set_ylabel("time per iteration / one-sweep floor")
    left.set_title("Measured (H200) against the memory-bound model")
    left.set_ylim(0, 1.4)
    left.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2)
    for t, colour in ((16, "#9467bd"), (32, "#8c564b"), (64, "#17becf")):
        traffic = [traffic_share(s, t, t) for s in s_axis]
        work = [redundancy(s, t, t) for s in s_axis]
        right.plot(s_axis, traffic, color=colour, lw=1, label=f"bytes / one-sweep bytes, T = {t}")
        right.plot(s_axis, work, color=colour, lw=1, ls="--", label=f"updates / needed updates, T = {t}")
        rows += [{"panel": "model", "series": f"traffic T={t}", "s": s, "value": f"{y:.4f}"} for s, y in zip(s_axis, traffic)]
        rows += [{"panel": "model", "series": f"updates T={t}", "s": s, "value": f"{y:.4f}"} for s, y in zip(s_axis, work)]
    right.set_xlabel("s (sweeps per trip to memory)")
    right.set_ylabel("ratio")
    right.set_title("The model: traffic falls, redundant work grows (T x T tiles)")
    right.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2)
    fig.tight_layout()
    return fig, rows
