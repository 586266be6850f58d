"""The report's output folder (CTest: report_tests): it never deletes what it reads or what it did not
write, and every folder it cannot use, like a missing option value, gets one line and exit code 2.

Run: python3 -m unittest discover -s scripts/report/tests. The report runs as a program here, so that
a traceback would show.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPORT = os.path.join(HERE, "..", "report.py")
sys.path.insert(0, HERE)

from test_report import result_doc  # noqa: E402


def snapshot(folder: str) -> dict[str, bytes]:
    """Every file under the folder, by relative path, with its bytes."""
    files = {}
    for root, _, names in os.walk(folder):
        for n in names:
            path = os.path.join(root, n)
            with open(path, "rb") as f:
                files[os.path.relpath(path, folder)] = f.read()
    return files


class TheOutputFolder(unittest.TestCase):
    def setUp(self):
        self.base = tempfile.mkdtemp(prefix="gpgpu_report_out_test_")
        self.addCleanup(shutil.rmtree, self.base, True)
        # Results as scripts/lecture.sh leaves them: R/<machine>/ with JSON, a Markdown note, a CSV, a plot.
        self.results = os.path.join(self.base, "R")
        machine = os.path.join(self.results, "laptop")
        os.makedirs(machine)
        for name, text in (("ch01_cpu_jacobi_quick.json", json.dumps(result_doc())), ("notes.md", "# mine\n"),
                           ("sizes.csv", "n\n1\n"), ("picture.png", "not really a PNG")):
            with open(os.path.join(machine, name), "w", encoding="utf-8") as f:
                f.write(text)
        self.before = snapshot(self.results)

    def report(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, REPORT, "--no-plots", *args], capture_output=True, text=True, timeout=300)

    def assert_refused(self, run: subprocess.CompletedProcess, what: str, saying: str = "") -> None:
        self.assertNotIn("Traceback", run.stderr, what)
        self.assertEqual(run.returncode, 2, f"{what}: {run.stderr}")
        lines = run.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, f"{what}: {run.stderr}")
        self.assertIn(saying, lines[0], what)

    def assert_results_untouched(self, what: str) -> None:
        self.assertEqual(snapshot(self.results), self.before, f"{what}: the results folder changed")

    def test_an_output_folder_that_is_holds_or_lies_in_the_results_is_refused(self):
        for out, saying in ((self.results, "is the results folder"),
                            (os.path.join(self.results, "laptop"), "lies inside the results folder"),
                            (os.path.join(self.results, "report"), "lies inside the results folder"),
                            (self.base, "holds the results folder")):
            with self.subTest(out=out):
                self.assert_refused(self.report("--out", out, self.results), out, saying)
                self.assert_results_untouched(out)
        self.assertFalse(os.path.exists(os.path.join(self.results, "report")))

    def test_a_folder_of_someone_elses_files_is_refused(self):
        # --out ~ : a folder the report did not make keeps every file, and no report is written there.
        home = os.path.join(self.base, "home")
        os.makedirs(home)
        with open(os.path.join(home, "todo.md"), "w", encoding="utf-8") as f:
            f.write("keep me\n")
        self.assert_refused(self.report("--out", home, self.results), "a foreign folder", "no report wrote")
        self.assertEqual(os.listdir(home), ["todo.md"])

    def test_the_next_report_replaces_only_its_own_files(self):
        out = os.path.join(self.base, "report")
        run = self.report("--out", out, self.results)
        self.assertEqual(run.returncode, 0, run.stderr)
        made = set(os.listdir(out))
        self.assertIn("index.md", made)
        self.assertIn("report-files.txt", made)
        self.assertFalse([n for n in made if n.startswith(".")], "a scratch folder was left behind")
        # A file of the user's beside the report, and a chapter's table the next report no longer has.
        with open(os.path.join(out, "my_notes.md"), "w", encoding="utf-8") as f:
            f.write("mine\n")
        with open(os.path.join(out, "ch99_result.csv"), "w", encoding="utf-8") as f:
            f.write("old\n")
        with open(os.path.join(out, "report-files.txt"), "a", encoding="utf-8") as f:
            f.write("ch99_result.csv\n")
        run = self.report("--out", out, self.results)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(set(os.listdir(out)), made | {"my_notes.md"})
        self.assert_results_untouched("two reports")

    def test_a_report_from_before_the_list_is_replaced(self):
        out = os.path.join(self.base, "old_report")
        os.makedirs(out)
        for name, text in (("index.md", "# Lecture report\n"), ("ch98_result.csv", "old\n")):
            with open(os.path.join(out, name), "w", encoding="utf-8") as f:
                f.write(text)
        run = self.report("--out", out, self.results)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertNotIn("ch98_result.csv", os.listdir(out))

    def test_an_output_folder_it_cannot_write(self):
        a_file = os.path.join(self.base, "a_file")
        with open(a_file, "w", encoding="utf-8") as f:
            f.write("x\n")
        self.assert_refused(self.report("--out", a_file, self.results), "--out a file", "not a folder")
        self.assert_refused(self.report("--out", os.path.join(a_file, "report"), self.results), "--out under a file",
                            "cannot write")
        self.assert_refused(self.report("--out", "", self.results), "--out ''", "empty")
        with open(a_file, encoding="utf-8") as f:
            self.assertEqual(f.read(), "x\n")

    def test_hidden_folders_are_not_machines(self):
        # scripts/lecture.sh's run in progress (.laptop.new-XXXXXX) and the run it replaced (.laptop.previous).
        for hidden in (".laptop.new-abc123", ".laptop.previous"):
            shutil.copytree(os.path.join(self.results, "laptop"), os.path.join(self.results, hidden))
        run = self.report("--out", os.path.join(self.base, "report"), self.results)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("machine folders: " + os.path.join(self.results, "laptop") + "\n", run.stdout)

    @unittest.skipIf(os.geteuid() == 0, "root writes into a folder without write permission all the same")
    def test_a_folder_without_write_permission(self):
        locked = os.path.join(self.base, "locked")
        os.makedirs(locked)
        os.chmod(locked, 0o555)
        self.addCleanup(os.chmod, locked, 0o755)
        self.assert_refused(self.report("--out", locked, self.results), "a read-only folder", "cannot write")
        self.assert_refused(self.report("--out", os.path.join(locked, "report"), self.results),
                            "under a read-only folder", "cannot write")

    def test_an_option_without_its_value(self):
        self.assert_refused(self.report(self.results, "--out"), "--out last", "--out")
        self.assert_results_untouched("--out without a value")


if __name__ == "__main__":
    unittest.main()
