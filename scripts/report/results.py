"""Reading result folders: every chapter's --json file and scripts/lecture.sh's runs.tsv.

A folder holds the runs of one machine. Each run becomes a Run, whatever state it is in: a result
the report can read (status "ok" or "failed" when a variant failed its verification), or one it
cannot (skipped, not built, broke, an older schema, a truncated file), which the report prints as one
line instead of a table. Nothing here raises on a bad file but read_nvidia_sample, whose callers
name the one file they asked for.
"""
from __future__ import annotations

import csv
import json
import os
import re
from dataclasses import dataclass, field

SCHEMA_VERSION = 2
# The schemas this report reads, by the "schema" field of a chapter's JSON, and their short kind.
SCHEMAS = {
    "gpgpu-then-and-now/result": "result",            # common/src/experiment.cpp (Experiment::finish)
    "gpgpu-then-and-now/width-sweep": "width_sweep",  # problems/jacobi/src/sweep.cpp (chapters 03-05)
    "gpgpu-then-and-now/matrix-sweep": "matrix_sweep",  # problems/matrix/src/sweep.cpp (chapter 09 on)
    "gpgpu-then-and-now/gemm-sweep": "gemm_sweep",      # problems/blas/src/sweep.cpp (chapter 10)
}
READABLE = ("ok", "failed")
# The committed H200 runs the chapter READMEs quote (folders under results/; results/README.md says
# how each was made): its lecture (chapters 01-13 at the lecture sizes, the files of h100_lecture/)
# and the focused batches of chapters 09-12 (the files of h100/). A new measurement changes these.
H200_LECTURE = "h200_lecture"
H200_BATCHES = "h200/chapters_1fb7097"


@dataclass
class Run:
    machine: str            # the folder's label (its name), e.g. "h100"
    name: str               # the file name, or the run's name when there is no file
    chapter: str = "?"      # "08"
    program: str = ""       # "ch08_opencl_port"
    title: str = ""
    kind: str = ""          # "result", "width_sweep", "matrix_sweep", or "" when unreadable
    status: str = "ok"      # ok | failed | skipped | not built | error | unreadable | old schema | unknown schema
    message: str = ""       # why, for every status but ok
    doc: dict = field(default_factory=dict)
    path: str = ""          # the JSON file, when there is one (files beside it: plots_tlm.py's spectrum)

    @property
    def readable(self) -> bool:
        return self.status in READABLE and bool(self.doc)

    def size_label(self) -> str:
        """The grid or matrix size of a result ("4096²"), or the run's name."""
        problem = self.doc.get("problem") if isinstance(self.doc.get("problem"), dict) else {}
        # A grid (nx, ny: the Jacobi chapters) or a matrix (rows, cols: chapter 09 on).
        nx, ny = problem.get("nx", problem.get("cols")), problem.get("ny", problem.get("rows"))
        if isinstance(nx, int) and isinstance(ny, int):
            return f"{nx}²" if nx == ny else f"{nx}x{ny}"
        # A product C = A·B of m x n x k (chapters 10 and 10b): "8192³", "3001x5003x2049".
        m, n, k = (problem.get(key) for key in ("m", "n", "k"))
        if all(isinstance(v, int) and not isinstance(v, bool) for v in (m, n, k)):
            return f"{m}³" if m == n == k else f"{m}x{n}x{k}"
        if self.kind == "width_sweep":
            return "width sweep"
        if self.kind == "matrix_sweep":
            return "sweep"
        return os.path.splitext(self.name)[0]

    def gpus(self) -> int:
        """The most GPUs a variant of the run used (chapter 13's extra.gpus), 1 when none says."""
        counts = [row["extra"]["gpus"] for row in self.doc.get("results", [])
                  if isinstance(row, dict) and isinstance(row.get("extra"), dict)
                  and isinstance(row["extra"].get("gpus"), int) and not isinstance(row["extra"]["gpus"], bool)]
        return max(counts, default=1)

    def setting(self) -> str:
        """What a run measured, for comparing machines: its size, the words of its problem (element
        type, scenario) and, on several GPUs, how many: "4096², 4 GPUs", "8192³, float"."""
        problem = self.doc.get("problem") if isinstance(self.doc.get("problem"), dict) else {}
        words = [str(v) for k, v in sorted(problem.items()) if isinstance(v, str) and k != "reference"]
        return ", ".join([self.size_label(), *words] + ([f"{self.gpus()} GPUs"] if self.gpus() > 1 else []))

    def sort_key(self):
        problem = self.doc.get("problem") if isinstance(self.doc.get("problem"), dict) else {}
        nx = problem.get("nx", problem.get("cols", problem.get("m")))
        nx = nx if isinstance(nx, int) else 1 << 62
        return (self.chapter, self.kind != "result", nx, self.name)


