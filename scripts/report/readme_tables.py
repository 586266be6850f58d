#!/usr/bin/env python3
"""README tables generated from the committed results (results/<machine>/*.json).

A README asks for a table between two markers; everything between them is generated:

    <!-- results:TABLE chapter=08 source=h100 [key=value ...] -->
    (generated: do not edit; scripts/report/readme_tables.py rewrites it)
    <!-- /results -->

TABLE is one of the functions registered below with @table. `source` names the folder under
results/, `chapter` the chapter whose runs the table can show. Among those, one rule (select())
picks the runs for every table:

    file=ch09_8192_float.json[,...]   the runs by file name, in that order
    size=4096[,...]                   the runs of that size, in that order: a grid's nx = ny (= nz),
                                      a matrix's rows = cols, a product's m = n = k (or n); a run of
                                      another shape is named by file=
    type=float                        only runs whose problem.type is float (chapters 09 on)

Each listed file or size must match exactly one run. Tables of one run (then_now, jacobi_variants,
startup, width_sweep, matrix_sweep, gemm_steps, gemm_sweep) take one; without file= or size=,
exactly one run they can show must be left (after type=). A marker that matches no run, or several
where one is shown, is an error: no run is picked silently, the README is left as it is, and the
tool prints one line (the README, the marker, the runs it could choose from) and exits 1. A marker
without file= or size= whose chapter has no run for its table gets a line saying there are no
results, rather than old numbers.

One table reads several machines' folders rather than one `source`: `<!-- results:machines -->`,
the same kernels on the H100 and the H200 beside the roofline's prediction (machines_table.py, whose
header lists the file of every row); a row it cannot build is an error like a marker's.

Run with no options to rewrite every README (README.md, chapters/*/README.md); with --check to
compare only, printing a diff and exiting 1 when a README's table and results/ disagree (the CTest
test readme_results_tables).
"""
from __future__ import annotations

import argparse
import difflib
import glob
import math
import os
import re
import sys
from typing import Callable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import tables  # noqa: E402
from results import Run, best_sample_run, read_folder, read_nvidia_sample, sweeps_rows  # noqa: E402

BLOCK = re.compile(r"(<!-- results:(?P<name>[a-z_0-9]+)(?P<params>[^>]*?)-->\n)(?P<body>.*?)(<!-- /results -->)",
                   re.DOTALL)
NOTE = "<!-- generated from {files} by scripts/report/readme_tables.py: edit the results, not this table -->\n"

TABLES: dict[str, Callable[[list[Run], dict], str]] = {}


def table(func):
    TABLES[func.__name__] = func
    return func


class SelectionError(Exception):
    """A marker names no run, or several where its table shows one: never pick one silently."""


def _problem(run: Run) -> dict:
    return run.doc.get("problem") if isinstance(run.doc.get("problem"), dict) else {}


def _size(run: Run) -> int | None:
    """A run's size when one number says it: the grid's nx = ny (= nz), the matrix's rows = cols, or the
    product's m = n = k (or n alone); None for other shapes, which a marker names by file=."""
    problem = _problem(run)
    for keys in (("nx", "ny", "nz"), ("rows", "cols"), ("m", "n", "k")):
        dims = [problem[k] for k in keys if k in problem]
        if dims:
            return dims[0] if all(isinstance(d, int) and d == dims[0] for d in dims) else None
    return None


def _listing(runs: list[Run]) -> str:
    return ", ".join(r.name + (f" (size={_size(r)})" if _size(r) else "") for r in runs) or "no run"


def select(runs: list[Run], params: dict, one: bool) -> list[Run]:
    """The runs a marker names among those its table can show (`runs`, in their order), by one rule for
    every table: file=a.json,b.json or size=1024,4096 (see _size) lists them, type=float narrows;
    each listed file or size must match exactly one run, and a table that shows one run (`one`)
    takes one. Without file= and size=: all of `runs`, which for a one-run table must be one run
    (none at all: the README says there are no results). Anything else raises SelectionError."""
    if "type" in params:
        runs = [r for r in runs if _problem(r).get("type") == params["type"]]
    if "file" in params and "size" in params:
        raise SelectionError("names its run by file= and by size=: use one of them")
    key = "file" if "file" in params else "size" if "size" in params else None
    if key is None:
        if one and len(runs) > 1:
            raise SelectionError(f"matches {len(runs)} runs and its table shows one: {_listing(runs)}; "
                                 "name one with file= or size=")
        return runs
    wanted = params[key].split(",")
    if one and len(wanted) > 1:
        raise SelectionError(f"lists {len(wanted)} runs and its table shows one")
    chosen = []
    for w in wanted:
        hits = [r for r in runs if (r.name if key == "file" else str(_size(r))) == w]
        if len(hits) != 1:
            raise SelectionError(f"{key}={w} matches {len(hits) or 'none'} of the runs this table can show: "
                                 f"{_listing(runs)}" + ("; name one with file=" if hits else ""))
        chosen += hits
    return chosen


def _results(runs: list[Run]) -> list[Run]:
    """The result runs (not the sweeps), smallest first."""
    return sorted((r for r in runs if r.kind == "result"), key=lambda r: _size(r) or 0)


def _fail_or(row: dict, cell: str) -> str:
    return "FAIL" if row.get("check") == "FAIL" else cell


@table
def results(runs: list[Run], params: dict) -> str:
    """Every variant: ms per step and % of the limit at each size (all, or size=1024,4096), and the verdicts."""
    chosen = select(_results(runs), params, one=False)
    if not chosen:
        return ""
    variants = list(dict.fromkeys(str(r.get("variant")) for run in chosen for r in run.doc["results"]))
    header = ["variant"]
    for run in chosen:
        header += [f"{run.size_label()} ms/step", f"{run.size_label()} % of limit"]
    header.append("check")
    rows = []
    for v in variants:
        row, checks = [f"`{v}`"], []
        for run in chosen:
            r = next((x for x in run.doc["results"] if str(x.get("variant")) == v), None)
            if r is None:
                row += ["-", "-"]
                continue
            row += [_fail_or(r, tables.number(r.get("ms_per_step"), ".4f")),
                    _fail_or(r, tables.share_cell(r.get("limit_share")))]
            checks.append(str(r.get("check", "?")))
        row.append("/".join(checks))
        rows.append(row)
    return tables.markdown(header, rows, right=range(1, len(header) - 1))


