#!/usr/bin/env python3
"""The pictures the chapter READMEs show that are drawn from committed results: each one an SVG under
docs/plots/ with the numbers it draws in a CSV beside it, so that a reader on GitHub sees the plot and
can read the values.

    python3 scripts/report/readme_plots.py update [NAME ...]   # redraw from results/ (all, or NAME)
    python3 scripts/report/readme_plots.py check                # CTest docs.readme_plots
    python3 scripts/report/readme_plots.py list

A plot is a function registered with @readme_plot("NAME") in a module readme_plots_<topic>.py (this
folder, imported below). It gets the repository root and returns (figure, rows): the matplotlib figure
and the plotted numbers as a list of dicts of one shape (the CSV's columns, in the order of the first
row's keys). `update` writes docs/plots/NAME.svg and docs/plots/NAME.csv.

`check` fails (exit 1, one line per problem) when a plot's CSV is not what the committed results give
now (a result changed and the plot was not redrawn), when an SVG or CSV is missing, when a file in
docs/plots/ belongs to no registered plot, or when no Markdown file of the repository shows the SVG.
It compares the numbers, not the pixels: matplotlib's output differs between versions, the data must
not. The SVG is written reproducibly (no date, a fixed hash salt) so that redrawing unchanged data
changes no byte on the same matplotlib.
"""
from __future__ import annotations

import csv
import glob
import importlib
import io
import os
import sys
from typing import Callable

import matplotlib

matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results import H200_BATCHES, Run, read_result  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PLOT_DIR = os.path.join("docs", "plots")
Rows = list[dict]
READMEPLOTS: dict[str, Callable[[str], tuple[object, Rows]]] = {}


def readme_plot(name: str):
    """Registers func(root) -> (figure, rows) as docs/plots/NAME.svg and NAME.csv."""
    def register(func):
        if name in READMEPLOTS:
            raise ValueError(f"readme plot {name} registered twice")
        READMEPLOTS[name] = func
        return func
    return register


def committed_runs(root: str, pattern: str, machine: str = H200_BATCHES) -> list[Run]:
    """The committed results results/<machine>/<pattern> (a file name or a glob; machine: the folder
    under results/, by default the chapters' batches on the H200), read by the report's reader, in
    name order; one it cannot read, or none at all, is an error naming the file and why."""
    paths = sorted(glob.glob(os.path.join(root, "results", machine, pattern)))
    if not paths:
        raise ValueError(f"no committed result matches results/{machine}/{pattern}")
    runs = [read_result(path, machine) for path in paths]
    for run in runs:
        if not run.readable:
            raise ValueError(f"results/{machine}/{run.name}: {run.status}: {run.message}")
    return runs


def csv_text(rows: Rows) -> str:
    """The rows as CSV text, columns in the first row's key order; floats with 6 significant digits,
    so that a re-run of the same script on another machine gives the same text."""
    if not rows:
        return ""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0].keys()), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v) for k, v in row.items()})
    return out.getvalue()


def _load_modules() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    sys.modules.setdefault("readme_plots", sys.modules[__name__])  # one registry, run as a script or imported
    for path in sorted(glob.glob(os.path.join(here, "readme_plots_*.py"))):
        importlib.import_module(os.path.splitext(os.path.basename(path))[0])


def _draw(name: str, root: str) -> tuple[object, str]:
    fig, rows = READMEPLOTS[name](root)
    if not rows:
        raise ValueError(f"{name}: the plot has no rows (are its results in results/?)")
    return fig, csv_text(rows)


def update(root: str, names: list[str]) -> int:
    plt.rcParams["svg.hashsalt"] = "gpgpu-readme-plots"  # stable element ids
    plt.rcParams["svg.fonttype"] = "none"                # text stays text: smaller, searchable
    os.makedirs(os.path.join(root, PLOT_DIR), exist_ok=True)
    for name in names or sorted(READMEPLOTS):
        if name not in READMEPLOTS:
            print(f"readme_plots: no plot named {name} (list: {', '.join(sorted(READMEPLOTS))})", file=sys.stderr)
            return 2
        fig, text = _draw(name, root)
        base = os.path.join(root, PLOT_DIR, name)
        fig.savefig(base + ".svg", format="svg", metadata={"Date": None}, bbox_inches="tight")
        plt.close(fig)
        with open(base + ".csv", "w", encoding="utf-8") as f:
            f.write(text)
        print(f"wrote {PLOT_DIR}/{name}.svg and .csv")
    return 0


def _markdown_files(root: str) -> list[str]:
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and not d.startswith("build")]
        found += [os.path.join(dirpath, f) for f in filenames if f.endswith(".md")]
    return found


def check(root: str) -> int:
    problems = []
    shown = "".join(open(p, encoding="utf-8").read() for p in _markdown_files(root))
    for name in sorted(READMEPLOTS):
        base = os.path.join(root, PLOT_DIR, name)
        for ext in (".svg", ".csv"):
            if not os.path.exists(base + ext):
                problems.append(f"{PLOT_DIR}/{name}{ext} is missing: run readme_plots.py update {name}")
        try:
            fig, text = _draw(name, root)
            plt.close(fig)
        except Exception as e:  # a plot that cannot be drawn is a problem to report, not a crash
            problems.append(f"{name}: cannot be drawn: {e}")
            continue
        if os.path.exists(base + ".csv") and open(base + ".csv", encoding="utf-8").read() != text:
            problems.append(f"{PLOT_DIR}/{name}.csv differs from what results/ gives now: run readme_plots.py update {name}")
        if f"plots/{name}.svg" not in shown:
            problems.append(f"{PLOT_DIR}/{name}.svg is shown by no Markdown file")
    for path in sorted(glob.glob(os.path.join(root, PLOT_DIR, "*"))):
        stem = os.path.splitext(os.path.basename(path))[0]
        if stem not in READMEPLOTS:
            problems.append(f"{os.path.relpath(path, root)} belongs to no registered plot")
    for p in problems:
        print(f"readme_plots: {p}")
    if not problems:
        print(f"readme_plots: {len(READMEPLOTS)} plots agree with results/ and are shown")
    return 1 if problems else 0


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("update", "check", "list"):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    _load_modules()
    root = os.environ.get("GPGPU_ROOT", ROOT)
    if argv[0] == "list":
        print("\n".join(sorted(READMEPLOTS)))
        return 0
    return update(root, argv[1:]) if argv[0] == "update" else check(root)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
