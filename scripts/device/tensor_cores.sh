# shellcheck shell=bash
# Sourced by ch10b.sh and ch10c.sh after step.sh, with CH (the chapter's program) and OUT set.
# `at_chapter_sizes NAME VARIANTS`: the chapter's four products, one run each into NAME_<size>.json
# (8192³, 4096³, 4097³ and 3001 x 5003 x 2049), every variant verified before it is timed.
# `tensor_core_summary NAME TITLE FILES...`: the short table (TFLOP/s of every variant in every file,
# the verdicts), with the fast.cu peer's and the sustained runs' lines where a batch wrote them, into
# $OUT/NAME_summary.txt.
at_chapter_sizes() {
  step "$1 8192" "$CH" --variant "$2" --n 8192 --json "$OUT/$1_8192.json"
  step "$1 4096" "$CH" --variant "$2" --n 4096 --json "$OUT/$1_4096.json"
  step "$1 4097" "$CH" --variant "$2" --n 4097 --json "$OUT/$1_4097.json"
  step "$1 rect" "$CH" --variant "$2" --m 3001 --n 5003 --k 2049 --json "$OUT/$1_rect.json"
}
tensor_core_summary() {
  local name=$1 title=$2
  shift 2
  {
    echo "$title: $steps steps, $(( $(date +%s) - DEVICE_START )) s, revision $(device_revision)"
    python3 scripts/device/gemm_table.py "$@" 2> /dev/null
    [ -f "$OUT/fastcu_peer_8192.txt" ] && tail -n 3 "$OUT/fastcu_peer_8192.txt"  # fast.cu and cuBLAS, BF16 C
    [ -f "$OUT/sustained/summary.txt" ] && cat "$OUT/sustained/summary.txt"
    if ((${#failed[@]})); then printf 'FAILED: %s\n' "${failed[@]}"; else echo "every step passed"; fi
  } | tee "$OUT/${name}_summary.txt"
}
