#!/usr/bin/env bash
# The test suite: set up, build, and run every test that can run here. CUDA tests skip without a
# GPU; the `exercise` label (the unsolved skeletons, which must fail) is left out, and the
# `grading` tests prove that each skeleton does fail while its worked solution passes.
#
#   bash scripts/test.sh [CTEST_OPTIONS...]     e.g. -L cpu, -R '^report', -j 4
#
# The options go to ctest (its preset `default`). Those that need a value are checked before the
# set-up and the build: one without its value gets one line and exit code 2.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/checks.sh
source scripts/checks.sh

args=("$@")
while (($#)); do
  case "$1" in
    -h | --help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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

bash scripts/setup.sh
bash scripts/build.sh
ctest --preset default "${args[@]}"
