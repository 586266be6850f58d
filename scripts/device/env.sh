#!/usr/bin/env bash
# Prints what the GPU machine has: GPU, driver, toolchain, profilers, OpenCL platforms.
set -u
echo "== machine"; nproc; grep -m1 "model name" /proc/cpuinfo; free -g | head -2
echo "== gpu"; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem --format=csv
echo "== tools"; cmake --version | head -1; gcc --version | head -1; nvcc --version | tail -1
ncu --version 2>&1 | tail -1; compute-sanitizer --version 2>&1 | tail -1
echo "== opencl"; clinfo -l 2>&1 | head -8
