"""check_dump.py judges each result by the bound of its own arithmetic (arithmetic.json).

Each case writes a dump as the chapter would, at an awkward size (m, n, k prime; k small enough that
the inputs' rounding, not the sums', dominates the BF16 and TF32 bounds), with random operands of
both signs:
- a C that is the exact product of the inputs rounded to the variant's format (BF16, TF32), rounded
  once to float32, passes under that format's bound;
- the same C judged as FP32 (no entry in arithmetic.json) fails: the FP32 bound is far tighter;
- the same C with one element off by 1% of its |A||B| (the measure the bound is stated in) fails
  under its own bound;
- BF16 with C rounded to bfloat16 passes under BF16_BF16C, and one element 2% off fails (its bound
  is above 1%);
- an unknown arithmetic name is refused;
- FP8: the exact product of the inputs dequantised from E4M3 (one scale per tensor) passes under
  FP8 (and, rounded to bfloat16, under FP8_BF16C); judged as FP32 it fails, and so does one element
  1% off; the checker's E4M3 rounding keeps every E4M3 value and rounds ties to even;
- FP8 with block scales: the exact product of the block-dequantised inputs passes under FP8_BLOCKS
  (and FP8_BLOCKS_BF16C rounded to bfloat16), the per-tensor one does not where the blocks differ,
  and one element 1% off fails; the block scale is the power of two the C++ code chooses;
- the FP8 bound is per element (|C - AB| <= g |A||B| + g_q Q): Q, the accumulator's running sums at
  every 32 of k (restarting every 128 with block scales), matches a loop over k, and one element
  0.9 of its own bound off passes where 1.1 of it fails.
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


sys.path.insert(0, str(CHECKER.parent))
import check_dump  # noqa: E402


def to_bf16(x):
    """float32 x rounded to nearest even bfloat16, as float32."""
    return round_to_bits(x, 7)


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

    def off_by_one_percent(self, c, share=0.01):
        scale = np.abs(self.a.astype(np.float64)) @ np.abs(self.b.astype(np.float64))
        off = c.copy()
        off[M // 2, N - 1] += np.float32(share * scale[M // 2, N - 1])
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

    def test_bf16_with_bf16_c_passes_and_two_percent_off_fails(self):
        # BF16_BF16C (chapter 10b's step 13): the product of the BF16 inputs, rounded to bfloat16.
        # Its bound is 2^-7 + 2^-8 of |A||B| and more: 2% off, not 1%, is past it.
        c = to_bf16(self.product_of_rounded("BF16"))
        rc, out = self.run_checker({"x": c}, {"result_x.npy": "BF16_BF16C"})
        self.assertEqual(rc, 0, out)
        self.assertIn("BF16_BF16C", out)
        rc, out = self.run_checker({"x": self.off_by_one_percent(c, 0.02)}, {"result_x.npy": "BF16_BF16C"})
        self.assertEqual(rc, 1, out)

    def product_of_dequantised(self):
        a, b = check_dump.dequantised_e4m3(self.a), check_dump.dequantised_e4m3(self.b)
        return (a @ b).astype(np.float32)

    def test_fp8_exact_product_of_dequantised_inputs_passes(self):
        c = self.product_of_dequantised()
        rc, out = self.run_checker({"x": c}, {"result_x.npy": "FP8"})
        self.assertEqual(rc, 0, out)
        self.assertIn("FP8", out)
        rc, out = self.run_checker({"x": to_bf16(c)}, {"result_x.npy": "FP8_BF16C"})
        self.assertEqual(rc, 0, out)

    def test_fp8_fails_as_fp32_and_one_percent_off(self):
        c = self.product_of_dequantised()
        rc, out = self.run_checker({"x": c}, {"result_x.npy": "FP32"})
        self.assertEqual(rc, 1, out)
        a, b = check_dump.dequantised_e4m3(self.a), check_dump.dequantised_e4m3(self.b)
        off = c.copy()
        off[M // 2, N - 1] += np.float32(0.01 * (np.abs(a) @ np.abs(b))[M // 2, N - 1])
        rc, out = self.run_checker({"x": off}, {"result_x.npy": "FP8"})
        self.assertEqual(rc, 1, out)

    def test_fp8_blocks_exact_product_of_block_dequantised_inputs_passes(self):
        a = self.a.copy()
        a[: M // 2] *= np.float32(1e-3)  # rows (blocks of A) of different magnitude: the scalings then differ
        a_blocks = check_dump.dequantised_e4m3_blocks(a, 1, 128)
        b_blocks = check_dump.dequantised_e4m3_blocks(self.b, 128, 128)
        c = (a_blocks @ b_blocks).astype(np.float32)
        self.a = a
        rc, out = self.run_checker({"x": c}, {"result_x.npy": "FP8_BLOCKS"})
        self.assertEqual(rc, 0, out)
        rc, out = self.run_checker({"x": to_bf16(c)}, {"result_x.npy": "FP8_BLOCKS_BF16C"})
        self.assertEqual(rc, 0, out)
        per_tensor = (check_dump.dequantised_e4m3(a) @ check_dump.dequantised_e4m3(self.b)).astype(np.float32)
        rc, out = self.run_checker({"x": per_tensor}, {"result_x.npy": "FP8_BLOCKS"})
        self.assertEqual(rc, 1, out)
        off = c.copy()
        off[M // 2, N - 1] += np.float32(0.01 * (np.abs(a_blocks) @ np.abs(b_blocks))[M // 2, N - 1])
        rc, out = self.run_checker({"x": off}, {"result_x.npy": "FP8_BLOCKS"})
        self.assertEqual(rc, 1, out)

    def test_e4m3_block_scale_is_the_power_of_two_of_the_cpp_code(self):
        for amax, want in ((448, 1.0), (449, 2.0), (224, 0.5), (100, 0.25), (0, 1.0), (1e-45, 2.0**-126)):
            self.assertEqual(check_dump.e4m3_block_scale(np.float32(amax)), np.float32(want), amax)

    def test_e4m3_rounding_keeps_the_grid_and_ties_to_even(self):
        mags = [0.0] + [m * 2.0**-9 for m in range(1, 8)] + [(8 + m) * 2.0**(e - 10) for e in range(1, 16) for m in range(8)]
        grid = np.array([v for v in mags if v <= 448.0], dtype=np.float32)
        np.testing.assert_array_equal(check_dump.round_to_e4m3(grid), grid)
        np.testing.assert_array_equal(check_dump.round_to_e4m3(-grid), -grid)
        ties = np.array([1.0625, 1.1875, 2.0**-10, 3 * 2.0**-10, 0.3, 1000.0, -463.9], dtype=np.float32)
        want = np.array([1.0, 1.25, 0.0, 2.0**-8, 0.3125, 448.0, -448.0], dtype=np.float32)
        np.testing.assert_array_equal(check_dump.round_to_e4m3(ties), want)

    def test_unknown_arithmetic_is_refused(self):
        rc, out = self.run_checker({"x": self.product_of_rounded("BF16")}, {"result_x.npy": "FP9"})
        self.assertNotEqual(rc, 0, out)
        self.assertIn("unknown arithmetic", out)


    def test_fp8_partial_sums_are_the_running_sums_at_every_32_of_k(self):
        k = 300
        rng = np.random.default_rng(3)
        a, b = rng.uniform(-1, 1, (3, k)), rng.uniform(-1, 1, (k, 4))
        for block_scaled, run in ((False, k), (True, 128)):
            c, scale, q = check_dump.fp8_products(a, b, block_scaled)
            want = np.zeros((3, 4))
            for i in range(3):
                for j in range(4):
                    running = 0.0
                    for l in range(k):
                        if l % run == 0:
                            running = 0.0
                        elif l % 32 == 0:
                            want[i, j] += abs(running)
                        running += a[i, l] * b[l, j]
            np.testing.assert_allclose(q, want, rtol=1e-12)
            np.testing.assert_allclose(c, a @ b, rtol=1e-12, atol=1e-12)
            np.testing.assert_allclose(scale, np.abs(a) @ np.abs(b), rtol=1e-12)

    def test_fp8_element_within_its_own_bound_passes_and_past_it_fails(self):
        a, b = check_dump.dequantised_e4m3(self.a), check_dump.dequantised_e4m3(self.b)
        c, scale, q = check_dump.fp8_products(a, b, False)
        g, g_q = check_dump.fp8_bound("FP8", K)
        allowed = g * scale[M // 2, N - 1] + g_q * q[M // 2, N - 1]
        for share, rc_wanted in ((0.9, 0), (1.1, 1)):
            off = c.astype(np.float32)
            off[M // 2, N - 1] = np.float32(c[M // 2, N - 1] + share * allowed)
            rc, out = self.run_checker({"x": off}, {"result_x.npy": "FP8"})
            self.assertEqual(rc, rc_wanted, out)
            self.assertIn("of its own bound", out)


if __name__ == "__main__":
    unittest.main()
