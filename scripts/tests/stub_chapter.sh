#!/usr/bin/env bash
# A stand-in for a chapter executable, for the tests of the scripts and of the tour driver: it takes
# the options they pass (--json PATH, --quick, --iters N, --dump DIR, also as --option=value), refuses
# any other option like a chapter (one line, exit 2), and does what STUB_MODE says:
#   pass (default)  write the JSON, exit 0          verify  write the JSON, exit 1 (a failed check)
#   broken          write half a JSON, exit 3       hang    write its process id to STUB_PID_FILE, then sleep
#   needs-file      exit 0 only while the file STUB_NEEDS exists (exit 4 otherwise)
# STUB_ARGS_LOG, when set, gets one line per call with the arguments; STUB_TAG goes into the JSON.
set -u
[ -z "${STUB_ARGS_LOG:-}" ] || printf '%s\n' "$*" >>"$STUB_ARGS_LOG"
json=""
while (($#)); do
  case "$1" in
    --json) json=${2-}; shift ;;
    --iters | --dump) shift ;;
    --json=*) json=${1#--json=} ;;
    --iters=* | --dump=* | --quick) ;;
    *) echo "stub_chapter: error: The following argument was not expected: $1" >&2; exit 2 ;;
  esac
  shift
done
write_json() {
  [ -n "$json" ] || return 0
  printf '{"schema": "gpgpu-then-and-now/result", "tag": "%s", "results": [{"variant": "stub", "device": "CPU", %s' \
    "${STUB_TAG:-}" '"ms_per_step": 1.0, "gbs_min": 2.0, "limit_share": 0.5, "rel_error_l2": 0.0, "check": "PASS"}]}' >"$json"
}
case "${STUB_MODE:-pass}" in
  pass) write_json; echo "stub: PASS" ;;
  verify) write_json; echo "stub: FAIL" >&2; exit 1 ;;
  broken) [ -z "$json" ] || printf '{"schema": "gpgpu-then-and-' >"$json"; echo "stub: broke" >&2; exit 3 ;;
  hang) echo $$ >"${STUB_PID_FILE:?}"; exec sleep 300 ;;
  needs-file) [ -e "${STUB_NEEDS:?}" ] || { echo "stub: $STUB_NEEDS is gone" >&2; exit 4; }; write_json ;;
  *) echo "stub_chapter: unknown STUB_MODE '$STUB_MODE'" >&2; exit 9 ;;
esac