@table
def opencl_vs_cuda(runs: list[Run], params: dict) -> str:
    """Chapter 08: each OpenCL variant beside the CUDA kernel it ports, same GPU, same run, per size
    (all, or size=1024,4096)."""
    chosen = select([r for r in _results(runs) if isinstance(r.doc.get("opencl_port"), dict)
                     and r.doc["opencl_port"].get("cuda_comparison")], params, one=False)
    if not chosen:
        return ""
    header = ["OpenCL variant", "CUDA kernel"]
    for run in chosen:
        header += [f"{run.size_label()}: OpenCL / CUDA ms", "ratio"]
    header.append("OpenCL % of limit (" + " / ".join(r.size_label() for r in chosen) + ")")
    variants = list(dict.fromkeys(c.get("variant") for run in chosen for c in run.doc["opencl_port"]["cuda_comparison"]))
    rows = []
    for v in variants:
        row, shares, source = [f"`{v}`"], [], "-"
        for run in chosen:
            c = next((x for x in run.doc["opencl_port"]["cuda_comparison"] if x.get("variant") == v), None)
            by_name = {str(x.get("variant")): x for x in run.doc["results"]}
            ocl, cuda = by_name.get(v, {}), by_name.get(c.get("cuda_variant") if c else None, {})
            if c is None:
                row += ["-", "-"]
                shares.append("-")
                continue
            source = f"`{os.path.basename(str(c.get('cuda_source', '-')))}`"
            bad = ocl.get("check") == "FAIL" or cuda.get("check") == "FAIL"
            row += ["FAIL" if bad else f"{tables.number(c.get('opencl_ms_per_iter'), '.4f')} / "
                    f"{tables.number(c.get('cuda_ms_per_iter'), '.4f')}",
                    "FAIL" if bad else tables.number(c.get("opencl_over_cuda"), ".3f")]
            shares.append(_fail_or(ocl, tables.number(ocl.get("limit_share"), ".0f", 100.0)))
        row.insert(1, source)
        row.append(" / ".join(shares) + "%")
        rows.append(row)
    return tables.markdown(header, rows, right=range(2, len(header)))


@table
def then_now(runs: list[Run], params: dict) -> str:
    """The chapter's then-and-now table of one run (size=1024 or file=NAME.json), optionally only the rows
    whose implementation is listed (rows=CUDA Shared,CUDA Texture,local,...)."""
    chosen = select([r for r in _results(runs) if tables.then_now_table(r)], params, one=True)
    if not chosen:
        return ""
    run = chosen[0]
    if run.status == "failed":
        return f"The run at {run.size_label()} FAILED verification ({run.message}): no then-and-now figures.\n"
    header, rows = tables.then_now_table(run)
    if "rows" in params:
        wanted = [w.strip() for w in params["rows"].split(",")]
        rows = [r for r in rows if r[2] in wanted]
    columns = params.get("columns")
    if columns:
        keep = [0, 1, 2] + [header.index(c) for c in columns.split(",") if c in header]
        header, rows = [header[i] for i in keep], [[r[i] for i in keep] for r in rows]
    else:
        header, rows = header[:-1], [r[:-1] for r in rows]  # the source column: the text says it
    return tables.markdown(header, rows, right=range(3, len(header)))


def _wanted(params: dict, names: list[str]) -> list[str]:
    """The names listed by variants=a,b (in that order, only those the run has), or all of them."""
    if "variants" not in params:
        return names
    return [v for v in params["variants"].split(",") if v in names]


@table
def jacobi_variants(runs: list[Run], params: dict) -> str:
    """Chapters 01-08: every variant of one run (size=4096 or file=NAME.json; variants=a,b picks and
    orders; launch=1 adds each variant's launch): ms/iter, GFLOP/s, GB/s of all accesses and of the minimum traffic, the limit measured in
    the run and the share of it, the floor (minimum bytes over the limit) and the time over it, and
    the speed-up over chapter 01's CPU layout measured in the same run; then the limits it used."""
    chosen = select(_results(runs), params, one=True)
    if not chosen:
        return ""
    run = chosen[0]
    rows_in = {str(r.get("variant")): r for r in run.doc["results"] if isinstance(r, dict)}
    floor = run.doc.get("floor_and_speedup") if isinstance(run.doc.get("floor_and_speedup"), dict) else {}
    cpu = run.doc.get("cpu_baseline") if isinstance(run.doc.get("cpu_baseline"), dict) else {}
    threads = cpu.get("threads", "n")
    header = ["variant", "ms/iter", "GFLOP/s", "GB/s all", "GB/s min", "limit GB/s", "% of limit", "floor ms/iter",
              "time/floor", "× CPU 1 thread", f"× CPU {threads} threads", "check"]
    rows, limits = [], {}
    for v in _wanted(params, list(rows_in)):
        r, f = rows_in[v], floor.get(v) if isinstance(floor.get(v), dict) else {}
        limit = r.get("limit") if isinstance(r.get("limit"), dict) else {}
        if is_num(limit.get("gbs")):
            limits.setdefault((limit.get("name", "?"), limit.get("working_set", "")), []).append(v)
        cells = [tables.number(r.get("ms_per_step"), ".4f"), tables.number(r.get("gflops"), ".0f"),
                 tables.number(r.get("gbs_all"), ".0f"), tables.number(r.get("gbs_min"), ".0f"),
                 tables.number(limit.get("gbs"), ".0f"), tables.share_cell(r.get("limit_share")),
                 tables.number(f.get("floor_ms_per_iter"), ".4f"), tables.number(f.get("time_over_floor"), ".3f"),
                 tables.number(f.get("speedup_cpu_1_thread"), ".0f"), tables.number(f.get("speedup_cpu_n_threads"), ".1f")]
        launch = [str(r.get("launch", "-")).split(";")[0]] if "launch" in params else []
        rows.append([f"`{v}`"] + launch + [_fail_or(r, c) for c in cells] + [str(r.get("check", "?"))])
    if "launch" in params:  # launch=1: the launch each variant ran with (after its tuning)
        header.insert(1, "launch")
    text = tables.markdown(header, rows, right=range(2 if "launch" in params else 1, len(header) - 1))
    notes = [f"- {', '.join(f'`{v}`' for v in vs)}: {name}" + (f"; {ws}" if ws else "") for (name, ws), vs in limits.items()]
    if cpu:
        notes.append(f"- × CPU: chapter 01's faster layout in the same run, "
                     f"{tables.number(cpu.get('single_thread_ms_per_iter'), '.3f')} ms/iter on 1 thread and "
                     f"{tables.number(cpu.get('multi_thread_ms_per_iter'), '.3f')} ms/iter on {threads} threads "
                     f"(best of {cpu.get('sample_iters', '?')}-iteration samples)")
    return text + ("\nLimits and baseline of this run:\n\n" + "\n".join(notes) + "\n" if notes else "")


