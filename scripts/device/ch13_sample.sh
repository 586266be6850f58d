# shellcheck shell=bash disable=SC2154  # gpus, OUT, TMP, LOG, MPIRUN, CHECK_CASES: ch13.sh's
# Sourced by scripts/device/ch13.sh for its `sample` step (not run on its own): NVIDIA's multi-GPU
# Jacobi solver (github.com/NVIDIA/multi-gpu-programming-models) built from its source and run at the
# chapter's sizes, so that one device call measures it beside the chapter.
#
# Uses ch13.sh's OUT, TMP, LOG, gpus, MPIRUN, CHECK_CASES, `step` and `failed`. Environment:
#   SAMPLE_DIR        the sample's source (default .peers/multi-gpu-programming-models; its COMMIT
#                     file, when there, names the revision in the log and the JSON)
#   SAMPLE_VARIANTS   the sample's folders to build and run (default "multi_threaded_p2p
#                     multi_threaded_copy_overlap nccl mpi"; mpi only where Open MPI is CUDA-aware)
#   SAMPLE_NITER      -niter of every run (default 1000, the sample's default)
#   SAMPLE_RUN_LIMIT_S  the time one run may take before it is stopped (default 120)
#   SAMPLE_MODULE_LOADING  CUDA_MODULE_LOADING of the runs (default EAGER: the sample times its loop
#                     from the first launch of its kernels, which lazy loading would load inside it)
#   NCCL_HOME         where include/nccl.h and the library are (default: the CUDA Toolkit's, then /usr)
# Each build's flags are its Makefile's for one architecture (BUILD_SM_ARCH=90, sm_90 code only),
# except -std=c++17 for nvcc: CUDA 13's CUB refuses the Makefiles' C++14.

sample_cuda_home() {
  local nvcc
  nvcc=$(command -v nvcc) || return 1
  dirname "$(dirname "$(readlink -f "$nvcc")")"
}

# The first of the folders given that holds FILE (a glob), or nothing.
sample_first_with() {  # FILE DIR...
  local pattern=$1 d f
  shift
  for d in "$@"; do
    # shellcheck disable=SC2086  # the pattern is a glob
    for f in "$d"/$pattern; do [ -e "$f" ] && { echo "$d"; return 0; }; done
  done
  return 1
}

sample_log_run() {  # COMMAND...: the command in the log, then run
  echo "+ $*"
  "$@"
}

