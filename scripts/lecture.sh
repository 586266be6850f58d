#!/usr/bin/env bash
# The lecture run: set up and build like the tour, then run every chapter that was built at the
# lecture sizes (the papers' sizes and one beyond the last-level cache; --quick: each chapter's small
# size), one JSON per run into a folder named after this machine. Then `bash scripts/report.sh DIR`.
#
#   bash scripts/lecture.sh [--quick] [--chapters 03,08,...] [--out DIR] [--no-build]
#
# The lecture sizes are for a GPU; where OpenCL and OpenGL run on the CPU (PoCL, llvmpipe), use
# --quick, or a run can take many minutes. Each run gets a progress line and a log; the folder's
# runs.tsv records every run's exit code, so the report can say which chapters were skipped (exit 77:
# a backend is missing), failed verification (exit 1) or broke (any other code; 124: longer than
# LECTURE_RUN_TIMEOUT seconds, default 1800). Exit code: 0 when no run failed or broke, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."

quick=0
chapters=""
out="build/lecture"
build=1
usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; }
while (($#)); do
  case "$1" in
    --quick) quick=1 ;;
    --chapters) chapters="${2:?--chapters needs a list such as 01,08}"; shift ;;
    --out) out="${2:?--out needs a folder}"; shift ;;
    --no-build) build=0 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "lecture: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

if ((build)); then
  bash scripts/setup.sh || exit 1
  mkdir -p build
  echo "lecture: building (log: build/lecture-build.log)"
  bash scripts/build.sh >build/lecture-build.log 2>&1 || {
    tail -n 20 build/lecture-build.log >&2
    echo "lecture: the build failed, see build/lecture-build.log" >&2
    exit 1
  }
fi
# The chapters CMake configured (cmake/AddChapter.cmake writes the list); the tests give their own.
manifest=${GPGPU_LECTURE_MANIFEST:-build/chapters.tsv}
[ -f "$manifest" ] || { echo "lecture: $manifest is missing: configure and build first (scripts/build.sh)" >&2; exit 1; }

