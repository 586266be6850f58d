#!/usr/bin/env bash
# Chapter 01 on the GPU machine's host CPU: the chapter at 1024², the benchmark at 1024² and 4096², and the
# same benchmark built without auto-vectorisation (the scalar code of the paper's time).
# Assumes build-h100/ is built and $OUT is writable.
set -u
./build-h100/bin/ch01_cpu_jacobi --repeat 3 --warmup 1 --json "$OUT/ch01.json" > "$OUT/ch01.txt" 2>&1 || echo "FAIL ch01"
./build-h100/bin/bench_ch01_cpu_jacobi --benchmark_filter='/(1024|4096)/' \
  --benchmark_out="$OUT/bench_ch01.json" --benchmark_out_format=json > "$OUT/bench_ch01.txt" 2>&1 || echo "FAIL bench_ch01"
cmake -S . -B build-scalar -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPGPU_ENABLE_CUDA=OFF \
  -DCMAKE_CXX_FLAGS=-fno-tree-vectorize > /dev/null 2>&1 && cmake --build build-scalar --target bench_ch01_cpu_jacobi > /dev/null 2>&1 \
  && ./build-scalar/bin/bench_ch01_cpu_jacobi --benchmark_filter='^(separate|interleaved)/(1024|4096)/' \
     --benchmark_out="$OUT/bench_ch01_scalar.json" --benchmark_out_format=json > /dev/null 2>&1 || echo "FAIL scalar bench"
grep -A6 "^  variant" "$OUT/ch01.txt"
