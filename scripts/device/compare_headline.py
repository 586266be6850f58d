#!/usr/bin/env python3
"""Each variant of a new run beside the same variant of the committed run with the same file name.

    python3 scripts/device/compare_headline.py NEW_DIR OLD_DIR [OLD_DIR ...]

For every NEW_DIR/*.json (a chapter's --json result) the first OLD_DIR holding a file of that name is
the reference. Prints, per variant that both ran, the median time per step then and now, their
ratio, and the share of the limit (or GFLOP/s where the chapter has no bandwidth limit), and marks a
GPU variant more than 5% slower now (the host's CPU variants are shown, not judged: a shared host's
load moves them by more than that). Exits 1 when a new run failed its verification or a variant slowed
down beyond that mark; a variant only one of the two runs has is listed, not judged. Times are judged
only between runs on the same GPU (the JSON's CUDA device name): a committed run from another GPU
(an H100's beside an H200's) is shown for the comparison it teaches, marked "other GPU", not judged.
"""
import json
import pathlib
import sys

SLOWER = 1.05  # beyond run-to-run noise on one GPU (the chapters' repeated medians vary by about 1%)


def rows(path):
    j = json.loads(path.read_text())
    out = {}
    for r in j.get("results", []):
        out[r["variant"]] = {"ms": r.get("ms_per_step") or float("nan"), "share": r.get("limit_share"),
                             "gflops": r.get("gflops"), "check": r.get("check"), "backend": r.get("backend")}
    return out


def gpu_name(path):
    """The GPU a --json result ran on: the CUDA device's name, else the OpenCL device's, else the
    OpenGL renderer's (chapter 02 opens OpenGL alone; its renderer reads "NVIDIA H200/PCIe/SSE2"),
    or "" when the result names none (then no two runs count as the same GPU)."""
    devices = {k: v.get("device", {}) for k, v in json.loads(path.read_text()).get("backends", {}).items()}
    name = (devices.get("cuda", {}).get("name") or devices.get("opencl", {}).get("name")
            or devices.get("gl", {}).get("gl_renderer", "").split("/")[0])
    return name or ""


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    new_dir, old_dirs = pathlib.Path(sys.argv[1]), [pathlib.Path(d) for d in sys.argv[2:]]
    bad = []
    print(f"{'run':<34} {'variant':<22} {'then ms':>10} {'now ms':>10} {'now/then':>9} {'share/GFLOP/s now':>18}")
    for new in sorted(new_dir.glob("*.json")):
        old = next((d / new.name for d in old_dirs if (d / new.name).is_file()), None)
        now = rows(new)
        then = rows(old) if old else {}
        gpu_now, gpu_then = gpu_name(new), gpu_name(old) if old else ""
        same_gpu = old is not None and gpu_now != "" and gpu_then == gpu_now
        if old is not None and not same_gpu:
            why = (f"from another GPU ({gpu_then or 'none named'} then, {gpu_now} now)" if gpu_now
                   else "(the new run names no GPU)")
            print(f"{new.stem}: against {old} {why}: times shown, not judged")
        for variant, n in now.items():
            t = then.get(variant)
            ratio = n["ms"] / t["ms"] if t and t["ms"] > 0 else float("nan")
            rate = n["share"] if n["share"] is not None else n["gflops"]
            rate_text = f"{100 * rate:.1f}%" if n["share"] is not None else (f"{rate:.0f}" if rate is not None else "-")
            mark = ""
            if n["check"] == "FAIL":
                mark = "  FAIL"
                bad.append(f"{new.name} {variant}: FAIL")
            elif same_gpu and ratio == ratio and ratio > SLOWER and n["backend"] != "cpu":
                mark = "  slower"
                bad.append(f"{new.name} {variant}: {ratio:.3f}x the time")
            then_ms = f"{t['ms']:.4f}" if t else "-"
            print(f"{new.stem:<34} {variant:<22} {then_ms:>10} {n['ms']:>10.4f} {ratio:>9.3f} {rate_text:>18}{mark}")
        for variant in sorted(set(then) - set(now)):
            print(f"{new.stem:<34} {variant:<22} (only in {old})")
    if bad:
        print("\n".join(["", "not within noise of the committed runs:"] + bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
