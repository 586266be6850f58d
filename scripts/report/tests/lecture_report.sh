#!/usr/bin/env bash
# The lecture and its report end to end (CTest: lecture_report_quick): scripts/lecture.sh runs the
# built chapter 01 at --quick into a fresh folder DIR (it writes DIR/<machine>/), then
# scripts/report.sh DIR must find that machine folder, name it, and draw a plot.
#
#   bash scripts/report/tests/lecture_report.sh BUILD_DIR
#
# BUILD_DIR is the configured and built tree (its chapters.tsv lists the chapters' executables).
# Exit 0: passed; 1: failed; 77: skipped (no python3 with matplotlib, so no plot can be drawn).
set -uo pipefail
build=${1:?usage: lecture_report.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/../../.." && pwd)
manifest="$build/chapters.tsv"
[ -f "$manifest" ] || { echo "FAIL: $manifest is missing (configure and build first)"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/gpgpu_lecture_report.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# 1. The lecture: chapter 01 at --quick, from the manifest of this build.
GPGPU_LECTURE_MANIFEST="$manifest" bash "$root/scripts/lecture.sh" --quick --chapters 01 --no-build \
  --out "$work/lecture" > "$work/lecture.txt" 2>&1
rc=$?
cat "$work/lecture.txt"
[ "$rc" -eq 0 ] || fail "lecture.sh exited $rc"
machines=("$work"/lecture/*/)
[ "${#machines[@]}" -eq 1 ] && [ -d "${machines[0]}" ] || fail "lecture.sh wrote no single machine folder under $work/lecture"
machine=$(basename "${machines[0]}")
ls "$work/lecture/$machine"/*.json > /dev/null 2>&1 || fail "no JSON in $work/lecture/$machine"

# 2. The report of the folder above the machine folder.
bash "$root/scripts/report.sh" --out "$work/report" "$work/lecture" > "$work/report.txt" 2>&1
rc=$?
cat "$work/report.txt"
[ "$rc" -eq 0 ] || fail "report.sh exited $rc"
grep -q "no python3 with matplotlib" "$work/report.txt" && { echo "SKIP: no python3 with matplotlib: no plots"; exit 77; }
grep -q "machine folders: .*/lecture/$machine" "$work/report.txt" || fail "report.sh did not name the machine folder $machine"
grep -q "/lecture/$machine\`" "$work/report/index.md" || fail "index.md does not name the machine folder $machine"
grep -q "No runs found" "$work/report/index.md" && fail "the report found no runs"
plots=$(find "$work/report" -maxdepth 1 \( -name '*.png' -o -name '*.svg' \) -size +0c | wc -l)
[ "$plots" -gt 0 ] || fail "no plot (PNG or SVG) was drawn in $work/report"
echo "PASS: lecture.sh -> $machine/, report.sh found it and drew $plots plot(s)"
