#!/usr/bin/env python3
"""README tables generated from the committed results (results/<machine>/*.json).

A README asks for a table between two markers; everything between them is generated:

    <!-- results:TABLE chapter=08 source=h100 [key=value ...] -->
    (generated: do not edit; scripts/report/readme_tables.py rewrites it)
    <!-- /results -->

TABLE is one of the functions registered below with @table. `source` names the folder under
results/. Run with no options to rewrite every README (README.md, chapters/*/README.md); with
--check to compare only, printing a diff and exiting 1 when a README's table and results/ disagree
(the CTest test readme_results_tables). A table whose results are missing says so in the README
rather than keeping old numbers.
"""
from __future__ import annotations

import argparse
import difflib
import glob
import os
import re
import sys
from typing import Callable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import tables  # noqa: E402
from results import Run, read_folder  # noqa: E402

BLOCK = re.compile(r"(<!-- results:(?P<name>[a-z_0-9]+)(?P<params>[^>]*?)-->\n)(?P<body>.*?)(<!-- /results -->)",
                   re.DOTALL)
NOTE = "<!-- generated from {files} by scripts/report/readme_tables.py: edit the results, not this table -->\n"

TABLES: dict[str, Callable[[list[Run], dict], str]] = {}


def table(func):
    TABLES[func.__name__] = func
    return func


def _nx(run: Run) -> int:
    problem = run.doc.get("problem") if isinstance(run.doc.get("problem"), dict) else {}
    return problem.get("nx") if isinstance(problem.get("nx"), int) else 0


def _sizes(runs: list[Run], params: dict) -> list[Run]:
    """The result runs, smallest grid first; only the sizes named by sizes=1024,4096 when given."""
    chosen = sorted((r for r in runs if r.kind == "result"), key=_nx)
    if "sizes" in params:
        wanted = {int(s) for s in params["sizes"].split(",")}
        chosen = [r for r in chosen if _nx(r) in wanted]
    return chosen


def _fail_or(row: dict, cell: str) -> str:
    return "FAIL" if row.get("check") == "FAIL" else cell


@table
def results(runs: list[Run], params: dict) -> str:
    """Every variant: ms per step and % of the limit at each size, and the verdicts."""
    chosen = _sizes(runs, params)
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
    """Chapter 08: each OpenCL variant beside the CUDA kernel it ports, same GPU, same run, per size."""
    chosen = [r for r in _sizes(runs, params) if isinstance(r.doc.get("opencl_port"), dict)
              and r.doc["opencl_port"].get("cuda_comparison")]
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
    """The chapter's then-and-now table at one size (size=1024), optionally only the rows whose
    implementation is listed (rows=CUDA Shared,CUDA Texture,local,...)."""
    chosen = _sizes(runs, {"sizes": params["size"]} if "size" in params else {})
    chosen = [r for r in chosen if tables.then_now_table(r)]
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


def parse_params(text: str) -> dict:
    """key=value pairs; a value with spaces goes in quotes: rows="CUDA Shared,local"."""
    return {m.group(1): m.group(2) if m.group(2) is not None else m.group(3)
            for m in re.finditer(r'(\w+)=(?:"([^"]*)"|(\S+))', text)}


def render(name: str, params: dict, root: str) -> str:
    func = TABLES.get(name)
    if func is None:
        return f"**Unknown results table '{name}'** (known: {', '.join(sorted(TABLES))}).\n"
    source = params.get("source", "h100")
    folder = os.path.join(root, "results", source)
    runs = [r for r in read_folder(folder) if r.chapter == params.get("chapter", r.chapter)]
    problems = [f"- `results/{source}/{r.name}`: {r.status}: {r.message}" for r in runs
                if r.status not in ("ok", "failed")]
    usable = [r for r in runs if r.readable]
    body = func(usable, params) if usable else ""
    files = ", ".join(f"results/{source}/{r.name}" for r in usable) or f"results/{source}/ (no results)"
    if not body:
        body = f"*No results for this table in `results/{source}/` yet: run `scripts/device/report.sh` and commit them.*\n"
    return NOTE.format(files=files) + body + ("\n" + "\n".join(problems) + "\n" if problems else "")


def regenerate(text: str, root: str) -> str:
    def one(m: re.Match) -> str:
        return m.group(1) + render(m.group("name"), parse_params(m.group("params")), root) + m.group(5)
    return BLOCK.sub(one, text)


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
    stale, blocks = [], 0
    for path in args.files or readmes(root):
        with open(path, encoding="utf-8") as f:
            old = f.read()
        blocks += len(BLOCK.findall(old))
        new = regenerate(old, root)
        if new == old:
            continue
        stale.append(path)
        if args.check:
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True), path,
                                                       path + " (from results/)"))
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
    if args.check:
        if stale:
            print(f"readme_tables: {len(stale)} README(s) disagree with results/: {', '.join(stale)}\n"
                  "  run: python3 scripts/report/readme_tables.py")
            return 1
        print(f"readme_tables: {blocks} generated table(s) agree with results/")
        return 0
    print(f"readme_tables: {blocks} table(s); rewrote {len(stale)} README(s)" + (f": {', '.join(stale)}" if stale else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
