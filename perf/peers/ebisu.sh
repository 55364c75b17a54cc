#!/usr/bin/env bash
# EBISU (Zhang et al., ICS'23: temporal blocking at low occupancy, the strongest published
# code for these stencils) built from a checkout you supply, then run on the cases of
# tessera's fused-steps table, so that its numbers sit beside tessera-bench's in the same
# run on the same card. The checkout is never modified or committed: it is copied into the
# build folder and patched there.
#
#   perf/peers/ebisu.sh <EBISU checkout> [build folder]       (default /tmp/ebisu-build)
#   EBISU_ARCH=90 EBISU_STEPS=360 EBISU_CASES="3d7pt:float:512x512x512 ..." perf/peers/ebisu.sh ...
#   EBISU_BUILD_ONLY=1: build, run nothing (a machine without a GPU)
#   EBISU_RUN_ONLY=1: run what an earlier build left in the build folder (its
#     {2d,3d}stencil/**/<case>_ebisu.exe; they link the CUDA runtime statically, so a build
#     made on a machine without a GPU can be copied to one and run there)
#
# Get the checkout with `git clone https://github.com/neozhang307/EBISU-ICS23` (tested at
# dd3d844). Its build targets sm_80 with CUDA 11; the patches for sm_90 and CUDA 13:
#   - CUDA_ARCHITECTURES "80" -> $EBISU_ARCH (90);
#   - common/cuda_common.cuh accepts __CUDA_ARCH__ == 900 (it stops at an #error otherwise;
#     PERKS_ARCH is only printed);
#   - C++17 (CUDA 13's CCCL headers need it) instead of C++14;
#   - nvcc -static-global-template-stub=false: CUDA 13 makes __global__ function templates'
#     host stubs static by default, which breaks EBISU's kernels declared in one unit and
#     launched from another under -rdc=true;
#   - 3dstencil/j3d.driver.cpp's runTest falls off its end without a return when --check is
#     not given; GCC's optimiser treats that as unreachable and the program crashes after the
#     run, losing its piped (buffered) output: the copy returns 0 there.
# Steps: EBISU runs whole passes of its temporal depth (3D: 5, 6 or 8; 2D: 6, 8 or 9) and
# reports the steps asked for, so a count that is not a multiple overstates its rate (100 at
# depth 8 runs 104); the default, 360, is a multiple of every depth it uses.
# Prints one CSV line a case: case,precision,extents,steps,GCells/s,ms,check (EBISU's own timing:
# cudaEvents around its whole run; its default tiles: bdim 256 and its temporal depth).
set -euo pipefail
src="${1:?usage: perf/peers/ebisu.sh <EBISU checkout> [build folder]}"
build="${2:-/tmp/ebisu-build}"
arch="${EBISU_ARCH:-90}"
steps="${EBISU_STEPS:-360}"
cases="${EBISU_CASES:-3d7pt:float:512x512x512 3d7pt:double:2560x352x384 3d27pt:float:512x512x512 3d27pt:double:2560x352x384 3d13pt:float:512x512x512 2d5pt:float:8192x8192 2d9pt:float:8192x8192 3d7pt:float:256x256x256 3d7pt:float:192x192x192}"
[[ -f "$src/3dstencil/j3d.driver.cpp" && -f "$src/2dstencil/jacobi.driver.cpp" ]] ||
  { echo "ebisu.sh: $src is not an EBISU-ICS23 checkout (no 3dstencil/j3d.driver.cpp)" >&2; exit 2; }
[[ "$arch" =~ ^[0-9]+$ && "$steps" =~ ^[0-9]+$ && "$steps" -gt 0 ]] ||
  { echo "ebisu.sh: EBISU_ARCH and EBISU_STEPS must be positive integers" >&2; exit 2; }

