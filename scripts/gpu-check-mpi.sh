#!/usr/bin/env bash
# The distributed-GPU check in one call, on a host with two (or more) GPUs and an MPI
# (nvidia-h200-x2: Open MPI and NCCL are installed there; offline works: carry .debs/ for
# Kokkos and doctest):
#   build what it needs (MPI and CUDA on, NCCL where found), run the MPI test programs and
#   the mpirun app tests, test_mpi_device on 1 and 2 ranks, compute-sanitizer memcheck and
#   racecheck on every rank of a 2-rank test_mpi_device, the main job
#   (mpirun -np 2 tessera run --problem heat3d --validate) on the CPU and on the GPUs with
#   each transport, then the scaling runs of tessera-mpi-bench (weak: --local 512^3 on 1
#   and 2 ranks; strong: --size 768^3 and 384^3 on 1 and 2 ranks).
# Logs go to $OUT (8 files at most; the bench's CSV lines are in bench.log) (default ./gpu-logs).
#   MPI_PREFIX=DIR uses the MPI installed there (e.g. a CUDA-aware Open MPI),
#   MPI_CHECK_SKIP_SANITIZER=1 skips the sanitizers, MPI_CHECK_SKIP_BENCH=1 the scaling
#   runs, MPI_CHECK_ONLY_BENCH=1 runs only the scaling runs, BENCH_STEPS / BENCH_REPS pass
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

if [[ "${MPI_CHECK_ONLY_BENCH:-0}" != 1 ]]; then
step "test_mpi_device on 1 and 2 ranks, and the mpirun ctest cases"
for np in 1 2; do
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
  echo "--- the default transport, periodic, 4 ranks on 2 GPUs (host-staged: two ranks share a GPU)"
  timeout "${APP_TIMEOUT:-120}" "${mpirun_[@]}" -np 4 --oversubscribe "$cli" run --problem heat3d --size 96 --steps 40 --boundary periodic \
    --policy cuda:automatic --validate || status=1
} 2>&1 | tee "$out/app.log" | grep -E "MPI processes|halo exchange|aggregate|rank [0-9]:|single-process|pass|FAIL|error|refused|needs" | head -40
grep -q "FAIL" "$out/app.log" && status=1

fi

if [[ "${MPI_CHECK_SKIP_BENCH:-0}" != 1 ]]; then
step "scaling: tessera-mpi-bench (fp32 3D 7-point, Dirichlet, cuda::automatic)"
bench_args=(--steps "${BENCH_STEPS:-100}" --reps "${BENCH_REPS:-5}")
{ for np in 1 2; do
    ((np <= gpus)) || continue
    echo "--- weak: -np $np --local 512x512x512"
    timeout "${BENCH_TIMEOUT:-200}" "${mpirun_[@]}" -np "$np" "$bench" --local 512x512x512 "${bench_args[@]}" || status=1
  done
  for size in 768x768x768 ${BENCH_STRONG_MORE-384x384x384}; do  # the second: where strong scaling fades
    for np in 1 2; do
      ((np <= gpus)) || continue
      echo "--- strong: -np $np --size $size"
      timeout "${BENCH_TIMEOUT:-200}" "${mpirun_[@]}" -np "$np" "$bench" --size "$size" "${bench_args[@]}" || status=1
    done
  done
} 2>&1 | tee "$out/bench.log" | tee -a "$out/summary.txt"
fi

if [[ "${MPI_CHECK_SKIP_SANITIZER:-0}" != 1 && "${MPI_CHECK_ONLY_BENCH:-0}" != 1 ]]; then
step "compute-sanitizer memcheck and racecheck on each rank of test_mpi_device -np 2"
# Both at once (4 processes on 2 GPUs): the longer of the two sets the time. NCCL's own
# parts are left out, with the reason: ncclCommInitRank probes cudaFuncGetAttributes on
# kernels built for other architectures and handles the "no kernel image" error itself
# (memcheck reports each such API error: --report-api-errors no; every CUDA call of
# tessera's is checked and throws), and racecheck reports hazards inside
# ncclDevKernel_SendRecv, which synchronises its warps by means racecheck does not model
# (--kernel-name-exclude; every tessera kernel is still checked).
for tool in memcheck racecheck; do
  { [[ $tool == memcheck ]] && extra=(--report-api-errors no) || extra=(--kernel-name-exclude kns=ncclDevKernel)
    timeout --foreground "${SANITIZER_TIMEOUT:-240}" "${mpirun_[@]}" -np 2 compute-sanitizer --tool "$tool" "${extra[@]}" \
      --error-exitcode 3 "$device_tests" >"$out/sanitizer-$tool.log" 2>&1
    if grep -qiE "unrecogni[sz]ed|unknown option|invalid (option|value)" "$out/sanitizer-$tool.log"; then
      echo "##### this compute-sanitizer takes no ${extra[*]}: run without it" >"$out/sanitizer-$tool.log"
      timeout --foreground "${SANITIZER_TIMEOUT:-240}" "${mpirun_[@]}" -np 2 compute-sanitizer --tool "$tool" \
        --error-exitcode 3 "$device_tests" >>"$out/sanitizer-$tool.log" 2>&1
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
