#!/usr/bin/env bash
# The lecture run and its report on the GPU machine: every built chapter at the lecture sizes
# (scripts/lecture.sh), the report with its plots (scripts/report.sh), the report's tests, and the
# README tables regenerated from this run's results to show what would change.
#
# Usage: bash scripts/device/report.sh --out DIR [--build DIR] [--budget SECONDS]
# (the options and GPGPU_ENV_SETUP, a script sourced first: scripts/device/common.sh), with the
# project built in --build (default build/: bash scripts/build.sh, the README's build).
# LECTURE_CHAPTERS=01,08 limits the lecture to those chapters (default: every built chapter).
# Files written to $OUT: report_log.txt, lecture/<machine>/ (one JSON and log per run, runs.tsv,
# machine.txt: copy the JSON, runs.tsv and machine.txt to results/h100/ and run
# `python3 scripts/report/readme_tables.py`), report/ (index.md, CSV, PNG), readme_tables.diff.
# Keeps going after a failure and lists every failed step at the end (exit 1 then).
set -u
source "$(dirname "$0")/common.sh"
device_init "$@"
device_need_out
LOG="$OUT/report_log.txt"
: > "$LOG"
t0=$(date +%s)
# step NAME COMMAND...: runs the command, appends its output to the log, records a failure.
source scripts/device/step.sh

# 1. The lecture: every chapter of this build at the lecture sizes, a progress line per run.
#    A run may take at most 100 s (LECTURE_RUN_TIMEOUT), so one hang cannot cost the batch.
step lecture env GPGPU_LECTURE_MANIFEST="$BUILD/chapters.tsv" LECTURE_RUN_TIMEOUT=100 \
  bash scripts/lecture.sh --no-build --out "$OUT/lecture" ${LECTURE_CHAPTERS:+--chapters "$LECTURE_CHAPTERS"}
# 2. The report of this run (plots from matplotlib; python3-matplotlib if the image lacks it).
step report bash scripts/report.sh --out "$OUT/report" "$OUT/lecture"  # the machine folder under it
# 3. The report's own tests and the README tables' check against the committed results/.
step "ctest report" ctest --test-dir "$BUILD" -L report -LE docs --output-on-failure
# 4. What the README tables would become with this run's results (a diff; nothing is written).
tmp=$(mktemp -d)
mkdir -p "$tmp/results/h100"
cp "$OUT"/lecture/*/*.json "$OUT"/lecture/*/machine.txt "$OUT"/lecture/*/runs.tsv "$tmp/results/h100/" 2>/dev/null
cp README.md "$tmp/" && mkdir -p "$tmp/chapters" && cp -r chapters/*/ "$tmp/chapters/" 2>/dev/null
python3 scripts/report/readme_tables.py --root "$tmp" --check > "$OUT/readme_tables.diff" 2>&1
echo "README tables with this run's results: $(tail -n1 "$OUT/readme_tables.diff")" | tee -a "$LOG"
rm -rf "$tmp"

echo
cut -f2-7 "$OUT"/lecture/*/runs.tsv
echo "report.sh: $steps steps, ${#failed[@]} failed, $(( $(date +%s) - t0 )) s in all (details: report_log.txt)"
if ((${#failed[@]})); then
  printf 'FAILED: %s\n' "${failed[@]}"
  exit 1
fi
echo "report.sh: every step passed"
