#!/usr/bin/env bash
# The fused 3D box on a CUDA host, one command (offline: carry .debs/): build the fused
# tests and the benchmark (sm_90 unless CMAKE_CUDA_ARCHITECTURES is set), temporal_blocking's
# fused and cross-validation cases, compute-sanitizer memcheck and racecheck over the
# register-tile box pass's small grids, the 27-point box fused (fp32 and fp64, 512^3: the
# register tile, the one-column pass, a sweep a step) and swept once in fp64, then Nsight
# Compute of one library pass and of the probe's (perf/probes/fused_box_probe.cu, built
# here) side by side. $OUT gets summary.txt and logs.tgz. FUSED_BOX_SKIP_NCU=1 skips Nsight Compute.
# doctest's --test-case splits its filter at commas: the filters below have none inside a name.
# On a warm 16-core H200: build ~150 s, tests ~10 s, sanitizers ~5 s, benchmarks ~30 s,
# Nsight Compute ~40 s (perf/log/run-53.md).
# shellcheck source=gpu-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/gpu-common.sh"

step "device"
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
  nvcc --version | tail -2; } | tee "$out/summary.txt"

step "configure and build"
BOOTSTRAP_CONFIGURE_ONLY=1 BUILD_DIR="$build" scripts/bootstrap.sh \
  -DCMAKE_CUDA_ARCHITECTURES="${CMAKE_CUDA_ARCHITECTURES:-90}" -DTESSERA_ENABLE_MPI=OFF -DTESSERA_BUILD_PYTHON=OFF \
  >"$out/configure.log" 2>&1 || { tail -50 "$out/configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc)" --target test_cuda_semantics test_cuda_cross_validation tessera-bench \
  >"$out/build.log" 2>&1 || { grep -E "error" "$out/build.log" | head -40; exit 1; }

step "tests"
semantics="$build/tests/cuda/test_cuda_semantics"
timeout --foreground 300 "$semantics" --test-case='fused steps*,CUDA: iterate on gapped*' >"$out/fused-tests.log" 2>&1 || status=1
timeout --foreground 120 "$build/tests/cuda/test_cuda_cross_validation" --test-case='*temporal_blocking*' \
  >"$out/xval-temporal-blocking.log" 2>&1 || status=1
for log in fused-tests xval-temporal-blocking; do
  echo "$log: $(grep -E "test cases:" "$out/$log.log" | tail -1)" | tee -a "$out/summary.txt"
done

step "compute-sanitizer (memcheck, racecheck) on the register-tile box pass"
for tool in memcheck racecheck; do
  timeout --foreground 240 compute-sanitizer --tool "$tool" --error-exitcode 3 "$semantics" \
    --test-case='*small grids (the sanitizers*' >"$out/sanitizer-$tool.log" 2>&1 || status=1
  echo "$tool: $(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/sanitizer-$tool.log" | tail -1); $(grep -E "test cases:" "$out/sanitizer-$tool.log" | tail -1)" |
    tee -a "$out/summary.txt"
done

step "tessera-bench: the 27-point box fused and swept"
bench="$build/perf/tessera-bench"
timeout --foreground 200 "$bench" --fused-case 'box<3,1> 512' --no-host --reps 5 >"$out/bench-fused-box.log" 2>&1 || status=1
timeout --foreground 200 "$bench" --shape box3d:1 --size 512x512x512 --precision double --no-host --reps 10 \
  >"$out/bench-sweep-box-double.log" 2>&1 || status=1
grep -E "box|copy|MISMATCH" "$out/bench-fused-box.log" "$out/bench-sweep-box-double.log" | tee -a "$out/summary.txt"

if [[ "${FUSED_BOX_SKIP_NCU:-0}" != 1 ]]; then
  step "Nsight Compute: one 2-step pass of the library and of the probe, fp32 and fp64"
  sections=(--section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy
            --section InstructionStats --section SourceCounters)
  # the library's 2-step passes in float and double, the probe's kernels beside them
  for type in float double; do
    timeout --foreground 120 ncu --clock-control none "${sections[@]}" --kernel-name-base demangled \
      -k "regex:temporal_blocking_box_pass<.*$type, \(int\)2>" -c 1 \
      "$bench" --fused-case 'box<3,1> 512' --no-host --reps 1 >"$out/ncu-library-$type.log" 2>&1 || status=1
  done
  nvcc -std=c++20 -O3 -gencode arch=compute_90,code=sm_90 -I perf/probes perf/probes/fused_box_probe.cu \
    -o "$build/fused_box_probe" >"$out/probe-build.log" 2>&1 || status=1
  for mode in ncu32 ncu64; do
    timeout --foreground 120 ncu --clock-control none "${sections[@]}" -k regex:fused_pass -c 1 \
      "$build/fused_box_probe" 512 4 "$mode" >"$out/ncu-probe-$mode.log" 2>&1 || status=1
  done
  grep -E "Duration|Issued Warp|No Eligible|Executed Instructions " "$out"/ncu-*.log | tee -a "$out/summary.txt"
fi
# the logs in one archive beside summary.txt (the device tool returns a few files a call)
tar czf /tmp/fused-box-logs.tgz -C "$out" --exclude summary.txt . && find "$out" -name '*.log' -delete &&
  mv /tmp/fused-box-logs.tgz "$out/logs.tgz"
step "done: status $status"
exit "$status"
