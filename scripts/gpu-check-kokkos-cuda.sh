#!/usr/bin/env bash
# The suite against an upstream Kokkos with the CUDA backend (the reference then runs on
# Kokkos::Cuda), on a CUDA host: builds Kokkos from KOKKOS_SRC (default ./.kokkos-src, a
# Kokkos source tree copied there; never committed), or from the archive KOKKOS_ARCHIVE
# (default: the first .kokkos-src/*.tar.gz, e.g. ../shared/kokkos's copied there) unpacked
# into /tmp, with scripts/kokkos-upstream.sh; configures tessera with nvcc_wrapper as its
# C++ compiler, builds and runs ctest. Logs in $OUT (default ./gpu-logs). Offline: carry
# .debs/ for doctest. On a fresh 16-core H200: Kokkos ~40 s, tessera ~260 s, ctest ~150 s.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/gpu-logs}"
src="${KOKKOS_SRC:-$root/.kokkos-src}"
prefix="${KOKKOS_PREFIX:-/tmp/kokkos-cuda}"
build="${BUILD_DIR:-/tmp/build-kokkos-cuda}"
mkdir -p "$out"
step() { echo; echo "=== $* ($(date +%T))"; }
archive="${KOKKOS_ARCHIVE:-$(ls "$src"/*.tar.gz 2>/dev/null | head -n 1)}"
if [[ -n "$archive" && ! -f "$src/CMakeLists.txt" ]]; then  # an archive, not a tree: unpack it
  rm -rf /tmp/kokkos-archive-src && mkdir -p /tmp/kokkos-archive-src && tar xzf "$archive" -C /tmp/kokkos-archive-src
  src="$(find /tmp/kokkos-archive-src -mindepth 1 -maxdepth 1 -type d | head -n 1)"
fi
step "Kokkos (CUDA + Serial) from $src"
[[ -f "$prefix/bin/nvcc_wrapper" ]] || "$root/scripts/kokkos-upstream.sh" "$src" "$prefix" cuda >"$out/kokkos-build.log" 2>&1 ||
  { tail -30 "$out/kokkos-build.log"; exit 1; }
step "tessera against it"
Kokkos_ROOT="$prefix" BUILD_DIR="$build" "$root/scripts/bootstrap.sh" -DKokkos_ROOT="$prefix" \
  -DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper" -DCMAKE_CUDA_ARCHITECTURES="${CMAKE_CUDA_ARCHITECTURES:-90}" \
  "$@" >"$out/kokkos-cuda-tessera-build.log" 2>&1 || { tail -40 "$out/kokkos-cuda-tessera-build.log"; exit 1; }
grep -E "tessera: Kokkos" "$out/kokkos-cuda-tessera-build.log"
step "ctest"
ctest --test-dir "$build" -j "$(nproc)" --output-on-failure >"$out/kokkos-cuda-ctest.log" 2>&1
status=$?
grep -E "tests passed|\(Failed\)|Total Test time" "$out/kokkos-cuda-ctest.log" | head -80
"$build/apps/tessera/tessera" list | tail -1
exit $status