@table
def temporal_blocking(runs: list[Run], params: dict) -> str:
    """Chapter 07c: the runs at one size (size=2048, or all), one column per s, in increasing order (by
    size first, each column headed by its size, where the runs have several): a run of one s is one
    column, a run of a --sweeps-per-trip list one column per s (results.sweeps_rows). Each variant's
    ms/iter and time over the one-sweep floor of the symmetric storage measured in that run; the
    variants that do not depend on s (07b's, persistent) as well, so that columns can be compared;
    the tile each temporal variant was tuned to; and the floor of each run. sweeps=4 (or 2,4) keeps
    only the columns of those s."""
    def size(run: Run) -> int:
        return int((run.doc.get("problem") or {}).get("nx") or 0)

    columns = []  # (size, s, run, {variant: row})
    for run in select(_results(runs), params, one=False):
        by_s: dict[int, dict[str, dict]] = {}
        for v, k, row in sweeps_rows(run):
            by_s.setdefault(k, {})[v] = row
        columns += [(size(run), k, run, rows) for k, rows in by_s.items()]
    if "sweeps" in params:
        wanted = {int(k) for k in params["sweeps"].split(",")}
        columns = [c for c in columns if c[1] in wanted]
    columns.sort(key=lambda c: (c[0], c[1]))
    if not columns:
        return ""
    variants = list(dict.fromkeys(v for _, _, _, rows in columns for v in rows))
    sizes = {c[0] for c in columns}  # runs at several sizes: each column names its size
    header = ["variant"] + [(f"{n}², " if len(sizes) > 1 else "") + f"s = {k}: ms/iter (time/floor)" for n, k, _, _ in columns]
    table_rows = []
    for v in variants:
        cells = [f"`{v}`"]
        for _, _, run, rows in columns:
            r = rows.get(v)
            if r is None:
                cells.append("-")
                continue
            f = (run.doc.get("floor_and_speedup") or {}).get(str(r.get("variant"))) or {}
            tile = re.search(r"tile (\d+x\d+)", str(r.get("launch", "")))
            cell = f"{tables.number(r.get('ms_per_step'), '.4f')} ({tables.number(f.get('time_over_floor'), '.3f')})"
            cells.append(_fail_or(r, cell + (f", tile {tile.group(1)}" if tile else "")))
        table_rows.append(cells)
    floors = [tables.number(((run.doc.get("floor_and_speedup") or {}).get("symmetric") or {}).get("floor_ms_per_iter"), ".4f")
              for _, _, run, _ in columns]
    table_rows.append(["floor (one sweep, symmetric storage)"] + [f"{x} ms/iter" for x in floors])
    return tables.markdown(header, table_rows, right=range(1, len(header)))


