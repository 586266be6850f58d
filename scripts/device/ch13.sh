#!/usr/bin/env bash
# Chapter 13 (the Jacobi solver on several GPUs) on a machine with one or more NVIDIA GPUs: its tests
# (stdin closed: an MPI test that waits on it stalls), `--variant all` on every GPU at awkward sizes
# (odd, one row per GPU, more columns than rows, launches synchronised) and on one GPU fewer, the
# refusals (more GPUs than the machine has, fewer rows than GPUs), compute-sanitizer's four tools on
# the one-process variants and on `nccl` and `mpi` under mpirun, then the scaling runs: every variant
# at the chapter's sizes for G = 2 and G = 4 (those the machine has), one rank per GPU under mpirun,
# and a short table; then the cost of the update norm's check: every iteration and every 10, waited
# for before the next iteration and during it (--check-overlap off and on), at 2048² to 16384² on 2
# and 4 GPUs (--tol 0: no run stops early, every check is paid; --no-verify: the CPU reference at
# these sizes would take longer than the runs, the iterates are still compared bit for bit with
# one_gpu's, and the stops are checked by the tests and the `all` step at 97x77).
#
# Usage: bash scripts/device/ch13.sh --out DIR [--build DIR] [--budget SECONDS] [--gpus G]
# (the options and GPGPU_ENV_SETUP, a script sourced first: scripts/device/common.sh). --gpus caps the
# GPUs used (default: every GPU nvidia-smi lists). With one GPU only the tests, the one-GPU checks and
# sanitizers run (the scaling runs need two). STEPS picks parts (default "tests all sanitizers bench
# check"; also "sample", NVIDIA's multi-GPU Jacobi sample built from its source and run at the `check`
# step's sizes and norm frequencies, on its own or beside the other steps in the same call:
# STEPS="check sample"; it needs no build of the chapter when it runs alone).
# Open MPI runs as root here (--allow-run-as-root), ranks unbound (--bind-to none: one rank per GPU),
# NVLink multicast off (NCCL_NVLS_ENABLE=0). Files written to DIR: ch13_log.txt,
# ch13_g<G>_<nx>x<ny>.json, check/ch13_check_g<G>_<nx>x<ny>_every<k>_overlap_<on|off>.json and _none.json (apart from
# the scaling runs, which the plots read by their names), sample/ (the sample step: each run's output
# as <variant>_g<G>_<n>x<n>_every<k>.txt, runs.tsv, builds.tsv and nvidia_sample.json, one record per
# run), ch13_summary.txt. Keeps going after a failure, exit 1 then.
set -u
source "$(dirname "$0")/common.sh"
device_init "$@"
device_need_out
gpus=$(nvidia-smi -L 2> /dev/null | grep -c '^GPU ')
set -- "${DEVICE_ARGS[@]}"
while (($#)); do
  case "$1" in
    --gpus) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || device_die "--gpus takes a positive count"
            ((${2} <= gpus)) || device_die "--gpus $2: this machine has $gpus"
            gpus=$2; shift ;;
    *) device_die "unknown option '$1' (see --help)" ;;
  esac
  shift
done
((gpus >= 1)) || { echo "ch13.sh: no NVIDIA GPU listed by nvidia-smi" >&2; exit 77; }
CH="$BUILD/bin/ch13_multi_gpu_jacobi"
TMP=$(mktemp -d)
STEPS=${STEPS:-"tests all sanitizers bench check"}
want() { [[ " $STEPS " == *" $1 "* ]]; }
LOG="$OUT/ch13_log.txt"
: > "$LOG"
source scripts/device/step.sh
export NCCL_NVLS_ENABLE=0
MPIRUN=(mpirun --allow-run-as-root --bind-to none -x NCCL_NVLS_ENABLE=0)
{ echo "revision $(device_revision), $gpus GPU(s)"; nvidia-smi -L; nvidia-smi topo -m; } >> "$LOG" 2>&1
if ! [[ "$STEPS" =~ ^[[:space:]]*sample[[:space:]]*$ ]]; then  # every step but the sample runs the chapter
  "$CH" --help > /dev/null 2>&1 || { echo "no chapter 13 in $BUILD: build it first"; exit 1; }
fi
# The check step's sizes and iteration counts (size:iterations; CHECK_CASES picks others, e.g. a call
# of its own for 16384², whose runs take about a minute each); the sample step runs at its sizes.
CHECK_CASES=${CHECK_CASES:-"2048:1000 4096:400 8192:100 16384:50"}

# An exit code other than the expected one is a failure (the refusals must exit 2).
expect_exit() {  # CODE COMMAND...
  local want_rc=$1 rc
  shift
  "$@" < /dev/null
  rc=$?
  [ "$rc" -eq "$want_rc" ] || { echo "exit $rc, expected $want_rc"; return 1; }
}

