#!/usr/bin/env bash
# Plots of the report drawn from a fresh lecture run on the GPU machine, and the files for them to
# commit: the lecture run of chapters 04 (the paper's five widths; its wide sweep ran past the
# lecture's limit), 10 (GFLOP/s against n) and 11 (three scenarios, two cubes for the node rate
# against mesh size, the cavity's dumped spectrum), the report of that run with every plot beside
# this machine's committed lecture, the report's and the docs' tests, and the files to commit into
# the machine's folder under results/, already named.
#
# Usage: bash scripts/device/report_plots.sh --out DIR [--build DIR] [--budget SECONDS]
# (the options and GPGPU_ENV_SETUP, a script sourced first: scripts/device/common.sh), with the
# project built in --build (default build/: bash scripts/build.sh, the README's build).
# <m> below is this machine's short name as results/ names machines (common.sh's
# device_results_machine: h200 for nvidia-h200, h100 for nvidia-h100-80gb-hbm3); RESULTS_MACHINE=NAME
# sets it. Files written to $OUT: report_plots_log.txt, lecture/<machine>/ (the runs), report/
# (index.md, PNG), results/<m>/ (to commit into results/<m>/: ch04_cuda_aligned_sweep.json,
# ch11_mesh32.json, ch11_mesh96.json, ch11_cavity.spectrum.npy; then
# `python3 scripts/report/readme_tables.py`). The report sets the run beside results/<m>_lecture/,
# the machine's committed lecture, where there is one. Keeps going after a failure, lists every
# failed step at the end (exit 1 then). Took about 4 minutes on an H100.
set -u
source "$(dirname "$0")/common.sh"
device_init "$@"
device_need_out
LOG="$OUT/report_plots_log.txt"
: > "$LOG"
t0=$(date +%s)
source scripts/device/step.sh

# 1. The lecture runs of the three chapters (100 s at most each).
step lecture env GPGPU_LECTURE_MANIFEST="$BUILD/chapters.tsv" LECTURE_RUN_TIMEOUT=100 \
  bash scripts/lecture.sh --no-build --out "$OUT/lecture" --chapters 04,10,11
dir=$(device_lecture_folder "$OUT/lecture")
m=${RESULTS_MACHINE:-$(device_results_machine "$dir")}
mkdir -p "$OUT/results/$m"
committed=()
[ -d "results/${m}_lecture" ] && committed=("results/${m}_lecture")
# 2. Their report beside this machine's committed lecture: every plot of chapters 04, 10 and 11, two
#    runs' worth (this run alone where the machine has no committed lecture).
step report bash scripts/report.sh --out "$OUT/report" ${committed[@]+"${committed[@]}"} "$dir"
# 3. The report's tests, the README tables against results/, the docs' pages in Chromium (its plots).
step "ctest report" ctest --test-dir "$BUILD" -L report --output-on-failure
# 4. The files to commit into results/<m>/, under the names results/h100/ gave the H100's (the
#    cavity's spectrum is the reference's, the same for every machine at the same mesh and steps, so
#    it goes beside ch11_cavity.json).
copy() { if [ -f "$1" ]; then cp "$1" "$OUT/results/$m/$2"; else echo "missing: $1" | tee -a "$LOG"; failed+=("copy $2"); fi; }
copy "$dir/ch04_cuda_aligned_sweep.json" ch04_cuda_aligned_sweep.json
copy "$dir/ch11_tlm_coalesced_mesh32.json" ch11_mesh32.json
copy "$dir/ch11_tlm_coalesced_mesh96.json" ch11_mesh96.json
copy "$dir/ch11_tlm_coalesced_cavity_dump/spectrum.npy" ch11_cavity.spectrum.npy

echo
[ -n "$dir" ] && cut -f2-7 "$dir/runs.tsv"
echo "plots drawn: $(python3 -c 'import json,sys; print(", ".join(n for f in json.load(open(sys.argv[1])).values() for n, _ in f))' \
  "$OUT/report/plots.json" 2>/dev/null | tr '\n' ' ')"
grep -h "plot .* failed" "$OUT/report/index.md" 2>/dev/null | sed 's/^/  /'
echo "report_plots.sh: $steps steps, ${#failed[@]} failed, $(( $(date +%s) - t0 )) s (details: report_plots_log.txt)"
if ((${#failed[@]})); then
  printf 'FAILED: %s\n' "${failed[@]}"
  exit 1
fi
echo "report_plots.sh: every step passed"
