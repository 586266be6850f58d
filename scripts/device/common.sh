# Sourced by every script in scripts/device/ (not run on its own): the options they all take and the
# environment they all start from.
#
#   source "$(dirname "$0")/common.sh" && device_init "$@"
#
# Options (each also read from the variable in brackets, the option winning):
#   --out DIR         where the script writes its results [OUT]; relative to the current directory
#   --build DIR       the built tree it measures [BUILD]; default build/, the README's build
#                     (bash scripts/build.sh: every lesson the visible GPU can run)
#   --budget SECONDS  the wall time it may take [BUDGET_S]; default none: every step runs to its end
#                     (steps keep their own time limits, which only catch hangs). With a budget no
#                     step starts past it and each step is stopped when it runs out, so the summary is
#                     always written.
#   -h, --help        the calling script's header comment
# Environment:
#   GPGPU_ENV_SETUP=FILE  a shell script sourced before anything runs (PATH to the CUDA Toolkit and
#                         Nsight Compute, modules, a virtual environment); nothing is sourced when it
#                         is unset. Sourced once per batch: all.sh's topics inherit its environment.
# After device_init the working directory is the repository root and OUT, BUILD are absolute paths.

# The calling script's header: its comment lines after the shebang, '# ' stripped.
device_usage() {
  awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"
}

device_die() {
  echo "$(basename "$0"): $*" >&2
  exit 2
}

device_init() {
  OUT=${OUT:-}
  BUILD=${BUILD:-}
  BUDGET_S=${BUDGET_S:-}
  DEVICE_ARGS=()  # what the script's own parser gets: everything but the common options
  while (($#)); do
    case "$1" in
      --out) OUT=${2:?--out needs a folder}; shift ;;
      --build) BUILD=${2:?--build needs a folder}; shift ;;
      --budget) BUDGET_S=${2:?--budget needs a number of seconds}; shift ;;
      -h|--help) device_usage; exit 0 ;;
      *) DEVICE_ARGS+=("$1") ;;
    esac
    shift
  done
  if [ -n "$BUDGET_S" ] && ! [[ "$BUDGET_S" =~ ^[0-9]+$ ]]; then
    device_die "--budget takes whole seconds, not '$BUDGET_S'"
  fi
  # Paths as the caller meant them, before the script moves to the repository root.
  if [ -n "$OUT" ]; then
    mkdir -p "$OUT" || device_die "cannot create $OUT"
    OUT=$(cd "$OUT" && pwd)
  fi
  local root
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  BUILD=${BUILD:-$root/build}
  case "$BUILD" in /*) ;; *) BUILD="$PWD/$BUILD" ;; esac
  cd "$root" || device_die "cannot enter $root"
  export OUT BUILD
  DEVICE_START=$(date +%s)
  DEVICE_DEADLINE=""
  [ -n "$BUDGET_S" ] && DEVICE_DEADLINE=$((DEVICE_START + BUDGET_S))
  if [ -n "${GPGPU_ENV_SETUP:-}" ] && [ "${GPGPU_ENV_SETUP_SOURCED:-}" != "$GPGPU_ENV_SETUP" ]; then
    [ -f "$GPGPU_ENV_SETUP" ] || device_die "GPGPU_ENV_SETUP=$GPGPU_ENV_SETUP: no such file"
    set +u  # a setup script may read variables that are not set
    # shellcheck disable=SC1090  # the file is the user's
    source "$GPGPU_ENV_SETUP" || device_die "sourcing $GPGPU_ENV_SETUP failed"
    set -u
    export GPGPU_ENV_SETUP_SOURCED=$GPGPU_ENV_SETUP
  fi
}

# The script needs an output folder.
device_need_out() {
  [ -n "${OUT:-}" ] || device_die "no output folder: give --out DIR (or set OUT)"
}

# Seconds left of the budget, or the first argument (a step's own limit) when that is less; with no
# budget, the first argument (or a very large number when there is none).
device_left() {
  local own=${1:-999999999}
  [ -n "${DEVICE_DEADLINE:-}" ] || { echo "$own"; return; }
  local left=$((DEVICE_DEADLINE - $(date +%s)))
  echo $((left < own ? left : own))
}

# The source's revision: git's short commit, with -dirty when the work tree has changes; "unknown"
# outside a git checkout.
device_revision() {
  local rev
  # The revision the caller names (the JSON's `revision` field comes from the same variable): a
  # device machine's copy of the tree can carry a .git older than the files it runs.
  if [ -n "${GPGPU_GIT_REVISION:-}" ]; then
    echo "${GPGPU_GIT_REVISION:0:7}"
  elif rev=$(git rev-parse --short HEAD 2>/dev/null); then
    git diff --quiet HEAD -- 2>/dev/null || rev+="-dirty"
    echo "$rev"
  else
    echo unknown
  fi
}

# The machine folder lecture.sh wrote under DIR (DIR/<machine>, no trailing slash), or nothing when
# it wrote none.
device_lecture_folder() {
  local d
  d=$(ls -d "$1"/*/ 2>/dev/null | head -n1)
  echo "${d%/}"
}

# A lecture's machine folder (lecture.sh's lecture/<machine>/) as results/ names machines: less its
# "nvidia-" prefix and anything from the next "-" on (h200 for nvidia-h200, h100 for
# nvidia-h100-80gb-hbm3); "none" without a folder.
device_results_machine() {
  local m
  m=$(basename "${1:-none}")
  m=${m#nvidia-}
  echo "${m%%-*}"
}

# The nvidia-smi option that picks the GPU a run uses: nvidia-smi ignores CUDA_VISIBLE_DEVICES and
# reports every GPU of the host, so a sampler beside a run on the second GPU would interleave both.
# Its first entry (an index or a GPU-... UUID) names the run's device 0; nvidia-smi numbers GPUs by PCI
# bus as CUDA does among identical GPUs; without the variable, GPU 0.
device_smi_id() {
  local first=${CUDA_VISIBLE_DEVICES%%,*}
  echo "-i ${first:-0}"
}
