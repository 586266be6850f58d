#!/usr/bin/env bash
# The tour driver against faults (CTest: tour.faults), on gpgpu_tour_stub: the tour's code over
# stand-in chapters 01 and 03 (scripts/tests/stub_chapter.sh, told what to do through STUB_MODE) and
# chapter 02, not built.
#   - a chapter that breaks, or is stopped, leaves the JSON of its last run as it was; one that ends
#     with its results (passed, or a failed check) replaces it; no scratch file is left behind;
#   - SIGTERM and SIGINT reach the running chapter, which ends; the tour then ends by the same signal;
#   - --json-dir that is a file, lies under a file or is empty: one line and exit 2, no chapter run;
#   - an option after -- that a chapter refuses: exit 2 with the chapter's message, and the tour stops;
#   - an option after -- wins over the machine's sizes, as --iters 7 and as --iters=7.
#
#   bash common/tour/tests/tour_faults.sh PATH/TO/gpgpu_tour_stub
# shellcheck disable=SC2015  # pass never fails: A && pass || fail is if-then-else here
set -uo pipefail
tour=${1:?usage: tour_faults.sh GPGPU_TOUR_STUB}
# shellcheck source=scripts/tests/test_lib.sh
source "$(dirname "$0")/../../../scripts/tests/test_lib.sh"
test_start tour_faults
export STUB_ARGS_LOG="$work/args.log"

# run NAME ARGS...: the tour's exit code in $rc, its stdout and stderr in $work/NAME.out and .err.
run() {
  local name=$1
  shift
  "$tour" "$@" >"$work/$name.out" 2>"$work/$name.err"
  rc=$?
}
refused() {  # NAME WHAT: exit code 2 and exactly one line on stderr
  one_line_exit_2 "$rc" "$work/$1.err" "$2"
}
old_json() {  # DIR: a JSON from an earlier run of chapter 01
  mkdir -p "$1"
  printf '{"an": "earlier run"}\n' >"$1/ch01_stub.json"
}
still_old() {  # DIR WHAT
  if grep -q "earlier run" "$1/ch01_stub.json" 2>/dev/null; then pass "$2: the earlier JSON is kept"
  else fail "$2: the earlier JSON of chapter 01 is gone or changed"; fi
}
no_scratch() {  # DIR WHAT
  if compgen -G "$1/.tour-*" >/dev/null; then fail "$2: the tour left its scratch folder in $1"; fi
}

# 1. A chapter that breaks after half a JSON: the earlier JSON stays; a clean run replaces it.
j="$work/broken"
old_json "$j"
STUB_MODE=broken run broken --quick --json-dir "$j"
[ "$rc" -eq 1 ] || fail "a broken chapter: expected exit 1 (TOUR FAIL), got $rc"
still_old "$j" "a chapter that broke (exit 3) after writing half its JSON"
no_scratch "$j" "a broken chapter"
STUB_MODE=verify STUB_TAG=checked run verify --quick --json-dir "$j"
[ "$rc" -eq 1 ] || fail "a failed check: expected exit 1, got $rc"
grep -q '"tag": "checked"' "$j/ch01_stub.json" && pass "a chapter that failed its check replaces the JSON with its results" ||
  fail "a chapter that failed its check (exit 1, with results) did not replace the JSON"
STUB_TAG=fresh run fresh --quick --json-dir "$j"
[ "$rc" -eq 0 ] && grep -q '"tag": "fresh"' "$j/ch01_stub.json" && grep -q '"tag": "fresh"' "$j/ch03_stub.json" &&
  grep -q "TOUR PASS" "$work/fresh.out" && pass "a passing run replaces the JSON" ||
  fail "a passing run: exit $rc, or its JSON did not replace the earlier one"
no_scratch "$j" "a passing run"

