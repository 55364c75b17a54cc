#!/usr/bin/env bash
# Builds and installs an upstream Kokkos (4.x/5.x source tree, e.g. from
# `git clone https://github.com/kokkos/kokkos`) for tessera to validate against:
#
#   scripts/kokkos-upstream.sh SOURCE PREFIX openmp     OpenMP + Serial (host)
#   scripts/kokkos-upstream.sh SOURCE PREFIX cuda       CUDA + Serial, Hopper (sm_90)
#
# then configure tessera with
#   -DKokkos_ROOT=PREFIX                                           (openmp)
#   -DKokkos_ROOT=PREFIX -DCMAKE_CXX_COMPILER=PREFIX/bin/nvcc_wrapper (cuda)
#
# With CUDA 13, Kokkos develop (4.6.99) needs three local fixes, applied here to SOURCE
# (idempotent; nothing of Kokkos belongs in tessera's repository):
#   - bin/nvcc_wrapper's default arch sm_70 (dropped by CUDA 13) becomes sm_90;
#   - cudaGraphAddDependencies gained an edge-data argument (nullptr);
#   - cudaMemPrefetchAsync takes a cudaMemLocation and a flags word.
# KOKKOS_ARCH overrides the architecture option (default Kokkos_ARCH_HOPPER90).
set -euo pipefail
src="${1:?usage: kokkos-upstream.sh SOURCE PREFIX openmp|cuda}"
prefix="${2:?usage: kokkos-upstream.sh SOURCE PREFIX openmp|cuda}"
kind="${3:?usage: kokkos-upstream.sh SOURCE PREFIX openmp|cuda}"
src="$(cd "$src" && pwd)"
build="${KOKKOS_BUILD_DIR:-$src/build-$kind}"
args=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_CXX_STANDARD=20 -DKokkos_ENABLE_SERIAL=ON)
case "$kind" in
  openmp) args+=(-DKokkos_ENABLE_OPENMP=ON) ;;
  cuda)
    if ! command -v nvcc >/dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then export PATH="/usr/local/cuda/bin:$PATH"; fi
    if [[ "$(nvcc --version)" == *"release 13"* ]]; then
      sed -i 's/^default_arch="sm_70"/default_arch="sm_90"/' "$src/bin/nvcc_wrapper"
      sed -i 's/cudaGraphAddDependencies(graph, from, to, numDependencies)/cudaGraphAddDependencies(graph, from, to, nullptr, numDependencies)/' \
        "$src/core/src/Cuda/Kokkos_Cuda_Instance.hpp"
      sed -i 's/cudaMemPrefetchAsync(devPtr, count, dstDevice, m_stream)/cudaMemPrefetchAsync(devPtr, count, cudaMemLocation{cudaMemLocationTypeDevice, dstDevice}, 0, m_stream)/' \
        "$src/core/src/Cuda/Kokkos_Cuda_Instance.hpp"
    fi
    args+=(-DKokkos_ENABLE_CUDA=ON "-D${KOKKOS_ARCH:-Kokkos_ARCH_HOPPER90}=ON" -DCMAKE_CXX_COMPILER="$src/bin/nvcc_wrapper")
    ;;
  *) echo "kokkos-upstream.sh: the third argument is openmp or cuda, not '$kind'" >&2; exit 2 ;;
esac
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$src" -B "$build" "${generator[@]}" "${args[@]}"
cmake --build "$build" -j "$(nproc)" --target install
echo "kokkos-upstream: installed Kokkos ($kind) into $prefix"
