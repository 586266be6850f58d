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
# The chapters, the options and --out are checked before anything is built: a bad one gets one line
# and exit code 2. The runs go into a new folder (DIR/.<machine>.new-XXXXXX) that takes the place of
# the machine's folder only when every run has ended; the run before is kept as DIR/.<machine>.previous.
# Stopped (Ctrl-C, SIGTERM), the lecture stops the running chapter and leaves the machine's folder
# as it was; the runs that had ended stay in the new folder.
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/checks.sh
source scripts/checks.sh

quick=0
chapters=""
out="build/lecture"
build=1
usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; }
while (($#)); do
  case "$1" in
    --quick) quick=1 ;;
    --chapters) need_value lecture "$@"; chapters=$2; shift ;;
    --out) need_value lecture "$@"; out=$2; shift ;;
    --no-build) build=0 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "lecture: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

# The chapters there are (chapters/NN_name/): a chosen one that is not among them stops the lecture
# here, before anything is built or written.
known=" $(for d in chapters/[0-9]*_*/; do d=${d#chapters/}; printf '%s ' "${d%%_*}"; done)"
read -ra chosen <<<"${chapters//,/ }"
for c in "${chosen[@]}"; do
  [[ $known == *" $c "* ]] && continue
  hint=""
  [[ $known == *" 0$c "* ]] && hint=" (did you mean 0$c?)"
  echo "lecture: unknown chapter '$c'$hint; the chapters are:${known% }" >&2
  exit 2
done
if [ -n "$chapters" ] && ((${#chosen[@]} == 0)); then
  echo "lecture: --chapters '$chapters' names no chapter" >&2
  exit 2
fi

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
writable_dir lecture --out "$out"
if [ -e "$dir" ] && [ ! -d "$dir" ]; then
  echo "lecture: '$dir' (this machine's folder) is a file, not a folder" >&2
  exit 2
fi

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

# This run's folder, beside the machine's folder; it takes that folder's place once every run ended.
if ! run_dir=$(mktemp -d "$out/.$slug.new-XXXXXX" 2>&1); then
  echo "lecture: cannot make a folder in --out '$out': ${run_dir##*: }" >&2
  exit 2
fi
chmod "$(umask -S)" "$run_dir"  # a folder's usual permissions (mktemp makes it private)
if ! { printf '%s\n' "$machine" >"$run_dir/machine.txt" &&
        printf 'file\tchapter\ttarget\trun\texit\tstatus\tseconds\tmessage\n' >"$run_dir/runs.tsv"; }; then
  rm -rf -- "$run_dir"
  echo "lecture: cannot write in '$run_dir'" >&2
  exit 2
fi

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
  for c in "${chosen[@]}"; do [ "$c" = "$1" ] && return 0; done
  return 1
}

# A signal stops the running chapter (through timeout, which passes it on) and then the lecture.
child=""
stop=""
# shellcheck disable=SC2317  # called from the traps
on_signal() {
  stop=$1
  [ -z "$child" ] || kill -TERM "$child" 2>/dev/null
}
for sig in INT TERM HUP; do
  # shellcheck disable=SC2064  # the signal's name is fixed here
  trap "on_signal $sig" "$sig"
done

# Appends a line to runs.tsv; a failed write is remembered, and the run then never replaces the last.
unwritten=0
record() {
  # shellcheck disable=SC2059  # the format is the caller's
  printf "$@" >>"$run_dir/runs.tsv" || unwritten=1
}

failed=0
count=0
while IFS=$'\t' read -r id target backend exe text; do
  wanted "$id" || continue
  if [ "$exe" = "-" ]; then
    # Not built (its backend was not found at configure time): recorded once per chapter.
    grep -q "^-	$id	$target	" "$run_dir/runs.tsv" && continue
    record -- '-\t%s\t%s\t-\t-\tnot built\t0\t%s\n' "$id" "$target" "$text"
    echo "[$id] $target: $text"
    continue
  fi
  while IFS='|' read -r run args; do
    [ -z "$stop" ] || break 2
    count=$((count + 1))
    name="${target}_${run}"
    printf '[%s] %-24s %-12s ' "$id" "$target" "$run"
    args=${args//@DUMP@/$run_dir/${name}_dump}  # a run's --dump folder, beside its JSON
    start=$(date +%s%N)
    # In the background, so that a signal reaches the lecture (and, passed on, the chapter) at once.
    # shellcheck disable=SC2086  # the arguments are words by design
    timeout "${LECTURE_RUN_TIMEOUT:-1800}" "$exe" $args --json "$run_dir/$name.json" \
      </dev/null >"$run_dir/$name.log" 2>&1 &
    child=$!
    while :; do  # wait returns early when a signal arrives: wait again until the chapter has ended
      wait "$child"
      code=$?
      kill -0 "$child" 2>/dev/null || break
    done
    child=""
    ((code == 124)) && echo "timed out after ${LECTURE_RUN_TIMEOUT:-1800} s (LECTURE_RUN_TIMEOUT)" >>"$run_dir/$name.log"
    secs=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
    message=$(grep -v '^[[:space:]]*$' "$run_dir/$name.log" | tail -n1 | tr '\t' ' ' | cut -c1-300)
    case $code in
      0) status=ok ;;
      77) status=skipped ;;
      1) status=failed; failed=1 ;;
      *) status=error; failed=1 ;;
    esac
    json="$name.json"
    [ -f "$run_dir/$json" ] || json="-"
    record '%s\t%s\t%s\t%s\t%s\t%s\t%.1f\t%s\n' "$json" "$id" "$target" "$run" "$code" \
      "$status" "$secs" "$message"
    printf '%-8s %6.1f s  %s\n' "$status" "$secs" "$([ "$status" = ok ] || echo "$message")"
  done < <(runs_of "$id")
done < <(sort -s -t "$(printf '\t')" -k1,1 "$manifest")

if [ -n "$stop" ]; then
  echo "lecture: stopped by SIG$stop after $count run(s): $dir is as it was; the runs that ended are in $run_dir" >&2
  trap - "$stop"
  kill -s "$stop" $$  # the conventional status of a process stopped by that signal
  exit 1
fi
if ((count == 0)); then
  rm -rf -- "$run_dir"
  echo "lecture: none of the chosen chapters is built here: nothing ran, $dir is as it was" >&2
  exit 1
fi
if ((unwritten)); then
  echo "lecture: runs.tsv could not be written in full: $dir is as it was; this run is in $run_dir" >&2
  exit 1
fi
# The run is complete: it takes the machine folder's place, and the folder's last run is kept.
previous="$out/.$slug.previous"
kept=""
if [ -d "$dir" ]; then
  kept=$previous
  if ! { rm -rf -- "$previous" && mv -- "$dir" "$previous"; }; then
    echo "lecture: cannot move the last run $dir aside: this run is in $run_dir" >&2
    exit 1
  fi
fi
mv -- "$run_dir" "$dir" || { echo "lecture: cannot rename $run_dir to $dir" >&2; exit 1; }
echo "lecture: $count run(s) on $machine -> $dir/ (runs.tsv lists each)"
[ -z "$kept" ] || echo "lecture: the run before is kept in $kept/"
echo "next: bash scripts/report.sh $dir"
exit $failed
