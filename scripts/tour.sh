#!/usr/bin/env bash
# The main job: set up, build, and run every chapter that can run on this machine, ending with one
# summary table and each chapter's time. Each chapter's lines appear as it prints them, after a
# banner line ("[10/13] chapter 10 ...: (running; ...)" with the size arguments and why).
#
#   bash scripts/tour.sh [--quick] [--sizes auto|gpu|cpu] [--json-dir DIR] [-- CHAPTER_OPTIONS...]
#
#   --quick   every chapter at its small size: a smoke run of a minute or two
#   --sizes   gpu: the chapters' default sizes (made for a GPU); cpu: the GEMM-heavy chapters 10 and
#             12 smaller, about a minute each on two cores instead of hours; auto (default): cpu
#             unless `nvidia-smi -L` lists a GPU. GPGPU_TOUR_SIZES=auto|gpu|cpu sets the default.
# Options after -- go to every chapter (build/bin/gpgpu_tour --help lists the tour's own).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
exec build/bin/gpgpu_tour "$@"
