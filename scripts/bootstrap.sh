#!/usr/bin/env bash
# Sets up a fresh Debian/Ubuntu machine and builds tessera into ./build:
#   1. installs the Debian packages that are missing (cmake, ninja, g++, Kokkos, doctest,
#      ccache), using sudo when not root;
#   2. configures (CUDA on when nvcc is found; -DTESSERA_ENABLE_CUDA=OFF to skip) and
#      builds with all cores.
# Extra arguments go to the CMake configure step. BUILD_DIR overrides ./build.
# Offline (no package registry): see scripts/offline-debs.sh and the README.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"

need=()
for pkg in cmake ninja-build g++ libtrilinos-kokkos-dev doctest-dev ccache; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
if ((${#need[@]})); then
  echo "bootstrap: installing ${need[*]}"
  sudo_cmd=()
  [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

# nvcc usually lives outside PATH in /usr/local/cuda.
if ! command -v nvcc >/dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build "$build" -j "$(nproc)"
