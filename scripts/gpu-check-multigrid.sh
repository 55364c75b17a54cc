#!/usr/bin/env bash
# The multigrid acceptance run on a CUDA host, one command (offline: carry .debs/):
# build with CUDA (sm_90 unless CMAKE_CUDA_ARCHITECTURES is set), the multigrid and Poisson
# tests, compute-sanitizer memcheck and racecheck over the CUDA multigrid suite's small cases,
# poisson2d/poisson3d on the GPU with --validate, and tessera-bench --solver. Logs in $OUT.
#   MG_CHECK_SKIP_BENCH=1 skips the benchmark; MG_CHECK_FULL_CTEST=1 runs the whole suite;
#   MG_CHECK_REPS sets the benchmark's repetitions (5).
# On a fresh 16-core H100: build ~300 s, tests ~40 s, sanitizers ~60 s, benchmark ~60 s.
# shellcheck source=gpu-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/gpu-common.sh"

step "device"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
  nvcc --version | tail -2; } | tee "$out/summary.txt"

step "build"
BUILD_DIR="$build" scripts/bootstrap.sh -DCMAKE_CUDA_ARCHITECTURES="${CMAKE_CUDA_ARCHITECTURES:-90}" \
  >"$out/build.log" 2>&1 || { tail -50 "$out/build.log"; exit 1; }

step "tests"
if [[ "${MG_CHECK_FULL_CTEST:-0}" == 1 ]]; then
  ctest --test-dir "$build" -j "$(nproc)" --output-on-failure >"$out/ctest.log" 2>&1 || status=1
else
  ctest --test-dir "$build" -j "$(nproc)" --output-on-failure -R "multigrid|poisson|cg|bench_solver" \
    >"$out/ctest.log" 2>&1 || status=1
fi
grep -E "tests passed|\(Failed\)|Total Test time" "$out/ctest.log" | tee -a "$out/summary.txt"

step "compute-sanitizer (memcheck, racecheck) on test_cuda_multigrid"
for tool in memcheck racecheck; do
  timeout --foreground 240 compute-sanitizer --tool "$tool" --error-exitcode 3 "$build/tests/cuda/test_cuda_multigrid" \
    --test-case='*transfers*,*bad input*,*equals host::serial*' --test-case-exclude='*streaming*,*tiled*' \
    >"$out/sanitizer-$tool.log" 2>&1 || status=1
  echo "$tool: $(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/sanitizer-$tool.log" | tail -1); $(grep -E "test cases:" "$out/sanitizer-$tool.log" | tail -1)" |
    tee -a "$out/summary.txt"
done

step "poisson on the GPU"
cli="$build/apps/tessera/tessera"
{ for args in "--problem poisson2d --size 1023 --validate" "--problem poisson3d --size 127 --validate" \
              "--problem poisson3d --size 128 --boundary periodic --solver cg" \
              "--problem poisson3d --size 255 --precision float --validate" ${MG_CHECK_MORE_RUNS:-}; do
    echo "\$ tessera run $args"
    $cli run $args || status=1
  done; } >"$out/poisson.log" 2>&1
cat "$out/poisson.log" >>"$out/summary.txt"

if [[ "${MG_CHECK_SKIP_BENCH:-0}" != 1 ]]; then
  step "tessera-bench --solver"
  timeout --foreground 200 "$build/perf/tessera-bench" --solver --reps "${MG_CHECK_REPS:-5}" >"$out/bench-solver.log" 2>&1 || status=1
  cat "$out/bench-solver.log" >>"$out/summary.txt"
fi
step "done: status $status"
exit $status
