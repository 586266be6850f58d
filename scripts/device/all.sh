#!/usr/bin/env bash
# One batch on the GPU machine: build everything for the H100, then run each topic script
# (scripts/device/<topic>.sh) with its own output folder, and pack each folder into one archive.
# Usage (from the repo root, after `source .device/gpu-setup.sh`):
#   OUT=/some/dir [BUDGET_S=570] bash scripts/device/all.sh [topic ...]   (default: every topic script)
# BUDGET_S is the wall time the whole batch may take (the device tool kills a call at 600 s): each topic
# gets what is left minus a margin, so that its folder is always packed and comes back, cut short or not.
set -u
root_out="$OUT"
topics=("$@")
if [ ${#topics[@]} -eq 0 ]; then
  for f in scripts/device/*.sh; do
    t=$(basename "$f" .sh)
    case "$t" in all|env) ;; *) topics+=("$t") ;; esac
  done
fi
revision=$(cat .device/revision 2>/dev/null || echo unknown)
start=$(date +%s)
budget=${BUDGET_S:-570}
# A failed configure or build ends the batch: old binaries in build-h100 would measure old code.
if ! cmake --preset h100 -DGPGPU_GIT_REVISION="$revision" > "$root_out/build.log" 2>&1 ||
   ! cmake --build --preset h100 >> "$root_out/build.log" 2>&1; then
  echo "CONFIGURE OR BUILD FAILED"; grep -E "Error|error|FAILED" "$root_out/build.log" | head -40
  exit 1
fi
echo "build: $(( $(date +%s) - start )) s"
for t in "${topics[@]}"; do
  mkdir -p "$root_out/$t"
  t0=$(date +%s)
  left=$(( budget - (t0 - start) - 15 ))
  echo "===== $t (at most $left s)"
  if [ "$left" -lt 20 ]; then echo "not run: no time left"; continue; fi
  OUT="$root_out/$t" timeout "$left" bash "scripts/device/$t.sh" 2>&1 | tail -60 | tee "$root_out/$t/summary.txt"
  echo "($t: $(( $(date +%s) - t0 )) s)"
  tar -czf "$root_out/$t.tar.gz" -C "$root_out" "$t" && rm -rf "${root_out:?}/$t"
done
echo "total: $(( $(date +%s) - start )) s"
