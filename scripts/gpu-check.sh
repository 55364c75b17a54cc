#!/usr/bin/env bash
# The GPU acceptance run, one command on a CUDA host (offline works: carry .debs/):
#   build with CUDA (sm_90 unless CMAKE_CUDA_ARCHITECTURES is set), run the whole test
#   suite, run compute-sanitizer memcheck, racecheck and initcheck over the whole CUDA
#   suite (every test case of both CUDA test programs),
#   run the demo and the benchmark driver. Logs go to $OUT (default ./gpu-logs).
#   GPU_CHECK_SKIP_BENCH=1 skips the benchmark, GPU_CHECK_SKIP_SANITIZER=1 the sanitizers,
#   GPU_CHECK_SANITIZER_TOOLS picks some of them ("memcheck racecheck initcheck"),
#   GPU_CHECK_SANITIZER_CASES limits them to doctest test cases ("*step graphs*,*iterate*"),
#   GPU_CHECK_SANITIZER_PROGRAMS to some programs ("test_cuda_semantics"),
#   GPU_CHECK_SKIP_TESTS=1 skips ctest and the command runs (e.g. for a second call that
#   only runs the remaining sanitizers on the same build),
#   GPU_CHECK_ONLY_BENCH=1 builds and runs only the benchmark driver;
#   BENCH_ARGS passes arguments to tessera-bench (e.g. "--quick --variants").
#   The Python module and its pytest suite (CuPy on the GPU) join the run where nanobind and
#   pytest install: offline, carry .wheels/ (`pip download nanobind pytest -d .wheels`).
# shellcheck source=gpu-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/gpu-common.sh"

step "device"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
  nvcc --version | tail -2
  cmake --version | head -1
  git -C "$root" log -1 --format='commit %H' 2>/dev/null; } | tee "$out/summary.txt"

step "build"
[[ "${GPU_CHECK_ONLY_BENCH:-0}" == 1 ]] && export BOOTSTRAP_CONFIGURE_ONLY=1
BUILD_DIR="$build" scripts/bootstrap.sh -DCMAKE_CUDA_ARCHITECTURES="${CMAKE_CUDA_ARCHITECTURES:-90}" \
  >"$out/build.log" 2>&1 || { tail -50 "$out/build.log"; exit 1; }
grep -E "tessera|warning" "$out/build.log" | head -20

if [[ "${GPU_CHECK_ONLY_BENCH:-0}" == 1 ]]; then  # a quick performance experiment
  step "benchmark only"
  cmake --build "$build" -j "$(nproc)" --target tessera-bench >/dev/null && \
    "$build/perf/tessera-bench" ${BENCH_ARGS:-} --csv "$out/bench.csv" --json "$out/bench.json" 2>&1 | tee -a "$out/summary.txt"
  exit $?
fi

if [[ "${GPU_CHECK_SKIP_TESTS:-0}" != 1 ]]; then
step "tests"
ctest --test-dir "$build" -j "$(nproc)" --output-on-failure >"$out/ctest.log" 2>&1 || status=1
grep -E "tests passed|Skipped|\(Failed\)|Not Run|Total Test time|python.pytest" "$out/ctest.log" | head -40
fi

if [[ "${GPU_CHECK_SKIP_SANITIZER:-0}" != 1 ]]; then
step "compute-sanitizer (memcheck, racecheck, initcheck) on the CUDA test programs"
# The allocation-failure test is left out: its cudaMalloc fails on purpose, and the
# sanitizer counts every failed API call as an error. ctest above runs it.
san() {  # tool program
  local log="$build/sanitizer-$1-$(basename "$2").log"
  local cases=()
  [[ -n "${GPU_CHECK_SANITIZER_CASES:-}" ]] && cases=(--test-case="$GPU_CHECK_SANITIZER_CASES")
  timeout --foreground "${GPU_CHECK_SANITIZER_TIMEOUT:-540}" compute-sanitizer --tool "$1" --error-exitcode 3 "$2" \
    --test-case-exclude='*allocation that cannot succeed*' "${cases[@]}" >"$log" 2>&1
  local rc=$?
  echo "$1 $(basename "$2"): exit $rc; $(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -1)"
  grep -E "test cases:" "$log" | tail -1
  return $rc
}
pids=()
for tool in ${GPU_CHECK_SANITIZER_TOOLS:-memcheck racecheck initcheck}; do
  for prog in ${GPU_CHECK_SANITIZER_PROGRAMS:-test_cuda_cross_validation test_cuda_semantics}; do
    san "$tool" "$build/tests/cuda/$prog" &
    pids+=($!)
  done
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
# one file back: every sanitizer log, each headed by its name
for f in "$build"/sanitizer-*.log; do echo "##### $(basename "$f")"; cat "$f"; done >"$out/sanitizer.log"
fi

if [[ "${GPU_CHECK_SKIP_TESTS:-0}" != 1 ]]; then
step "demo, validate, heat3d run"
{ "$build/apps/tessera/tessera" || status=1
  for p in cuda:naive cuda:tiled cuda:coarsened cuda:register-tiled cuda:streaming cuda:shared-streaming cuda:pipelined cuda:vector-streaming cuda:temporal-blocking cuda:persistent cuda:automatic; do
    "$build/apps/tessera/tessera" validate --policy "$p" >"$build/validate.log" 2>&1 || status=1
    echo "$p: $(tail -1 "$build/validate.log")"
  done
  "$build/apps/tessera/tessera" run --problem heat3d --size 64 --steps 100 --output "$build/heat.vti" \
    --image "$out/heat.png" --validate || status=1
  "$build/apps/tessera/tessera" run --problem heat3d --size 61 --steps 50 --order 4 --boundary neumann \
    --precision float --policy cuda:temporal-blocking --validate || status=1
  "$build/apps/tessera/tessera" run --problem poisson2d --size 127 --validate || status=1
  "$build/apps/tessera/tessera" run --problem poisson3d --size 127 --validate || status=1
  "$build/apps/tessera/tessera" run --problem wave2d --size 512 --steps 500 --validate || status=1
} >"$build/apps.log" 2>&1
cat "$build/apps.log" | tee -a "$out/summary.txt"
fi

if [[ "${GPU_CHECK_SKIP_BENCH:-0}" != 1 ]]; then
  step "benchmark"
  "$build/perf/tessera-bench" ${BENCH_ARGS:-} --csv "$out/bench.csv" --json "$out/bench.json" 2>&1 | tee -a "$out/summary.txt" || status=1
fi

step "done: status $status"
exit $status
