"""The --dump checkers (problems/{jacobi,matrix,blas}/check_dump.py) against bad options and bad files
(CTest: dump_check.faults). Each gets a small dump made here with NumPy that it must pass, then:
options out of range, an option without its value, a truncated or missing .npy file, a folder that
is not one, and files of an earlier dump of another size beside the current ones. Every refusal is
one line on stderr and exit code 2, never a traceback; the earlier dump's files are left out when
the folder's dump_manifest.json lists the current ones, and fail the check by name when there is none.

    python3 problems/tests/test_check_dump.py
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest

import numpy as np

PROBLEMS = pathlib.Path(__file__).resolve().parents[1]
RNG = np.random.default_rng(20240611)


def signed(shape, dtype):
    """Random values of both signs, none zero."""
    x = RNG.uniform(0.5, 1.5, shape) * RNG.choice([-1.0, 1.0], shape)
    return x.astype(dtype)


def jacobi_dump(folder, nx, ny, iters, omega):
    """A 5-point system on an nx x ny grid, its float64 Jacobi iterate and a float32 solution."""
    sys.path.insert(0, str(PROBLEMS / "jacobi"))
    import check_dump as jacobi  # the checker's own stencil helpers, to make a matching dump
    sys.path.pop(0)
    diagonals = np.zeros((9, ny, nx), dtype=np.float32)
    inside = np.ones((ny, nx))
    for d, (dy, dx) in enumerate(jacobi.STEPS):
        if (dy == 0) != (dx == 0):  # the four axis neighbours, where they are inside the grid
            diagonals[d] = -1.0 * (jacobi.neighbour(inside, dy, dx) > 0)
    diagonals[4] = 4.5
    rhs = signed((ny, nx), np.float32)
    a, f = diagonals.astype(np.float64), rhs.astype(np.float64)
    x = np.zeros((ny, nx))
    for _ in range(iters):
        x = (1 - omega) * x + omega * (f - (jacobi.matvec(a, x) - a[4] * x)) / a[4]
    np.save(folder / "diagonals.npy", diagonals)
    np.save(folder / "rhs.npy", rhs)
    np.save(folder / "vm.npy", np.zeros((ny + 2, nx + 2), dtype=np.float32))
    np.save(folder / "reference.npy", x)
    np.save(folder / "solution_cpu.npy", x.astype(np.float32))
    return ["diagonals.npy", "rhs.npy", "vm.npy", "reference.npy", "solution_cpu.npy"]


def matrix_dump(folder, rows, cols):
    a, b = signed((rows, cols), np.float64), signed((rows, cols), np.float64)
    files = {"a.npy": a, "b.npy": b, "reference_add.npy": a + b, "reference_transpose.npy": a.T,
             "reference_copy.npy": a, "result_add_cpu.npy": a + b, "result_transpose_cpu.npy": a.T,
             "result_copy_cpu.npy": a.copy()}
    for name, m in files.items():
        np.save(folder / name, m)
    return list(files)


def blas_dump(folder, m, n, k):
    a, b = signed((m, k), np.float32), signed((k, n), np.float32)
    np.save(folder / "a.npy", a)
    np.save(folder / "b.npy", b)
    np.save(folder / "result_cpu.npy", (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32))
    return ["a.npy", "b.npy", "result_cpu.npy"]


# Per checker: how to make a dump of a size, the options that describe it, a smaller size for "an
# earlier dump", the file a truncation test cuts, the pattern of its results, and bad options.
CHECKERS = {
    "jacobi": dict(make=lambda d, s: jacobi_dump(d, s, s - 2, 12, 0.8),
                   options=lambda s: ["--iters", "12", "--omega", "0.8", "--nx", str(s), "--ny", str(s - 2)],
                   input="diagonals.npy", result="solution_{}.npy",
                   bad=[["--iters", "0"], ["--iters", "-1"], ["--omega", "nan"], ["--omega", "inf"],
                        ["--omega", "2"], ["--omega", "0"], ["--nx", "0"]],
                   missing_value="--omega"),
    "matrix": dict(make=lambda d, s: matrix_dump(d, s, s - 3), options=lambda s: ["--rows", str(s), "--cols", str(s - 3), "--type", "double"],
                   input="a.npy", result="result_copy_{}.npy",
                   bad=[["--rows", "0"], ["--cols", "-2"], ["--rows", "x"]], missing_value="--cols"),
    "blas": dict(make=lambda d, s: blas_dump(d, s, s - 2, s + 3), options=lambda s: ["--m", str(s), "--n", str(s - 2), "--k", str(s + 3)],
                 input="b.npy", result="result_{}.npy",
                 bad=[["--k", "0"], ["--m", "-1"], ["--n", "1.5"]], missing_value="--k"),
}
SIZE, EARLIER_SIZE = 9, 6


class CheckDump(unittest.TestCase):
    def setUp(self):
        self.base = pathlib.Path(tempfile.mkdtemp(prefix="gpgpu_check_dump_"))
        self.addCleanup(shutil.rmtree, self.base, True)

    def dump(self, problem, name="dump"):
        folder = self.base / problem / name
        folder.mkdir(parents=True)
        files = CHECKERS[problem]["make"](folder, SIZE)
        return folder, files

    def run_checker(self, problem, folder, options):
        return subprocess.run([sys.executable, str(PROBLEMS / problem / "check_dump.py"), str(folder), *options],
                              capture_output=True, text=True, timeout=120)

    def assert_refused(self, run, what, naming=None):
        """Exit code 2, one line on stderr (naming the file, when given), no traceback."""
        self.assertNotIn("Traceback", run.stderr, what)
        self.assertEqual(run.returncode, 2, f"{what}: {run.stderr}")
        lines = run.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, f"{what}: {run.stderr}")
        if naming:
            self.assertIn(naming, lines[0], what)

    def test_a_good_dump_passes(self):
        for problem, c in CHECKERS.items():
            with self.subTest(problem):
                folder, _ = self.dump(problem)
                run = self.run_checker(problem, folder, c["options"](SIZE))
                self.assertEqual(run.returncode, 0, run.stdout + run.stderr)

    def test_options_out_of_range_or_without_a_value(self):
        for problem, c in CHECKERS.items():
            folder, _ = self.dump(problem)
            for bad in c["bad"]:
                with self.subTest(problem, option=bad):
                    options = c["options"](SIZE)
                    options[options.index(bad[0]) + 1] = bad[1]
                    self.assert_refused(self.run_checker(problem, folder, options), f"{problem} {bad}")
            with self.subTest(problem, option="no value"):  # the option moved to the end, without its value
                options = c["options"](SIZE)
                at = options.index(c["missing_value"])
                options = options[:at] + options[at + 2:] + [c["missing_value"]]
                self.assert_refused(self.run_checker(problem, folder, options), f"{problem}: {c['missing_value']} last")

    def test_truncated_missing_and_foreign_files(self):
        for problem, c in CHECKERS.items():
            for cut in (c["input"], c["result"].format("cpu")):
                with self.subTest(problem, truncated=cut):
                    folder, _ = self.dump(problem, "cut_" + cut)
                    path = folder / cut
                    data = path.read_bytes()
                    path.write_bytes(data[: len(data) - 24])
                    self.assert_refused(self.run_checker(problem, folder, c["options"](SIZE)), f"{problem}: {cut} cut",
                                        naming=cut)
            with self.subTest(problem, missing=c["input"]):
                folder, _ = self.dump(problem, "missing")
                (folder / c["input"]).unlink()
                self.assert_refused(self.run_checker(problem, folder, c["options"](SIZE)), f"{problem}: no {c['input']}",
                                    naming=c["input"])
            with self.subTest(problem, foreign=c["input"]):
                folder, _ = self.dump(problem, "foreign")
                (folder / c["input"]).write_text("not a NumPy file\n")
                self.assert_refused(self.run_checker(problem, folder, c["options"](SIZE)), f"{problem}: text file",
                                    naming=c["input"])
            with self.subTest(problem, folder="a file"):
                (self.base / "file").write_text("")
                self.assert_refused(self.run_checker(problem, self.base / "file", c["options"](SIZE)),
                                    f"{problem}: a file for the folder")

    def test_an_earlier_dump_in_the_same_folder(self):
        for problem, c in CHECKERS.items():
            folder, files = self.dump(problem)
            # The earlier dump, of another size, left a result of a variant this run did not write.
            earlier = self.base / problem / "earlier"
            earlier.mkdir()
            c["make"](earlier, EARLIER_SIZE)
            stale = c["result"].format("gone")
            shutil.copy(earlier / c["result"].format("cpu"), folder / stale)
            with self.subTest(problem, manifest=True):
                (folder / "dump_manifest.json").write_text(json.dumps({"complete": True, "files": files}))
                run = self.run_checker(problem, folder, c["options"](SIZE))
                self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
                self.assertNotIn(stale, run.stdout + run.stderr)
            with self.subTest(problem, manifest=False):
                os.remove(folder / "dump_manifest.json")
                run = self.run_checker(problem, folder, c["options"](SIZE))
                self.assertNotIn("Traceback", run.stderr)
                self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
                self.assertIn(stale, run.stdout + run.stderr)
            with self.subTest(problem, manifest="lists a missing file"):
                (folder / "dump_manifest.json").write_text(json.dumps({"complete": True, "files": files + [c["result"].format("lost")]}))
                self.assert_refused(self.run_checker(problem, folder, c["options"](SIZE)), f"{problem}: listed, not there",
                                    naming=c["result"].format("lost"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
