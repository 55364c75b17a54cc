#!/usr/bin/env bash
# The distributed-GPU check in one call, on a host with two or four GPUs and an MPI
# (nvidia-h200-x2, nvidia-h100-x4: Open MPI and NCCL are installed there; offline works:
# carry .debs/ for Kokkos and doctest):
#   build what it needs (MPI and CUDA on, NCCL where found), run the MPI test programs and
#   the mpirun app tests, test_mpi_device on 1, 2 and 4 ranks (4: the 2x2x1 block grid),
#   compute-sanitizer memcheck and racecheck on every rank of test_mpi_device on
#   SANITIZER_NP ranks (2), the main job (mpirun -np 2 and, with 4 GPUs, -np 4 tessera run
#   --problem heat3d --validate) on the CPU and on the GPUs with each transport, then the
#   scaling runs of tessera-mpi-bench on 1, 2 and 4 ranks, as many as there are GPUs (weak:
#   --local 512^3, the global grid the block times the process grid; strong: --size 768^3
#   and 384^3), seismic3d's throughput on 1 GPU and on all of them (up to 4), and poisson3d's
#   time to 1e-10 at 511^3 on 1 GPU and 1023^3 on all of them (distributed multigrid).
# Logs go to $OUT (8 files at most; the bench's CSV lines are in bench.log) (default ./gpu-logs).
#   MPI_PREFIX=DIR uses the MPI installed there (e.g. a CUDA-aware Open MPI),
#   MPI_CHECK_SKIP_SANITIZER=1 skips the sanitizers, MPI_CHECK_ONLY_SANITIZER=1 runs only
#   them (SANITIZER_ARGS: arguments for test_mpi_device, e.g. -tc='*iterate*'),
#   MPI_CHECK_SKIP_BENCH=1 the scaling runs, MPI_CHECK_ONLY_BENCH=1 runs only the scaling
#   runs, BENCH_STEPS / BENCH_REPS pass
#   --steps / --reps (100 / 5); TEST_TIMEOUT,
#   APP_TIMEOUT, BENCH_TIMEOUT bound each mpirun (300, 120, 200 s).
# shellcheck source=gpu-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/gpu-common.sh"

# MPI_PREFIX: another MPI than the system's (e.g. an Open MPI built with --with-cuda for the
# cuda-aware-mpi transport, installed under that prefix): first in PATH, and CMake told so
mpi_args=()
if [[ -n "${MPI_PREFIX:-}" ]]; then
  export PATH="$MPI_PREFIX/bin:$PATH" LD_LIBRARY_PATH="$MPI_PREFIX/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" OPAL_PREFIX="$MPI_PREFIX"
  mpi_args=(-DMPI_CXX_COMPILER="$MPI_PREFIX/bin/mpicxx" -DMPIEXEC_EXECUTABLE="$MPI_PREFIX/bin/mpirun")
fi
# root in a container: Open MPI refuses without these; NVLink multicast stays off
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
if ! command -v nvcc >/dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then export PATH="/usr/local/cuda/bin:$PATH"; fi
gpus=$(nvidia-smi -L | wc -l)

step "device"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
  nvidia-smi topo -m | head -4
  mpirun --version | head -1
  ompi_info --parsable --all 2>/dev/null | grep -m1 "built_with_cuda_support:value"
  ls /usr/include/nccl.h /usr/lib/x86_64-linux-gnu/libnccl.so* 2>/dev/null | head -2
  git -C "$root" log -1 --format='commit %H' 2>/dev/null; } | tee "$out/summary.txt"

step "build"
BOOTSTRAP_CONFIGURE_ONLY=1 BUILD_DIR="$build" scripts/bootstrap.sh -DCMAKE_CUDA_ARCHITECTURES="${CMAKE_CUDA_ARCHITECTURES:-90}" \
  -DTESSERA_ENABLE_MPI=ON "${mpi_args[@]}" >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
grep -E "tessera:|NCCL|MPI" "$out/build.log" | head -8 | tee -a "$out/summary.txt"
targets=(tessera-mpi-bench)
[[ "${MPI_CHECK_ONLY_BENCH:-0}" == 1 ]] || targets+=(test_mpi test_mpi_device tessera_cli)
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" >>"$out/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$out/build.log" | head -30; exit 1; }
device_tests="$build/tests/test_mpi_device"
cli="$build/apps/tessera/tessera"
bench="$build/perf/tessera-mpi-bench"
mpirun_=(mpirun --bind-to none)