if want tests; then
  step "ctest ch13" bash -c "ctest --test-dir '$BUILD' -R '(ch13|13_halo)' -LE '^exercise$' -j 4 --output-on-failure --timeout 600 < /dev/null"
fi

if want all; then
  step "all g$gpus 97x77" "$CH" --variant all --gpus "$gpus" --nx 97 --ny 77 --iters 41
  step "all g$gpus one row per GPU" "$CH" --variant all --gpus "$gpus" --nx 64 --ny "$gpus" --iters 25
  # The same with the norm every iteration: each GPU's check is one launch of one row (overlap: the
  # boundary row alone, no interior), and its last block publishes.
  step "all g$gpus one row per GPU checked every iteration" "$CH" --variant all --gpus "$gpus" --nx 64 --ny "$gpus" \
    --iters 25 --check-every 1 --tol 0
  step "all g$gpus 4097x33" "$CH" --variant all --gpus "$gpus" --nx 4097 --ny 33 --iters 25
  step "all g$gpus 63x7 synchronised" env GPGPU_CUDA_SYNC=1 "$CH" --variant all --gpus "$gpus" --nx 63 --ny 7 --iters 25
  if ((gpus > 2)); then
    step "all g$((gpus - 1)) 97x77" "$CH" --variant all --gpus $((gpus - 1)) --nx 97 --ny 77 --iters 41
  fi
  if ((gpus >= 2)); then
    step "all mpirun -np $gpus 97x77" "${MPIRUN[@]}" -np "$gpus" "$CH" --variant mpi,nccl --gpus "$gpus" \
      --nx 97 --ny 77 --iters 41
    for overlap in on off; do  # the distributed variants stop where the reference stops, both ways
      step "all mpirun -np $gpus 97x77 checked every 7, overlap $overlap" "${MPIRUN[@]}" -np "$gpus" "$CH" \
        --variant mpi,nccl,nccl_graph --gpus "$gpus" --nx 97 --ny 77 --iters 300 --check-every 7 --tol 2 \
        --check-overlap "$overlap"
    done
  fi
  step "refuse --gpus $((gpus + 1))" expect_exit 2 "$CH" --gpus $((gpus + 1)) --quick
  ((gpus >= 2)) && step "refuse fewer rows than GPUs" expect_exit 2 "$CH" --gpus "$gpus" --nx 16 --ny $((gpus - 1))
fi

if want sanitizers; then
  # The one-process variants that can run here: those that exchange rows need two GPUs or more.
  one_process=one_gpu
  ((gpus >= 2)) && one_process=one_gpu,host_staged,peer_copy,peer_store,overlap
  for tool in memcheck racecheck synccheck initcheck; do
    step "sanitizer $tool, one process, $gpus GPU(s)" env GPGPU_CUDA_SYNC=1 compute-sanitizer --tool "$tool" \
      --error-exitcode 3 "$CH" --variant "$one_process" --gpus "$gpus" \
      --nx 128 --ny 77 --iters 9
    # The norm every iteration: the norm kernels, their last blocks' stores to mapped host memory,
    # two checks in flight.
    step "sanitizer $tool, one process, $gpus GPU(s), checked every iteration" env GPGPU_CUDA_SYNC=1 \
      compute-sanitizer --tool "$tool" --error-exitcode 3 "$CH" --variant "$one_process" --gpus "$gpus" \
      --nx 128 --ny 77 --iters 9 --check-every 1 --tol 0
  done
  if ((gpus >= 2)); then
    # NCCL probes the device inside ncclCommInitRank with calls that fail by design: memcheck's API
    # error reports are off for these runs (the kernels' accesses are still checked).
    for tool in memcheck initcheck; do
      step "sanitizer $tool, mpirun -np $gpus" "${MPIRUN[@]}" -np "$gpus" compute-sanitizer --tool "$tool" \
        --report-api-errors no --error-exitcode 3 "$CH" --variant nccl,mpi --gpus "$gpus" --nx 128 --ny 77 --iters 9
    done
  fi
fi

