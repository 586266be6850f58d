#!/usr/bin/env python3
"""What scripts/device/ch13.sh's `sample` step reads back from NVIDIA's multi-GPU Jacobi sample
(github.com/NVIDIA/multi-gpu-programming-models), built from its source and run beside chapter 13:

  nvidia_sample_parse.py summary --runs RUNS.tsv --builds BUILDS.tsv --commit HASH --out JSON
      one record per run listed in RUNS.tsv (variant, gpus, nx, ny, nccheck, niter, exit, output: the
      run's saved output, relative to the folder of RUNS.tsv), from the result line the run printed;
      BUILDS.tsv (variant, status, command or reason) says how each variant was built or why not.
      Exit 1 when a run that exited 0 printed no valid result line (the sample prints none when its
      check against its own one-GPU run fails, and multi_threaded_p2p exits 0 without one when the
      GPUs cannot reach each other's memory); exit 2 on bad input files.
  nvidia_sample_parse.py table JSON
      the short table: per G, size and norm frequency, each variant's G-GPU time per iteration and
      its efficiency.

The sample prints one of two result forms (its printf calls, rank 0 or the master thread):
  -csv:     "<variant>, nx, ny, iter_max, nccheck, gpus, 1, t_gpus, t_one_gpu"  (seconds, %f)
  default:  "Num GPUs: G." then "NYxNX: 1 GPU: t s, G GPUs: t s, speedup: s, efficiency: e "
The step runs with -csv (six decimals instead of four; with the norm every 1 or 10 iterations both
forms compute the same norms, since the default form's extra norm every 100 iterations falls on a
checked iteration); the efficiency is then computed as the default form prints it:
t_one_gpu / (G t_gpus), in percent.
"""
import argparse
import csv
import json
import os
import re
import sys

SCHEMA = "gpgpu-then-and-now/nvidia-sample"
REPOSITORY = "https://github.com/NVIDIA/multi-gpu-programming-models"
VARIANTS = ("multi_threaded_p2p", "multi_threaded_copy_overlap", "nccl", "mpi")

# What the sample computes, as its sources state it (read at the commit recorded in the JSON).
COMPUTES = {
    "precision": "FP32: `typedef float real` in every variant built here (nccl and mpi switch to double only "
                 "with -DUSE_DOUBLE, which the step does not set); the norm is summed in float too",
    "stencil": "5-point Jacobi sweep of Laplace's equation, a_new = (left + right + above + below) / 4, "
               "8 bytes per node and iteration at best (one float read, one written)",
    "boundaries": "left and right columns fixed at sin(2 pi y / (ny - 1)); periodic from top to bottom, so "
                  "every GPU exchanges one row with each of two neighbours",
    "norm": "L2 norm of the update, sqrt(sum over the interior of (new - old)^2), summed per block with "
            "cub::BlockReduce and atomicAdd in float, copied to the host and waited for (summed over GPUs "
            "by OpenMP threads, or MPI_Allreduce for nccl and mpi) on every nccheck-th iteration; the loop "
            "stops when it falls to 1e-8 or after niter iterations",
    "timing": "wall clock (omp_get_wtime, MPI_Wtime for nccl and mpi) over the whole loop, one run, after "
              "the same loop on one GPU in the same process (its baseline, t_one_gpu; under nccl and mpi every "
              "rank runs it on its own GPU at the same time and rank 0's time is printed); before the clock "
              "starts nccl and mpi exchange rows ten times, multi_threaded_copy_overlap copies them four times",
    "check": "the G-GPU result equal to its one-GPU result within 1e-8 at the interior nodes; "
             "no result line is printed otherwise",
}

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_HUMAN = re.compile(rf"^(\d+)x(\d+): 1 GPU: +({_NUMBER}) s, (\d+) GPUs: +({_NUMBER}) s, speedup: +({_NUMBER}), "
                    rf"efficiency: +({_NUMBER}) *$")