if [[ "${MPI_CHECK_ONLY_BENCH:-0}" != 1 && "${MPI_CHECK_ONLY_SANITIZER:-0}" != 1 ]]; then
step "test_mpi_device on 1, 2 and 4 ranks, and the mpirun ctest cases"
for np in 1 2 4; do
  echo "##### mpirun -np $np test_mpi_device" >>"$out/tests.log"
  timeout "${TEST_TIMEOUT:-300}" "${mpirun_[@]}" -np "$np" "$device_tests" >"$build/device_np$np.log" 2>&1 || status=1
  cat "$build/device_np$np.log" >>"$out/tests.log"
  echo "np $np: $(grep -E "test cases:" "$build/device_np$np.log" | sort | uniq -c)"
  grep -E "skipped:|ERROR|FAILED|error" "$build/device_np$np.log" | sed 's/0x[0-9a-f]*//' | sort | uniq -c | head -10
done | tee -a "$out/summary.txt"
# the same programs under ctest ran above; here the other mpirun cases
ctest --test-dir "$build" -R "^mpi\.|app\.mpi|transport|perf.mpi" -E "device_np" -j 4 --output-on-failure >"$out/ctest.log" 2>&1 || status=1
grep -E "tests passed|Skipped|\(Failed\)|Not Run|Total Test time" "$out/ctest.log" | head -30 | tee -a "$out/summary.txt"

step "the main job: mpirun -np 2 tessera run --problem heat3d --validate, CPU and GPUs"
{ timeout "${APP_TIMEOUT:-120}" "${mpirun_[@]}" -np 2 "$cli" run --problem heat3d --validate || status=1
  for t in nccl host-staged cuda-aware-mpi; do
    echo "--- cuda:automatic, --transport $t"
    timeout "${APP_TIMEOUT:-120}" "${mpirun_[@]}" -np 2 "$cli" run --problem heat3d --size 128 --steps 100 --policy cuda:automatic \
      --transport "$t" --validate || { [[ $t == cuda-aware-mpi ]] || status=1; }
  done
  if ((gpus >= 4)); then
    for t in nccl host-staged; do
      echo "--- 4 ranks (2x2x1, overlapped), cuda:automatic, --transport $t"
      timeout "${APP_TIMEOUT:-120}" "${mpirun_[@]}" -np 4 "$cli" run --problem heat3d --size 130 --steps 60 --policy cuda:automatic \
        --transport "$t" --validate || status=1
    done
  fi
  seismic_np=$((gpus >= 4 ? 4 : 2))
  for t in nccl host-staged; do
    echo "--- seismic3d on $seismic_np ranks, cuda:automatic, --transport $t (homogeneous: analytic check too)"
    timeout "${APP_TIMEOUT:-120}" "${mpirun_[@]}" -np "$seismic_np" "$cli" run --problem seismic3d --model homogeneous --size 64 \
      --policy cuda:automatic --transport "$t" --validate || status=1
  done
  for t in nccl host-staged; do
    echo "--- poisson3d (distributed multigrid) on $seismic_np ranks, cuda:automatic, --transport $t"
    timeout "${APP_TIMEOUT:-120}" "${mpirun_[@]}" -np "$seismic_np" "$cli" run --problem poisson3d --size 255 \
      --policy cuda:automatic --transport "$t" --validate || status=1
  done
  echo "--- the default transport, periodic, 4 ranks on 2 GPUs (host-staged: two ranks share a GPU)"
  timeout "${APP_TIMEOUT:-120}" "${mpirun_[@]}" -np 4 --oversubscribe "$cli" run --problem heat3d --size 96 --steps 40 --boundary periodic \
    --policy cuda:automatic --validate || status=1
} 2>&1 | tee "$out/app.log" | grep -E "MPI processes|halo exchange|aggregate|rank [0-9]:|single-process|pass|FAIL|error|refused|needs" | head -40
grep -q "FAIL" "$out/app.log" && status=1

fi

