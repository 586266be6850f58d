"""Tests of the report's figures themselves: chapter 10b (a GEMM: no bandwidth limit, no paper
numbers) and chapter 13 (several GPUs) get figures that hold data, for two machines side by side,
and no figure has empty axes, colliding tick labels or a title cut off at the figure's edge.

Run: python3 -m unittest discover -s scripts/report/tests (CTest: report_tests). Inputs: the
committed results/h100/ch10b_8192.json and results/h200x4/ch13/*.json, and a second machine made
from them here.
"""
from __future__ import annotations

import copy
import glob
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts", "report"))
sys.path.insert(0, HERE)

import results  # noqa: E402
from test_report import Folder, result_doc  # noqa: E402

HAVE_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None


def committed(path: str) -> dict:
    with open(os.path.join(ROOT, "results", path), encoding="utf-8") as f:
        return json.load(f)


def data_artists(ax) -> int:
    """Bars of non-zero size and lines with a finite point in data coordinates (not an axhline or
    axvline, which span the axes whatever the data)."""
    import math
    bars = sum(1 for p in ax.patches if hasattr(p, "get_width") and p.get_width() * p.get_height() != 0)
    lines = sum(1 for line in ax.lines if line.get_transform() is ax.transData
                and any(math.isfinite(float(y)) for y in line.get_ydata()))
    return bars + lines


def overlapping_labels(fig) -> list[str]:
    """Pairs of visible tick labels (major and minor) on one axis whose boxes overlap."""
    renderer = fig.canvas.get_renderer()
    found = []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        for axis_name, labels in (("x", ax.get_xticklabels(which="both")), ("y", ax.get_yticklabels(which="both"))):
            shown = [t for t in labels if t.get_visible() and t.get_text().strip()]
            boxes = [(t.get_text(), t.get_window_extent(renderer).shrunk(0.98, 0.98)) for t in shown]
            for i in range(len(boxes)):
                for j in range(i + 1, len(boxes)):
                    if boxes[i][1].overlaps(boxes[j][1]):
                        found.append(f"{ax.get_title()!r} {axis_name}: {boxes[i][0]!r} and {boxes[j][0]!r}")
    return found


def cut_titles(fig) -> list[str]:
    renderer = fig.canvas.get_renderer()
    width, height = fig.bbox.width, fig.bbox.height
    titles = [ax.title for ax in fig.axes if ax.get_visible()] + ([fig._suptitle] if fig._suptitle else [])
    cut = []
    for t in titles:
        if not t.get_text():
            continue
        box = t.get_window_extent(renderer)
        if box.x0 < -1 or box.x1 > width + 1 or box.y1 > height + 1:
            cut.append(t.get_text())
    return cut


