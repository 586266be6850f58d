#!/usr/bin/env bash
# One variant of one chapter under the profiler:
#
#   bash scripts/profile.sh CHAPTER VARIANT [chapter options]
#   bash scripts/profile.sh 10 cuda_warptile --n 4096
#   bash scripts/profile.sh 13 peer_store --gpus 2
#
# CHAPTER is its number (03 ... 13, 07b, 10b, 10c) or its target (ch10_matrix_multiply); VARIANT one of its
# --variant names. The chapter runs that variant alone, once, without warm-up (--variant VARIANT
# --repeat 1 --warmup 0, then the chapter options given), and the profiler sees only the kernels
# launched inside that variant's NVTX range (gpgpu::ProfileRange: the limits' stream kernels and the
# reference stay out):
#   - Nsight Compute (ncu) with the sections SpeedOfLight, MemoryWorkloadAnalysis, Occupancy,
#     WarpStateStats and LaunchStats (GPGPU_PROFILE_SECTIONS: others, e.g. "InstructionStats
#     SchedulerStats ComputeWorkloadAnalysis") on the first GPGPU_PROFILE_LAUNCHES launches (default
#     5: a Jacobi run launches its kernel once per iteration), for every chapter but 13; the clocks
#     locked at base, as Nsight Compute does by default, or left as the timed runs have them with
#     GPGPU_PROFILE_CLOCKS=none (its --clock-control); the caches flushed before each profiled
#     launch, as it does by default, or left warm as back-to-back timed calls find them with
#     GPGPU_PROFILE_CACHE=none (its --cache-control); GPGPU_PROFILE_SKIP launches skipped first
#     (default 0; its --launch-skip), to profile a call in the middle of a run; only the kernels
#     whose names match GPGPU_PROFILE_KERNEL (its --kernel-name regex:...), where a variant launches
#     others too (chapter 10c's FP8 rows quantise their inputs inside the range; skip and count
#     then apply to the matching kernels alone); with the section SourceCounters among them, also
#     the source page per SASS instruction (source_sass.csv: each instruction's warp-stall samples
#     by reason, which say where a stall that WarpStateStats averages over all warps comes from);
#   - Nsight Systems (nsys) for chapter 13, whose questions are about the timeline: copies, peer
#     traffic, NCCL and MPI beside the kernels.
# It writes into GPGPU_PROFILE_OUT (default build/profile/<target>_<variant>/): the report
# (report.ncu-rep or report.nsys-rep), its text pages (details.txt, raw.csv, or the nsys stats),
# the run's output (run.log), and the SASS and register counts of the kernels the report holds
# (sass.txt, registers.txt: cuobjdump -sass and -res-usage on the chapter's executable, where the
# kernels are linked). GPGPU_BUILD_DIR names another build folder; NCU, NSYS and CUOBJDUMP other tools.
# Exit codes: 0 done, 1 the profiled run failed, 2 bad arguments (one line), 77 no profiler or no
# such chapter in this build's backends.
set -euo pipefail
cd "$(dirname "$0")/.."

die() {  # die CODE MESSAGE: one line on stderr
  echo "profile.sh: $2" >&2
  exit "$1"
}
# A CUDA tool on PATH, or in the toolkit's folder (its installer leaves that off PATH).
tool() {
  if command -v "$1" >/dev/null 2>&1; then command -v "$1"
  elif [ -x "/usr/local/cuda/bin/$1" ]; then echo "/usr/local/cuda/bin/$1"
  fi
}

