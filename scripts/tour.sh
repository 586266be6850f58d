#!/usr/bin/env bash
# The main job: set up, build, and run every chapter that can run on this machine at its default
# sizes, ending with one summary table. Options go to the tour (e.g. --quick).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
exec build/bin/gpgpu_tour "$@"