@unittest.skipUnless(HAVE_MATPLOTLIB, "no matplotlib (python3-matplotlib)")
class TheFigures(unittest.TestCase):
    """Draws a chapter's figures through plots.draw() and inspects every figure the report saves."""

    def draw(self, chapter: str, *folders: str) -> tuple[list, dict]:
        import matplotlib.figure
        import plots
        out = tempfile.mkdtemp(prefix="gpgpu_report_figures_")
        self.addCleanup(shutil.rmtree, out, True)
        seen = {}
        savefig = matplotlib.figure.Figure.savefig

        def inspect(fig, path, *args, **kwargs):
            savefig(fig, path, *args, **kwargs)  # draws the figure: the boxes below are final
            seen[os.path.basename(path)] = {
                "empty": [ax.get_title() or "(untitled)" for ax in fig.axes
                          if ax.get_visible() and ax.get_label() != "<colorbar>" and data_artists(ax) == 0],
                "overlaps": overlapping_labels(fig), "cut": cut_titles(fig),
                "lines": [line for ax in fig.axes for line in ax.lines if line.get_transform() is ax.transData],
                "axes": [ax for ax in fig.axes if ax.get_visible()]}

        runs = [r for folder in folders for r in results.read_folder(folder) if r.chapter == chapter]
        with mock.patch.object(matplotlib.figure.Figure, "savefig", inspect):
            figures, problems = plots.draw(chapter, runs, out)
        self.assertEqual(problems, [])
        self.assertEqual(sorted(seen), sorted(name for name, _ in figures))
        for name, info in seen.items():
            self.assertEqual(info["empty"], [], f"{name}: axes without data")
            self.assertEqual(info["overlaps"], [], f"{name}: tick labels overlap")
            self.assertEqual(info["cut"], [], f"{name}: a title does not fit the figure")
        return [name for name, _ in figures], seen

    def two_machines_10b(self) -> tuple[str, str]:
        h100, other = Folder(self, "h100"), Folder(self, "h200")
        doc = committed("h100/ch10b_8192.json")
        h100.write("ch10b_8192.json", doc)
        faster = copy.deepcopy(doc)
        for row in faster["results"]:
            row["gflops"] *= 1.25
        next(r for r in faster["results"] if r["variant"] == "ws_bf16")["check"] = "FAIL"
        other.write("ch10b_tensor_cores_8192.json", faster)
        return h100.path, other.path

    def test_chapter_10b_gets_its_steps_and_no_empty_figure(self):
        names, seen = self.draw("10b", *self.two_machines_10b())
        self.assertIn("ch10b_tensor_core_steps.png", names)
        # A GEMM has no bandwidth limit and the run no paper numbers: no share, no then-and-now.
        self.assertNotIn("ch10b_limit_share.png", names)
        self.assertNotIn("ch10b_then_now.png", names)
        steps = seen["ch10b_tensor_core_steps.png"]
        self.assertEqual([ax.get_title() for ax in steps["axes"]], ["TF32", "BF16"])
        for ax in steps["axes"]:  # a bar per machine and step, a cuBLAS line per machine
            colours = {tuple(p.get_facecolor()) for p in ax.patches if p.get_width() > 0}
            self.assertEqual(len(colours), 2, ax.get_title())
            self.assertEqual(sum(1 for line in ax.lines if line.get_linestyle() == "--"), 2)
        bf16 = steps["axes"][1]
        self.assertEqual(sum(1 for p in bf16.patches if p.get_width() > 0), 9 + 8)  # h200's ws_bf16 FAILED

    def test_chapter_10b_alone_is_drawn_too(self):
        d = Folder(self, "h100")
        d.write("ch10b_4096.json", committed("h100/ch10b_4096.json"))
        names, _ = self.draw("10b", d.path)
        self.assertEqual(names, ["ch10b_tensor_core_steps.png"])

    def test_chapter_13_efficiency_against_gpus_per_machine(self):
        h200 = os.path.join(ROOT, "results", "h200x4", "ch13")
        other = Folder(self, "ch13")
        for path in sorted(glob.glob(os.path.join(h200, "ch13_g*_4096x4096.json"))):
            doc = committed(os.path.relpath(path, os.path.join(ROOT, "results")))
            for row in doc["results"]:
                if isinstance(row.get("extra", {}).get("efficiency"), float):
                    row["extra"]["efficiency"] *= 0.9
            other.write(os.path.basename(path), doc)
        names, seen = self.draw("13", h200, other.path)
        self.assertIn("ch13_efficiency_by_gpus.png", names)
        figure = seen["ch13_efficiency_by_gpus.png"]
        self.assertIn("4096²", [ax.get_title() for ax in figure["axes"]])
        # One marker per machine; the machines are named by their folders, a chapter's by its machine's too.
        markers = {line.get_marker() for line in figure["lines"]}
        self.assertEqual(len(markers), 2)
        self.assertEqual({r.machine for r in results.read_folder(h200)}, {"h200x4/ch13"})
        g4 = [line for line in figure["lines"] if 4 in list(line.get_xdata())]
        self.assertTrue(all(line.get_ydata()[0] == 100 for line in g4))

    def test_no_chapter_13_figure_without_its_runs(self):
        d = Folder(self, "m")
        d.write("ch13_plain.json", result_doc(chapter="13"))
        names, _ = self.draw("13", d.path)
        self.assertNotIn("ch13_efficiency_by_gpus.png", names)

    def test_a_then_and_now_within_a_decade_has_legible_ticks(self):
        d = Folder(self, "m")
        doc = result_doc(variants=(("a", "PASS", 0.5), ("b", "PASS", 0.6)))
        doc["then_now"]["rows"][0]["values"] = [3.0]  # 1.25 to 3: matplotlib would label minor ticks
        d.write("ch01_narrow.json", doc)
        names, _ = self.draw("01", d.path)
        self.assertIn("ch01_then_now.png", names)

    def test_the_committed_lecture_and_h100_side_by_side(self):
        folders = [os.path.join(ROOT, "results", m) for m in ("h100_lecture", "h100")]
        for chapter in ("01", "03", "10", "10b", "11"):
            names, _ = self.draw(chapter, *folders)
            self.assertTrue(names, chapter)


if __name__ == "__main__":
    unittest.main()
