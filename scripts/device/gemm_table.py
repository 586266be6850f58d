#!/usr/bin/env python3
"""A short table of GEMM runs (chapters 10 and 10b's --json), one line per variant and file.

    python3 scripts/device/gemm_table.py RUN.json [RUN.json ...]

Prints each variant's TFLOP/s (median run), its arithmetic, its error over its bound and PASS/FAIL,
and its share of the vendor library's rate of the same arithmetic in that run. Only the standard library.
"""
import json
import pathlib
import sys


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    print(f"{'run':<28} {'variant':<26} {'arith':<5} {'TFLOP/s':>8} {'err/bound':>9} {'check':>5} {'% library':>9}")
    for name in sys.argv[1:]:
        path = pathlib.Path(name)
        j = json.loads(path.read_text())
        shares = j.get("library_share", {})
        for r in j.get("results", []):
            e = r.get("extra", {})
            share = shares.get(r["variant"])
            share_text = f"{100 * share:.1f}" if isinstance(share, (int, float)) else "-"
            ratio = e.get("error_over_bound")
            ratio_text = f"{ratio:.3f}" if isinstance(ratio, (int, float)) else "-"
            print(f"{path.stem:<28} {r['variant']:<26} {e.get('arithmetic', '-'):<5} {r['gflops'] / 1000:8.1f} "
                  f"{ratio_text:>9} {r.get('check', '-'):>5} {share_text:>9}")


if __name__ == "__main__":
    main()
