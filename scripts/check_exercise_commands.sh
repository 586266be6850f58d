#!/usr/bin/env bash
# Checks that the command each exercise README gives for running the student's check runs that
# check alone (CTest: exercises.check_commands, label cpu). `ctest -R 03_name` alone would also run
# the worked answer (solution_03_name) and the grading test (which proves the shipped skeleton
# fails); the READMEs therefore select by label and by the exact test name. Every line of a README
# that starts with `ctest --test-dir build` is run with -N (list only) against BUILD_DIR, and must
# list the test exercise_<folder name>, and besides it only that exercise's tagged checks
# (exercise_<folder name>_<tag>: the CPU emulation of a CUDA exercise, say).
#
#   scripts/check_exercise_commands.sh BUILD_DIR [CTEST]
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:?usage: check_exercise_commands.sh BUILD_DIR [CTEST]}"
ctest="${2:-ctest}"
status=0
checked=0
for readme in "$root"/exercises/*/README.md; do
  folder="$(basename "$(dirname "$readme")")"
  [[ -f "$(dirname "$readme")/CMakeLists.txt" ]] || continue
  expected="exercise_${folder}"
  # An exercise whose backend this build lacks has no tests to select: nothing to check.
  if [[ -z "$("$ctest" --test-dir "$build" -N -R "^${expected}\$" 2>/dev/null | sed -n 's/^ *Test *#[0-9]*: *//p')" ]]; then
    echo "skipped $folder: not in this build"
    continue
  fi
  found=0
  while IFS= read -r line; do
    found=1
    # The README's command with this build folder; eval honours its quoting ('^exercise$').
    command="${line/ctest --test-dir build/\"\$ctest\" --test-dir \"\$build\"}"
    listed="$(eval "$command -N" 2>/dev/null | sed -n 's/^ *Test *#[0-9]*: *//p')"
    # The student's checks only: exercise_<folder>, and a second check of the same files where the
    # exercise has one (exercise_<folder>_<tag>, e.g. the CPU emulation of a CUDA exercise).
    names=" $(tr '\n' ' ' <<< "$listed")"
    ok=1
    [[ "$names" == *" $expected "* ]] || ok=0
    for test in $listed; do
      [[ "$test" =~ ^${expected}(_[a-z0-9]+)?$ ]] || ok=0
    done
    if [[ $ok == 0 ]]; then
      echo "$readme: '$line' lists [${names# }], not $expected (and its tagged checks) alone" >&2
      status=1
    fi
    checked=$((checked + 1))
  done < <(grep -E '^[[:space:]]*ctest --test-dir build' "$readme" | sed -E 's/^[[:space:]]*//; s/[[:space:]]+#.*$//')
  if [[ $found == 0 ]]; then
    echo "$readme: no 'ctest --test-dir build ...' line that runs the check" >&2
    status=1
  fi
done
[[ $status == 0 ]] && echo "ok: $checked check commands each run only their exercise's checks"
exit $status
