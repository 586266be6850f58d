#!/usr/bin/env bash
# scripts/lecture.sh against faults (CTest: lecture.faults), on stand-in chapters (stub_chapter.sh;
# chapter 02 is listed as not built), with --no-build:
#   - an unknown chapter (99, or 1 for 01), --out that is a file or lies under one, an option without
#     its value: one line and exit 2, and the earlier run is left as it was;
#   - the earlier run stays in place while the new one runs, and is kept as .<machine>.previous after;
#   - chosen chapters that are not built: nothing runs, the earlier run stays, exit 1;
#   - SIGTERM stops the running chapter and the lecture (status 143); the earlier run stays.
#
#   bash scripts/tests/lecture_faults.sh
# shellcheck disable=SC2015  # pass never fails: A && pass || fail is if-then-else here
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lecture="$here/../lecture.sh"
# shellcheck source=scripts/tests/test_lib.sh
source "$here/test_lib.sh"
test_start lecture_faults

export GPGPU_LECTURE_MANIFEST="$work/chapters.tsv"
printf '01\tch01_stub\tcpu\t%s\ta stand-in chapter\n02\tch02_stub\tgl\t-\tnot built: a stand-in for a missing backend\n' \
  "$here/stub_chapter.sh" >"$GPGPU_LECTURE_MANIFEST"
out="$work/out"
lecture() {  # NAME ARGS...: exit code in $rc, output in $work/NAME.out and .err
  local name=$1
  shift
  bash "$lecture" --quick --no-build "$@" >"$work/$name.out" 2>"$work/$name.err"
  rc=$?
}
snapshot() { (cd "$out" && find . -type f | sort | xargs md5sum); }
refused() { one_line_exit_2 "$rc" "$work/$1.err" "$2"; }  # NAME WHAT

# The earlier run.
STUB_TAG=earlier lecture first --out "$out"
machines=("$out"/*/)
[ "$rc" -eq 0 ] && [ "${#machines[@]}" -eq 1 ] && [ -d "${machines[0]}" ] || { fail "the first run: exit $rc"; cat "$work/first.err"; exit 1; }
dir=${machines[0]%/}
slug=$(basename "$dir")
grep -q '"tag": "earlier"' "$dir/ch01_stub_quick.json" || { fail "the first run wrote no JSON"; exit 1; }
before=$(snapshot)
kept() { [ "$(snapshot)" = "$before" ] && pass "$1: the earlier run is as it was" || fail "$1: the earlier run changed"; }

# 1. Refused before anything is written.
lecture unknown --chapters 99 --out "$out"
refused unknown "--chapters 99"
kept "--chapters 99"
lecture typo --chapters 1 --out "$out"
refused typo "--chapters 1"
grep -q "did you mean 01" "$work/typo.err" || fail "--chapters 1 does not suggest 01"
kept "--chapters 1"
: >"$work/file"
lecture out_file --out "$work/file"
refused out_file "--out that is a file"
lecture out_under_file --out "$work/file/lecture"
refused out_under_file "--out under a file"
if [ "$(id -u)" -ne 0 ]; then
  mkdir -p "$work/readonly"
  chmod a-w "$work/readonly"
  lecture out_readonly --out "$work/readonly"
  refused out_readonly "--out without write permission"
  chmod u+w "$work/readonly"
else
  echo "skipped: --out without write permission (root writes there all the same)"
fi
lecture out_missing --out
refused out_missing "--out without its value"
lecture chapters_none --chapters , --out "$out"
refused chapters_none "--chapters ,"
lecture chapters_missing --chapters --out "$out"
refused chapters_missing "--chapters followed by another option"
kept "the refused options"

# 2. Nothing to run: the chosen chapter is not built.
lecture not_built --chapters 02 --out "$out"
[ "$rc" -eq 1 ] && pass "only a chapter that is not built: exit 1, $(tail -n1 "$work/not_built.err")" ||
  fail "only a chapter that is not built: expected exit 1, got $rc"
kept "a lecture with nothing to run"

# 3. A new run: the stand-in passes only while the earlier JSON is still there, so the earlier run
#    stays in place until the new one has ended.
STUB_MODE=needs-file STUB_NEEDS="$dir/ch01_stub_quick.json" STUB_TAG=later lecture later --out "$out"
[ "$rc" -eq 0 ] && pass "the earlier run stayed in place while the new one ran" ||
  { fail "the new run: exit $rc (the stand-in exits 4 when the earlier JSON is gone)"; cat "$work/later.out"; }
grep -q '"tag": "later"' "$dir/ch01_stub_quick.json" && pass "the new run took the machine folder's place" ||
  fail "the machine folder does not hold the new run"
grep -q '"tag": "earlier"' "$out/.$slug.previous/ch01_stub_quick.json" && pass "the earlier run is kept as .$slug.previous" ||
  fail "the earlier run is not in $out/.$slug.previous"

# 4. SIGTERM while a chapter runs.
before=$(snapshot)
set -m
STUB_MODE=hang STUB_PID_FILE="$work/pid" bash "$lecture" --quick --no-build --out "$out" >"$work/sig.out" 2>"$work/sig.err" &
pid=$!
for _ in $(seq 300); do [ -s "$work/pid" ] && break; sleep 0.1; done
chapter=$(cat "$work/pid" 2>/dev/null)
if [ -n "$chapter" ]; then
  kill -TERM "$pid"
  ended "$pid" || { fail "SIGTERM: the lecture still ran 30 s later"; kill -KILL "$pid" "$chapter"; }
  wait "$pid"
  rc=$?
  [ "$rc" -eq 143 ] && pass "SIGTERM: the lecture ended by the signal (143)" || fail "SIGTERM: expected status 143, got $rc"
  ended "$chapter" && pass "SIGTERM: the chapter ended with the lecture" ||
    { fail "SIGTERM: the chapter was left running"; kill -KILL "$chapter"; }
  # The stopped run's folder is hidden; the machine folder and the previous one are as they were.
  after=$(cd "$out" && find . -type f -not -path './.*.new-*' | sort | xargs md5sum)
  [ "$after" = "$before" ] && pass "SIGTERM: the earlier runs are as they were" || fail "SIGTERM: the earlier runs changed"
else
  fail "SIGTERM: the stand-in chapter never started"
  kill -KILL "$pid" 2>/dev/null
fi
set +m

test_end
