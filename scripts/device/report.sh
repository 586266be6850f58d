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
# machine.txt: to commit, copy the JSON, runs.tsv and machine.txt into the lecture folder under
# results/ that step 4 names, then run `python3 scripts/report/readme_tables.py`), report/ (index.md,
# CSV, PNG), readme_tables.diff.
# The lecture folder (step 4): LECTURE_RESULTS=<name> (results/<name>/) if set; else this machine's
# committed lecture, results/<m>_lecture/ (<m>: common.sh's device_results_machine, h200 for
# nvidia-h200, h100 for nvidia-h100-80gb-hbm3), if a README table names it; else the lecture folder
# the README tables name most (results/h200_lecture/ when this was written).
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
# 4. What the README tables would become with this run in place of the committed lecture (a diff;
#    nothing is written): a copy of results/ whose lecture folder (see above) holds this run's files
#    instead, and of the READMEs, checked against it. The other folders stay the committed ones.
lecture_dir=$(device_lecture_folder "$OUT/lecture")
m=$(device_results_machine "$lecture_dir")
# The lecture folders the READMEs' tables name (markers' source=..._lecture), the most named first.
named=$(grep -ho 'source=[^ ]*_lecture ' README.md chapters/*/README.md | sed 's/^source=//; s/ $//' |
  sort | uniq -c | sort -rn | awk '{print $2}')
if [ -n "${LECTURE_RESULTS:-}" ]; then
  target=$LECTURE_RESULTS
elif grep -qx "${m}_lecture" <<<"$named"; then
  target=${m}_lecture
else
  target=$(head -n1 <<<"$named")
fi
tmp=$(mktemp -d)
if [ -z "$lecture_dir" ] || [ -z "$target" ]; then
  echo "README tables with this run's results: not compared (no lecture folder, or no README table names one)" | tee -a "$LOG"
  failed+=("readme tables diff")
else
  cp -r results "$tmp/"
  rm -rf "${tmp:?}/results/$target" && mkdir -p "$tmp/results/$target"
  cp "$lecture_dir"/*.json "$lecture_dir"/machine.txt "$lecture_dir"/runs.tsv "$tmp/results/$target/" 2>/dev/null
  cp README.md "$tmp/" && mkdir -p "$tmp/chapters" && cp -r chapters/*/ "$tmp/chapters/" 2>/dev/null
  python3 scripts/report/readme_tables.py --root "$tmp" --check > "$OUT/readme_tables.diff" 2>&1
  summary=$(grep -h '^readme_tables:' "$OUT/readme_tables.diff" | tail -n1)
  echo "README tables with this run as results/$target/: ${summary:-every table as committed}" | tee -a "$LOG"
fi
rm -rf "$tmp"

echo
cut -f2-7 "$OUT"/lecture/*/runs.tsv
echo "report.sh: $steps steps, ${#failed[@]} failed, $(( $(date +%s) - t0 )) s in all (details: report_log.txt)"
if ((${#failed[@]})); then
  printf 'FAILED: %s\n' "${failed[@]}"
  exit 1
fi
echo "report.sh: every step passed"
