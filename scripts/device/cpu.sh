#!/usr/bin/env bash
# Chapter 01 on the host CPU of the GPU machine: the chapter at 1024², the benchmark at 1024² and
# 4096², and the same benchmark built without auto-vectorisation (the scalar code of the paper's
# time, configured without CUDA into build-scalar/).
#
# Usage: bash scripts/device/cpu.sh --out DIR [--build DIR]
# (options and GPGPU_ENV_SETUP: scripts/device/common.sh; --budget is accepted and not used: the
# script has no steps to leave out). Needs the project built in --build (default build/). Writes ch01.txt, ch01.json, bench_ch01.{txt,json}, bench_ch01_scalar.json
# into DIR and prints the chapter's table; a failed part prints FAIL and the script goes on.
set -u
source "$(dirname "$0")/common.sh"
device_init "$@"
device_need_out
"$BUILD/bin/ch01_cpu_jacobi" --repeat 3 --warmup 1 --json "$OUT/ch01.json" > "$OUT/ch01.txt" 2>&1 || echo "FAIL ch01"
"$BUILD/bin/bench_ch01_cpu_jacobi" --benchmark_filter='/(1024|4096)/' \
  --benchmark_out="$OUT/bench_ch01.json" --benchmark_out_format=json > "$OUT/bench_ch01.txt" 2>&1 || echo "FAIL bench_ch01"
cmake -S . -B build-scalar -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPGPU_ENABLE_CUDA=OFF \
  -DCMAKE_CXX_FLAGS=-fno-tree-vectorize > /dev/null 2>&1 && cmake --build build-scalar --target bench_ch01_cpu_jacobi > /dev/null 2>&1 \
  && ./build-scalar/bin/bench_ch01_cpu_jacobi --benchmark_filter='^(separate|interleaved)/(1024|4096)/' \
     --benchmark_out="$OUT/bench_ch01_scalar.json" --benchmark_out_format=json > /dev/null 2>&1 || echo "FAIL scalar bench"
grep -A6 "^  variant" "$OUT/ch01.txt"