if [[ "${EBISU_RUN_ONLY:-0}" != 1 ]]; then
  mkdir -p "$build"
  rm -rf "$build/src"
  cp -r "$src" "$build/src"
  cd "$build/src"
  find . -name CMakeLists.txt -exec sed -i "s/CUDA_ARCHITECTURES \"80\"/CUDA_ARCHITECTURES \"$arch\"/g; s/CMAKE_CXX_STANDARD 14/CMAKE_CXX_STANDARD 17/" {} +
  for h in 2dstencil/common/cuda_common.cuh 3dstencil/common/cuda_common.cuh; do
    sed -i 's/#if __CUDA_ARCH__==800/#if __CUDA_ARCH__==900\n        #define PERKS_ARCH 900\n    #elif __CUDA_ARCH__==800/' "$h"
  done
  # the driver's runTest: a return where it falls off its end (after its last delete[])
  sed -i -z 's/  delete\[\] output_gold;\n}/  delete[] output_gold;\n  return 0;\n}/' 3dstencil/j3d.driver.cpp
  for d in 2dstencil 3dstencil; do
    cmake -S "$d" -B "$build/$d" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_STANDARD=17 \
      "-DCMAKE_CUDA_FLAGS=-std=c++17 -static-global-template-stub=false" >"$build/$d-configure.log" 2>&1 ||
      { tail -20 "$build/$d-configure.log" >&2; exit 1; }
    cmake --build "$build/$d" -j "$(nproc)" >"$build/$d-build.log" 2>&1 || { grep -E "error" "$build/$d-build.log" | head -20 >&2; exit 1; }
  done
fi
[[ "${EBISU_BUILD_ONLY:-0}" == 1 ]] && { echo "ebisu.sh: built in $build (EBISU_BUILD_ONLY: nothing run)"; exit 0; }

# Each case is first checked against EBISU's own CPU reference (its --check) on the case's x
# and y with 128 planes along z (3D; one block's column in one piece when x and y fill the
# GPU), or 1024 rows (2D), over a whole number of its passes (3D 24, or 20 where its depth is
# 5; 2D 72): the RMS difference is the CSV's last column, so a rate from a wrong answer shows
# as one. Its 3D kernel is a cooperative launch of one block a tile along x and y: the x-y
# tiles must fit on the GPU at once (fp32 tiles 64 x 32, fp64 32 x 32: 512 x 512 fits 132
# SMs in fp32, not in fp64, where EBISU's own experiment size, 384 x 352 x 2560, does).
echo "case,precision,extents,steps,gcells_per_s,ms,check_rms_error"
for c in $cases; do
  IFS=: read -r name precision extents <<<"$c"
  dim="${name:0:2}"
  exe="$(find "$build/${dim}stencil" -name "${name}_ebisu.exe" -type f | head -n 1)"
  [[ -x "$exe" ]] || { echo "ebisu.sh: no ${name}_ebisu.exe was built" >&2; exit 1; }
  IFS=x read -r -a n <<<"$extents"
  flags=(--warmup)
  [[ "$precision" == float ]] && flags+=(--fp32)
  if [[ "$dim" == 3d ]]; then
    small=("${n[2]}" "${n[1]}" 128); check_steps=24
    [[ "$name" == 3d13pt || ( "$name" == 3d27pt && "$precision" == double ) ]] && check_steps=20
  else
    small=(1024 "${n[1]}"); check_steps=72
  fi
  check="$("$exe" "${small[@]}" "${flags[@]}" --iter="$check_steps" --check 2>&1 | grep -E "RMS Error" | awk '{print $NF}' || true)"
  # tessera's extents are slowest axis first; EBISU's 3D driver takes x y z, its 2D one y x
  if [[ "$dim" == 3d ]]; then args=("${n[2]}" "${n[1]}" "${n[0]}"); else args=("${n[0]}" "${n[1]}"); fi
  line="$("$exe" "${args[@]}" "${flags[@]}" --iter="$steps" 2>&1 | tail -n 1 || true)"
  read -r -a f <<<"$line"
  if [[ ${#f[@]} -ge 2 && "${f[-1]}" =~ ^[0-9.]+$ && "${f[-2]}" =~ ^[0-9.]+$ ]]; then
    echo "$name,$precision,$extents,$steps,${f[-1]},${f[-2]},${check:-none}"
  else  # it printed no rate: say what it printed instead
    echo "$name,$precision,$extents,$steps,failed,\"${line//\"/\'}\",${check:-none}"
  fi
done
