#!/usr/bin/env bash
# The host suites (every Kokkos-facing one: cross-validation, point functions through
# kokkos::mdrange, validate, the examples, the tessera command's --validate runs, the MPI
# suite) built and run against an upstream Kokkos (OpenMP + Serial) instead of Debian's
# 3.4.1. Point functions once crashed against Kokkos 4.6 while every test passed against
# 3.4.1, which is all the README's build sees.
#
# The Kokkos source is the archive beside the repository (../shared/kokkos/kokkos-*.tar.gz,
# or the one next to the repository this clone came from, or TESSERA_KOKKOS_ARCHIVE). It is
# built once with scripts/kokkos-upstream.sh and kept outside the clone, in
# ${TESSERA_CACHE:-${XDG_CACHE_HOME:-~/.cache}/tessera}/kokkos-<archive digest>-openmp, for the
# next run on this machine. Without an archive the script says so and is skipped (exit 0).
#
#   scripts/ci-kokkos-upstream.sh [BUILD_DIR (build-kokkos-upstream)]   the whole job
#   scripts/ci-kokkos-upstream.sh --prefix   only build (or find) that Kokkos and print its
#                                            prefix (nothing where there is no archive);
#                                            CI's sanitizer job builds against it (.ci/run)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prefix_only=0
if [[ "${1:-}" == "--prefix" ]]; then prefix_only=1; shift; fi
build="${1:-$root/build-kokkos-upstream}"
# --prefix prints the prefix alone on stdout: every message goes to stderr there
say() { if ((prefix_only)); then echo "$@" >&2; else echo "$@"; fi; }

candidates=()
[[ -n "${TESSERA_KOKKOS_ARCHIVE:-}" ]] && candidates+=("$TESSERA_KOKKOS_ARCHIVE")
candidates+=("$root"/../shared/kokkos/kokkos-*.tar.gz)
origin="$(git -C "$root" config --get remote.origin.url 2>/dev/null || true)"
if [[ -n "$origin" && -d "$origin" ]]; then  # a clone of a local repository: beside that one
  candidates+=("$origin"/../shared/kokkos/kokkos-*.tar.gz)
fi
archive=""
for c in "${candidates[@]}"; do
  if [[ -f "$c" ]]; then archive="$(cd "$(dirname "$c")" && pwd)/$(basename "$c")"; break; fi
done
if [[ -z "$archive" ]]; then
  say "ci-kokkos-upstream: SKIPPED: no upstream Kokkos archive (looked for ../shared/kokkos/kokkos-*.tar.gz" \
       "beside $root${origin:+ and beside $origin}; set TESSERA_KOKKOS_ARCHIVE to name one)"
  exit 0
fi

digest="$(sha256sum "$archive" | cut -c1-12)"
cache="${TESSERA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tessera}"
prefix="$cache/kokkos-$digest-openmp"
if [[ -f "$prefix/lib/cmake/Kokkos/KokkosConfig.cmake" || -f "$prefix/lib64/cmake/Kokkos/KokkosConfig.cmake" ]]; then
  say "ci-kokkos-upstream: Kokkos from $archive, cached in $prefix"
else
  say "ci-kokkos-upstream: building Kokkos (OpenMP + Serial) from $archive into $prefix"
  mkdir -p "$cache"
  work="$(mktemp -d "$cache/kokkos-build.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  tar xzf "$archive" -C "$work"
  src="$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -n 1)"
  # installed into a temporary prefix, moved into place whole: an interrupted build
  # leaves no half-installed Kokkos for the next run to trust
  KOKKOS_BUILD_DIR="$work/build" "$root/scripts/kokkos-upstream.sh" "$src" "$work/prefix" openmp >"$work/build.log" 2>&1 ||
    { tail -n 40 "$work/build.log" >&2; echo "ci-kokkos-upstream: the Kokkos build failed" >&2; exit 1; }
  rm -rf "$prefix"
  mv "$work/prefix" "$prefix"
fi

if ((prefix_only)); then
  echo "$prefix"
  exit 0
fi

# The host suites: CUDA off (the Kokkos CUDA flavour needs a GPU host:
# scripts/gpu-check-kokkos-cuda.sh), so every Kokkos-facing test runs here. The Python
# module is left out: this static Kokkos cannot join it (python/CMakeLists.txt), and the
# suite of step 1 runs its tests.
configured="$(cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$prefix" \
  -DTESSERA_ENABLE_CUDA=OFF -DTESSERA_BUILD_PYTHON=OFF)"
grep "tessera: Kokkos:" <<<"$configured"
grep -q "tessera: Kokkos: upstream" <<<"$configured" ||
  { echo "ci-kokkos-upstream: tessera did not pick the upstream Kokkos in $prefix" >&2; exit 1; }
cmake --build "$build" -j "$(nproc)"
# (the header self-containment check is not repeated: step 1 of CI compiled every header
# alone, and the suite built here compiles the Kokkos backend's against this Kokkos)
ctest --test-dir "$build" -j2 --output-on-failure -E "^structure\.headers_compile_alone"
echo "ci-kokkos-upstream: the suite passed against upstream Kokkos ($(basename "$archive"))"
