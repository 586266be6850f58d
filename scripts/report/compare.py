"""Machines side by side: every variant's speed on each machine that ran the same setting (the same
size, element type or scenario, and number of GPUs: Run.setting()), and its ratio to the first
machine given, so that an instructor sees what changed between two GPUs.

A product (chapters 10, 10b) is shown in TFLOP/s, everything else in ms per step; the ratio is always
a ratio of speeds (above 1: that machine is faster than the first), the first machine's time over
the other's. A variant that failed its verification shows FAIL and has no ratio.
"""
from __future__ import annotations

import math

from results import Run
from tables import number


def _verified(run: Run) -> int:
    return sum(1 for row in run.doc.get("results", []) if isinstance(row, dict) and row.get("check") == "PASS")


def runs_by_setting(runs: list[Run]) -> dict[str, dict[str, Run]]:
    """{setting: {machine: run}} of the readable result runs, machines in the order given. Of one
    machine's runs at a setting, the one with the most verified rows counts (a repeat of a few
    variants gives way to the full run), the first by name on a tie."""
    chosen: dict[str, dict[str, Run]] = {}
    for r in sorted((r for r in runs if r.readable and r.kind == "result"), key=lambda r: r.name):
        mine = chosen.setdefault(r.setting(), {})
        if r.machine not in mine or _verified(r) > _verified(mine[r.machine]):
            mine[r.machine] = r
    order = list(dict.fromkeys(r.machine for r in runs))
    return {s: {m: by[m] for m in order if m in by} for s, by in chosen.items()}


def _seconds(row: dict) -> float | None:
    ms = row.get("ms_per_step")
    ok = isinstance(ms, (int, float)) and not isinstance(ms, bool) and math.isfinite(ms) and ms > 0
    return ms / 1e3 if ok else None


def comparison(runs: list[Run]) -> tuple[list[str], list[list[str]]] | None:
    """The table of the settings that two machines or more ran, or None when there is none."""
    shared = {s: by for s, by in runs_by_setting(runs).items() if len(by) > 1}
    if not shared:
        return None
    machines = list(dict.fromkeys(m for by in shared.values() for m in by))
    base = machines[0]
    product = all(isinstance((r.doc.get("problem") or {}).get("m"), int) for by in shared.values() for r in by.values())
    unit = "TFLOP/s" if product else "ms/step"
    header = ["size", "variant", *(f"{m} {unit}" for m in machines),
              *(f"{m} / {base} (speed)" for m in machines[1:])]
    rows = []
    for setting, by in shared.items():
        rows_of = {m: {str(row.get("variant")): row for row in r.doc.get("results", []) if isinstance(row, dict)}
                   for m, r in by.items()}
        variants = list(dict.fromkeys(v for m in machines for v in rows_of.get(m, {})))
        for v in variants:
            cells, seconds = [], {}
            for m in machines:
                row = rows_of.get(m, {}).get(v)
                if row is None:
                    cells.append("-")
                elif row.get("check") == "FAIL":
                    cells.append("FAIL")
                else:
                    seconds[m] = _seconds(row)
                    cells.append(number(row.get("gflops"), ".4g", 1e-3) if product else number(row.get("ms_per_step"), ".4f"))
            ratios = [number(seconds[base] / seconds[m], ".2f") if seconds.get(base) and seconds.get(m) else "-"
                      for m in machines[1:]]
            rows.append([setting, v, *cells, *ratios])
    return header, rows
