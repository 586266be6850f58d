#!/usr/bin/env bash
# A batch on a machine with an NVIDIA GPU: configure and build the project, then run each topic
# script (scripts/device/<topic>.sh) with its own folder under the output folder.
#
# Usage: bash scripts/device/all.sh --out DIR [--budget SECONDS] [--preset NAME] [--build DIR]
#                                   [--pack] [topic ...]
#   topic ...         the topics to run, in order (default: every topic script in name order, but
#                     env, the sourced common.sh, step.sh, tensor_cores.sh and ch13_sample.sh, and check.sh, a whole
#                     batch of its own); DIR/<topic>/ gets each one's files and DIR/<topic>/summary.txt
#                     what it printed
#   --budget SECONDS  the wall time of the whole batch, build included (default: none). Each topic is
#                     given what is left, less a 15 s margin, as its own --budget (and is stopped
#                     10 s after it)
#   --preset NAME     the CMake preset to configure and build (default: the README's own build,
#                     bash scripts/build.sh into build/, for the GPU it finds; another preset, such
#                     as h100 into build-h100/, needs its binary folder given with --build)
#   --pack            pack each topic's folder into DIR/<topic>.tar.gz (and remove the folder)
# --out, --build and GPGPU_ENV_SETUP (a script to source first) are described in common.sh. The
# build records the revision from git (short commit, -dirty with local changes; "unknown" outside
# git) in every JSON result. A failed configure or build ends the batch: old binaries would
# measure old code.
set -u
source "$(dirname "$0")/common.sh"
device_init "$@"
device_need_out
preset=default
pack=0
topics=()
set -- "${DEVICE_ARGS[@]}"
while (($#)); do
  case "$1" in
    --preset) preset=${2:?--preset needs a name}; shift ;;
    --pack) pack=1 ;;
    -*) device_die "unknown option '$1' (see --help)" ;;
    *) [ -f "scripts/device/$1.sh" ] || device_die "no topic script scripts/device/$1.sh"; topics+=("$1") ;;
  esac
  shift
done
if [ ${#topics[@]} -eq 0 ]; then
  for f in scripts/device/*.sh; do
    t=$(basename "$f" .sh)
    case "$t" in all|env|common|step|tensor_cores|ch13_sample|check) ;; *) topics+=("$t") ;; esac
  done
fi
revision=$(device_revision)
echo "revision $revision, preset $preset, build $BUILD, output $OUT${BUDGET_S:+, budget $BUDGET_S s}"
configure_and_build() {
  if [ "$preset" = default ]; then  # the README's build (it finds nvcc as a user's would)
    bash scripts/build.sh -DGPGPU_GIT_REVISION="$revision"
  else
    cmake --preset "$preset" -DGPGPU_GIT_REVISION="$revision" && cmake --build --preset "$preset"
  fi
}
if ! configure_and_build > "$OUT/build.log" 2>&1; then
  echo "CONFIGURE OR BUILD FAILED (see $OUT/build.log)"; grep -E "Error|error|FAILED" "$OUT/build.log" | head -40
  exit 1
fi
[ -d "$BUILD/bin" ] || { echo "the preset '$preset' did not build into $BUILD: give its binary folder with --build"; exit 1; }
echo "build: $(( $(date +%s) - DEVICE_START )) s"
status=0
for t in "${topics[@]}"; do
  mkdir -p "$OUT/$t"
  t0=$(date +%s)
  budget=() guard=()
  if [ -n "$DEVICE_DEADLINE" ]; then
    left=$(( $(device_left) - 15 ))
    echo "===== $t (at most $left s)"
    if [ "$left" -lt 20 ]; then echo "not run: no time left"; status=1; continue; fi
    budget=(--budget "$left")
    guard=(timeout -k 10 $((left + 10)))  # in case a step outlives its stop (a shell function of the topic)
  else
    echo "===== $t"
  fi
  "${guard[@]}" bash "scripts/device/$t.sh" --out "$OUT/$t" --build "$BUILD" "${budget[@]}" 2>&1 | tee "$OUT/$t/summary.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  echo "($t: $(( $(date +%s) - t0 )) s)"
  if ((pack)); then
    tar -czf "$OUT/$t.tar.gz" -C "$OUT" "$t" && rm -rf "${OUT:?}/$t"
  fi
done
echo "total: $(( $(date +%s) - DEVICE_START )) s; exit $status (1: some topic failed or did not run)"
exit $status
