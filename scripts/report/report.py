#!/usr/bin/env python3
"""The lecture report: result folders (one per machine) -> OUT/index.md, CSV tables and PNG plots.

    python3 scripts/report/report.py [--out build/report] [--no-plots] [RESULTS_DIR ...]

A RESULTS_DIR is one machine's folder of runs (JSON files, scripts/lecture.sh's runs.tsv and
machine.txt), or a folder of such machine folders (what `scripts/lecture.sh --out DIR` writes:
DIR/<machine>/); the report says which machine folders it used. Default: build/lecture.

Every chapter gets a section: a line for each run that cannot be shown (skipped, not built, broke,
an older schema, a truncated file), the plots, and the tables with every variant of every machine,
as Markdown and as CSV. A variant that failed its verification shows FAIL, never a speed. Exit code
0 when the report was written, even when runs inside it failed (the report says so); 2 on bad usage
or an output folder it cannot use.

The report touches only its own files: it is drawn into a new folder inside OUT, then moved into
place, and OUT/report-files.txt lists what it wrote; the next report removes only those. An output
folder that is, holds or lies inside a results folder it reads, or holds files that no report wrote,
is refused.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import compare  # noqa: E402
import tables  # noqa: E402
from results import Run, machine_title, read_folder  # noqa: E402

STATUS_WORDS = {
    "failed": "**FAIL**",
    "skipped": "skipped (exit 77, a backend is missing)",
    "not built": "not built",
    "error": "**broke**",
    "unreadable": "**unreadable**",
    "old schema": "**older schema**",
    "unknown schema": "**unknown schema**",
}


def chapter_key(chapter: str):
    m = re.match(r"(\d+)(.*)", chapter)
    return (int(m.group(1)), m.group(2)) if m else (1 << 30, chapter)


def status_line(run: Run) -> str:
    return f"- {run.machine} / `{run.name}`: {STATUS_WORDS.get(run.status, run.status)}: {run.message}"


def chapter_section(chapter: str, runs: list[Run], out_dir: str, with_plots: bool,
                    drawn: dict[str, list] | None = None) -> list[str]:
    titles = [r.title for r in runs if r.title]
    lines = [f"## Chapter {chapter}" + (f": {titles[0]}" if titles else ""), ""]
    programs = sorted({r.program for r in runs if r.program})
    if programs:
        lines += ["Programs: " + ", ".join(f"`{p}`" for p in programs), ""]
    for r in runs:
        if r.status != "ok":
            lines.append(status_line(r))
    if any(r.status != "ok" for r in runs):
        lines.append("")
    readable = sorted((r for r in runs if r.readable), key=lambda r: (r.sort_key(), r.machine))
    if with_plots:
        import plots  # matplotlib only when plots are wanted
        figures, problems, left_out = plots.draw(chapter, runs, out_dir)
        if drawn is not None and figures:
            drawn[chapter] = [list(f) for f in figures]
        for name, caption in figures:
            lines += [f"![{caption}]({name})", "", f"*{caption}*", ""]
        lines += [f"- {p}" for p in problems] + ([""] if problems else [])
        lines += [f"- Figure left out: {o.figure}: {o.why}" for o in left_out] + ([""] if left_out else [])
    for kind, (header, rows_of, right) in tables.TABLES.items():
        rows = [row for r in readable if r.kind == kind for row in rows_of(r)]
        if not rows:
            continue
        csv_name = f"ch{chapter}_{kind}.csv"
        tables.write_csv(os.path.join(out_dir, csv_name), header, rows)
        lines += [f"### {kind.replace('_', ' ').capitalize()} ([CSV]({csv_name}))", "", tables.markdown(header, rows, right)]
    compared = compare.comparison([r for r in runs if r.readable])  # the folders' order: the first is the base
    if compared:
        csv_name = f"ch{chapter}_machines.csv"
        tables.write_csv(os.path.join(out_dir, csv_name), *compared)
        base = compared[0][2].rsplit(" ", 1)[0]
        lines += [f"### Machines compared ([CSV]({csv_name}))", "",
                  f"Each variant on every machine that ran the same size; a speed ratio above 1: that machine is "
                  f"faster than {base}.", "", tables.markdown(*compared, right=range(2, len(compared[0])))]
    shown = set()
    for r in readable:
        if r.kind != "result" or r.machine in shown:
            continue
        t = tables.then_now_table(r)
        if t:
            shown.add(r.machine)
            lines += [f"### Then and now: {r.machine}, {r.size_label()}", "", tables.markdown(*t)]
    return lines


def holds_runs(folder: str) -> bool:
    """A machine folder: JSON results, or the runs.tsv and machine.txt that scripts/lecture.sh writes."""
    try:
        names = os.listdir(folder)
    except OSError:
        return False
    return any(n.endswith(".json") or n in ("runs.tsv", "machine.txt") for n in names)


def machine_folders(folder: str) -> list[str]:
    """The machine folders a given folder stands for: itself when it holds runs, else its
    subfolders that do (scripts/lecture.sh --out DIR writes DIR/<machine>/); itself when neither
    (the report then says it found no runs there)."""
    if holds_runs(folder):
        return [folder]
    # Hidden folders are scripts/lecture.sh's runs in progress, stopped or replaced: not machines.
    subs = sorted(os.path.join(folder, d) for d in os.listdir(folder)
                  if not d.startswith(".") and os.path.isdir(os.path.join(folder, d)))
    return [d for d in subs if holds_runs(d)] or [folder]


def build_report(folders: list[str], out_dir: str, with_plots: bool = True) -> str:
    """Writes OUT/index.md (and CSV, PNG beside it) into an existing folder; returns the index's path."""
    runs: list[Run] = []
    lines = ["# Lecture report", "", "| folder | machine | runs | ok | FAIL | not shown |", "| --- | --- | ---: | ---: | ---: | ---: |"]
    for folder in folders:
        mine = read_folder(folder)
        runs += mine
        count = lambda *s: sum(r.status in s for r in mine)  # noqa: E731
        lines.append(f"| `{folder}` | {machine_title(folder)} | {len(mine)} | {count('ok')} | {count('failed')} | "
                     f"{len(mine) - count('ok', 'failed')} |")
    lines += ["", "Rates: GB/s are 1e9 B/s of the minimum traffic; % of limit is the share of a limit measured in "
              "the same run with the same read:write mix and working set. FAIL: the variant's result differed from "
              "the CPU reference, so it has no speed. A share marked ! is above 100%: the limit measured in that run is "
              "suspect (a disturbed measurement), not the variant faster than the hardware.", ""]
    chapters: dict[str, list[Run]] = {}
    for r in runs:
        chapters.setdefault(r.chapter, []).append(r)
    if not runs:
        lines += ["No runs found: run `bash scripts/lecture.sh` first, or name result folders.", ""]
    drawn: dict[str, list] = {}
    for chapter in sorted(chapters, key=chapter_key):
        lines += chapter_section(chapter, chapters[chapter], out_dir, with_plots, drawn)
    # The plots per chapter, for the docs' chapter pages (scripts/report/docs_filter.py).
    with open(os.path.join(out_dir, "plots.json"), "w", encoding="utf-8") as f:
        json.dump(drawn, f, indent=1)
    index = os.path.join(out_dir, "index.md")
    with open(index, "w", encoding="utf-8") as f:
        f.write("\n".join(lines).rstrip() + "\n")
    return index


