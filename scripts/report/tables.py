"""Tables of results: rows as lists of cells, written as Markdown or CSV.

A row whose verification failed shows FAIL where its speed would be: a wrong answer has no speed.
"""
from __future__ import annotations

import csv
import math
from typing import Iterable

from results import Run


def number(value, fmt: str, scale: float = 1.0) -> str:
    """`value` formatted, or "-" when it is missing or not finite (JSON null)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return "-"
    return format(value * scale, fmt)


def markdown(header: list[str], rows: Iterable[list[str]], right: Iterable[int] = ()) -> str:
    right = set(right)
    esc = lambda c: str(c).replace("|", "\\|").replace("\n", " ")  # noqa: E731
    lines = ["| " + " | ".join(esc(h) for h in header) + " |",
             "| " + " | ".join("---:" if i in right else "---" for i in range(len(header))) + " |"]
    lines += ["| " + " | ".join(esc(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def write_csv(path: str, header: list[str], rows: Iterable[list[str]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def share_cell(share) -> str:
    """A share of the limit in %; above 100% marked "!": the limit measured in that run is suspect."""
    cell = number(share, ".1f", 100.0)
    return cell + " !" if cell != "-" and share > 1.0 else cell


def failed(row: dict) -> bool:
    return row.get("check") == "FAIL"


RESULT_HEADER = ["machine", "size", "variant", "backend", "device", "ms/step", "GB/s min", "GFLOP/s",
                 "limit GB/s", "% of limit", "rel. error", "check"]
RESULT_RIGHT = range(5, 11)


def result_rows(run: Run) -> list[list[str]]:
    """One line per variant of a result run."""
    rows = []
    for r in run.doc.get("results", []):
        limit = r.get("limit") if isinstance(r.get("limit"), dict) else {}
        speed = ["FAIL"] * 4 if failed(r) else [
            number(r.get("ms_per_step"), ".4f"), number(r.get("gbs_min"), ".1f"), number(r.get("gflops"), ".1f"),
            number(limit.get("gbs"), ".1f")]
        share = "FAIL" if failed(r) else share_cell(r.get("limit_share"))
        rows.append([run.machine, run.size_label(), str(r.get("variant", "?")), str(r.get("backend", "")),
                     str(r.get("device", "")), *speed, share, number(r.get("rel_error_l2"), ".1e"),
                     str(r.get("check", "?"))])
    return rows


WIDTH_SWEEP_HEADER = ["machine", "variant", "width", "height", "ms/iter", "GB/s min", "% of limit", "check"]


def width_sweep_rows(run: Run) -> list[list[str]]:
    rows = []
    for p in run.doc.get("points", []):
        iters = p.get("iters")
        ms = p.get("seconds") * 1e3 / iters if isinstance(p.get("seconds"), (int, float)) and iters else None
        speed = ["FAIL"] * 3 if failed(p) else [number(ms, ".4f"), number(p.get("gbs_min"), ".1f"),
                                                 share_cell(p.get("limit_share"))]
        rows.append([run.machine, str(p.get("variant", "?")), str(p.get("width", "?")), str(p.get("height", "?")),
                     *speed, str(p.get("check", "?"))])
    return rows


MATRIX_SWEEP_HEADER = ["machine", "op", "variant", "n", "ms kernel", "GB/s kernel", "GB/s w/ copies",
                       "% of limit", "paper ms", "check"]


def matrix_sweep_rows(run: Run) -> list[list[str]]:
    rows = []
    for p in run.doc.get("points", []):
        speed = ["FAIL"] * 4 if failed(p) else [
            number(p.get("ms_kernel"), ".4f"), number(p.get("gbs_kernel"), ".1f"),
            number(p.get("gbs_with_copies"), ".1f"), share_cell(p.get("limit_share"))]
        rows.append([run.machine, str(p.get("op", "")), str(p.get("variant", "?")), str(p.get("n", "?")), *speed,
                     number(p.get("paper_ms"), ".3f"), str(p.get("check", "?"))])
    return rows


GEMM_SWEEP_HEADER = ["machine", "type", "variant", "backend", "n", "ms kernel", "GFLOP/s", "% of library",
                     "% of FMA kernel", "error / bound", "check"]


def gemm_sweep_rows(run: Run) -> list[list[str]]:
    kind = str((run.doc.get("problem") or {}).get("type", "")) if isinstance(run.doc.get("problem"), dict) else ""
    rows = []
    for p in run.doc.get("points", []):
        speed = ["FAIL"] * 4 if failed(p) else [
            number(p.get("ms_kernel"), ".4f"), number(p.get("gflops"), ".1f"), share_cell(p.get("library_share")),
            share_cell(p.get("peak_share"))]
        rows.append([run.machine, kind, str(p.get("variant", "?")), str(p.get("backend", "")), str(p.get("n", "?")),
                     *speed, number(p.get("error_over_bound"), ".2g"), str(p.get("check", "?"))])
    return rows


# kind -> (header, rows of a run, right-aligned columns)
TABLES = {
    "result": (RESULT_HEADER, result_rows, RESULT_RIGHT),
    "width_sweep": (WIDTH_SWEEP_HEADER, width_sweep_rows, range(2, 7)),
    "matrix_sweep": (MATRIX_SWEEP_HEADER, matrix_sweep_rows, range(3, 9)),
    "gemm_sweep": (GEMM_SWEEP_HEADER, gemm_sweep_rows, range(4, 10)),
}


def then_now_table(run: Run) -> tuple[list[str], list[list[str]]] | None:
    """The chapter's own then-and-now table (paper rows and this run's), as the chapter printed it."""
    t = run.doc.get("then_now")
    if not isinstance(t, dict) or not t.get("rows"):
        return None
    columns = [c.get("header", "?") for c in t.get("columns", []) if isinstance(c, dict)]
    header = ["when", "machine", "implementation", *columns, "source"]
    # A "now" row is one of this run's variants (by name); one that failed, or one the run cannot
    # vouch for when something failed, has no figures.
    variants = {str(r.get("variant")): r for r in run.doc.get("results", []) if isinstance(r, dict)}
    any_failed = any(failed(r) for r in variants.values())
    rows = []
    for r in t["rows"]:
        if not isinstance(r, dict):
            continue
        values = r.get("values", []) if isinstance(r.get("values"), list) else []
        cells = [number(v, ".4g") for v in values] + ["-"] * (len(columns) - len(values))
        mine = variants.get(str(r.get("implementation")))
        if r.get("when") == "now" and ((mine is not None and failed(mine)) or (mine is None and any_failed)):
            cells = ["FAIL"] * len(columns)
        rows.append([str(r.get("when", "")), str(r.get("machine", "")), str(r.get("implementation", "")),
                     *cells[:len(columns)], str(r.get("source", ""))])
    return header, rows
