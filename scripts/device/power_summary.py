#!/usr/bin/env python3
"""The sustained runs of chapter 10b (scripts/device/ch10b.sh), one line each, from the folder they wrote.

    python3 scripts/device/power_summary.py DIR

For every DIR/sustained_<n>_<variant>.json with its nvidia-smi samples DIR/power_<n>_<variant>.csv
(every 20 ms: power, SM clock, clock-event reasons): the run's TFLOP/s (its median), and over the
"busy" samples (power above 300 W, the GPU at work rather than between runs) the median and largest
power, the median and lowest SM clock, and the clock-event reasons seen (0x4: the software power cap,
the board's power limit). Only the standard library.
"""
import csv
import json
import pathlib
import re
import statistics
import sys

BUSY_W = 300.0


def number(text):
    m = re.search(r"[-+]?\d+(\.\d+)?", text)
    return float(m.group(0)) if m else float("nan")


def samples(path):
    rows = []
    with path.open() as f:
        for r in csv.reader(f):
            if len(r) < 5 or r[0].startswith("timestamp"):
                continue
            rows.append({"w": number(r[1]), "mhz": number(r[3]), "reason": r[4].strip()})
    return rows


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    folder = pathlib.Path(sys.argv[1])
    print(f"Sustained runs (power above {BUSY_W:.0f} W counts as busy; reason 0x4 is the software power cap)")
    for run in sorted(folder.glob("sustained_*.json")):
        n, variant = re.match(r"sustained_(\d+)_(.+)\.json", run.name).groups()
        j = json.loads(run.read_text())
        tflops = j["results"][0]["gflops"] / 1000 if j.get("results") else float("nan")
        power = folder / f"power_{n}_{variant}.csv"
        busy = [s for s in samples(power) if s["w"] > BUSY_W] if power.exists() else []
        if not busy:
            print(f"{n:>5} {variant:<16} {tflops:7.1f} TFLOP/s  no busy samples")
            continue
        w = [s["w"] for s in busy]
        mhz = [s["mhz"] for s in busy]
        reasons = sorted({s["reason"] for s in busy})
        print(f"{n:>5} {variant:<16} {tflops:7.1f} TFLOP/s  {len(busy)} busy samples: power median "
              f"{statistics.median(w):5.0f} W (max {max(w):4.0f}), SM clock median {statistics.median(mhz):5.0f} MHz "
              f"(min {min(mhz):4.0f}), reasons {reasons}")


if __name__ == "__main__":
    main()