class OutputRefused(Exception):
    """An output folder the report must not or cannot write into (exit code 2)."""


MADE_LIST = "report-files.txt"  # the files the last report wrote into its folder, one name per line


def within(path: str, folder: str) -> bool:
    return os.path.commonpath([path, folder]) == folder


def check_apart(out_dir: str, folders: list[str]) -> None:
    """The output folder must lie apart from every results folder the report reads."""
    if not out_dir:
        raise OutputRefused("--out needs a folder, got an empty path")
    out = os.path.realpath(out_dir)
    for folder in folders:
        real = os.path.realpath(folder)
        how = ("is" if out == real else "holds" if within(real, out) else "lies inside" if within(out, real) else "")
        if how:
            raise OutputRefused(f"--out {out_dir} {how} the results folder {folder} it reads: choose another folder")


def own_files(out_dir: str) -> set[str]:
    """The files an earlier report wrote into OUT, which this one may replace or remove."""
    if not os.path.exists(out_dir):
        return set()
    if not os.path.isdir(out_dir):
        raise OutputRefused(f"--out {out_dir} is a file, not a folder")
    names = {n for n in os.listdir(out_dir) if not n.startswith(".")}
    listed = os.path.join(out_dir, MADE_LIST)
    if MADE_LIST in names:
        with open(listed, encoding="utf-8", errors="replace") as f:
            return {n for n in f.read().splitlines() if n and os.path.basename(n) == n}
    index = os.path.join(out_dir, "index.md")
    if "index.md" in names and os.path.isfile(index):
        with open(index, encoding="utf-8", errors="replace") as f:
            if f.readline().strip() == "# Lecture report":  # a report from before the list was kept
                return {n for n in names if n.endswith((".png", ".csv", ".md", ".json"))}
    if names:
        shown = ", ".join(sorted(names)[:3]) + (", ..." if len(names) > 3 else "")
        raise OutputRefused(f"--out {out_dir} holds files no report wrote ({shown}): choose a new or empty folder")
    return set()


