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
# Options after -- go to every chapter (build/bin/gpgpu_tour --help lists the tour's own). The tour's
# own options are checked before the set-up and the build: a bad one gets one line and exit code 2.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/checks.sh
source scripts/checks.sh

usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; }
quick=0
sizes=""
sizes_from=""
check_sizes() {
  case $1 in
    auto | gpu | cpu) ;;
    *) echo "tour: $2: expected auto, gpu or cpu" >&2; exit 2 ;;
  esac
}
set_dir() { writable_dir tour --json-dir "$1"; }  # the tour makes it all the same
args=("$@")
while (($#)); do
  case "$1" in
    --) break ;;
    --quick) quick=1 ;;
    --sizes) need_value tour "$@"; sizes=$2; sizes_from="--sizes $2"; shift ;;
    --sizes=*) sizes=${1#--sizes=}; sizes_from=$1 ;;
    --json-dir) need_value tour "$@"; set_dir "$2"; shift ;;
    --json-dir=*) set_dir "${1#--json-dir=}" ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "tour: unknown option '$1' (options for the chapters go after --; see --help)" >&2; exit 2 ;;
  esac
  shift
done
if [ -n "$sizes_from" ]; then
  check_sizes "$sizes" "$sizes_from"
elif ((!quick)) && [ -n "${GPGPU_TOUR_SIZES:-}" ]; then
  check_sizes "$GPGPU_TOUR_SIZES" "GPGPU_TOUR_SIZES=$GPGPU_TOUR_SIZES"
fi

bash scripts/setup.sh
bash scripts/build.sh
exec build/bin/gpgpu_tour "${args[@]}"