# The scaling runs: the chapter's sizes per G, with the iteration counts that keep each run near a
# second; every variant against the one-GPU baseline of the same run.
if want bench && ((gpus >= 2)); then
  variants=one_gpu,host_staged,peer_copy,peer_store,overlap,nccl,nccl_graph,mpi
  declare -A sizes=(
    [2]="2048x2048:1000 4096x4096:400 4096x8192:400 8192x8192:100 8192x16384:100 16384x16384:50"
    [4]="2048x2048:1000 4096x4096:400 8192x8192:100 4096x16384:100 16384x16384:50 8192x32768:50")
  for g in 2 4; do
    ((g <= gpus)) || continue
    for case in ${sizes[$g]}; do
      nx=${case%%x*} rest=${case#*x} ny=${rest%%:*} iters=${case##*:}
      rm -f "$OUT/ch13_g${g}_${nx}x${ny}.json"  # the check step below takes only this call's file
      step "bench g$g ${nx}x$ny" "${MPIRUN[@]}" -np "$g" "$CH" --variant "$variants" --gpus "$g" --nx "$nx" \
        --ny "$ny" --iters "$iters" --json "$OUT/ch13_g${g}_${nx}x${ny}.json"
    done
  done
fi

# The check's cost: the same sizes and iteration counts as the scaling runs, the norm every
# iteration and every 10, waited for before the next iteration (off) or during it (on), and first
# the same run with no check, in the same call (the cost is a difference of the two): the bench
# step's run of that size where it ran in this call (every variant, verified), else a run of the
# check's variants.
if want check && ((gpus >= 2)); then
  mkdir -p "$OUT/check"
  variants=one_gpu,peer_store,overlap,nccl,nccl_graph,mpi
  for g in 2 4; do
    ((g <= gpus)) || continue
    for case in $CHECK_CASES; do
      n=${case%%:*} iters=${case##*:}
      none="$OUT/check/ch13_check_g${g}_${n}x${n}_none.json"
      if want bench && [ -f "$OUT/ch13_g${g}_${n}x${n}.json" ]; then  # not a file an earlier call left in --out
        cp "$OUT/ch13_g${g}_${n}x${n}.json" "$none"
      else
        step "check g$g ${n}x$n none" "${MPIRUN[@]}" -np "$g" "$CH" --variant "$variants" --gpus "$g" --nx "$n" \
          --ny "$n" --iters "$iters" --no-verify --json "$none"
      fi
      for every in 1 10; do
        for overlap in on off; do
          step "check g$g ${n}x$n every $every overlap $overlap" "${MPIRUN[@]}" -np "$g" "$CH" --variant "$variants" \
            --gpus "$g" --nx "$n" --ny "$n" --iters "$iters" --check-every "$every" --tol 0 --check-overlap "$overlap" \
            --no-verify --json "$OUT/check/ch13_check_g${g}_${n}x${n}_every${every}_overlap_${overlap}.json"
        done
      done
    done
  done
fi

# The sample beside ours (STEPS=sample): NVIDIA's multi-GPU Jacobi solver, built from its source in
# SAMPLE_DIR (default .peers/multi-gpu-programming-models: an ignored folder that a device call
# carries, since the machine reaches no network; fetch it with `git clone
# https://github.com/NVIDIA/multi-gpu-programming-models .peers/multi-gpu-programming-models` and
# write its commit into a COMMIT file there): multi_threaded_p2p, multi_threaded_copy_overlap, nccl
# (and mpi where Open MPI is CUDA-aware) at the check step's sizes on G = 2 and 4, the norm every
# iteration and every 10; scripts/device/ch13_sample.sh says how, nvidia_sample_parse.py reads it.
if want sample; then
  if ((gpus >= 2)); then
    # shellcheck source=scripts/device/ch13_sample.sh
    source scripts/device/ch13_sample.sh
    sample_step
  else
    echo "the sample step needs two GPUs: not run" >> "$LOG"
  fi
fi

{
  echo "chapter 13: $gpus GPU(s), $steps steps, $(( $(date +%s) - DEVICE_START )) s, revision $(device_revision)"
  for f in "$OUT"/ch13_g*.json; do
    [ -f "$f" ] || continue
    python3 - "$f" <<'PY'
import json, pathlib, sys
p = pathlib.Path(sys.argv[1])
j = json.loads(p.read_text())
rows = {r["variant"]: r for r in j["results"]}
base = rows.get("one_gpu", {}).get("ms_per_step")
cells = []
for v, r in rows.items():
    eff = r.get("extra", {}).get("efficiency")
    cells.append(f"{v} {r['ms_per_step']:.4f} ms" + (f" ({100 * eff:.1f}%)" if isinstance(eff, (int, float)) else "") + f" {r['check']}")
print(f"{p.stem}: " + "; ".join(cells))
PY
  done
  if [ -f "$OUT/sample/nvidia_sample.json" ] && want sample; then
    python3 scripts/device/nvidia_sample_parse.py table "$OUT/sample/nvidia_sample.json"
  fi
  if ((${#failed[@]})); then printf 'FAILED: %s\n' "${failed[@]}"; else echo "every step passed"; fi
} | tee "$OUT/ch13_summary.txt"
rm -rf "$TMP"
((${#failed[@]} == 0))
