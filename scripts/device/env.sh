#!/usr/bin/env bash
# Prints what the machine has for the other device scripts: CPU and memory, GPU and driver, the
# toolchain (CMake, GCC, nvcc), the profilers (Nsight Compute, compute-sanitizer), OpenCL platforms,
# and the source's revision. A missing tool prints its shell's "not found" line; nothing fails.
#
# Usage: bash scripts/device/env.sh   (GPGPU_ENV_SETUP=FILE is sourced first: scripts/device/common.sh)
set -u
source "$(dirname "$0")/common.sh"
device_init "$@"
echo "== machine"; nproc; grep -m1 "model name" /proc/cpuinfo; free -g | head -2
echo "== gpu"; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem --format=csv
echo "== tools"; cmake --version | head -1; gcc --version | head -1; nvcc --version | tail -1
ncu --version 2>&1 | tail -1; compute-sanitizer --version 2>&1 | tail -1
echo "== opencl"; clinfo -l 2>&1 | head -8
echo "== source"; echo "revision $(device_revision)"
