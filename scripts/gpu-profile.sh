#!/usr/bin/env bash
# Nsight Compute profile of the first sweep of chosen kernels on the cases the
# performance targets name (tessera-bench --quick). Needs a build (scripts/gpu-check.sh
# or scripts/bootstrap.sh); report text in $OUT (default ./gpu-logs)/ncu.txt.
# PROFILE_KERNELS: regexes of kernel names (default: naive, streaming, shared_streaming, pipelined);
# PROFILE_COUNT: launches profiled per regex (default 1: the 7-point fp32 512^3 case).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/gpu-logs}"; mkdir -p "$out"
build="${BUILD_DIR:-$root/build-gpu}"
bench="$build/perf/tessera-bench"
sections=(--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy
          --section LaunchStats --section WarpStateStats --section SchedulerStats)
for k in ${PROFILE_KERNELS:-naive_sweep ^streaming_sweep shared_streaming_sweep pipelined_sweep}; do
  echo "##### $k"
  ncu "${sections[@]}" -k "regex:$k" -c "${PROFILE_COUNT:-1}" "$bench" --quick --reps 1 2>&1 | sed -n '/==PROF==/,$p' | grep -v "^==PROF== Profiling"
done >"$out/ncu.txt"
grep -E "#####|  [a-z_]+_sweep|DRAM Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|Achieved Occupancy|Registers Per|Duration|Theoretical Occupancy|Block Limit|Stall|Issued Warp" "$out/ncu.txt"
