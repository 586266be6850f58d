"""Chapter 12's README plots: the roofline of every routine at the goal sizes on the H200 and its host
(results/<H200_BATCHES>/ch12_goals.json, its "roofline" key; results.py names the folder), one panel per backend, drawn by
the report's roofline panel (plots_roofline.py) so that the README and the report show the same
picture."""
from __future__ import annotations


import matplotlib.pyplot as plt

from plots_roofline import _draw_panel, roofline_of
from readme_plots import committed_runs, readme_plot

GOALS = "ch12_goals.json"


@readme_plot("ch12_roofline")
def roofline(root: str):
    run = committed_runs(root, GOALS)[0]
    ceilings, points = roofline_of(run)
    backends = list(dict.fromkeys(list(ceilings) + [str(p.get("backend")) for p in points]))
    # The GPU large on top, where most routines sit; the host and the GL fragment path below it.
    layout = [["cuda", "cuda"], ["cpu", "gl"]] if set(backends) == {"cuda", "cpu", "gl"} else [backends]
    fig, axes = plt.subplot_mosaic(layout, figsize=(11, 10) if len(layout) == 2 else (6.0 * len(backends), 5.2))
    rows = []
    for backend in backends:
        ax = axes[backend]
        ceiling = ceilings.get(backend, {})
        mine = [p for p in points if str(p.get("backend")) == backend]
        _draw_panel(ax, run, backend, ceiling, mine)
        for p in mine:
            rows.append({"backend": backend, "variant": p.get("variant"), "routine": p.get("routine"),
                         "flop_per_byte": p.get("flop_per_byte"), "gflops": p.get("gflops"),
                         "library": bool(p.get("library")), "check": p.get("check"),
                         "roof_bandwidth_gbs": ceiling.get("bandwidth_gbs"),
                         "roof_fma_gflops": ceiling.get("fma_gflops")})
    fig.suptitle("Chapter 12 on the H200 and its host (ch12_goals.json): each routine at its arithmetic intensity, "
                 "under the ceilings measured in the same run", fontsize=9)
    fig.tight_layout()
    return fig, rows
