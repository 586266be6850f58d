#!/usr/bin/env bash
# The test suite: set up, build, and run every test that can run here. CUDA tests skip without a
# GPU; the `exercise` label (the unsolved skeletons, which must fail) is left out, and the
# `grading` tests prove that each skeleton does fail while its worked solution passes. The last line
# says how long each part took (also when one fails), so a slow build and a slow suite read apart.
set -euo pipefail
cd "$(dirname "$0")/.."
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
timed tests ctest --preset default "$@"
