#!/usr/bin/env python3
"""Checks a multiply chapter's --dump folder with NumPy alone, independently of the C++ code.

    python3 problems/blas/check_dump.py DIR --m M --n N --k K

a.npy must be M x K and b.npy K x N, float32; every result_<variant>.npy must be M x N float32 and
within the bound of a K-term dot product of A·B computed by NumPy in float64:
|C - AB| <= g |A||B| element by element, g = K u / (1 - K u) with u = 2^-24 (FP32), or for a variant
whose name says tf32 (1 + 2^-10)^2 (1 + K 2^-23 / (1 - K 2^-23)) - 1, plus 2 K 2^-53 for float64.
At least one result must be there.
"""
import argparse
import pathlib
import sys
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from dump_files import Parser, current_files, dump_folder, positive_int  # noqa: E402

import numpy as np


def gamma(k, u):
    return k * u / (1 - k * u)


def main():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=dump_folder("a.npy", "b.npy"))
    parser.add_argument("--m", type=positive_int, required=True)
    parser.add_argument("--n", type=positive_int, required=True)
    parser.add_argument("--k", type=positive_int, required=True)
    args = parser.parse_args()
    a, b = np.load(args.dir / "a.npy"), np.load(args.dir / "b.npy")
    ok = a.shape == (args.m, args.k) and b.shape == (args.k, args.n) and a.dtype == b.dtype == np.float32
    if not ok:
        print(f"a.npy {a.shape} {a.dtype}, b.npy {b.shape} {b.dtype}: expected float32 {args.m}x{args.k}, {args.k}x{args.n}")
        return 1
    exact = a.astype(np.float64) @ b.astype(np.float64)
    scale = np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64))
    results = current_files(args.dir, "result_*.npy")
    if not results:
        print("no result_*.npy")
        return 1
    reference = 2 * gamma(args.k, 2.0**-53)
    for path in results:
        c = np.load(path)
        if c.shape != (args.m, args.n) or c.dtype != np.float32:
            print(f"{path.name}: {c.shape} {c.dtype}")
            ok = False
            continue
        sums = gamma(args.k, 2.0**-23 if "tf32" in path.name else 2.0**-24)
        g = ((1 + 2.0**-10) ** 2 * (1 + sums) - 1 if "tf32" in path.name else sums) + reference
        err = np.abs(c.astype(np.float64) - exact)
        worst = float(np.max(err / scale)) if np.all(np.isfinite(c)) else float("inf")
        print(f"{path.name}: max |C - AB| / |A||B| = {worst:.3g} (bound {g:.3g})")
        ok = ok and worst <= g
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
