#!/usr/bin/env bash
# EBISU (Zhang et al., ICS'23: temporal blocking at low occupancy, the strongest published
# code for these stencils) built from a checkout you supply, then run on the cases of
# tessera's fused-steps table, so that its numbers sit beside tessera-bench's in the same
# run on the same card. The checkout is never modified or committed: it is copied into the
# build folder and patched there.
#
#   perf/peers/ebisu.sh <EBISU checkout> [build folder]       (default /tmp/ebisu-build)
#   EBISU_ARCH=90 EBISU_STEPS=100 EBISU_CASES="3d7pt:float:512x512x512 ..." perf/peers/ebisu.sh ...
#   EBISU_BUILD_ONLY=1: build, run nothing (a machine without a GPU)
#
# Get the checkout with `git clone https://github.com/neozhang307/EBISU-ICS23` (tested at
# dd3d844). Its build targets sm_80 with CUDA 11; the patches for sm_90 and CUDA 13:
#   - CUDA_ARCHITECTURES "80" -> $EBISU_ARCH (90);
#   - common/cuda_common.cuh accepts __CUDA_ARCH__ == 900 (it stops at an #error otherwise;
#     PERKS_ARCH is only printed);
#   - C++17 (CUDA 13's CCCL headers need it) instead of C++14;
#   - nvcc -static-global-template-stub=false: CUDA 13 makes __global__ function templates'
#     host stubs static by default, which breaks EBISU's kernels declared in one unit and
#     launched from another under -rdc=true.
# Prints one CSV line a case: case,precision,extents,steps,GCells/s,ms (EBISU's own timing:
# cudaEvents around its whole run; its default tiles: bdim 256 and its temporal depth).
set -euo pipefail
src="${1:?usage: perf/peers/ebisu.sh <EBISU checkout> [build folder]}"
build="${2:-/tmp/ebisu-build}"
arch="${EBISU_ARCH:-90}"
steps="${EBISU_STEPS:-100}"
cases="${EBISU_CASES:-3d7pt:float:512x512x512 3d7pt:double:512x512x512 3d27pt:float:512x512x512 3d13pt:float:512x512x512 2d5pt:float:8192x8192 2d9pt:float:8192x8192 3d7pt:float:256x256x256}"
[[ -f "$src/3dstencil/j3d.driver.cpp" && -f "$src/2dstencil/jacobi.driver.cpp" ]] ||
  { echo "ebisu.sh: $src is not an EBISU-ICS23 checkout (no 3dstencil/j3d.driver.cpp)" >&2; exit 2; }
[[ "$arch" =~ ^[0-9]+$ && "$steps" =~ ^[0-9]+$ && "$steps" -gt 0 ]] ||
  { echo "ebisu.sh: EBISU_ARCH and EBISU_STEPS must be positive integers" >&2; exit 2; }

mkdir -p "$build"
rm -rf "$build/src"
cp -r "$src" "$build/src"
cd "$build/src"
find . -name CMakeLists.txt -exec sed -i "s/CUDA_ARCHITECTURES \"80\"/CUDA_ARCHITECTURES \"$arch\"/g; s/CMAKE_CXX_STANDARD 14/CMAKE_CXX_STANDARD 17/" {} +
for h in 2dstencil/common/cuda_common.cuh 3dstencil/common/cuda_common.cuh; do
  sed -i 's/#if __CUDA_ARCH__==800/#if __CUDA_ARCH__==900\n        #define PERKS_ARCH 900\n    #elif __CUDA_ARCH__==800/' "$h"
done
for d in 2dstencil 3dstencil; do
  cmake -S "$d" -B "$build/$d" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_STANDARD=17 \
    "-DCMAKE_CUDA_FLAGS=-std=c++17 -static-global-template-stub=false" >"$build/$d-configure.log" 2>&1 ||
    { tail -20 "$build/$d-configure.log" >&2; exit 1; }
  cmake --build "$build/$d" -j "$(nproc)" >"$build/$d-build.log" 2>&1 || { grep -E "error" "$build/$d-build.log" | head -20 >&2; exit 1; }
done
[[ "${EBISU_BUILD_ONLY:-0}" == 1 ]] && { echo "ebisu.sh: built in $build (EBISU_BUILD_ONLY: nothing run)"; exit 0; }

echo "case,precision,extents,steps,gcells_per_s,ms"
for c in $cases; do
  IFS=: read -r name precision extents <<<"$c"
  dim="${name:0:2}"
  exe="$(find "$build/${dim}stencil" -name "${name}_ebisu.exe" -type f | head -n 1)"
  [[ -x "$exe" ]] || { echo "ebisu.sh: no ${name}_ebisu.exe was built" >&2; exit 1; }
  IFS=x read -r -a n <<<"$extents"
  flags=(--iter="$steps" --warmup)
  [[ "$precision" == float ]] && flags+=(--fp32)
  # tessera's extents are slowest axis first; EBISU's 3D driver takes x y z, its 2D one y x
  if [[ "$dim" == 3d ]]; then args=("${n[2]}" "${n[1]}" "${n[0]}"); else args=("${n[0]}" "${n[1]}"); fi
  line="$("$exe" "${args[@]}" "${flags[@]}" | tail -n 1)"
  read -r -a f <<<"$line"
  echo "$name,$precision,$extents,$steps,${f[-1]},${f[-2]}"
done