# Builds VARIANT into $SAMPLE_BIN/VARIANT; its commands (or why not) go to builds.tsv.
sample_build() {  # VARIANT
  local v=$1 src="$SAMPLE_DIR/$1" bin="$SAMPLE_BIN/$1" rc
  # shellcheck disable=SC2054  # the commas belong to -gencode's value
  local nvcc_flags=(-gencode arch=compute_90,code=sm_90 -std=c++17 -DHAVE_CUB -lineinfo)
  local compile=() link=()  # each command once: run, and written to builds.tsv as it ran
  case "$v" in
    multi_threaded_*)
      compile=(nvcc "${nvcc_flags[@]}" -Xcompiler -fopenmp -DUSE_NVTX -ldl "$src/jacobi.cu" -o "$bin") ;;
    nccl|mpi)
      local inc=(-I"$CUDA_HOME/include") libs=(-L"$CUDA_LIB" -lcudart -ldl) rpath="-Wl,-rpath,$CUDA_LIB"
      if [ "$v" = nccl ]; then
        [ "$NCCL_INC" = "$CUDA_HOME/include" ] || inc+=(-I"$NCCL_INC")
        libs+=(-lnccl)
        if [ "$NCCL_LIB" != "$CUDA_LIB" ]; then
          libs=(-L"$NCCL_LIB" "${libs[@]}")
          rpath+=",-rpath,$NCCL_LIB"
        fi
      fi
      compile=(nvcc "${nvcc_flags[@]}" -c "$src/jacobi_kernels.cu" -o "$bin.o")
      link=(mpicxx -DUSE_NVTX "${inc[@]}" -std=c++14 "$src/jacobi.cpp" "$bin.o" "${libs[@]}" "$rpath" -o "$bin") ;;
    *) echo "unknown sample variant '$v'"; printf '%s\tbuild failed\tunknown variant\n' "$v" >> "$SAMPLE_OUT/builds.tsv"; return 2 ;;
  esac
  sample_log_run "${compile[@]}" && { ((${#link[@]} == 0)) || sample_log_run "${link[@]}"; }
  rc=$?
  local status=built detail="${compile[*]}"
  ((${#link[@]} == 0)) || detail+=" && ${link[*]}"
  ((rc == 0)) || status="build failed"
  printf '%s\t%s\t%s\n' "$v" "$status" "$detail" >> "$SAMPLE_OUT/builds.tsv"
  return "$rc"
}

# One run: VARIANT on the first G GPUs at N x N, the norm every K iterations; its output in
# sample/, its line in runs.tsv.
sample_run() {  # VARIANT G N K
  local v=$1 g=$2 n=$3 k=$4 rc
  local name="${v}_g${g}_${n}x${n}_every${k}.txt"
  local cmd=("$SAMPLE_BIN/$v" -csv -nx "$n" -ny "$n" -niter "$SAMPLE_NITER" -nccheck "$k")
  # One rank per GPU: each rank takes the GPU of its rank on the node among those visible.
  [[ $v == nccl || $v == mpi ]] && cmd=("${SAMPLE_MPIRUN[@]}" -np "$g" "${cmd[@]}")
  echo "+ CUDA_VISIBLE_DEVICES=$(seq -s, 0 $((g - 1))) CUDA_MODULE_LOADING=$SAMPLE_MODULE_LOADING ${cmd[*]}"
  # NCCL_DEBUG=VERSION: NCCL prints its version once, which the JSON records.
  CUDA_VISIBLE_DEVICES=$(seq -s, 0 $((g - 1))) CUDA_MODULE_LOADING=$SAMPLE_MODULE_LOADING NCCL_DEBUG=VERSION \
    timeout -k 10 "$(device_left "$SAMPLE_RUN_LIMIT_S")" "${cmd[@]}" < /dev/null > "$SAMPLE_OUT/$name" 2>&1
  rc=$?
  cat "$SAMPLE_OUT/$name"
  printf '%s\t%d\t%d\t%d\t%d\t%d\t%d\t%s\n' "$v" "$g" "$n" "$n" "$k" "$SAMPLE_NITER" "$rc" "$name" >> "$SAMPLE_OUT/runs.tsv"
  return "$rc"
}

sample_step() {
  SAMPLE_DIR=${SAMPLE_DIR:-.peers/multi-gpu-programming-models}
  SAMPLE_NITER=${SAMPLE_NITER:-1000}
  SAMPLE_RUN_LIMIT_S=${SAMPLE_RUN_LIMIT_S:-120}
  SAMPLE_MODULE_LOADING=${SAMPLE_MODULE_LOADING:-EAGER}
  SAMPLE_OUT="$OUT/sample"
  SAMPLE_BIN="$TMP/sample"
  SAMPLE_MPIRUN=("${MPIRUN[@]}" -x CUDA_VISIBLE_DEVICES -x CUDA_MODULE_LOADING -x NCCL_DEBUG)
  local variants v g k case built=() commit
  read -r -a variants <<< "${SAMPLE_VARIANTS:-multi_threaded_p2p multi_threaded_copy_overlap nccl mpi}"
  if [ ! -f "$SAMPLE_DIR/multi_threaded_p2p/jacobi.cu" ]; then
    failed+=("NVIDIA sample (no source in $SAMPLE_DIR: see scripts/device/ch13_sample.sh)")
    return
  fi
  if ! CUDA_HOME=${CUDA_HOME:-$(sample_cuda_home)}; then
    failed+=("NVIDIA sample (no nvcc on PATH)")
    return
  fi
  CUDA_LIB=$(sample_first_with 'libcudart.so*' "$CUDA_HOME/lib64" "$CUDA_HOME/lib") || CUDA_LIB="$CUDA_HOME/lib64"
  mkdir -p "$SAMPLE_OUT" "$SAMPLE_BIN"
  printf 'variant\tgpus\tnx\tny\tnccheck\tniter\texit\toutput\n' > "$SAMPLE_OUT/runs.tsv"
  printf 'variant\tstatus\tdetail\n' > "$SAMPLE_OUT/builds.tsv"
  commit=$(cat "$SAMPLE_DIR/COMMIT" 2> /dev/null || echo unrecorded)
  echo "NVIDIA sample source: $SAMPLE_DIR at $commit" >> "$LOG"

  for v in "${variants[@]}"; do
    if [ "$v" = mpi ] && ! ompi_info --parsable --all 2> /dev/null | grep -q 'mpi_built_with_cuda_support:value:true'; then
      printf 'mpi\tnot built\tthis Open MPI is not CUDA-aware (ompi_info), which the sample'"'"'s mpi variant requires\n' \
        >> "$SAMPLE_OUT/builds.tsv"
      echo "NVIDIA sample mpi: not built, Open MPI is not CUDA-aware" >> "$LOG"
      continue
    fi
    if [ "$v" = nccl ]; then
      local home
      home=$(sample_first_with include/nccl.h ${NCCL_HOME:+"$NCCL_HOME"} "$CUDA_HOME" /usr) || {
        failed+=("NVIDIA sample nccl (no include/nccl.h under NCCL_HOME, $CUDA_HOME or /usr)")
        printf 'nccl\tnot built\tno nccl.h found\n' >> "$SAMPLE_OUT/builds.tsv"
        continue
      }
      NCCL_INC="$home/include"
      NCCL_LIB=$(sample_first_with 'libnccl.so*' "$home/lib64" "$home/lib" "$home/lib/x86_64-linux-gnu") ||
        NCCL_LIB="$home/lib"
    fi
    step "NVIDIA sample build $v" sample_build "$v"
    [ -x "$SAMPLE_BIN/$v" ] && built+=("$v")
  done

  # Per size, the variants in turn, so that each size's runs are taken close together.
  for g in 2 4; do
    ((g <= gpus)) || continue
    for case in $CHECK_CASES; do
      for k in 1 10; do
        for v in "${built[@]}"; do
          step "NVIDIA sample $v g$g ${case%%:*}² every $k" sample_run "$v" "$g" "${case%%:*}" "$k"
        done
      done
    done
  done
  step "NVIDIA sample summary" python3 scripts/device/nvidia_sample_parse.py summary \
    --runs "$SAMPLE_OUT/runs.tsv" --builds "$SAMPLE_OUT/builds.tsv" --commit "$commit" \
    --out "$SAMPLE_OUT/nvidia_sample.json" --env "CUDA_MODULE_LOADING=$SAMPLE_MODULE_LOADING" \
    --env "NCCL_NVLS_ENABLE=$NCCL_NVLS_ENABLE" --env "mpirun=${SAMPLE_MPIRUN[*]} -np G" \
    --env "gpu_choice=CUDA_VISIBLE_DEVICES=0,...,G-1 (nccl, mpi: one rank per GPU)" \
    --env "mpi=$(mpirun --version 2> /dev/null | head -n 1)" --env "nvcc=$(nvcc --version | grep release)" \
    --env "gpus=$(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | xargs)" \
    --env "chapter_revision=$(device_revision)"
}