def is_num(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


@table
def width_sweep(runs: list[Run], params: dict) -> str:
    """Chapters 03-05's --sweep: per width, each variant's seconds for 1000 iterations and its share
    of the limit (variants=a,b picks and orders); the paper's times are in the README's own table."""
    chosen = select([r for r in runs if r.kind == "width_sweep"], params, one=True)
    if not chosen:
        return ""
    points = [p for p in chosen[0].doc["points"] if isinstance(p, dict)]
    widths = sorted({p.get("width") for p in points if isinstance(p.get("width"), int)})
    at = {(str(p.get("variant")), p.get("width")): p for p in points}
    variants = _wanted(params, list(dict.fromkeys(str(p.get("variant")) for p in points)))
    heights = sorted({p.get("height") for p in points if isinstance(p.get("height"), int)})
    header = ["width"] + [f"`{v}` s/1000 it." for v in variants] + [f"`{v}` % of limit" for v in variants]
    rows = []
    for w in widths:
        times, shares = [], []
        for v in variants:
            p = at.get((v, w))
            ok = p is not None and is_num(p.get("seconds")) and is_num(p.get("iters")) and p["iters"] > 0
            times.append("-" if p is None else _fail_or(p, tables.number(1000 * p["seconds"] / p["iters"], ".5f") if ok else "-"))
            shares.append("-" if p is None else _fail_or(p, tables.share_cell(p.get("limit_share"))))
        rows.append([str(w)] + times + shares)
    note = f"\n(Height {', '.join(map(str, heights))}; median of the run's repeats; check: " + \
        ", ".join(sorted({str(p.get("check", "?")) for p in points})) + ".)\n"
    return tables.markdown(header, rows, right=range(0, len(header))) + note


# The variants a matrix sweep's table shows by default, in this order (rows= chooses others).
MATRIX_SWEEP_ROWS = ["cpu_add", "cuda_add_rowmajor", "cl_add_rowmajor", "cuda_add_colmajor", "cuda_add_vec4",
                     "cl_add_vec4", "cpu_transpose_blocked", "cuda_transpose_naive", "cl_transpose_naive",
                     "cuda_transpose_tile_multi", "cl_transpose_tile_multi", "cuda_geam_transpose", "cuda_memcpy"]


def _significant(x) -> str:
    """Three significant digits, '-' for none: sweep times span 0.001 to 1000 ms."""
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        return "-"
    return "0" if x == 0 else format(x, f".{max(0, 2 - int(math.floor(math.log10(abs(x)))))}f")


@table
def matrix_sweep(runs: list[Run], params: dict) -> str:
    """Chapter 09 on: a matrix sweep (type=int|float or file=NAME.json picks the run): per variant "ms kernel / with
    copies" against n with its namesake's time in the paper under it, then each port over its
    original (kernel / with copies) beside the paper's OpenCL / CUDA ratio. rows=a,b picks variants."""
    chosen = select([r for r in runs if r.kind == "matrix_sweep"], params, one=True)
    if not chosen:
        return ""
    points = [p for p in chosen[0].doc["points"] if isinstance(p, dict)]
    sizes = sorted({p.get("n") for p in points if isinstance(p.get("n"), int)})
    at = {(p.get("variant"), p.get("n")): p for p in points}
    wanted = params["rows"].split(",") if "rows" in params else MATRIX_SWEEP_ROWS
    rows = []
    for v in [v for v in wanted if any((v, n) in at for n in sizes)]:
        cells = [at.get((v, n)) for n in sizes]
        rows.append([f"`{v}` now"] + ["-" if c is None else _fail_or(
            c, f"{_significant(c.get('ms_kernel'))} / {_significant(c.get('ms_with_copies'))}") for c in cells])
        tables_of = [c.get("paper_table") for c in cells if c and c.get("paper_table")]
        if tables_of:
            rows.append([f"its namesake then, {tables_of[0]}"] + [_significant(c.get("paper_ms")) if c else "-" for c in cells])
    ratios: dict = {}
    for r in chosen[0].doc.get("port_ratios") or []:
        ratios.setdefault((r.get("variant"), r.get("original")), {})[r.get("n")] = r
    for (port, original), by_n in ratios.items():
        if port not in wanted and original not in wanted:
            continue
        rows.append([f"`{port}` / `{original}` now"] + [
            f"{_significant(by_n[n].get('kernel_ratio'))} / {_significant(by_n[n].get('with_copies_ratio'))}"
            if n in by_n else "-" for n in sizes])
        if any(isinstance(r.get("paper_ratio"), (int, float)) for r in by_n.values()):
            rows.append(["OpenCL / CUDA then"] + [_significant(by_n[n].get("paper_ratio")) if n in by_n else "-" for n in sizes])
    note = "" if chosen[0].doc.get("complete", True) else "\n(The sweep was stopped before its end: these are the sizes it finished.)\n"
    header = [f"{(chosen[0].doc.get('problem') or {}).get('type', '?')}, n = (ms kernel / with copies)"] + [str(n) for n in sizes]
    return tables.markdown(header, rows, right=range(1, len(header))) + note


@table
def startup(runs: list[Run], params: dict) -> str:
    """Paper 003, sec. 6.6: each API's start-up before its first kernel, from the result run that
    reports it (file= or size= when several do; CUDA: driver and context; OpenCL: discovery, context,
    queue, program builds)."""
    chosen = select([r for r in _results(runs) if isinstance(r.doc.get("startup"), dict) and r.doc["startup"]],
                    params, one=True)
    if not chosen:
        return ""
    run = chosen[0]
    labels = {"driver_init_s": "driver initialisation", "discovery_s": "platform and device discovery",
              "context_s": "context", "queue_s": "command queue"}
    rows = []
    for api, steps in run.doc["startup"].items():
        if not isinstance(steps, dict):
            continue
        rows += [[api, label, tables.number(steps[key], ".4f")] for key, label in labels.items() if key in steps]
        builds = [b for b in steps.get("builds") or [] if isinstance(b, dict)]
        if builds:
            rows.append([api, f"building the {len(builds)} `.cl` files", tables.number(sum(
                b.get("seconds", 0) for b in builds if isinstance(b.get("seconds"), (int, float))), ".4f")])
        rows.append([api, "total", tables.number(steps.get("total_s"), ".4f")])
    rows.append(["paper 003", "OpenCL initialisation, all of it", "about 1.3"])
    return tables.markdown(["API", "step", "seconds"], rows, right=[2])


# Chapter 10 (GEMM): rates are GFLOP/s, judged as shares of two limits of the same run: the vendor
# library of the same arithmetic (strict FP32, FP64, or TF32 for TF32 rows; cuBLAS judges the CUDA
# and the OpenCL rows, OpenBLAS the CPU's) and the FMA kernel's rate. The shares are computed here
# from each row's GFLOP/s, by the rule of problems/blas/src/chapter.cpp (library_share, peak_share),
# so results written before that rule (which divided TF32 rows by strict FP32 cuBLAS and tensor-core
# rows by the FMA kernel) read the same as new ones.


def _gemm_tensor_cores(r: dict) -> bool:
    """Whether the tensor cores did the row's multiply-adds: then no FMA share (the FMA kernel does
    not bound them). Results before the `tensor_cores` field: TF32 rows, and cuBLAS DGEMM on the
    GPU (FP64 tensor cores on sm_80 and sm_90)."""
    e = r.get("extra") or {}
    if isinstance(e.get("tensor_cores"), bool):
        return e["tensor_cores"]
    return e.get("arithmetic") == "TF32" or (bool(e.get("library")) and e.get("arithmetic") == "FP64" and r.get("backend") == "cuda")


def _gemm_library(r: dict, rows: list[dict]) -> dict | None:
    """The library row that judges `r`: same arithmetic, same backend (OpenCL: CUDA's)."""
    arith = (r.get("extra") or {}).get("arithmetic")
    for backend in [r.get("backend")] + (["cuda"] if r.get("backend") == "opencl" else []):
        for o in rows:
            e = o.get("extra") or {}
            if e.get("library") and e.get("arithmetic") == arith and o.get("backend") == backend:
                return o
    return None


def _gemm_share(r: dict, of: dict | None):
    ok = of is not None and isinstance(r.get("gflops"), (int, float)) and isinstance(of.get("gflops"), (int, float))
    return r["gflops"] / of["gflops"] if ok and of["gflops"] > 0 else None


def _gemm_fma_share(r: dict):
    peak = (r.get("extra") or {}).get("peak_gflops")
    return None if _gemm_tensor_cores(r) else _gemm_share(r, {"gflops": peak} if peak else None)


def _gemm_dims(run: Run) -> tuple:
    p = run.doc.get("problem") or {}
    return p.get("m"), p.get("n"), p.get("k"), p.get("type")


def _gemm_label(run: Run) -> str:
    m, n, k, t = _gemm_dims(run)
    return f"{m}³ {t}" if m == n == k else f"{m} x {n} x {k} {t}"


@table
def gemm_steps(runs: list[Run], params: dict) -> str:
    """Chapter 10: every variant of one run (file=NAME.json): GFLOP/s, % of the library of its
    arithmetic, % of the FMA kernel (none on tensor cores), the worst error over its bound."""
    chosen = select([r for r in runs if r.kind == "result"], params, one=True)
    if not chosen:
        return ""
    rows_in = [r for r in chosen[0].doc["results"] if isinstance(r, dict)]
    rows = []
    for r in rows_in:
        e, lib = r.get("extra") or {}, _gemm_library(r, rows_in)
        fma = _gemm_fma_share(r)
        rows.append([f"`{r.get('variant')}`", str(e.get("arithmetic", "?")),
                     _fail_or(r, tables.number(r.get("gflops"), ",.0f")),
                     # a share of a library, not of a limit: a kernel may beat it, so no "!" past 100%
                     _fail_or(r, tables.number(_gemm_share(r, lib), ".1f", 100.0)), f"`{lib.get('variant')}`" if lib else "-",
                     _fail_or(r, "- (tensor cores)" if _gemm_tensor_cores(r) else tables.share_cell(fma)),
                     tables.number(e.get("error_over_bound"), ".2g"), str(r.get("check", "?"))])
    header = [f"{_gemm_label(chosen[0])}: variant", "arithmetic", "GFLOP/s", "% of library", "library",
              "% of FMA kernel", "error / bound", "check"]
    return tables.markdown(header, rows, right=[2, 3, 5, 6])


@table
def gemm_sizes(runs: list[Run], params: dict) -> str:
    """Chapter 10: each variant's GFLOP/s and % of its library in several runs (file=a.json,b.json)."""
    chosen = select([r for r in runs if r.kind == "result"], params, one=False)
    if not chosen:
        return ""
    variants = list(dict.fromkeys(str(r.get("variant")) for run in chosen for r in run.doc["results"]))
    rows = []
    for v in variants:
        row = [f"`{v}`"]
        for run in chosen:
            rows_in = run.doc["results"]
            r = next((x for x in rows_in if str(x.get("variant")) == v), None)
            share = _gemm_share(r, _gemm_library(r, rows_in)) if r else None
            rate = tables.number(r.get('gflops'), ',.0f') if r else "-"
            cell = rate if share is None else f"{rate} ({tables.number(share, '.1f', 100.0)}%)"  # no library: the rate alone
            row.append("-" if r is None else _fail_or(r, cell))
        rows.append(row)
    header = ["GFLOP/s (% of library)"] + [_gemm_label(run) for run in chosen]
    return tables.markdown(header, rows, right=range(1, len(header)))


def _gemm_best(rows: list[dict], backend: str, arith: str) -> dict | None:
    mine = [r for r in rows if r.get("backend") == backend and not (r.get("extra") or {}).get("library")
            and (r.get("extra") or {}).get("arithmetic") == arith and r.get("check") == "PASS"]
    return max(mine, key=lambda r: r.get("gflops") or 0, default=None)


@table
def gemm_goals(runs: list[Run], params: dict) -> str:
    """Chapter 10's goals (its README's "The goals"), met or missed and by how much, from the float runs
    (all, or those of file=a.json,b.json)."""
    rows = []
    for run in select([r for r in runs if r.kind == "result"], params, one=False):
        if _gemm_dims(run)[3] != "float":
            continue
        m, n, k, _ = _gemm_dims(run)
        res = run.doc["results"]
        by = {str(r.get("variant")): r for r in res}
        best = _gemm_best(res, "cuda", "FP32")
        goal = 0.9 if m == n == k == 4096 else 0.8
        share = _gemm_share(best, by.get("cublas_sgemm")) if best else None
        if best and m == n == k == 4096 and isinstance(best.get("gflops"), (int, float)):
            # The rate goal at 4096: 42 TFLOP/s, and never below 37.7, the best of a widely used public
            # SGEMM tutorial's kernels measured on the same H100 the same way (chapter README, step 10).
            rate = best["gflops"] / 1000
            rows.append([_gemm_label(run), "best FP32 CUDA kernel >= 42 TFLOP/s (floor 37.7)",
                         f"`{best['variant']}`: {rate:.1f} TFLOP/s",
                         "met" if rate >= 42 else ("above the floor, missed" if rate >= 37.7 else "missed")])
        if share is not None:
            rows.append([_gemm_label(run), f"best FP32 CUDA kernel >= {goal:.0%} of strict-FP32 cuBLAS",
                         f"`{best['variant']}`: {share:.1%}", "met" if share >= goal else f"missed by {goal - share:.1%} of cuBLAS"])
        cl = _gemm_best(res, "opencl", "FP32")
        twin = next((p.get("original") for p in run.doc.get("port_ratios") or [] if cl and p.get("variant") == cl["variant"]), None)
        ratio = _gemm_share(cl, by.get(twin)) if twin else None
        if ratio is not None:
            rows.append([_gemm_label(run), "best OpenCL kernel >= 90% of the CUDA kernel of its design",
                         f"`{cl['variant']}` / `{twin}`: {ratio:.1%}", "met" if ratio >= 0.9 else f"missed by {0.9 - ratio:.1%}"])
        tf32 = by.get("cuda_tf32_wmma")
        x = _gemm_share(tf32, best) if tf32 and best and tf32.get("check") == "PASS" else None
        if x is not None:
            err = tables.number((tf32.get("extra") or {}).get("error_over_bound"), ".2g")
            rows.append([_gemm_label(run), "TF32 kernel >= 2x our best FP32 kernel",
                         f"`cuda_tf32_wmma` / `{best['variant']}`: {x:.2f}x (error {err} of its bound, "
                         f"max rel. {tables.number(tf32.get('rel_error_max'), '.1e')})",
                         "met" if x >= 2 else f"missed: {x / 2:.0%} of the goal"])
    return tables.markdown(["run", "goal", "measured", "verdict"], rows) if rows else ""


@table
def gemm_sweep(runs: list[Run], params: dict) -> str:
    """Chapter 10's sweep (--sweep): GFLOP/s against n for the variants in rows=a,b (default: all),
    then each OpenCL port over its CUDA original (kernel / with copies) beside paper 003's ratio."""
    chosen = select([r for r in runs if r.kind == "gemm_sweep"], params, one=True)
    if not chosen:
        return ""
    points = [p for p in chosen[0].doc["points"] if isinstance(p, dict)]
    sizes = sorted({p.get("n") for p in points if isinstance(p.get("n"), int)})
    at = {(p.get("variant"), p.get("n")): p for p in points}
    wanted = params["rows"].split(",") if "rows" in params else list(dict.fromkeys(p.get("variant") for p in points))
    rows = [[f"`{v}`"] + ["-" if (v, n) not in at else _fail_or(at[(v, n)], _significant(at[(v, n)].get("gflops")))
                           for n in sizes] for v in wanted if any((v, n) in at for n in sizes)]
    ratios: dict = {}
    for r in chosen[0].doc.get("port_ratios") or []:
        ratios.setdefault((r.get("variant"), r.get("original")), {})[r.get("n")] = r
    for (port, original), by_n in ratios.items():
        if "ratios" in params and port not in params["ratios"].split(","):
            continue
        rows.append([f"`{port}` / `{original}` time"] + [
            f"{_significant(by_n[n].get('kernel_ratio'))} / {_significant(by_n[n].get('with_copies_ratio'))}"
            if n in by_n else "-" for n in sizes])
        if any(isinstance(r.get("paper_ratio"), (int, float)) for r in by_n.values()):
            tab = next((r.get("paper_table") for r in by_n.values() if r.get("paper_table")), "")
            rows.append([f"OpenCL / CUDA then ({tab})"] + [_significant(by_n[n].get("paper_ratio")) if n in by_n else "-"
                                                           for n in sizes])
    header = [f"{(chosen[0].doc.get('problem') or {}).get('type', '?')} GFLOP/s, n ="] + [str(n) for n in sizes]
    return tables.markdown(header, rows, right=range(1, len(header)))


def _scaling_parts(run: Run) -> int:
    """How many GPUs (or ranks) a chapter 13 run split its grid over."""
    return max([int((r.get("extra") or {}).get("gpus", 1)) for r in run.doc["results"] if isinstance(r, dict)] or [1])


def _scaling_label(run: Run) -> str:
    p = _problem(run)
    grid = f"{p.get('nx')}²" if p.get("nx") == p.get("ny") else f"{p.get('nx')} x {p.get('ny')}"
    return f"G={_scaling_parts(run)}, {grid}"


def _scaling_rows(run: Run) -> list[dict]:
    return [r for r in run.doc["results"] if isinstance(r, dict)]


@table
def scaling_efficiency(runs: list[Run], params: dict) -> str:
    """Chapter 13: the efficiency T1 / (G TG) of every split variant in several runs (file=a.json,...),
    each against the one-GPU run of the same grid in the same run (its time in the first row); the
    best of each run in bold."""
    chosen = select([r for r in runs if r.kind == "result"], params, one=False)
    if not chosen:
        return ""
    variants = list(dict.fromkeys(str(r.get("variant")) for run in chosen for r in _scaling_rows(run)
                                  if "efficiency" in (r.get("extra") or {})))
    base = ["`one_gpu`, µs per iteration"]
    best: dict[str, float] = {}
    for run in chosen:
        one = next((r for r in _scaling_rows(run) if r.get("variant") == "one_gpu"), None)
        base.append("-" if one is None else _fail_or(one, tables.number(one.get("ms_per_step"), ".1f", 1e3)))
        best[run.name] = max([(r.get("extra") or {}).get("efficiency", 0.0) for r in _scaling_rows(run)
                              if r.get("check") == "PASS"] or [0.0])
    rows = [base]
    for v in variants:
        row = [f"`{v}`"]
        for run in chosen:
            r = next((x for x in _scaling_rows(run) if str(x.get("variant")) == v), None)
            e = (r.get("extra") or {}).get("efficiency") if r else None
            cell = tables.number(e, ".1f", 100.0) + "%" if isinstance(e, (int, float)) else "-"
            if isinstance(e, (int, float)) and r.get("check") == "PASS" and e == best[run.name]:
                cell = f"**{cell}**"
            row.append("-" if r is None else _fail_or(r, cell))
        rows.append(row)
    return tables.markdown(["variant"] + [_scaling_label(run) for run in chosen], rows, right=range(1, len(chosen) + 1))


@table
def scaling_split(runs: list[Run], params: dict) -> str:
    """Chapter 13: where the time of one run (file=NAME.json) goes, in µs per iteration on each GPU:
    the total, the compute alone, the exchange alone and the exposed exchange (total minus compute)."""
    chosen = select([r for r in runs if r.kind == "result"], params, one=True)
    if not chosen:
        return ""
    rows = []
    for r in _scaling_rows(chosen[0]):
        e = r.get("extra") or {}
        if "compute_ms" not in e:
            continue
        rows.append([f"`{r.get('variant')}`"] + [_fail_or(r, tables.number(x, ".1f", 1e3)) for x in
                     (r.get("ms_per_step"), e.get("compute_ms"), e.get("exchange_ms"), e.get("exposed_exchange_ms"))])
    header = [f"{_scaling_label(chosen[0])}: variant", "total", "compute alone", "exchange alone", "exposed"]
    return tables.markdown(header, rows, right=range(1, 5))


@table
def weak_scaling(runs: list[Run], params: dict) -> str:
    """Chapter 13: the rows per GPU fixed. file=BASE,RUN,...: BASE's one_gpu time is T1; each RUN splits
    G times as many rows over G GPUs; a cell is its time per iteration and T1 / TG."""
    chosen = select([r for r in runs if r.kind == "result"], params, one=False)
    if len(chosen) < 2:
        raise SelectionError("needs the base run and at least one scaled run (file=BASE,RUN,...)")
    one = next((r for r in _scaling_rows(chosen[0]) if r.get("variant") == "one_gpu" and r.get("check") == "PASS"), None)
    if one is None:
        raise SelectionError(f"{chosen[0].name} has no passing one_gpu row")
    t1 = one["ms_per_step"]
    scaled = chosen[1:]
    variants = list(dict.fromkeys(str(r.get("variant")) for run in scaled for r in _scaling_rows(run)
                                  if "efficiency" in (r.get("extra") or {})))
    grid = _scaling_label(chosen[0]).split(", ")[1]
    rows = [[f"`one_gpu` on {grid} (T1)"] + [f"{tables.number(t1, '.1f', 1e3)} µs"] * len(scaled)]
    for v in variants:
        row = [f"`{v}`"]
        for run in scaled:
            r = next((x for x in _scaling_rows(run) if str(x.get("variant")) == v), None)
            row.append("-" if r is None else _fail_or(r, f"{tables.number(r.get('ms_per_step'), '.1f', 1e3)} µs "
                                                         f"({tables.number(t1 / r['ms_per_step'], '.1f', 100.0)}%)"))
        rows.append(row)
    return tables.markdown(["variant"] + [_scaling_label(run) for run in scaled], rows, right=range(1, len(scaled) + 1))


def _convergence(run: Run) -> dict:
    c = _problem(run).get("convergence")
    return c if isinstance(c, dict) else {}


def _sample_runs(root: str, params: dict) -> list[dict]:
    """The NVIDIA sample's records (nvidia_sample.json, scripts/device/nvidia_sample_parse.py) that a
    marker names by sample=FOLDER/FILE under results/; none without sample=."""
    if "sample" not in params:
        return []
    try:
        return read_nvidia_sample(os.path.join(root, "results", params["sample"]))
    except ValueError as e:
        raise SelectionError(f"sample={params['sample']}: {e}") from e


@table
def check_cost(runs: list[Run], params: dict) -> str:
    """Chapter 13: what the update norm's check costs (the check step of scripts/device/ch13.sh, runs
    with --check-every k --tol 0). One line per grid and check frequency: `one_gpu`'s time per
    iteration, then each split variant's efficiency with the check overlapped and waited for
    ("on / off"), each against the one-GPU run of its own file; where the folder has a run of the same
    grid with no check (the step's _none.json), its best variant's. With sample=FILE (under results/),
    the best efficiency NVIDIA's sample reached at the same grid, GPUs and check frequency, and its
    variant. The runs must pair up: each grid and frequency once with the overlap on and once off."""
    named = select([r for r in runs if r.kind == "result"], params, one=False)
    chosen = [r for r in named if _convergence(r).get("check_every")]
    if not chosen:
        return ""
    unchecked = {(_scaling_parts(r), _problem(r).get("nx"), _problem(r).get("ny")): r for r in named
                 if not _convergence(r).get("check_every")}
    pairs: dict[tuple, dict[bool, Run]] = {}
    for run in chosen:
        c = _convergence(run)
        key = (_scaling_parts(run), _problem(run).get("nx"), _problem(run).get("ny"), int(c["check_every"]))
        overlap = bool(c.get("check_overlap"))
        if overlap in pairs.setdefault(key, {}):
            raise SelectionError(f"two runs of {_scaling_label(run)}, every {key[3]}, overlap "
                                 f"{'on' if overlap else 'off'}: {pairs[key][overlap].name}, {run.name}")
        pairs[key][overlap] = run
    for key, pair in pairs.items():
        if len(pair) != 2:
            raise SelectionError(f"{next(iter(pair.values())).name} has no run with the overlap "
                                 f"{'off' if True in pair else 'on'} to pair with")
    variants = list(dict.fromkeys(str(r.get("variant")) for run in chosen for r in _scaling_rows(run)
                                  if "efficiency" in (r.get("extra") or {})))
    sample = params.get("_sample_runs", [])

    def efficiency(run: Run, v: str) -> str:
        r = next((x for x in _scaling_rows(run) if str(x.get("variant")) == v), None)
        e = (r.get("extra") or {}).get("efficiency") if r else None
        return "-" if r is None else _fail_or(r, tables.number(e, ".1f", 100.0))

    rows = []
    for key in sorted(pairs):
        g, nx, ny, every = key
        on, off = pairs[key][True], pairs[key][False]
        one = next((x for x in _scaling_rows(on) if x.get("variant") == "one_gpu"), None)
        grid = f"{nx}²" if nx == ny else f"{nx} x {ny}"
        row = [f"G={g}, {grid}, every {every}",
               "-" if one is None else _fail_or(one, tables.number(one.get("ms_per_step"), ".1f", 1e3))]
        row += [f"{efficiency(on, v)} / {efficiency(off, v)}" for v in variants]
        if unchecked:
            base = unchecked.get((g, nx, ny))
            passing = [x for x in (_scaling_rows(base) if base else []) if x.get("check") == "PASS"
                       and isinstance((x.get("extra") or {}).get("efficiency"), (int, float))]
            top = max(passing, key=lambda x: x["extra"]["efficiency"], default=None)
            row.append("-" if top is None else f"{100 * top['extra']['efficiency']:.1f} (`{top['variant']}`)")
        if "sample" in params:
            best = best_sample_run(sample, *key)
            row.append("-" if best is None else f"{best['efficiency_percent']:.1f} (`{best['variant']}`)")
        rows.append(row)
    header = ["grid, check", "`one_gpu`, µs per iteration (on)"] + [f"`{v}`, % on / off" for v in variants]
    if unchecked:
        header.append("no check, best %")
    if "sample" in params:
        header.append("the sample's best, %")
    return tables.markdown(header, rows, right=range(1, len(header)))


def _machines(root: str, params: dict) -> str:
    """The H100 beside the H200 (machines_table.py): its files are its rows', not one source folder's."""
    import machines_table
    try:
        body = machines_table.markdown(root) + machines_table.references_note(root)
    except machines_table.MachinesError as e:
        raise SelectionError(str(e)) from e
    return NOTE.format(files=", ".join(f"results/{f}" for f in machines_table.files(root))) + body


CROSS_MACHINE_TABLES = {"machines": _machines}


def parse_params(text: str) -> dict:
    """key=value pairs; a value with spaces goes in quotes: rows="CUDA Shared,local"."""
    return {m.group(1): m.group(2) if m.group(2) is not None else m.group(3)
            for m in re.finditer(r'(\w+)=(?:"([^"]*)"|(\S+))', text)}


def render(name: str, params: dict, root: str) -> str:
    if name in CROSS_MACHINE_TABLES:
        return CROSS_MACHINE_TABLES[name](root, params)
    func = TABLES.get(name)
    if func is None:
        return f"**Unknown results table '{name}'** (known: {', '.join(sorted([*TABLES, *CROSS_MACHINE_TABLES]))}).\n"
    source = params.get("source", "h100")
    folder = os.path.join(root, "results", source)
    runs = [r for r in read_folder(folder) if r.chapter == params.get("chapter", r.chapter)]
    usable = [r for r in runs if r.readable]
    if "sample" in params:
        params = {**params, "_sample_runs": _sample_runs(root, params)}
    body = func(usable, params)  # raises SelectionError when the marker names no run or too many
    # A file that is there but cannot be read is always named (it may be the one the table wants);
    # a run that left no file (skipped, broke) only when the table came out empty, not in every table.
    problems = [f"- `results/{source}/{r.name}`: {r.status}: {r.message}" for r in runs
                if r.status not in ("ok", "failed") and (not body or r.name.endswith(".json"))]
    named = params["file"].split(",") if "file" in params else None  # the files a marker names, alone
    files = ", ".join(f"results/{source}/{r.name}" for r in usable if named is None or r.name in named) \
        or f"results/{source}/ (no results)"
    if "sample" in params:
        files += f", results/{params['sample']}"
    if not body:
        body = f"*No results for this table in `results/{source}/` yet: run `scripts/device/report.sh` and commit them.*\n"
    return NOTE.format(files=files) + body + ("\n" + "\n".join(problems) + "\n" if problems else "")


def regenerate(text: str, root: str) -> tuple[str, list[str]]:
    """The text with every table generated again, and a line for each marker that names no run or
    too many (its block is left as it was)."""
    errors = []

    def one(m: re.Match) -> str:
        try:
            return m.group(1) + render(m.group("name"), parse_params(m.group("params")), root) + m.group(5)
        except SelectionError as e:
            errors.append(f"{m.group(1).strip()} {e}")
            return m.group(0)
    return BLOCK.sub(one, text), errors


def readmes(root: str) -> list[str]:
    return [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "chapters", "*", "README.md")))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="READMEs (default: README.md and chapters/*/README.md)")
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."),
                        help="the repository (results/ is read from there)")
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 when a table differs")
    args = parser.parse_args(argv)
    root = os.path.normpath(args.root)
    stale, blocks, errors = [], 0, []
    for path in args.files or readmes(root):
        with open(path, encoding="utf-8") as f:
            old = f.read()
        blocks += len(BLOCK.findall(old))
        new, wrong = regenerate(old, root)
        if wrong:  # the README is left as it is
            errors += [f"readme_tables: {path}: {e}" for e in wrong]
            continue
        if new == old:
            continue
        stale.append(path)
        if args.check:
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True), path,
                                                       path + " (from results/)"))
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
    print("\n".join(errors), end="\n" if errors else "")
    if args.check:
        if stale or errors:
            if stale:
                print(f"readme_tables: {len(stale)} README(s) disagree with results/: {', '.join(stale)}\n"
                      "  run: python3 scripts/report/readme_tables.py")
            return 1
        print(f"readme_tables: {blocks} generated table(s) agree with results/")
        return 0
    print(f"readme_tables: {blocks} table(s); rewrote {len(stale)} README(s)" + (f": {', '.join(stale)}" if stale else ""))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