def parse_csv_line(line):
    """The -csv result line as a dict; ValueError when the line is not one."""
    fields = [f.strip() for f in line.strip().split(",")]
    if len(fields) != 9:
        raise ValueError(f"{len(fields)} fields, expected 9: {line.strip()!r}")
    name, rest = fields[0], fields[1:]
    if name not in VARIANTS:
        raise ValueError(f"unknown variant {name!r}")
    try:
        nx, ny, niter, nccheck, gpus, p2p = (int(f) for f in rest[:6])
        t_gpus, t_one = (float(f) for f in rest[6:])
    except ValueError:
        raise ValueError(f"not numbers where the sample prints them: {line.strip()!r}") from None
    if min(nx, ny, niter, nccheck, gpus) < 1 or not t_gpus > 0 or not t_one > 0:
        raise ValueError(f"a size, count or time that is not positive: {line.strip()!r}")
    return {"variant": name, "nx": nx, "ny": ny, "niter": niter, "nccheck": nccheck, "gpus": gpus,
            "p2p_column": p2p, "t_gpus_s": t_gpus, "t_one_gpu_s": t_one, "efficiency_printed": None}


def parse_human_line(line):
    """The default form's result line (the variant is not in it); ValueError when it is not one."""
    m = _HUMAN.match(line.rstrip("\n"))
    if not m:
        raise ValueError(f"not the sample's result line: {line.strip()!r}")
    ny, nx, t_one, gpus, t_gpus, _speedup, eff = m.groups()
    if not float(t_gpus) > 0 or not float(t_one) > 0:
        raise ValueError(f"a time that is not positive: {line.strip()!r}")
    return {"variant": None, "nx": int(nx), "ny": int(ny), "niter": None, "nccheck": None, "gpus": int(gpus),
            "p2p_column": None, "t_gpus_s": float(t_gpus), "t_one_gpu_s": float(t_one),
            "efficiency_printed": float(eff)}


def result_lines(text):
    """Every line of a run's output that claims to be a result: starts with a variant's name and a
    comma, or has the default form's "1 GPU:" part. Other lines (MPI's and NCCL's notes) are not."""
    claims = []
    for line in text.splitlines():
        head = line.split(",", 1)[0].strip()
        if (head in VARIANTS and "," in line) or re.match(r"^\d+x\d+: 1 GPU:", line):
            claims.append(line)
    return claims


def parse_output(text, want):
    """The record of one run: `want` holds what the run was asked for (variant, gpus, nx, ny,
    nccheck, niter, exit). PASS needs exit 0 and exactly one valid result line that agrees with it."""
    record = dict(want)
    record["precision"] = "FP32"  # `typedef float real` as built here (COMPUTES["precision"])
    record.update(status="FAIL", reason="", iterations=None, t_gpus_s=None, t_one_gpu_s=None, ms_per_iteration_gpus=None,
                  ms_per_iteration_one_gpu=None, speedup=None, efficiency_percent=None, efficiency_source=None)
    claims = result_lines(text)
    nccl = re.search(r"^NCCL version (\S+)", text, re.M)  # printed under NCCL_DEBUG=VERSION
    record["nccl_version"] = nccl.group(1) if nccl else None
    if want["exit"] != 0:
        record["reason"] = f"exit {want['exit']}"
        return record
    if len(claims) != 1:
        record["reason"] = ("no result line (the sample prints none when its G-GPU result differs from its "
                            "one-GPU result, or when the GPUs cannot reach each other)" if not claims
                            else f"{len(claims)} result lines")
        return record
    line = claims[0]
    try:
        got = parse_human_line(line) if re.match(r"^\d+x\d+: 1 GPU:", line) else parse_csv_line(line)
    except ValueError as e:
        record["reason"] = f"malformed result line: {e}"
        return record
    for key in ("variant", "nx", "ny", "niter", "nccheck", "gpus"):
        if got[key] is not None and got[key] != want[key]:
            record["reason"] = f"the result line's {key} is {got[key]}, the run asked for {want[key]}"
            return record
    g, t1, tg = want["gpus"], got["t_one_gpu_s"], got["t_gpus_s"]
    record.update(status="PASS", t_gpus_s=tg, t_one_gpu_s=t1,
                  # The sample prints its -niter, not the count it ran: it stops early only when the
                  # norm falls to 1e-8, which the step's sizes do not reach in its iteration counts.
                  iterations=want["niter"],
                  ms_per_iteration_gpus=1e3 * tg / want["niter"], ms_per_iteration_one_gpu=1e3 * t1 / want["niter"],
                  speedup=t1 / tg)
    if got["efficiency_printed"] is not None:
        record.update(efficiency_percent=got["efficiency_printed"], efficiency_source="printed")
    else:
        record.update(efficiency_percent=100.0 * t1 / (g * tg),
                      efficiency_source="t_one_gpu / (G t_gpus), as the sample's default form prints it")
    return record


