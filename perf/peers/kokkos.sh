#!/usr/bin/env bash
# Kokkos' MDRangePolicy on the GPU, beside tessera-bench in the same run: builds an upstream
# Kokkos with CUDA (scripts/kokkos-upstream.sh: CUDA 13 fixes, sm_90) from a source tree or
# archive you supply, builds kokkos_mdrange/ against it, and runs it: one CSV line a case,
# the fastest over three variants (two layouts, a RandomAccess input) of Kokkos' default
# tile and 9-12 others, checked against the host (kokkos_mdrange.cpp says how).
#
#   perf/peers/kokkos.sh [Kokkos tree or .tar.gz] [build folder] [-- peer arguments]
#
# The source defaults to .kokkos-src/*.tar.gz, then ../shared/kokkos/*.tar.gz (the upstream
# archive the project keeps beside the checkout). Build folder default: /tmp/kokkos-peer.
# On a 16-core H200 host: Kokkos ~40 s, the peer ~30 s. KOKKOS_PEER_BUILD_ONLY=1 builds and
# runs nothing (a machine without a GPU).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
src="${1:-}"
build="${2:-/tmp/kokkos-peer}"
shift $(( $# >= 2 ? 2 : $# ))
[[ "${1:-}" == "--" ]] && shift
if [[ -z "$src" ]]; then
  src="$(ls "$root"/.kokkos-src/*.tar.gz "$root"/../shared/kokkos/*.tar.gz 2>/dev/null | head -n 1 || true)"
  [[ -n "$src" ]] || { echo "kokkos.sh: no Kokkos source given and none in .kokkos-src/ or ../shared/kokkos/" >&2; exit 2; }
fi
mkdir -p "$build"
if [[ -f "$src" ]]; then  # an archive: unpack it once into the build folder
  if [[ ! -f "$build/src/CMakeLists.txt" ]]; then
    rm -rf "$build/unpack" && mkdir -p "$build/unpack" && tar xzf "$src" -C "$build/unpack"
    rm -rf "$build/src" && mv "$(find "$build/unpack" -mindepth 1 -maxdepth 1 -type d | head -n 1)" "$build/src"
  fi
  src="$build/src"
fi
[[ -f "$src/CMakeLists.txt" && -f "$src/bin/nvcc_wrapper" ]] ||
  { echo "kokkos.sh: $src is not a Kokkos source tree (no CMakeLists.txt and bin/nvcc_wrapper)" >&2; exit 2; }
prefix="$build/install"
if [[ ! -f "$prefix/bin/nvcc_wrapper" ]]; then
  KOKKOS_BUILD_DIR="$build/kokkos-build" "$root/scripts/kokkos-upstream.sh" "$src" "$prefix" cuda >"$build/kokkos-build.log" 2>&1 ||
    { tail -30 "$build/kokkos-build.log" >&2; exit 1; }
fi
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$root/perf/peers/kokkos_mdrange" -B "$build/peer" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DKokkos_ROOT="$prefix" -DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper" >"$build/peer-configure.log" 2>&1 ||
  { tail -30 "$build/peer-configure.log" >&2; exit 1; }
cmake --build "$build/peer" -j "$(nproc)" >"$build/peer-build.log" 2>&1 || { grep -E "error" "$build/peer-build.log" | head -20 >&2; exit 1; }
[[ "${KOKKOS_PEER_BUILD_ONLY:-0}" == 1 ]] && { echo "kokkos.sh: built $build/peer/kokkos-mdrange-peer (nothing run)"; exit 0; }
"$build/peer/kokkos-mdrange-peer" "$@"
