"""Chapter 07b's plot, drawn from its committed lecture runs on the H200 and the H100
(results/<H200_LECTURE>/, named in results.py, and results/h100_lecture/, ch07b_cuda_past_the_paper_<n>.json):

- ch07b_1024_l2: each variant's GB/s of minimum traffic ("GB/s min") at 1024², where one iteration
  (48 MiB with nine diagonals, 32 MiB with five) fits the H200's 60 MiB L2 and barely not the H100's
  50 MiB, one bar per machine (a variant the H100 did not run has no H100 bar). Over each bar, a short
  solid segment at the DRAM limit of the variant's read:write mix (11:1 or 7:1) measured in the same
  machine's 4096² run, and a dotted one at the L2-resident limit of the 1024² run itself (the stream
  of the same mix over data inside the L2): a bar above its solid segment moves more bytes per second
  than that machine's DRAM delivers, so part of them come from the L2.

Each CSV row is one bar: the machine, the variant, its mix, GB/s min, and the two limits drawn over it.
"""
from __future__ import annotations

import matplotlib.pyplot as plt

from readme_plots import committed_runs, readme_plot
from results import H200_LECTURE

# The chapter's table order (its 1024² marker).
VARIANTS = ["texture", "readonly", "tiled2d", "multirow", "symmetric", "symmetric_prefetch",
            "symmetric_ring", "cusparse"]
# (label, folder under results/, bar colour, limit-segment colour)
MACHINES = [("H200", H200_LECTURE, "#2a6f97", "#0b2f45"),
            ("H100", "h100_lecture", "#f4a261", "#9c4a08")]
RESULT = "ch07b_cuda_past_the_paper_{n}.json"
WIDTH = 0.38


def _by_variant(root: str, folder: str, n: int) -> dict[str, dict]:
    doc = committed_runs(root, RESULT.format(n=n), machine=folder)[0].doc
    return {r["variant"]: r for r in doc["results"] if r.get("check") == "PASS"}


def _mix(result: dict) -> str:
    """The read:write mix of a result's limit, "11:1" of "11:1 x 1048576 x 4 B"."""
    return result["limit"]["mix"].split(" x ")[0]


def _dram_limits(big: dict[str, dict]) -> dict[str, float]:
    """Mix -> the limit of the 4096² run (DRAM: its working set is many times the L2)."""
    limits: dict[str, float] = {}
    for r in big.values():
        mix, gbs = _mix(r), float(r["limit"]["gbs"])
        if limits.setdefault(mix, gbs) != gbs:
            raise ValueError(f"two DRAM limits for the mix {mix}: {limits[mix]} and {gbs}")
    return limits


@readme_plot("ch07b_1024_l2")
def l2_at_1024(root: str):
    rows = []
    runs = [(_by_variant(root, folder, 1024), _dram_limits(_by_variant(root, folder, 4096))) for _, folder, *_ in MACHINES]
    # The axis' top, above the highest L2-resident limit: the value labels are placed in its units.
    top = max(float(r["limit"]["gbs"]) for small, _ in runs for r in small.values()) * 1.08
    fig, ax = plt.subplots(figsize=(10, 5.4))
    for k, ((label, _, colour, line_colour), (small, dram)) in enumerate(zip(MACHINES, runs)):
        offset = (k - 0.5) * WIDTH
        for i, variant in enumerate(VARIANTS):
            if variant not in small:
                continue
            r = small[variant]
            mix, gbs = _mix(r), float(r["gbs_min"])
            x = i + offset
            ax.bar(x, gbs, width=WIDTH, color=colour)
            # The value at the foot of the bar (clear of the limit segments), above a bar too short for it.
            inside = gbs > 0.14 * top
            ax.text(x, 0.014 * top if inside else gbs + 0.011 * top, f"{gbs:.0f}", ha="center", va="bottom",
                    fontsize=8, rotation=90, color="white" if inside else "black")
            half = WIDTH / 2
            ax.hlines(dram[mix], x - half, x + half, color=line_colour, linewidth=2.2)
            ax.hlines(float(r["limit"]["gbs"]), x - half, x + half, color=line_colour, linewidth=1.6,
                      linestyle=":")
            rows.append({"machine": label, "variant": variant, "mix": mix, "gbs_min_1024": gbs,
                         "dram_limit_gbs_4096": dram[mix], "l2_resident_limit_gbs_1024": float(r["limit"]["gbs"])})
    ax.set_xticks(range(len(VARIANTS)), VARIANTS, rotation=25, ha="right")
    ax.set_ylabel("GB/s of minimum traffic (GB/s min), 1024²")
    ax.set_ylim(0, top)
    ax.grid(True, axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    ax.set_title("Chapter 07b at 1024² on the H200 (60 MiB L2) and the H100 (50 MiB L2):\n"
                 "one iteration touches 48 MiB (nine diagonals) or 32 MiB (symmetric)", fontsize=11)
    # The note between the tallest bar and the lowest L2-resident limit, across the middle of the axes.
    note_y = (max(row["gbs_min_1024"] for row in rows) + min(row["l2_resident_limit_gbs_1024"] for row in rows)) / 2
    ax.text((len(VARIANTS) - 1) / 2, note_y, "a bar above its solid segment moves more bytes per second than its machine's DRAM:\n"
            "part of them come from the L2", ha="center", va="center", fontsize=9, color="#333333")
    handles, names = [], []
    for label, _, colour, line_colour in MACHINES:
        handles += [plt.Rectangle((0, 0), 1, 1, color=colour),
                    plt.Line2D([], [], color=line_colour, linewidth=2.2),
                    plt.Line2D([], [], color=line_colour, linewidth=1.6, linestyle=":")]
        names += [f"{label}: GB/s min at 1024²", f"{label}: DRAM limit (4096² run, the variant's mix)",
                  f"{label}: L2-resident limit (1024² run)"]
    ax.legend(handles, names, fontsize=8, ncol=2, loc="upper left", bbox_to_anchor=(0, -0.25), frameon=False)
    fig.tight_layout()
    return fig, rows