def write_report(folders: list[str], out_dir: str, with_plots: bool = True, given: list[str] = ()) -> str:
    """Draws the report of the machine folders in a new folder inside OUT, then moves its files into
    OUT over the last report's and removes the last report's files this one did not write. OUT must
    lie apart from the folders and from the given folders they came from. Returns OUT/index.md."""
    check_apart(out_dir, [*given, *folders])
    earlier = own_files(out_dir)
    os.makedirs(out_dir, exist_ok=True)
    drawing = tempfile.mkdtemp(prefix=".report-", dir=out_dir)
    try:
        build_report(folders, drawing, with_plots)
        made = sorted(os.listdir(drawing))
        for name in sorted(earlier - set(made)):  # a chapter that is gone must not linger
            path = os.path.join(out_dir, name)
            if os.path.isfile(path):
                os.remove(path)
        for name in made:
            os.replace(os.path.join(drawing, name), os.path.join(out_dir, name))
        listing = os.path.join(drawing, MADE_LIST)
        with open(listing, "w", encoding="utf-8") as f:
            f.write("".join(n + "\n" for n in made))
        os.replace(listing, os.path.join(out_dir, MADE_LIST))
    finally:
        shutil.rmtree(drawing, ignore_errors=True)
    return os.path.join(out_dir, "index.md")


class Parser(argparse.ArgumentParser):
    """argparse with its usage errors on one line."""

    def error(self, message):
        self.exit(2, f"report: {message} (see --help)\n")


def main(argv: list[str]) -> int:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", help="machine folders, or folders of machine folders "
                        "(default: build/lecture)")
    parser.add_argument("--out", default="build/report", help="where index.md, the CSV and the PNG go")
    parser.add_argument("--no-plots", action="store_true", help="tables only (no matplotlib needed)")
    args = parser.parse_args(argv)
    given = args.folders or ["build/lecture"]
    missing = [f for f in given if not os.path.isdir(f)]
    if missing:
        hint = "" if args.folders else " (run scripts/lecture.sh, or name result folders)"
        print(f"report: not a folder: {', '.join(missing)}{hint}", file=sys.stderr)
        return 2
    folders = [m for f in given for m in machine_folders(f)]
    print("report: machine folders: " + ", ".join(folders))
    try:
        index = write_report(folders, args.out, with_plots=not args.no_plots, given=given)
    except OutputRefused as e:
        print(f"report: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"report: cannot write the report into {args.out}: {e.strerror or e}", file=sys.stderr)
        return 2
    print(f"report: {index}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
