#!/usr/bin/env python3
"""Checks a chapter's --dump folder with NumPy alone, independently of the C++ code.

    python3 problems/jacobi/check_dump.py DIR --iters N --omega W [--nx NX --ny NY]

It rebuilds the matrix-vector product from diagonals.npy (shape (9, ny, nx), directions SW S SE W C E
NW N NE), checks the matrix is symmetric, runs the same weighted Jacobi iteration in float64 from
x0 = 0, compares it with reference.npy, and compares every solution_<variant>.npy with it (the
ones dump_manifest.json lists, when the chapter wrote one: problems/dump_files.py). Exit code 0 when all
agree, 1 when one does not, 2 on bad options or files (one line).
"""
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from dump_files import Parser, current_files, dump_folder, positive_int, weight  # noqa: E402

# (dy, dx) of each stored diagonal, in file order.
STEPS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 0), (0, 1), (1, -1), (1, 0), (1, 1)]


def neighbour(x, dy, dx):
    """x shifted so that out[j, i] = x[j + dy, i + dx], zero outside the grid."""
    ny, nx = x.shape
    out = np.zeros_like(x)
    out[max(0, -dy):ny - max(0, dy), max(0, -dx):nx - max(0, dx)] = \
        x[max(0, dy):ny + min(0, dy) or None, max(0, dx):nx + min(0, dx) or None]
    return out


def matvec(diagonals, x):
    return sum(diagonals[d] * neighbour(x, dy, dx) for d, (dy, dx) in enumerate(STEPS))


def main():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=dump_folder("diagonals.npy", "rhs.npy", "vm.npy", "reference.npy"))
    parser.add_argument("--iters", type=positive_int, required=True)
    parser.add_argument("--omega", type=weight, required=True)
    parser.add_argument("--nx", type=positive_int, help="expected grid width (checked when given)")
    parser.add_argument("--ny", type=positive_int, help="expected grid height (checked when given)")
    args = parser.parse_args()

    A = np.load(args.dir / "diagonals.npy").astype(np.float64)
    f = np.load(args.dir / "rhs.npy").astype(np.float64)
    if f.ndim != 2:
        sys.exit(f"rhs.npy has shape {f.shape}, expected a grid (ny, nx)")
    ny, nx = f.shape
    if (args.nx, args.ny) != (None, None) and (nx, ny) != (args.nx, args.ny):
        sys.exit(f"the dump holds a {nx} x {ny} grid, expected {args.nx} x {args.ny}")
    for name, shape, expected in (("diagonals.npy", A.shape, (9, ny, nx)),
                                  ("vm.npy", np.load(args.dir / "vm.npy").shape, (ny + 2, nx + 2))):
        if shape != expected:
            sys.exit(f"{name} has shape {shape}, expected {expected} for the {nx} x {ny} grid of rhs.npy")

    # Symmetry: the coupling of (j, i) with (j+dy, i+dx) equals the reverse coupling.
    for d, (dy, dx) in enumerate(STEPS):
        partner = neighbour(A[8 - d], dy, dx)
        inside = neighbour(np.ones((ny, nx)), dy, dx) > 0
        if not np.array_equal(A[d][inside], partner[inside]):
            sys.exit(f"matrix is not symmetric in direction {d}")

    x = np.zeros((ny, nx))
    centre = A[4]
    for _ in range(args.iters):
        offdiag = matvec(A, x) - centre * x
        x = (1 - args.omega) * x + args.omega * (f - offdiag) / centre

    ref = np.load(args.dir / "reference.npy")
    if ref.shape != (ny, nx):
        sys.exit(f"reference.npy has shape {ref.shape}, expected {(ny, nx)}")
    tol = 4 * 2.0**-24 * (args.iters + 16)
    err = np.linalg.norm(x - ref) / np.linalg.norm(ref)
    print(f"reference.npy vs NumPy Jacobi: rel. error {err:.2e}")
    if not err <= 1e-10:  # also catches NaN
        sys.exit("reference.npy does not match the iteration")
    residual = np.linalg.norm(f - matvec(A, ref)) / np.linalg.norm(f)
    print(f"residual of the reference: {residual:.4e}")
    solutions = current_files(args.dir, "solution_*.npy")
    if not solutions:
        sys.exit("no solution_*.npy in the dump")
    for path in solutions:
        s = np.load(path).astype(np.float64)
        if s.shape != ref.shape:
            sys.exit(f"{path.name}: shape {s.shape}, expected {ref.shape} (a file of another dump?)")
        err = np.linalg.norm(s - ref) / np.linalg.norm(ref)
        verdict = "PASS" if err <= tol and np.isfinite(s).all() else "FAIL"
        print(f"{path.name}: rel. error {err:.2e} (tolerance {tol:.1e}) {verdict}")
        if verdict == "FAIL":
            sys.exit(1)


if __name__ == "__main__":
    main()