(($# >= 2)) || die 2 "usage: scripts/profile.sh CHAPTER VARIANT [chapter options] (e.g. 10 cuda_warptile --n 4096)"
chapter=$1 variant=$2
shift 2
build=${GPGPU_BUILD_DIR:-build}
manifest="$build/chapters.tsv"  # written by the configure step: id, target, backend, executable, title
[ -f "$manifest" ] || die 2 "no $manifest: configure and build first (bash scripts/build.sh)"
row=$(awk -F'\t' -v c="$chapter" '$1 == c || $2 == c' "$manifest")
[ -n "$row" ] || die 2 "unknown chapter '$chapter' (one of: $(cut -f1 "$manifest" | tr '\n' ' '))"
IFS=$'\t' read -r id target _ exe title <<<"$row"
[ "$exe" != "-" ] || die 77 "chapter $id is not built here (${title#not built: })"
[ -x "$exe" ] || die 2 "$exe is missing: build it first (cmake --build $build --target $target)"
# The variant must be one the chapter knows: --help lists them ({name,name,...} after --variant).
"$exe" --help 2>/dev/null | tr -d ' \n' | grep -q -E "[{,]$variant[,}]" ||
  die 2 "chapter $id has no variant '$variant' (see: $exe --help)"

if [ "$id" = 13 ]; then
  profiler=$(tool "${NSYS:-nsys}")
  [ -n "$profiler" ] || die 77 "Nsight Systems (nsys) not found: install it, or name it in NSYS"
else
  profiler=$(tool "${NCU:-ncu}")
  [ -n "$profiler" ] || die 77 "Nsight Compute (ncu) not found: install it, or name it in NCU"
fi
cuobjdump=$(tool "${CUOBJDUMP:-cuobjdump}")
[ -n "$cuobjdump" ] || die 77 "cuobjdump not found (the CUDA Toolkit's): install it, or name it in CUOBJDUMP"

out=${GPGPU_PROFILE_OUT:-$build/profile/${target}_$variant}
mkdir -p "$out"
run=("$exe" --variant "$variant" --repeat 1 --warmup 0 "$@")
echo "profile.sh: ${run[*]}"
echo "profile.sh: under $(basename "$profiler"), into $out/"

if [ "$id" = 13 ]; then
  # Only the variant's range is captured (its NVTX strings are not registered: hence the variable).
  NSYS_NVTX_PROFILER_REGISTER_ONLY=0 "$profiler" profile --trace=cuda,nvtx,osrt --capture-range=nvtx \
    --nvtx-capture="$variant" --capture-range-end=stop --force-overwrite=true --output="$out/report" \
    "${run[@]}" >"$out/run.log" 2>&1 || { tail -n 20 "$out/run.log" >&2; die 1 "the profiled run failed (see $out/run.log)"; }
  "$profiler" stats --force-export=true --report cuda_gpu_kern_sum,cuda_gpu_mem_time_sum,cuda_api_sum,nvtx_sum \
    "$out/report.nsys-rep" >"$out/stats.txt" 2>&1
  "$profiler" stats --force-export=false --report cuda_gpu_kern_sum --format csv --output "$out/kernels" \
    "$out/report.nsys-rep" >/dev/null 2>&1
  kernels="$out/kernels_cuda_gpu_kern_sum.csv"
  pages="stats.txt"
else
  sections=()
  for section in ${GPGPU_PROFILE_SECTIONS:-SpeedOfLight MemoryWorkloadAnalysis Occupancy WarpStateStats LaunchStats}; do
    sections+=(--section "$section")
  done
  kernel_filter=()
  [ -n "${GPGPU_PROFILE_KERNEL:-}" ] && kernel_filter=(--kernel-name "regex:$GPGPU_PROFILE_KERNEL")
  "$profiler" --nvtx --nvtx-include "$variant/" "${kernel_filter[@]}" --launch-skip "${GPGPU_PROFILE_SKIP:-0}" --launch-count "${GPGPU_PROFILE_LAUNCHES:-5}" \
    --clock-control "${GPGPU_PROFILE_CLOCKS:-base}" --cache-control "${GPGPU_PROFILE_CACHE:-all}" "${sections[@]}" --export "$out/report" --force-overwrite \
    "${run[@]}" >"$out/run.log" 2>&1 || { tail -n 20 "$out/run.log" >&2; die 1 "the profiled run failed (see $out/run.log)"; }
  [ -f "$out/report.ncu-rep" ] || die 2 "no kernel of '$variant' was profiled: is it a CUDA variant? (see $out/run.log)"
  "$profiler" --import "$out/report.ncu-rep" --page details >"$out/details.txt"
  "$profiler" --import "$out/report.ncu-rep" --page raw --csv >"$out/raw.csv"
  "$profiler" --import "$out/report.ncu-rep" --page details --csv >"$out/details.csv"
  kernels="$out/details.csv"
  pages="details.txt, raw.csv"
  if [[ " ${GPGPU_PROFILE_SECTIONS:-} " == *" SourceCounters "* ]]; then
    "$profiler" --import "$out/report.ncu-rep" --page source --print-source sass --csv >"$out/source_sass.csv" ||
      die 1 "ncu could not print the report's source page (ncu --import ... --page source --print-source sass)"
    pages+=", source_sass.csv"
  fi
fi

# The profiled kernels' SASS and registers, picked from the executable's (every kernel of the chapter
# is linked into it).
"$cuobjdump" -sass "$exe" >"$out/sass_all.txt"
"$cuobjdump" -res-usage "$exe" >"$out/registers_all.txt"
python3 scripts/profile_kernels.py "$kernels" "$out/sass_all.txt" "$out/registers_all.txt" "$out"
rm -f "$out/sass_all.txt" "$out/registers_all.txt"
echo "profile.sh: $out/: report, $pages, sass.txt, registers.txt, run.log"