if [[ "${MPI_CHECK_SKIP_BENCH:-0}" != 1 && "${MPI_CHECK_ONLY_SANITIZER:-0}" != 1 ]]; then
step "scaling: tessera-mpi-bench (fp32 3D 7-point, Dirichlet, cuda::automatic)"
bench_args=(--steps "${BENCH_STEPS:-100}" --reps "${BENCH_REPS:-5}")
{ for np in 1 2 4; do
    ((np <= gpus)) || continue
    echo "--- weak: -np $np --local 512x512x512"
    timeout "${BENCH_TIMEOUT:-200}" "${mpirun_[@]}" -np "$np" "$bench" --local 512x512x512 "${bench_args[@]}" || status=1
  done
  for size in 768x768x768 ${BENCH_STRONG_MORE-384x384x384}; do  # the second: where strong scaling fades
    for np in 1 2 4; do
      ((np <= gpus)) || continue
      echo "--- strong: -np $np --size $size"
      timeout "${BENCH_TIMEOUT:-200}" "${mpirun_[@]}" -np "$np" "$bench" --size "$size" "${bench_args[@]}" || status=1
    done
  done
  # seismic3d (8th-order point function over five fields, fp32, 100 steps): one GPU at
  # 512^3, then every GPU (up to 4) at 512^3 (strong) and at the size that gives each GPU
  # about 512^3 (weak: 812^3 on 4, 645^3 on 2); GCell-updates/s of each run's aggregate line
  many=$((gpus >= 4 ? 4 : gpus)); weak_n=$((many >= 4 ? 812 : 645))
  echo "--- seismic3d: 1 GPU --size 512"
  timeout "${BENCH_TIMEOUT:-200}" "$cli" run --problem seismic3d --size 512 --steps 100 --precision float --policy cuda:automatic || status=1
  for size in 512 "$weak_n"; do
    echo "--- seismic3d: -np $many --size $size"
    timeout "${BENCH_TIMEOUT:-200}" "${mpirun_[@]}" -np "$many" "$cli" run --problem seismic3d --size "$size" --steps 100 \
      --precision float --policy cuda:automatic || status=1
  done
  # poisson3d to 1e-10 in double: one GPU at 511^3 (the one-process solver), then the
  # distributed multigrid on every GPU (up to 4) at 1023^3 (8 times the points)
  echo "--- poisson3d: 1 GPU --size 511"
  timeout "${BENCH_TIMEOUT:-200}" "$cli" run --problem poisson3d --size 511 --policy cuda:automatic || status=1
  echo "--- poisson3d: -np $many --size 1023"
  timeout "${BENCH_TIMEOUT:-200}" "${mpirun_[@]}" -np "$many" "$cli" run --problem poisson3d --size 1023 --policy cuda:automatic || status=1
} 2>&1 | tee "$out/bench.log" | tee -a "$out/summary.txt"
fi

if [[ "${MPI_CHECK_SKIP_SANITIZER:-0}" != 1 && "${MPI_CHECK_ONLY_BENCH:-0}" != 1 ]]; then
sanitizer_np=${SANITIZER_NP:-2}
step "compute-sanitizer memcheck and racecheck on each rank of test_mpi_device -np $sanitizer_np"
# Both at once (2 x SANITIZER_NP processes): the longer of the two sets the time. NCCL's own
# parts are left out, with the reason: ncclCommInitRank probes cudaFuncGetAttributes on
# kernels built for other architectures and handles the "no kernel image" error itself
# (memcheck reports each such API error: --report-api-errors no; every CUDA call of
# tessera's is checked and throws), and racecheck reports hazards inside
# ncclDevKernel_SendRecv, which synchronises its warps by means racecheck does not model
# (--kernel-name-exclude; every tessera kernel is still checked).
for tool in memcheck racecheck; do
  { [[ $tool == memcheck ]] && extra=(--report-api-errors no) || extra=(--kernel-name-exclude kns=ncclDevKernel)
    timeout --foreground "${SANITIZER_TIMEOUT:-240}" "${mpirun_[@]}" -np "$sanitizer_np" compute-sanitizer --tool "$tool" "${extra[@]}" \
      --error-exitcode 3 "$device_tests" ${SANITIZER_ARGS:-} >"$out/sanitizer-$tool.log" 2>&1
    if grep -qiE "unrecogni[sz]ed|unknown option|invalid (option|value)" "$out/sanitizer-$tool.log"; then
      echo "##### this compute-sanitizer takes no ${extra[*]}: run without it" >"$out/sanitizer-$tool.log"
      timeout --foreground "${SANITIZER_TIMEOUT:-240}" "${mpirun_[@]}" -np "$sanitizer_np" compute-sanitizer --tool "$tool" \
        --error-exitcode 3 "$device_tests" ${SANITIZER_ARGS:-} >>"$out/sanitizer-$tool.log" 2>&1
    fi; } &
done
wait
for tool in memcheck racecheck; do
  rc=0
  grep -qE "Status: .*SUCCESS" "$out/sanitizer-$tool.log" || rc=1
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/sanitizer-$tool.log" | grep -qvE " 0 (errors|hazards)" && rc=1
  echo "$tool: $( ((rc == 0)) && echo clean || echo FAILED); $(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/sanitizer-$tool.log" | sort | uniq -c | tr '\n' ' ')"
  grep -E "test cases:" "$out/sanitizer-$tool.log" | sort | uniq -c
  ((rc == 0)) || status=1
done | tee -a "$out/summary.txt"
fi

step "done: status $status"
exit "$status"
