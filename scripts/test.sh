#!/usr/bin/env bash
# The test suite: set up, build, and run every test that can run here. CUDA tests skip without a
# GPU; the `exercise` label (the unsolved skeletons, which must fail) is left out, and the
# `grading` tests prove that each skeleton does fail while its worked solution passes. The last line
# says how long each part took (also when one fails), so a slow build and a slow suite read apart.
#
#   bash scripts/test.sh [CTEST_OPTIONS...]     e.g. -L cpu, -R '^report', -j 4
#
# The options go to ctest (its preset `default`). Those that need a value are checked before the
# set-up and the build: one without its value gets one line and exit code 2. The preset runs the
# tests with OMP_WAIT_POLICY=PASSIVE: two OpenMP tests side by side whose threads spin at their
# barriers starve each other on a small machine (a chapter's output-fault test took 46 s beside
# another instead of 2.4 s alone on two cores). It runs three tests at a time: on two cores the
# tests that mostly wait (mpirun's start-up, the deadline of the halo exchange's deadlock check)
# left a core idle at two (the whole suite on a 2-core machine: 152 s at three, 193 s at two);
# `-j N` sets another number.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/checks.sh
source scripts/checks.sh

args=("$@")
while (($#)); do
  case "$1" in
    -h | --help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --preset | --preset=*) echo "test: the preset is this script's (default); run ctest yourself for another" >&2; exit 2 ;;
    -R | -E | -L | -LE | -C | -I | -O | --tests-regex | --exclude-regex | --label-regex | --label-exclude | \
      --build-config | --tests-information | --output-log | --output-junit | --test-dir | --resource-spec-file | \
      --timeout | --stop-time | --repeat | --repeat-until-fail)
      need_value test "$@"
      case $1 in
        --timeout | --repeat-until-fail)
          [[ $2 =~ ^[0-9]+$ ]] || { echo "test: $1 expects a number, got '$2'" >&2; exit 2; } ;;
        --repeat)
          [[ $2 =~ ^(until-fail|until-pass|after-timeout):[0-9]+$ ]] ||
            { echo "test: --repeat expects until-fail:N, until-pass:N or after-timeout:N, got '$2'" >&2; exit 2; } ;;
      esac
      shift ;;
    -j | --parallel) [[ ${2-} =~ ^[0-9]+$ ]] && shift ;;  # the number of jobs may be left out
  esac
  shift
done

parts=()
timed() {  # timed NAME COMMAND...: runs it and records its seconds, whether or not it succeeds
  local name=$1 start=$SECONDS rc=0
  shift
  "$@" || rc=$?
  parts+=("$name $((SECONDS - start)) s")
  return "$rc"
}
summary() {
  local IFS=,
  echo "test.sh times: ${parts[*]}" | sed 's/,/, /g'
}
trap summary EXIT
timed setup bash scripts/setup.sh
timed build bash scripts/build.sh
timed tests ctest --preset default "${args[@]}"
