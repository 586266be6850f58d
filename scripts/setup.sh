#!/usr/bin/env bash
# Installs, from the distribution's own packages, whatever this project needs and the machine lacks
# (Debian 12 or Ubuntu 24.04). Idempotent: when everything is there it only checks, in a second.
# The CUDA Toolkit is optional and not installed here; when nvcc is found the CUDA chapters build.
set -euo pipefail

packages=(
  build-essential cmake ninja-build git pkg-config           # the build
  ccache                                                     # a rebuild recompiles only what changed in content
  libcli11-dev nlohmann-json3-dev                            # options, JSON results
  libgtest-dev libgmock-dev libbenchmark-dev                 # tests, benchmarks
  libopenblas-dev                                            # the CPU's BLAS: chapters 10 and 12's library peer, the FP64 GEMM reference
  ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers   # OpenCL host API + Khronos C++ bindings
  pocl-opencl-icd clinfo                                     # an OpenCL device on the CPU
  libegl-dev libgl-dev libgles-dev libglew-dev libglfw3-dev  # OpenGL through EGL, GLEW, GLFW
  libegl-mesa0 libgl1-mesa-dri                               # Mesa's EGL and llvmpipe (GL on the CPU)
  libpng-dev                                                 # PNG output of the GLSL chapter
  xvfb xauth                                                 # a virtual display for --window tests
  doxygen                                                    # the docs target
  python3-numpy                                              # problems/<problem>/check_dump.py reads --dump output
  python3-matplotlib                                         # the lecture report's plots (scripts/report.sh)
  libopenmpi-dev openmpi-bin                                 # MPI: chapter 13's ranks (its CPU variant runs in CI)
)
# The docs' browser test (docs_pages_render) uses Chromium; Debian packages it, Ubuntu only as a
# snap (no use in containers), so there the test reports itself skipped.
if grep -q '^ID=debian' /etc/os-release 2>/dev/null; then
  packages+=(chromium)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
echo "setup: installing ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
