"""Tests of the H100-against-H200 table (scripts/report/machines_table.py): every number it prints is the
committed JSON's, and a row with a side missing or failed gets no ratio and no verdict.

Run: python3 -m unittest discover -s scripts/report/tests (CTest: report_tests).
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts", "report"))

import machines_table  # noqa: E402
import readme_tables  # noqa: E402
from machines_table import MachinesError, Pair  # noqa: E402


def _doc(gbs: float, limit: float, check: str = "PASS", n: int = 512) -> dict:
    """A schema-2 result with one memory-bound row `k` of that rate and limit."""
    return {"schema": "gpgpu-then-and-now/result", "schema_version": 2,
            "chapter": {"id": "03", "program": "ch03_test", "title": "t"}, "problem": {"nx": n, "ny": n},
            "results": [{"variant": "k", "backend": "cuda", "check": check, "ms_per_step": 1.0, "gbs_min": gbs,
                         "limit": {"name": "stream 11:1", "gbs": limit}, "limit_share": gbs / limit}]}


class TwoMachines(unittest.TestCase):
    """Small results written here, one file per machine, and a pair naming them."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, rel: str, doc: dict) -> str:
        path = os.path.join(self.root, "results", rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        return rel

    def pair(self, h100, h200, n: int = 512) -> Pair:
        return Pair("03", "k", {"nx": n, "ny": n}, f"{n}²", "memory", h100, h200)

    def table(self, pair: Pair) -> tuple[machines_table.Row, list[str]]:
        """The pair's row and its Markdown cells."""
        with mock.patch.object(machines_table, "PAIRS", [pair]):
            text = machines_table.markdown(self.root)
        line = text.strip().splitlines()[-1]
        return machines_table.measure(self.root, pair), [c.strip() for c in line.strip("|").split("|")]

    def test_a_missing_side_gets_no_ratio_prediction_or_verdict(self):
        old = self.write("h100/a.json", _doc(3000.0, 3030.0))
        new = self.write("h200/a.json", _doc(4300.0, 4340.0))
        for h100, h200, missing in ((old, None, "H200"), (None, new, "H100")):
            row, cells = self.table(self.pair(h100, h200))
            self.assertIsNone(row.ratio)
            self.assertIsNone(row.prediction)
            self.assertEqual(cells[5:], ["-", "-", f"not measured on the {missing}"])
            self.assertIn(f"not measured on the {missing}", cells[3 if missing == "H100" else 4])

    def test_a_failed_side_gets_no_rate_and_no_ratio(self):
        old = self.write("h100/a.json", _doc(3000.0, 3030.0))
        new = self.write("h200/a.json", _doc(4300.0, 4340.0, check="FAIL"))
        row, cells = self.table(self.pair(old, new))
        self.assertIsNone(row.ratio)
        self.assertEqual(cells[4], "FAIL: no rate")
        self.assertEqual(cells[5:], ["-", "-", "no ratio: failed its check on the H200"])

    def test_ratio_prediction_and_verdict_from_the_two_files(self):
        old = self.write("h100/a.json", _doc(3000.0, 3000.0))
        at_limit = self.write("h200/a.json", _doc(4230.0, 4200.0))   # 1.41 against 1.40: +0.7%
        short = self.write("h200/b.json", _doc(3600.0, 4200.0))      # 1.20 against 1.40: 14.3% below
        row, cells = self.table(self.pair(old, at_limit))
        self.assertAlmostEqual(row.ratio, 4230.0 / 3000.0)
        self.assertAlmostEqual(row.prediction, 4200.0 / 3000.0)
        self.assertEqual(cells[3:6], ["3,000 GB/s (100.0% of limit)", "4,230 GB/s (100.7 !% of limit)", "1.410"])
        self.assertEqual(cells[7], "as predicted (+0.7%)")
        row, cells = self.table(self.pair(old, short))
        self.assertEqual(cells[7], "below the prediction by 14.3%")

    def test_a_named_file_that_is_absent_lacks_the_variant_or_is_another_size_is_an_error(self):
        old = self.write("h100/a.json", _doc(3000.0, 3030.0))
        other = self.write("h200/a.json", _doc(4300.0, 4340.0, n=1024))
        for pair in (self.pair(old, "h200/none.json"), self.pair(old, other),
                     Pair("03", "absent", {"nx": 512, "ny": 512}, "512²", "memory", old, None)):
            with self.assertRaises(MachinesError):
                machines_table.measure(self.root, pair)
        # Through the README marker: one line naming the problem, and the README's block left as it was.
        text = "<!-- results:machines -->\nold\n<!-- /results -->\n"
        with mock.patch.object(machines_table, "PAIRS", [self.pair(old, other)]):
            new, errors = readme_tables.regenerate(text, self.root)
        self.assertEqual(new, text)
        self.assertEqual(len(errors), 1)
        self.assertIn("not the row's", errors[0])


class TheCommittedRows(unittest.TestCase):
    """Every number of the README's table is the committed JSON's, read here without the module."""

    def test_each_row_equals_its_json(self):
        text = machines_table.markdown(ROOT)
        both = 0
        for row in machines_table.rows(ROOT):
            p = row.pair
            for machine, rel in zip(machines_table.MACHINES, (p.h100, p.h200)):
                side = row.sides[machine]
                if rel is None:
                    self.assertIsNone(side)
                    continue
                with open(os.path.join(ROOT, "results", rel), encoding="utf-8") as f:
                    r = next(x for x in json.load(f)["results"] if x.get("variant") == p.variant)
                rate, limit = ((r["gbs_min"], r["limit"]["gbs"]) if p.bound == "memory"
                               else (r["gflops"], r["extra"]["peak_gflops"]))
                self.assertEqual((side.rate, side.limit), (rate, limit), f"{p.chapter} {p.variant} on the {machine}")
                cell = f"{rate:,.0f} GB/s" if p.bound == "memory" else f"{rate / 1000:,.1f} TFLOP/s"
                self.assertIn(cell, text)
            if row.ratio is not None:
                both += 1
                old, new = row.sides["H100"], row.sides["H200"]
                self.assertEqual(row.ratio, new.rate / old.rate)
                self.assertEqual(row.prediction, new.limit / old.limit)
                self.assertIn(f"| {row.ratio:.3f} | {row.prediction:.3f} (", text)
            else:
                self.assertIn("not measured on the", machines_table.verdict(row))
        self.assertGreater(both, 0, "no row measured on both machines")

    def test_the_readme_block_is_this_table(self):
        with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        self.assertIn(machines_table.markdown(ROOT), readme)


if __name__ == "__main__":
    unittest.main()
