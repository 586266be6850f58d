#!/usr/bin/env bash
# tour.sh, test.sh and lecture.sh check their arguments before they set up or build (CTest:
# scripts.args_before_build): bad ones get one line and exit 2 at once, with no package looked up and
# no build started. The scripts run from a copy in a scratch folder, with cmake, ctest, dpkg-query,
# apt-get and sudo stand-ins on PATH that only note that they were called: nothing is built or
# installed, and nothing outside the scratch folder is written, whatever the scripts do.
#
#   bash scripts/tests/args_before_build.sh
# shellcheck disable=SC2015  # pass never fails: A && pass || fail is if-then-else here
set -uo pipefail
scripts=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/tests/test_lib.sh
source "$scripts/tests/test_lib.sh"
test_start args_before_build

repo="$work/repo"
mkdir -p "$repo/scripts" "$repo/chapters/01_stand_in" "$work/bin"
cp "$scripts"/{tour,test,lecture,setup,build,checks}.sh "$repo/scripts/"
called="$work/called"
for tool in cmake ctest dpkg-query apt-get sudo; do
  printf '#!/bin/sh\necho "%s $*" >>"%s"\nexit 99\n' "$tool" "$called" >"$work/bin/$tool"
  chmod +x "$work/bin/$tool"
done
export PATH="$work/bin:$PATH"
unset GPGPU_TOUR_SIZES
: >"$work/file"

# refused NAME SCRIPT ARGS...: exit 2, one line on stderr, and no set-up or build step called.
refused() {
  local name=$1 script=$2
  shift 2
  rm -f "$called"
  bash "$repo/scripts/$script" "$@" >"$work/out" 2>"$work/err"
  local rc=$?
  if [ -e "$called" ]; then
    fail "$name: set-up or build started before the arguments were checked ($(head -n1 "$called"))"
  else
    one_line_exit_2 "$rc" "$work/err" "$name"
  fi
}
refused "tour.sh --sizes bogus" tour.sh --sizes bogus
refused "tour.sh --sizes=bogus" tour.sh --quick --sizes=bogus
refused "tour.sh --sizes (no value)" tour.sh --sizes
GPGPU_TOUR_SIZES=bogus refused "GPGPU_TOUR_SIZES=bogus tour.sh" tour.sh
refused "tour.sh --json-dir ''" tour.sh --json-dir ""
refused "tour.sh --json-dir FILE" tour.sh --json-dir "$work/file"
refused "tour.sh --json-dir FILE/sub" tour.sh --json-dir "$work/file/sub"
refused "tour.sh --bogus" tour.sh --bogus
refused "test.sh -R (no value)" test.sh -L cpu -R
refused "test.sh --repeat bogus" test.sh --repeat bogus
refused "test.sh --preset" test.sh --preset other
refused "lecture.sh --chapters 99" lecture.sh --chapters 99 --out "$work/lecture"
refused "lecture.sh --chapters 1" lecture.sh --chapters 1 --out "$work/lecture"
refused "lecture.sh --out FILE" lecture.sh --out "$work/file"
refused "lecture.sh --out (no value)" lecture.sh --out

# --help needs no build either.
rm -f "$called"
bash "$repo/scripts/tour.sh" --help >"$work/out" 2>&1 && [ ! -e "$called" ] && grep -q -- "--sizes" "$work/out" &&
  pass "tour.sh --help: the usage, no build" || fail "tour.sh --help"

# Good arguments do reach the set-up (a stand-in, which fails): the checks above can tell.
for script in tour.sh test.sh lecture.sh; do
  rm -f "$called"
  args=(--quick)
  [ "$script" = test.sh ] && args=(-L cpu)
  [ "$script" = lecture.sh ] && args=(--quick --chapters 01 --out "$work/lecture")
  bash "$repo/scripts/$script" "${args[@]}" >"$work/out" 2>&1
  [ -e "$called" ] && pass "$script ${args[*]}: reaches the set-up" ||
    fail "$script ${args[*]}: never reached the set-up, so these checks prove nothing: $(tail -n1 "$work/out")"
done

test_end
