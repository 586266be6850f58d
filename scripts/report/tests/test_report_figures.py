"""Tests of the report's figures themselves: chapter 10b (a GEMM: no bandwidth limit, no paper
numbers) gets its steps beside the libraries, a figure per size, and chapter 13 (several GPUs) its
efficiency against G and its time against the grid; each figure draws as many bars or points as the
JSON holds, for two machines side by side with their ratios in a table; the report names the
figures it leaves out and why; no figure has empty axes, an axis without its label, colliding tick
labels, a legend over the panels or a title cut off at the figure's edge.

Run: python3 -m unittest discover -s scripts/report/tests (CTest: report_tests). Inputs: the
committed results/h100/ch10b_*.json and results/h200x4/ch13/*.json, and a second machine made from
them here (a copy under the lecture's file names, its rates scaled, FP8 rows added).
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

import report  # noqa: E402
import results  # noqa: E402
from test_report import Folder, result_doc  # noqa: E402

HAVE_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None
CH13 = os.path.join(ROOT, "results", "h200x4", "ch13")
# Step 11 and cuBLASLt's FP8 rows, by name and extra.arithmetic (chapters/10b_tensor_cores).
FP8_ROWS = [("fp8_tensor", "FP8"), ("fp8_tensor_bf16c", "FP8_BF16C"), ("cublaslt_fp8", "FP8"),
            ("cublaslt_fp8_best", "FP8"), ("cublaslt_fp8_bf16c", "FP8_BF16C"),
            ("cublaslt_fp8_bf16c_best", "FP8_BF16C"), ("cublaslt_fp8_quantising", "FP8_BF16C")]


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


def bar_count(ax) -> int:
    return sum(1 for p in ax.patches if p.get_width() > 0)


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


def legends_over_panels(fig) -> list[str]:
    """Figure legends (drawn outside the panels) whose box overlaps a visible panel."""
    renderer = fig.canvas.get_renderer()
    return [f"legend over {ax.get_title()!r}" for legend in fig.legends for ax in fig.axes
            if ax.get_visible() and legend.get_window_extent(renderer).overlaps(ax.get_window_extent(renderer))]


def unlabelled_axes(fig) -> list[str]:
    """Panels without an x label, and rows of panels with numeric y ticks but no y label."""
    shown = [ax for ax in fig.axes if ax.get_visible()]
    found = [f"{ax.get_title()!r}: no x label" for ax in shown if not ax.get_xlabel().strip()]
    rows: dict[float, list] = {}
    for ax in shown:
        rows.setdefault(round(ax.get_position().y0, 3), []).append(ax)
    for row in rows.values():
        numeric = all(t.get_text().replace(".", "").replace("−", "").isdigit()
                      for ax in row for t in ax.get_yticklabels() if t.get_text())
        if numeric and not any(ax.get_ylabel().strip() for ax in row):
            found.append(f"{row[0].get_title()!r}: no y label in its row")
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
                "legends": legends_over_panels(fig), "unlabelled": unlabelled_axes(fig),
                "lines": [line for ax in fig.axes for line in ax.lines if line.get_transform() is ax.transData],
                "axes": [ax for ax in fig.axes if ax.get_visible()]}

        runs = [r for folder in folders for r in results.read_folder(folder) if r.chapter == chapter]
        with mock.patch.object(matplotlib.figure.Figure, "savefig", inspect):
            figures, problems, self.left_out = plots.draw(chapter, runs, out)
        self.assertEqual(problems, [])
        self.assertEqual(sorted(seen), sorted(name for name, _ in figures))
        for name, info in seen.items():
            self.assertEqual(info["empty"], [], f"{name}: axes without data")
            self.assertEqual(info["overlaps"], [], f"{name}: tick labels overlap")
            self.assertEqual(info["cut"], [], f"{name}: a title does not fit the figure")
            self.assertEqual(info["legends"], [], f"{name}: a legend covers a panel")
            self.assertEqual(info["unlabelled"], [], f"{name}: an axis without its label")
        return [name for name, _ in figures], seen

    def report_text(self, *folders: str) -> str:
        out = tempfile.mkdtemp(prefix="gpgpu_report_text_")
        self.addCleanup(shutil.rmtree, out, True)
        with open(report.build_report(list(folders), out, with_plots=True), encoding="utf-8") as f:
            return f.read()

    # Chapter 10b

    def h200_10b(self, doc: dict, fail: str = "ws_bf16") -> dict:
        """A second machine's run made from an H100 run: every rate 1.25 times, `fail` FAILED, and step
        11's FP8 rows with cuBLASLt's (the committed H100 runs predate FP8)."""
        faster = copy.deepcopy(doc)
        for row in faster["results"]:
            row["gflops"] *= 1.25
            row["ms_per_step"] /= 1.25
        next(r for r in faster["results"] if r["variant"] == fail)["check"] = "FAIL"
        template = next(r for r in faster["results"] if r["variant"] == "cluster_bf16")
        for name, arithmetic in FP8_ROWS:
            row = copy.deepcopy(template)
            row["variant"], row["gflops"] = name, 1.2e6
            row["extra"].update(arithmetic=arithmetic, library=name.startswith("cublaslt"))
            faster["results"].append(row)
        return faster

    def expected_bars(self, doc: dict) -> dict[str, int]:
        """Verified rows per panel, counted from the JSON: the steps and the libraries' rows."""
        count: dict[str, int] = {}
        for row in doc["results"]:
            a = row["extra"]["arithmetic"]
            panel = "FP8" if a.startswith("FP8") else a
            if row["check"] == "PASS":
                count[panel] = count.get(panel, 0) + 1
        return count

    def panels(self, figure: dict) -> dict[str, object]:
        return {ax.get_title().split(" ")[0]: ax for ax in figure["axes"]}

    def test_chapter_10b_draws_every_size_with_every_verified_row(self):
        d = Folder(self, "h100")
        for size in ("4096", "8192", "4097", "rect", "8192_bf16_repeat1"):  # a repeat of four variants gives way
            d.write(f"ch10b_{size}.json", committed(f"h100/ch10b_{size}.json"))
        names, seen = self.draw("10b", d.path)
        labels = ("3001x5003x2049_float", "4096_float", "4097_float", "8192_float")
        self.assertEqual(names, [f"ch10b_tensor_core_steps_{label}.png" for label in labels])
        for label, size in zip(labels, ("rect", "4096", "4097", "8192")):
            panels = self.panels(seen[f"ch10b_tensor_core_steps_{label}.png"])
            self.assertEqual(list(panels), ["TF32", "BF16"])  # no FP8 rows, no FP8 panel
            for panel, bars in self.expected_bars(committed(f"h100/ch10b_{size}.json")).items():
                self.assertEqual(bar_count(panels[panel]), bars, f"{size} {panel}")
            # The steps in the chapter's order, then the libraries.
            tf32 = [t.get_text() for t in panels["TF32"].get_yticklabels()]
            self.assertEqual(tf32[:3], ["1 WMMA (TF32 only)", "2 mma.sync + ldmatrix", "3 wgmma"])
            self.assertEqual(tf32[10:], ["cublas_tf32", "cublas_tf32_bt", "cublaslt_tf32"])
        # A GEMM has no bandwidth limit and no paper measured it: both figures left out, and said why.
        self.assertEqual([o.figure for o in self.left_out], ["then and now", "share of the limit"])
        text = self.report_text(d.path)
        self.assertIn("Figure left out: share of the limit: no variant has a bandwidth limit", text)
        self.assertIn("Figure left out: then and now: no paper measured these runs", text)
        self.assertNotIn("ch10b_limit_share.png", text)
        self.assertNotIn("ch10b_then_now.png", text)

    def test_chapter_10b_two_machines_share_each_panel_with_fp8_and_ratios(self):
        h100, h200 = Folder(self, "h100"), Folder(self, "h200")
        doc = committed("h100/ch10b_4096.json")
        h100.write("ch10b_4096.json", doc)
        faster = self.h200_10b(doc)
        h200.write("ch10b_tensor_cores_default.json", faster)  # scripts/lecture.sh's name for the run
        names, seen = self.draw("10b", h100.path, h200.path)
        self.assertEqual(names, ["ch10b_tensor_core_steps_4096_float.png"])
        panels = self.panels(seen[names[0]])
        self.assertEqual(list(panels), ["TF32", "BF16", "FP8"])
        mine, theirs = self.expected_bars(doc), self.expected_bars(faster)
        for panel, ax in panels.items():
            self.assertEqual(bar_count(ax), mine.get(panel, 0) + theirs[panel], panel)
            colours = {tuple(p.get_facecolor()) for p in ax.patches if p.get_width() > 0}
            self.assertEqual(len(colours), 1 if panel == "FP8" else 2, panel)  # a colour per machine
            dashed = [line for line in ax.lines if line.get_linestyle() == "--"]
            self.assertEqual(len(dashed), 1 if panel == "FP8" else 2, panel)  # its cuBLAS, per machine
        self.assertIn("FAIL", [t.get_text() for t in panels["BF16"].texts])  # h200's ws_bf16: no bar
        text = self.report_text(h100.path, h200.path)
        table = text[text.index("### Machines compared"):]
        self.assertIn("| size | variant | h100 TFLOP/s | h200 TFLOP/s | h200 / h100 (speed) |", table)
        self.assertIn("| 4096³, float | wide_bf16 | 652.6 | 815.7 | 1.25 |", table)
        self.assertIn("| 4096³, float | ws_bf16 | 212.1 | FAIL | - |", table)
        self.assertIn("| 4096³, float | fp8_tensor | - | 1200 | - |", table)
        swapped = self.report_text(h200.path, h100.path)  # the first folder given is the base
        self.assertIn("| 4096³, float | wide_bf16 | 815.7 | 652.6 | 0.80 |", swapped)

    def test_chapter_10b_at_different_sizes_is_not_compared(self):
        h100, h200 = Folder(self, "h100"), Folder(self, "h200")
        h100.write("ch10b_8192.json", committed("h100/ch10b_8192.json"))
        h200.write("ch10b_tensor_cores_default.json", self.h200_10b(committed("h100/ch10b_4096.json")))
        names, _ = self.draw("10b", h100.path, h200.path)
        self.assertEqual(names, ["ch10b_tensor_core_steps_4096_float.png", "ch10b_tensor_core_steps_8192_float.png"])
        self.assertNotIn("### Machines compared", self.report_text(h100.path, h200.path))

    # Chapter 13

    def ch13_folder(self, scale: float, pattern: str = "ch13_g*.json", keep=None) -> str:
        """A machine folder of copies of the committed 4-GPU runs: times `scale` times, efficiencies
        over `scale`; `keep` the variants kept (all when None)."""
        other = Folder(self, "other")
        for path in sorted(glob.glob(os.path.join(CH13, pattern))):
            doc = committed(os.path.relpath(path, os.path.join(ROOT, "results")))
            doc["results"] = [r for r in doc["results"] if keep is None or r["variant"] in keep]
            for row in doc["results"]:
                row["ms_per_step"] *= scale
                if isinstance(row.get("extra", {}).get("efficiency"), float):
                    row["extra"]["efficiency"] /= scale
            other.write(os.path.basename(path), doc)
        return other.path

    def test_chapter_13_efficiency_against_gpus_per_machine(self):
        other = self.ch13_folder(1 / 0.9, "ch13_g*_4096x4096.json")
        names, seen = self.draw("13", CH13, other)
        self.assertIn("ch13_efficiency_by_gpus.png", names)
        figure = seen["ch13_efficiency_by_gpus.png"]
        self.assertIn("4096²", [ax.get_title() for ax in figure["axes"]])
        # One marker per machine; the machines are named by their folders, a chapter's by its machine's too.
        markers = {line.get_marker() for line in figure["lines"]}
        self.assertEqual(len(markers), 2)
        self.assertEqual({r.machine for r in results.read_folder(CH13)}, {"h200x4/ch13"})
        g4 = [line for line in figure["lines"] if 4 in list(line.get_xdata())]
        self.assertTrue(all(line.get_ydata()[0] == 100 for line in g4))
        # A point per run with an efficiency, and the 100% at G = 1 of every curve.
        runs = [r for folder in (CH13, other) for r in results.read_folder(folder)]
        curves = {(r.machine, r.size_label(), row["variant"]) for r in runs for row in r.doc["results"]
                  if "efficiency" in row["extra"]}
        points = sum(1 for r in runs for row in r.doc["results"] if "efficiency" in row["extra"])
        self.assertEqual(sum(len(line.get_xdata()) for line in figure["lines"]), points + len(curves))

    def test_chapter_13_time_against_grid_has_every_run(self):
        other = self.ch13_folder(1.1)
        names, seen = self.draw("13", CH13, other)
        self.assertIn("ch13_time_by_grid.png", names)
        figure = seen["ch13_time_by_grid.png"]
        self.assertEqual([ax.get_title().split(" ")[0] for ax in figure["axes"]], ["2", "4"])
        runs = [r for folder in (CH13, other) for r in results.read_folder(folder)]
        verified = sum(1 for r in runs for row in r.doc["results"] if row["check"] == "PASS")
        self.assertEqual(sum(len(line.get_xdata()) for line in figure["lines"]), verified)
        # No share of G GPUs' summed limit: the two figures above say more, and the report says so.
        self.assertNotIn("ch13_limit_share.png", names)
        text = self.report_text(CH13, other)
        self.assertIn("Figure left out: share of the limit: a share of G GPUs' summed limit", text)
        table = text[text.index("### Machines compared"):]
        self.assertIn("| size | variant | h200x4/ch13 ms/step | other ms/step | other / h200x4/ch13 (speed) |", table)
        self.assertIn("| 4096², 4 GPUs | nccl | 0.0429 | 0.0472 | 0.91 |", table)

    def test_chapter_13_on_one_gpu_says_why_it_has_no_figure(self):
        one = self.ch13_folder(1.0, "ch13_g2_4096x4096.json", keep={"one_gpu"})
        names, _ = self.draw("13", one)
        self.assertNotIn("ch13_efficiency_by_gpus.png", names)
        self.assertNotIn("ch13_time_by_grid.png", names)
        text = self.report_text(one)
        self.assertIn("Figure left out: efficiency against the number of GPUs: no variant ran split", text)
        self.assertIn("Figure left out: time per iteration against grid size: each machine ran one grid", text)

    def test_no_chapter_13_figure_without_its_runs(self):
        d = Folder(self, "m")
        d.write("ch13_plain.json", result_doc(chapter="13"))
        names, _ = self.draw("13", d.path)
        self.assertNotIn("ch13_efficiency_by_gpus.png", names)
        self.assertEqual([o.figure for o in self.left_out], [])  # not a multi-GPU run: nothing is missing

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