# The machine's name: the first GPU's when there is one, else the CPU's model.
machine_name() {
  local name=""
  if command -v nvidia-smi >/dev/null 2>&1; then
    name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)
  fi
  [ -n "$name" ] || name=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n1)
  [ -n "$name" ] || name=$(uname -m)
  echo "$name"
}
machine=$(machine_name)
slug=$(echo "$machine" | tr '[:upper:]' '[:lower:]' | sed 's/([^)]*)//g; s/[^a-z0-9]\{1,\}/-/g; s/^-//; s/-$//')
dir="$out/$slug"
mkdir -p "$dir"
rm -f "$dir"/*.json "$dir"/*.log "$dir"/runs.tsv
rm -rf "$dir"/*_dump
printf '%s\n' "$machine" >"$dir/machine.txt"
printf 'file\tchapter\ttarget\trun\texit\tstatus\tseconds\tmessage\n' >"$dir/runs.tsv"

# The runs of one chapter, one per line: a name and the chapter's arguments. The sizes are the
# papers' (1024² for paper 000's tables) and one grid well beyond any last-level cache (4096²,
# 64 MiB per array); chapters 03-05 add the paper's width sweep (Fig. 19, Tables 1-2), chapters 09
# and 10 paper 003's sizes (Tabs. 4-10), chapter 11 its three scenarios and two cubes for the node
# rate against mesh size (paper 002, Fig. 11).
# A chapter not listed here runs once at its default size. @DUMP@ stands for the run's own --dump folder
# (NAME_dump beside NAME.json), where the report finds what the JSON does not hold (chapter 11's spectrum).
runs_of() {
  local id=$1
  if ((quick)); then
    echo "quick|--quick"
    case "$id" in 03|04|05|09|10) echo "sweep-quick|--quick --sweep paper" ;; esac
    case "$id" in 11) echo "waveguide-quick|--quick --scenario waveguide" ;; esac
    return
  fi
  case "$id" in
    01) echo "1024|--nx 1024 --ny 1024 --iters 200 --repeat 3"
        echo "4096|--nx 4096 --ny 4096 --iters 10 --repeat 3" ;;
    02) echo "1024|--nx 1024 --ny 1024 --iters 1000 --repeat 3"
        echo "4096|--nx 4096 --ny 4096 --iters 200 --repeat 3" ;;
    03|04|05|06|07|07b)
        echo "1024|--nx 1024 --ny 1024 --iters 1000 --repeat 3"
        echo "4096|--nx 4096 --ny 4096 --iters 100 --repeat 5 --cpu-sample-iters 1"
        case "$id" in
          # The paper's widths, Tables 1-2 (chapter 04's wide sweep, every width 480-544, took over
          # the lecture's 100 s per run on the H100: build/bin/ch04_cuda_aligned --sweep wide runs it).
          03|04|05) echo "sweep|--sweep paper --repeat 3" ;;
        esac ;;
    08) echo "1024|--nx 1024 --ny 1024 --iters 1000 --repeat 5"
        echo "2048|--nx 2048 --ny 2048 --iters 1000 --repeat 5"
        echo "4096|--nx 4096 --ny 4096 --iters 1000 --repeat 3" ;;
    09) echo "default|"                                   # 4096², beyond the L2
        # paper 003's n = 16 ... 4096 (Tabs. 8-10). The wide sweep (8192², 16384²) runs the serial CPU
        # variants on 1 GiB matrices: past the lecture's 100 s per run on the H100; matrix.sh runs it.
        echo "sweep|--sweep paper" ;;
    10) echo "default|"                                        # 4096³
        echo "sweep|--sweep wide --calls 2 --repeat 3" ;;       # GFLOP/s against n = 16 ... 8192, the report's plot
    11) echo "cavity|--scenario cavity --dump @DUMP@"          # the resonances and the spectrum (for the report)
        echo "waveguide|--scenario waveguide"                  # the TE10 cut-off
        echo "filter|--scenario filter --steps 500"            # the paper's 150,016-node filter (Fig. 7)
        echo "mesh32|--nx 32 --ny 32 --nz 32 --steps 100"      # node rate against mesh size (Fig. 11); 96³
        echo "mesh96|--nx 96 --ny 96 --nz 96 --steps 100" ;;   # keeps the serial CPU variant near 20 s
    12) echo "default|"                                        # every routine at its default size, the roofline
        echo "conv17|--routine conv2d --k 17" ;;               # the convolution where the FMA units bind
    *)  echo "default|" ;;
  esac
}

wanted() {
  [ -z "$chapters" ] && return 0
  local c
  for c in ${chapters//,/ }; do [ "$c" = "$1" ] && return 0; done
  return 1
}

failed=0
count=0
while IFS=$'\t' read -r id target backend exe text; do
  wanted "$id" || continue
  if [ "$exe" = "-" ]; then
    # Not built (its backend was not found at configure time): recorded once per chapter.
    grep -q "^-	$id	$target	" "$dir/runs.tsv" && continue
    printf -- '-\t%s\t%s\t-\t-\tnot built\t0\t%s\n' "$id" "$target" "$text" >>"$dir/runs.tsv"
    echo "[$id] $target: $text"
    continue
  fi
  while IFS='|' read -r run args; do
    count=$((count + 1))
    name="${target}_${run}"
    printf '[%s] %-24s %-12s ' "$id" "$target" "$run"
    args=${args//@DUMP@/$dir/${name}_dump}  # a run's --dump folder, beside its JSON
    start=$(date +%s%N)
    # shellcheck disable=SC2086  # the arguments are words by design
    timeout "${LECTURE_RUN_TIMEOUT:-1800}" "$exe" $args --json "$dir/$name.json" >"$dir/$name.log" 2>&1
    code=$?
    ((code == 124)) && echo "timed out after ${LECTURE_RUN_TIMEOUT:-1800} s (LECTURE_RUN_TIMEOUT)" >>"$dir/$name.log"
    secs=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
    message=$(grep -v '^[[:space:]]*$' "$dir/$name.log" | tail -n1 | tr '\t' ' ' | cut -c1-300)
    case $code in
      0) status=ok ;;
      77) status=skipped ;;
      1) status=failed; failed=1 ;;
      *) status=error; failed=1 ;;
    esac
    [ -f "$dir/$name.json" ] || name_json="-"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%.1f\t%s\n' "${name_json:-$name.json}" "$id" "$target" "$run" "$code" \
      "$status" "$secs" "$message" >>"$dir/runs.tsv"
    unset name_json
    printf '%-8s %6.1f s  %s\n' "$status" "$secs" "$([ "$status" = ok ] || echo "$message")"
  done < <(runs_of "$id")
done < <(sort -s -t "$(printf '\t')" -k1,1 "$manifest")

echo "lecture: $count run(s) on $machine -> $dir/ (runs.tsv lists each)"
echo "next: bash scripts/report.sh $dir"
exit $failed