# 2. A signal: the running chapter ends, the tour ends by the same signal, the earlier JSON stays.
set -m  # the tour in its own process group, with SIGINT not ignored as in a background job
for sig in TERM INT; do
  j="$work/signal_$sig"
  old_json "$j"
  rm -f "$work/pid"
  STUB_MODE=hang STUB_PID_FILE="$work/pid" "$tour" --quick --json-dir "$j" >"$work/sig.out" 2>"$work/sig.err" &
  tour_pid=$!
  for _ in $(seq 300); do [ -s "$work/pid" ] && break; sleep 0.1; done
  chapter=$(cat "$work/pid" 2>/dev/null)
  if [ -z "$chapter" ]; then
    fail "SIG$sig: the stand-in chapter never started"
    kill -KILL "$tour_pid" 2>/dev/null
    continue
  fi
  kill -s "$sig" "$tour_pid"
  if ! ended "$tour_pid"; then
    fail "SIG$sig: the tour was still running 30 s after the signal"
    kill -KILL "$tour_pid" "$chapter" 2>/dev/null
  fi
  wait "$tour_pid"
  rc=$?
  expected=$((128 + $(kill -l "$sig")))
  [ "$rc" -eq "$expected" ] && pass "SIG$sig: the tour ended by the signal (status $rc)" ||
    fail "SIG$sig: expected status $expected, got $rc"
  if ! ended "$chapter"; then
    fail "SIG$sig: the chapter (pid $chapter) was left running"
    kill -KILL "$chapter" 2>/dev/null
  else
    pass "SIG$sig: the chapter ended with the tour"
  fi
  still_old "$j" "SIG$sig"
  no_scratch "$j" "SIG$sig"
done
set +m

# 3. --json-dir faults: one line, exit 2, before any chapter runs.
: >"$work/file"
rm -f "$STUB_ARGS_LOG"
run dir_file --quick --json-dir "$work/file"
refused dir_file "--json-dir that is a file"
run dir_under_file --quick --json-dir "$work/file/results"
refused dir_under_file "--json-dir under a file"
run dir_empty --quick --json-dir ""
refused dir_empty "--json-dir ''"
if [ "$(id -u)" -ne 0 ]; then
  mkdir -p "$work/readonly"
  chmod a-w "$work/readonly"
  run dir_readonly --quick --json-dir "$work/readonly"
  refused dir_readonly "--json-dir without write permission"
  chmod u+w "$work/readonly"
else
  echo "skipped: --json-dir without write permission (root writes there all the same)"
fi
[ ! -e "$STUB_ARGS_LOG" ] || fail "a chapter ran although --json-dir was refused"

# 4. An option after -- that the chapters refuse: exit 2 with the chapter's message; chapter 03 never runs.
rm -f "$STUB_ARGS_LOG"
run refused --quick --json-dir "$work/refused" -- --bogus
last=$(tail -n1 "$work/refused.err")
[ "$rc" -eq 2 ] && [[ $last == *"refused the options after --"*"not expected: --bogus"* ]] &&
  pass "a refused option: exit 2, $last" || { fail "a refused option: exit $rc, stderr:"; cat "$work/refused.err"; }
[ "$(wc -l <"$STUB_ARGS_LOG")" -eq 1 ] && pass "the tour stopped at the first chapter that refused" ||
  fail "the tour ran on after a chapter refused its options: $(cat "$STUB_ARGS_LOG")"

# 5. The machine's sizes (chapter 01 gets --iters 200 without a GPU) yield to the user's own.
for given in "--iters 7" "--iters=7"; do
  rm -f "$STUB_ARGS_LOG"
  # shellcheck disable=SC2086  # two words, or one
  run sizes --sizes cpu --json-dir "$work/sizes" -- $given
  first=$(head -n1 "$STUB_ARGS_LOG" 2>/dev/null)
  [ "$rc" -eq 0 ] && [[ $first == *"$given"* && $first != *"--iters 200"* ]] &&
    pass "$given wins over the machine's --iters 200" || fail "$given: exit $rc, chapter 01 got: $first"
done
rm -f "$STUB_ARGS_LOG"
run sizes_machine --sizes cpu --json-dir "$work/sizes"
grep -q -- "--iters 200" "$STUB_ARGS_LOG" && pass "without an option of the user's, chapter 01 gets --iters 200" ||
  fail "chapter 01 did not get the machine's --iters 200: $(head -n1 "$STUB_ARGS_LOG")"

test_end
