# shellcheck shell=bash
# What the scripts' fault tests share (sourced): a scratch folder removed at exit, ok/FAIL lines, the
# one-line-and-exit-2 check and the summary.
#   test_start NAME   makes $work; fail/pass MESSAGE; one_line_exit_2 RC STDERR_FILE WHAT; test_end
test_start() {
  work=$(mktemp -d "${TMPDIR:-/tmp}/gpgpu_$1.XXXXXX")
  # shellcheck disable=SC2064  # the folder is fixed now
  trap "rm -rf '$work'" EXIT
  failures=0
}
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# Exit code 2 and exactly one line on stderr.
one_line_exit_2() {
  local rc=$1 err=$2 what=$3
  if [ "$rc" -eq 2 ] && [ "$(grep -c . "$err")" -eq 1 ]; then
    pass "$what: $(cat "$err")"
  else
    fail "$what: expected exit 2 and one line on stderr, got exit $rc and:"
    cat "$err"
  fi
}

# Waits up to 30 s for a process to end; false when it is still running.
ended() {
  local _
  for _ in $(seq 300); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
  ! kill -0 "$1" 2>/dev/null
}

test_end() {
  if ((failures)); then
    echo "FAILED: $failures check(s)"
    exit 1
  fi
  echo "PASS: every check"
  exit 0
}
