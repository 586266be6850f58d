"""check_dump.py judges each result by the bound of its own arithmetic (arithmetic.json).

Each case writes a dump as the chapter would, at an awkward size (m, n, k prime; k small enough that
the inputs' rounding, not the sums', dominates the BF16 and TF32 bounds), with random operands of
both signs:
- a C that is the exact product of the inputs rounded to the variant's format (BF16, TF32), rounded
  once to float32, passes under that format's bound;
- the same C judged as FP32 (no entry in arithmetic.json) fails: the FP32 bound is far tighter;
- the same C with one element off by 1% of its |A||B| (the measure the bound is stated in) fails
  under its own bound;
- an unknown arithmetic name is refused.
"""
import json
import pathlib
import subprocess
import sys
import tempfile
import unittest

import numpy as np

CHECKER = pathlib.Path(__file__).resolve().parents[1] / "check_dump.py"
M, N, K = 37, 23, 41


def round_to_bits(x, kept_mantissa_bits):
    """float32 x rounded to nearest (ties to even) to `kept_mantissa_bits` explicit mantissa bits."""
    bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    drop = 23 - kept_mantissa_bits
    half = np.uint64(1) << np.uint64(drop - 1)
    lsb = (bits >> np.uint64(drop)) & np.uint64(1)
    rounded = ((bits + half - np.uint64(1) + lsb) >> np.uint64(drop)) << np.uint64(drop)
    return rounded.astype(np.uint32).view(np.float32)


FORMATS = {"BF16": 7, "TF32": 10}


class CheckDumpTest(unittest.TestCase):
    def setUp(self):
        rng = np.random.default_rng(7)
        self.a = rng.uniform(-100, 100, (M, K)).astype(np.float32)
        self.b = rng.uniform(-100, 100, (K, N)).astype(np.float32)

    def run_checker(self, results, arithmetic):
        with tempfile.TemporaryDirectory() as tmp:
            folder = pathlib.Path(tmp)
            np.save(folder / "a.npy", self.a)
            np.save(folder / "b.npy", self.b)
            for name, c in results.items():
                np.save(folder / f"result_{name}.npy", c)
            if arithmetic is not None:
                (folder / "arithmetic.json").write_text(json.dumps(arithmetic))
            done = subprocess.run([sys.executable, str(CHECKER), str(folder), "--m", str(M), "--n", str(N),
                                   "--k", str(K)], capture_output=True, text=True, timeout=120)
            return done.returncode, done.stdout + done.stderr

    def product_of_rounded(self, fmt):
        bits = FORMATS[fmt]
        a, b = round_to_bits(self.a, bits), round_to_bits(self.b, bits)
        return (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)

    def off_by_one_percent(self, c):
        scale = np.abs(self.a.astype(np.float64)) @ np.abs(self.b.astype(np.float64))
        off = c.copy()
        off[M // 2, N - 1] += np.float32(0.01 * scale[M // 2, N - 1])
        return off

    def test_rounded_inputs_pass_their_own_bound(self):
        for fmt in FORMATS:
            with self.subTest(fmt=fmt):
                rc, out = self.run_checker({"x": self.product_of_rounded(fmt)}, {"result_x.npy": fmt})
                self.assertEqual(rc, 0, out)
                self.assertIn(fmt, out)

    def test_rounded_inputs_fail_the_fp32_bound(self):
        for fmt in FORMATS:
            with self.subTest(fmt=fmt):
                rc, out = self.run_checker({"x": self.product_of_rounded(fmt)}, None)
                self.assertEqual(rc, 1, out)
                self.assertIn("judged as its element type", out)

    def test_one_percent_off_fails(self):
        for fmt in FORMATS:
            with self.subTest(fmt=fmt):
                c = self.off_by_one_percent(self.product_of_rounded(fmt))
                rc, out = self.run_checker({"x": c}, {"result_x.npy": fmt})
                self.assertEqual(rc, 1, out)

    def test_fp32_exact_passes_and_off_fails(self):
        exact = (self.a.astype(np.float64) @ self.b.astype(np.float64)).astype(np.float32)
        rc, out = self.run_checker({"x": exact}, {"result_x.npy": "FP32"})
        self.assertEqual(rc, 0, out)
        rc, out = self.run_checker({"x": self.off_by_one_percent(exact)}, {"result_x.npy": "FP32"})
        self.assertEqual(rc, 1, out)

    def test_each_result_by_its_own_format(self):
        # A BF16 result beside an FP32 one in the same dump: each is judged by its own bound.
        exact = (self.a.astype(np.float64) @ self.b.astype(np.float64)).astype(np.float32)
        rc, out = self.run_checker({"bf16": self.product_of_rounded("BF16"), "fp32": exact},
                                   {"result_bf16.npy": "BF16", "result_fp32.npy": "FP32"})
        self.assertEqual(rc, 0, out)

    def test_unknown_arithmetic_is_refused(self):
        rc, out = self.run_checker({"x": self.product_of_rounded("BF16")}, {"result_x.npy": "FP9"})
        self.assertNotEqual(rc, 0, out)
        self.assertIn("unknown arithmetic", out)


if __name__ == "__main__":
    unittest.main()