def _read_runs_tsv(folder: str) -> list[dict]:
    path = os.path.join(folder, "runs.tsv")
    if not os.path.exists(path):
        return []
    try:
        with open(path, newline="", encoding="utf-8", errors="replace") as f:
            return [row for row in csv.DictReader(f, delimiter="\t") if row.get("chapter")]
    except (OSError, csv.Error):
        return []


def machine_title(folder: str) -> str:
    """The machine's name as scripts/lecture.sh wrote it, or the folder's name."""
    try:
        with open(os.path.join(folder, "machine.txt"), encoding="utf-8", errors="replace") as f:
            name = f.readline().strip()
            if name:
                return name
    except OSError:
        pass
    return os.path.basename(os.path.normpath(folder))


def read_result(path: str, machine: str) -> Run:
    """One JSON file as a Run; a file it cannot use gives a Run with the reason, never an exception."""
    name = os.path.basename(path)
    # The chapter from the file's name (ch08_opencl_port_4096.json) until the file itself says.
    guess = re.match(r"ch(\d\d[a-z]?)_", name)
    run = Run(machine=machine, name=name, chapter=guess.group(1) if guess else "?", path=path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        run.status, run.message = "unreadable", f"cannot read: {e}"
        return run
    if not text.strip():
        run.status, run.message = "unreadable", "empty file (the run ended before it wrote its results?)"
        return run
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        run.status = "unreadable"
        run.message = f"truncated or not JSON ({e.msg} at line {e.lineno}, column {e.colno})"
        return run
    if not isinstance(doc, dict):
        run.status, run.message = "unreadable", "not a result object"
        return run
    chapter = doc.get("chapter") if isinstance(doc.get("chapter"), dict) else {}
    run.chapter = str(chapter.get("id", run.chapter))
    run.program = str(chapter.get("program", ""))
    run.title = str(chapter.get("title", ""))
    schema, version = doc.get("schema"), doc.get("schema_version")
    if schema not in SCHEMAS:
        run.status = "unknown schema" if schema else "old schema"
        run.message = (f"schema '{schema}' is not one this report reads" if schema else
                       "no 'schema' field: written before schema version 2; rerun the chapter")
        return run
    if version != SCHEMA_VERSION:
        run.status = "old schema" if isinstance(version, int) and version < SCHEMA_VERSION else "unknown schema"
        run.message = f"{schema} version {version}; this report reads version {SCHEMA_VERSION}: rerun the chapter"
        return run
    run.kind = SCHEMAS[schema]
    listed = doc.get("results" if run.kind == "result" else "points")
    if not isinstance(listed, list) or not all(isinstance(r, dict) for r in listed):
        run.status, run.message = "unreadable", f"'{'results' if run.kind == 'result' else 'points'}' is not a list of rows"
        return run
    run.doc = doc
    failed = [r.get("variant", "?") for r in listed if r.get("check") == "FAIL"]
    if failed:
        run.status = "failed"
        run.message = "verification FAILED: " + ", ".join(dict.fromkeys(str(v) for v in failed))
    return run


def machine_label(folder: str) -> str:
    """The folder's name, the label of its runs; a folder named after a chapter (results/h200x4/ch13/)
    holds one chapter's runs of the machine above it, so it is labelled by both ("h200x4/ch13")."""
    path = os.path.normpath(folder)
    name = os.path.basename(path)
    parent = os.path.basename(os.path.dirname(path))
    return f"{parent}/{name}" if re.fullmatch(r"ch\d\d[a-z]?", name) and parent else name


def read_folder(folder: str) -> list[Run]:
    """Every run of one folder: its JSON files, and the runs.tsv lines of runs that left none."""
    machine = machine_label(folder)
    runs: list[Run] = []
    if not os.path.isdir(folder):
        return [Run(machine=machine, name=folder, status="unreadable", message="no such folder")]
    tsv = _read_runs_tsv(folder)
    by_file = {row.get("file"): row for row in tsv if row.get("file") not in (None, "", "-")}
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        run = read_result(os.path.join(folder, name), machine)
        row = by_file.get(name)
        if row:
            if run.chapter == "?":
                run.chapter, run.program = row.get("chapter", "?"), row.get("target", "")
            code = row.get("exit", "")
            # The exit code has the last word on how the run ended; the file tells what it measured.
            if code == "77":
                run.status, run.message = "skipped", row.get("message", "")
            elif code not in ("0", "1", "") and run.status in READABLE:
                run.status, run.message = "error", f"exit {code}: {row.get('message', '')}"
            elif code == "1" and run.status == "ok":
                run.status, run.message = "failed", f"exit 1: {row.get('message', '')}"
        runs.append(run)
    for row in tsv:
        if row.get("file") not in (None, "", "-"):
            continue
        code, status = row.get("exit", ""), row.get("status", "")
        why = row.get("message", "")
        if why.startswith(status + ": "):  # lecture.sh's "not built: <reason>"
            why = why[len(status) + 2:]
        if status == "ok" or (status == "failed" and code == "1"):
            status, why = "error", f"exit {code} but no JSON was written: {why}"
        elif status not in ("skipped", "not built"):
            status, why = "error", f"exit {code}: {why}"
        label = row.get("run", "") if row.get("run", "-") != "-" else ""
        runs.append(Run(machine=machine, name=f"{row.get('target', '?')} {label}".strip(),
                        chapter=row.get("chapter", "?"), program=row.get("target", ""), status=status,
                        message=why))
    return runs


def read_folders(folders: list[str]) -> list[Run]:
    runs: list[Run] = []
    for folder in folders:
        runs.extend(read_folder(folder))
    return runs


def sweeps_rows(run: Run) -> list[tuple[str, int, dict]]:
    """Chapter 07c: (variant, s, row) for every result row of a run. A run of a --sweeps-per-trip list
    names its rows `<variant>_s<s>`; a run of one s has the variant's own name, and s is its
    --sweeps-per-trip (4 when none is given). The variants that do not depend on s (07b's,
    persistent) get the run's s as well, so that each s of a list can be read as a run of its own."""
    line = run.doc.get("command_line", "")
    given = re.search(r"--sweeps-per-trip[ =]([\d,]+)", " ".join(line) if isinstance(line, list) else str(line))
    listed = [int(k) for k in given.group(1).split(",") if k] if given else [4]
    out = []
    for row in run.doc.get("results", []):
        name = str(row.get("variant"))
        m = re.fullmatch(r"(.+)_s(\d+)", name)
        if m:
            out.append((m.group(1), int(m.group(2)), row))
        else:
            out += [(name, s, row) for s in listed]
    return out


NVIDIA_SAMPLE_SCHEMA = "gpgpu-then-and-now/nvidia-sample"  # scripts/device/nvidia_sample_parse.py


def read_nvidia_sample(path: str) -> list[dict]:
    """The run records of NVIDIA's multi-GPU Jacobi sample (nvidia_sample.json, made by
    scripts/device/nvidia_sample_parse.py); ValueError, naming the file, when it cannot be read or is
    not such a record."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise ValueError(f"{path}: {e}") from e
    if doc.get("schema") != NVIDIA_SAMPLE_SCHEMA:
        raise ValueError(f"{path} is not a record of NVIDIA's sample")
    return [r for r in doc.get("runs", []) if isinstance(r, dict)]


def best_sample_run(runs: list[dict], gpus: int, nx: int, ny: int, nccheck: int) -> dict | None:
    """The sample's passing run of the highest efficiency at G GPUs, an nx x ny grid and a check every
    nccheck iterations (its best variant there), or None."""
    theirs = [r for r in runs if (r.get("gpus"), r.get("nx"), r.get("ny"), r.get("nccheck")) == (gpus, nx, ny, nccheck)
              and r.get("status") == "PASS" and isinstance(r.get("efficiency_percent"), (int, float))]
    return max(theirs, key=lambda r: r["efficiency_percent"], default=None)
