#!/usr/bin/env bash
# Configures and builds the project into build/ (Release, Ninja). Extra arguments go to CMake's
# configure step, e.g. -DCMAKE_CUDA_ARCHITECTURES=90.
set -euo pipefail
cd "$(dirname "$0")/.."
# The CUDA Toolkit installs nvcc outside PATH; let CMake find it there too.
if ! command -v nvcc >/dev/null && [ -z "${CUDACXX:-}" ] && [ -x /usr/local/cuda/bin/nvcc ]; then
  export CUDACXX=/usr/local/cuda/bin/nvcc
fi
cmake --preset default "$@"
cmake --build --preset default
