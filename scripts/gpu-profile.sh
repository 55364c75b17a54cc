#!/usr/bin/env bash
# Nsight Compute profile of the first sweep of cuda::naive and cuda::streaming on the 3D
# 7-point fp32 512^3 case (tessera-bench --quick). Needs a build (scripts/gpu-check.sh
# or scripts/bootstrap.sh); report text in $OUT (default ./gpu-logs)/ncu.txt.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/gpu-logs}"; mkdir -p "$out"
build="${BUILD_DIR:-$root/build-gpu}"
bench="$build/perf/tessera-bench"
sections=(--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy
          --section LaunchStats --section WarpStateStats --section SchedulerStats)
for k in naive_sweep streaming_sweep; do
  echo "##### $k"
  ncu "${sections[@]}" -k "regex:$k" -c 1 "$bench" --quick --reps 3 2>&1 | sed -n '/==PROF==/,$p' | grep -v "^==PROF== Profiling"
done >"$out/ncu.txt"
grep -E "#####|DRAM Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|Achieved Occupancy|Registers Per|Duration|Theoretical Occupancy|Block Limit" "$out/ncu.txt"
