#!/usr/bin/env bash
# The point-function GPU check in one call (offline works: carry .debs/): builds only what
# it needs (the CUDA semantics tests, the CLI, tessera-bench with pipelined's
# point-function tile variants), runs the point-function test cases, the point-function
# benchmark (BENCH_REPS, default 10), seismic3d on every CUDA policy and automatic against
# Kokkos and the analytic solution (and 256^3 timings), compute-sanitizer memcheck,
# racecheck and initcheck over the point-function cases beside the whole CUDA semantics
# program (skipped with POINT_CHECK_SKIP_SANITIZER=1), and tessera-bench --smoke. Logs and
# the CSV go to $OUT (default ./gpu-logs).
# shellcheck source=gpu-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/gpu-common.sh"

step "device"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$out/summary.txt"
git -C "$root" log -1 --format='commit %H' 2>/dev/null | tee -a "$out/summary.txt"

step "build"
BOOTSTRAP_CONFIGURE_ONLY=1 BUILD_DIR="$build" scripts/bootstrap.sh \
  -DCMAKE_CUDA_ARCHITECTURES="${CMAKE_CUDA_ARCHITECTURES:-90}" -DTESSERA_BENCH_POINT_VARIANTS=ON >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
cmake --build "$build" -j "$(nproc)" --target test_cuda_semantics tessera_cli tessera-bench >>"$out/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$out/build.log" | head -30; exit 1; }
semantics="$build/tests/cuda/test_cuda_semantics"

step "point-function tests"
"$semantics" -tc='cuda point functions*' 2>&1 | tail -3 | tee -a "$out/summary.txt"
grep -q "Status: SUCCESS" <("$semantics" -tc='cuda point functions*' 2>&1) || status=1

step "point-function benchmark"
"$build/perf/tessera-bench" --point-functions --reps "${BENCH_REPS:-10}" --csv "$out/point_bench.csv" 2>&1 |
  tee -a "$out/summary.txt" || status=1

step "seismic3d"
for p in cuda:naive cuda:tiled cuda:coarsened cuda:register-tiled cuda:streaming cuda:shared-streaming \
  cuda:vector-streaming cuda:pipelined cuda:temporal-blocking automatic; do
  "$build/apps/tessera/tessera" run --problem seismic3d --model homogeneous --size 64 --policy "$p" --validate 2>&1 |
    tee -a "$out/summary.txt" | grep -q "analytic check.*pass" || status=1
done
for p in cuda:naive cuda:streaming cuda:shared-streaming automatic; do
  "$build/apps/tessera/tessera" run --problem seismic3d --size 256 --steps 200 --precision float --policy "$p" 2>&1 |
    tee -a "$out/summary.txt"
done

if [[ -n "${POINT_CHECK_SKIP_SANITIZER:-}" ]]; then  # a second call runs them on the kept build
  step "done (sanitizers skipped): status $status"
  exit $status
fi

step "compute-sanitizer on the point-function cases; the whole semantics program beside them"
"$semantics" --test-case-exclude='*allocation that cannot succeed*' >"$out/semantics.log" 2>&1 &
whole=$!
for tool in memcheck racecheck initcheck; do
  timeout --foreground "${SANITIZER_TIMEOUT:-170}" compute-sanitizer --tool "$tool" --error-exitcode 3 "$semantics" \
    -tc='cuda point functions*' >"$out/sanitizer-$tool.log" 2>&1 &
done
wait
tail -3 "$out/semantics.log" | tee -a "$out/summary.txt"
grep -q "Status: SUCCESS" "$out/semantics.log" || status=1
for tool in memcheck racecheck initcheck; do
  echo "$tool: $(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/sanitizer-$tool.log" | tail -1); $(grep -E "test cases:" "$out/sanitizer-$tool.log" | tail -1)"
  grep -qE "ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards" "$out/sanitizer-$tool.log" || status=1
done | tee -a "$out/summary.txt"

step "tessera-bench --smoke"
"$build/perf/tessera-bench" --smoke 2>&1 | tail -2 | tee -a "$out/summary.txt"

step "done: status $status"
exit $status
