#!/usr/bin/env bash
# Where the fused time steps stand against their targets (first recorded in
# perf/log/run-24.md): Nsight Compute counters of one pass of each default fused 3D kernel (and of the
# variants that bound the argument), and the card's FMA ceiling as its best dense kernel
# reaches it (cuBLAS SGEMM through CuPy, TF32 off). Needs ncu and, for the GEMM, CuPy
# (skipped with a note without it). Report in $OUT (default ./gpu-logs)/limits.txt; the
# summary lines on stdout.
# shellcheck source=gpu-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/gpu-common.sh"

step "device"
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  ncu --version | tail -1; } | tee "$out/limits-summary.txt"

step "FMA ceiling: cuBLAS GEMM 8192^3"
python3 - <<'PY' 2>&1 | tee -a "$out/limits-summary.txt"
import os
os.environ.pop("CUPY_TF32", None)  # fp32 GEMM on the FMA pipes, not on tensor cores
try:
    import cupy as cp
except ImportError:
    print("gemm: CuPy not found, skipped")
    raise SystemExit(0)
for dt in (cp.float32, cp.float64):
    n = 8192
    a = cp.random.rand(n, n).astype(dt)
    b = cp.random.rand(n, n).astype(dt)
    for _ in range(3):
        a @ b
    s, e, ts = cp.cuda.Event(), cp.cuda.Event(), []
    for _ in range(10):
        s.record(); a @ b; e.record(); e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e) * 1e-3)
    t = sorted(ts)[len(ts) // 2]
    print(f"gemm {cp.dtype(dt).name} {n}^3: {t * 1e3:.2f} ms, {2 * n**3 / t / 1e12:.1f} TFLOP/s, {n**3 / t / 1e12:.2f} T FMA/s")
PY

step "build tessera-bench"
BUILD_DIR="$build" BOOTSTRAP_CONFIGURE_ONLY=1 scripts/bootstrap.sh -DCMAKE_CUDA_ARCHITECTURES="${CMAKE_CUDA_ARCHITECTURES:-90}" \
  >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
cmake --build "$build" -j "$(nproc)" --target tessera-bench >>"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
bench="$build/perf/tessera-bench"

metrics="gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__inst_executed.sum,\
smsp__issue_active.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,\
sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,sm__sass_thread_inst_executed_op_ffma_pred_on.sum,\
sm__sass_thread_inst_executed_op_dfma_pred_on.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,\
dram__bytes_read.sum,dram__bytes_write.sum,launch__registers_per_thread,launch__grid_size,launch__block_size,\
sm__warps_active.avg.pct_of_peak_sustained_active"
# name, kernel regex (demangled names spell template arguments "(int)4"), bench arguments
profile() {
  local name=$1 kernel=$2
  shift 2
  echo "##### $name: $kernel | tessera-bench $*" >>"$out/limits.txt"
  timeout 240 ncu --clock-control none --kernel-name-base demangled --section WarpStateStats --section SchedulerStats \
    --section Occupancy --metrics "$metrics" -k "regex:$kernel" -c 1 "$bench" "$@" --reps 1 >>"$out/limits.txt" 2>&1 || status=1
}
step "ncu: one pass of each kernel"
tb='temporal_blocking_pass<'
profile "7-point fp32 512^3, default (4 steps)" "$tb.*float, \(int\)4, \(int\)32, \(int\)32" --shape star3d:1 --size 512x512x512 --fused
profile "7-point fp32 512^3, 64x32 tile (4 steps)" "$tb.*float, \(int\)4, \(int\)64, \(int\)32" --fused --fused-case "star<3,1> 512"
profile "7-point fp32 256^3, default (4 steps)" "$tb.*float, \(int\)4, \(int\)32, \(int\)32" --shape star3d:1 --size 256x256x256 --fused
profile "7-point fp64 512^3, 2 steps (automatic)" "$tb.*double, \(int\)2, \(int\)32" --shape star3d:1 --size 512x512x512 --fused --precision double
profile "7-point fp64 512^3, 4 steps" "$tb.*double, \(int\)4, \(int\)32" --shape star3d:1 --size 512x512x512 --fused --precision double
profile "13-point fp32 512^3, default (2 steps)" "$tb.*star<\(int\)3, \(int\)2>, float, \(int\)2" --shape star3d:2 --size 512x512x512 --fused
profile "27-point box fp32 512^3, default (2 steps)" "$tb.*box<\(int\)3, \(int\)1>, float, \(int\)2" --shape box3d:1 --size 512x512x512 --fused
profile "125-point box fp32 256^3, one sweep (automatic)" "pipelined_sweep<.*box<\(int\)3, \(int\)2>, float" --shape box3d:2 --size 256x256x256 --policy cuda:automatic
grep -E "^#####|gpu__time|sm__inst_executed.sum|issue_active|ffma_pred|dfma_pred|registers_per|Active Warps Per|Eligible Warps|No kernels" \
  "$out/limits.txt" | tee -a "$out/limits-summary.txt"
step "done: status $status"
exit $status
