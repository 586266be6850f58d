#!/usr/bin/env python3
"""Checks chapter 12's --dump folder with NumPy alone, independently of the C++ code.

    python3 problems/blas/check_routines_dump.py DIR

For each routine that left inputs in DIR (<routine>_x.npy, _y.npy, _a.npy, _b.npy, _alpha.npy), every
<routine>_result_<variant>.npy must have the routine's shape, be float32, and lie within the
routine's bound of the float64 result NumPy computes: |r - exact| <= g s element by element, with
s the sum of the terms' magnitudes and g = n u / (1 - n u) for the routine's n rounding steps
(u = 2^-24), plus 2 n 2^-53 for float64: saxpy n = 2, sscal n = 1, sgemv n = columns of A, sgemv_t
n = rows, sgemm n = k, conv2d n = k² (zero padding). At least one result must be there.
"""
import pathlib
import sys

import numpy as np


def gamma(n, u):
    return n * u / (1 - n * u)


def conv2d(image, f):
    """Zero-padded k x k correlation, and the same of the magnitudes."""
    k = f.shape[0]
    r = k // 2
    padded = np.pad(image, r)
    value, scale = np.zeros_like(image), np.zeros_like(image)
    for p in range(k):
        for q in range(k):
            window = padded[p:p + image.shape[0], q:q + image.shape[1]]
            value += f[p, q] * window
            scale += abs(f[p, q]) * np.abs(window)
    return value, scale


def expected(routine, d):
    """(exact, scale, n) of one routine from its inputs in float64."""
    load = lambda name: np.load(d / f"{routine}_{name}.npy").astype(np.float64)
    if routine == "saxpy":
        a, x, y = load("alpha")[0], load("x"), load("y")
        return a * x + y, np.abs(a * x) + np.abs(y), 2
    if routine == "sscal":
        a, x = load("alpha")[0], load("x")
        return a * x, np.abs(a * x), 1
    if routine in ("sgemv", "sgemv_t"):
        a, x = load("a"), load("x")
        if routine == "sgemv_t":
            a = a.T
        return a @ x, np.abs(a) @ np.abs(x), a.shape[1]
    if routine == "sgemm":
        a, b = load("a"), load("b")
        return a @ b, np.abs(a) @ np.abs(b), a.shape[1]
    if routine == "conv2d":
        image, f = load("a"), load("b")
        value, scale = conv2d(image, f)
        return value, scale, f.size
    raise ValueError(routine)


def main():
    d = pathlib.Path(sys.argv[1])
    results = sorted(d.glob("*_result_*.npy"))
    if not results:
        print("no <routine>_result_*.npy")
        return 1
    ok = True
    cache = {}
    for path in results:
        routine = path.name.split("_result_")[0]
        if routine not in cache:
            cache[routine] = expected(routine, d)
        exact, scale, n = cache[routine]
        got = np.load(path)
        if got.shape != exact.shape or got.dtype != np.float32:
            print(f"{path.name}: {got.shape} {got.dtype}, expected float32 {exact.shape}")
            ok = False
            continue
        g = gamma(n, 2.0**-24) + 2 * gamma(n, 2.0**-53)
        err = np.abs(got.astype(np.float64) - exact)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(scale > 0, err / scale, np.where(err == 0, 0.0, np.inf))
        worst = float(np.max(ratio)) if np.all(np.isfinite(got)) else float("inf")
        print(f"{path.name}: max |r - exact| / s = {worst:.3g} (bound {g:.3g})")
        ok = ok and worst <= g
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