def _read_tsv(path, columns):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f, delimiter="\t"))
    except OSError as e:
        raise SystemExit(f"nvidia_sample_parse.py: cannot read {path}: {e.strerror}") from None
    for i, row in enumerate(rows, 2):
        if None in row or any(row.get(c) is None for c in columns):
            print(f"nvidia_sample_parse.py: {path}:{i}: expected the columns {', '.join(columns)}", file=sys.stderr)
            sys.exit(2)
    return rows


RUN_COLUMNS = ("variant", "gpus", "nx", "ny", "nccheck", "niter", "exit", "output")
BUILD_COLUMNS = ("variant", "status", "detail")


def summary(runs_path, builds_path, commit, out_path, environment):
    base = os.path.dirname(os.path.abspath(runs_path))
    records = []
    for row in _read_tsv(runs_path, RUN_COLUMNS):
        try:
            want = {k: int(row[k]) for k in ("gpus", "nx", "ny", "nccheck", "niter", "exit")}
        except ValueError:
            print(f"nvidia_sample_parse.py: {runs_path}: not a number in {row}", file=sys.stderr)
            sys.exit(2)
        want = {"variant": row["variant"], **want, "output": row["output"]}
        try:
            with open(os.path.join(base, row["output"]), errors="replace") as f:
                text = f.read()
        except OSError:
            text = ""
        records.append(parse_output(text, want))
    builds = {row["variant"]: {"status": row["status"], "detail": row["detail"]}
              for row in _read_tsv(builds_path, BUILD_COLUMNS)} if builds_path else {}
    doc = {"schema": SCHEMA, "version": 1,
           "sample": {"repository": REPOSITORY, "commit": commit, "computes": COMPUTES, "builds": builds},
           "environment": environment, "runs": records}
    with open(out_path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    unexplained = [r for r in records if r["exit"] == 0 and r["status"] != "PASS"]
    for r in unexplained:
        print(f"{r['variant']} g{r['gpus']} {r['nx']}x{r['ny']} every {r['nccheck']}: {r['reason']}", file=sys.stderr)
    return 1 if unexplained else 0


def table_lines(doc):
    """One line per G, size and norm frequency, the variants in the order they ran."""
    groups = {}
    for r in doc["runs"]:
        groups.setdefault((r["gpus"], r["nx"], r["ny"], r["nccheck"]), []).append(r)
    lines = []
    for (g, nx, ny, k), runs in groups.items():
        cells = []
        for r in runs:
            if r["status"] == "PASS":
                cells.append(f"{r['variant']} {r['ms_per_iteration_gpus']:.4f} ms ({r['efficiency_percent']:.1f}%)")
            else:
                cells.append(f"{r['variant']} FAIL ({r['reason']})")
        lines.append(f"nvidia_sample_g{g}_{nx}x{ny}_every{k}: " + "; ".join(cells))
    for name, b in doc["sample"].get("builds", {}).items():
        if b["status"] != "built":
            lines.append(f"nvidia_sample {name}: {b['status']} ({b['detail']})")
    return lines


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("summary")
    s.add_argument("--runs", required=True)
    s.add_argument("--builds")
    s.add_argument("--commit", default="unrecorded")
    s.add_argument("--out", required=True)
    s.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                   help="what the runs ran under (recorded in the JSON)")
    t = sub.add_parser("table")
    t.add_argument("json")
    a = p.parse_args(argv)
    if a.command == "summary":
        env = {}
        for item in a.env:
            name, sep, value = item.partition("=")
            if not sep or not name:
                p.error(f"--env takes NAME=VALUE, not {item!r}")
            env[name] = value
        return summary(a.runs, a.builds, a.commit, a.out, env)
    try:
        with open(a.json) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print(f"nvidia_sample_parse.py: cannot read {a.json}: {e}", file=sys.stderr)
        return 2
    print("\n".join(table_lines(doc)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
