#!/usr/bin/env python3
"""Checks a matrix chapter's --dump folder with NumPy alone, independently of the C++ code.

    python3 problems/matrix/check_dump.py DIR --rows R --cols C --type float|double|int

a.npy and b.npy must be R x C of the type; reference_add.npy must be a + b, reference_transpose.npy
a.T, reference_copy.npy a, bit for bit; every result_<variant>.npy must equal the reference of its
operation (its name says which: "transpose", "add", else a copy) in shape, dtype and every element
(the results dump_manifest.json lists, when the chapter wrote one: problems/dump_files.py). Exit code 0
when all agree, 1 when one does not, 2 on bad options or files (one line).
"""
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from dump_files import Parser, checked, current_files, dump_folder, positive_int  # noqa: E402

DTYPES = {"float": np.float32, "double": np.float64, "int": np.int32}


def main():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=dump_folder("a.npy", "b.npy"))
    parser.add_argument("--rows", type=positive_int, required=True)
    parser.add_argument("--cols", type=positive_int, required=True)
    parser.add_argument("--type", choices=DTYPES, required=True)
    args = parser.parse_args()
    dtype = DTYPES[args.type]
    failures = []

    def load(name):
        return np.load(checked(args.dir / name), allow_pickle=False)

    a, b = load("a.npy"), load("b.npy")
    for name, m in (("a", a), ("b", b)):
        if m.shape != (args.rows, args.cols) or m.dtype != dtype:
            failures.append(f"{name}.npy is {m.shape} {m.dtype}, expected ({args.rows}, {args.cols}) {np.dtype(dtype)}")
    if failures:  # the references below need a and b of one shape
        return finish(failures, [])
    if (a < 0).sum() == 0 or (a > 0).sum() == 0:
        failures.append("a.npy does not hold values of both signs")
    expected = {"add": a + b, "transpose": a.T, "copy": a}
    for op, ref in expected.items():
        path = args.dir / f"reference_{op}.npy"
        if path.exists() and not np.array_equal(load(path.name), ref):
            failures.append(f"{path.name} differs from NumPy's {op}")
    results = current_files(args.dir, "result_*.npy")
    if not results:
        failures.append("no result_*.npy files")
    for path in results:
        op = "transpose" if "transpose" in path.stem else "add" if "add" in path.stem else "copy"
        got, ref = load(path.name), expected[op]
        if got.shape != ref.shape or got.dtype != ref.dtype:
            failures.append(f"{path.name}: {got.shape} {got.dtype}, expected {ref.shape} {ref.dtype} ({op})")
        elif not np.array_equal(got, ref):
            failures.append(f"{path.name}: {int((got != ref).sum())} elements differ from NumPy's {op}")
    return finish(failures, results)


def finish(failures, results):
    for f in failures:
        print("check_dump.py:", f, file=sys.stderr)
    print(f"check_dump.py: {len(results)} result(s) checked, {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
