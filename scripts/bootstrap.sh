#!/usr/bin/env bash
# Sets up a machine and builds tessera into ./build (BUILD_DIR overrides):
#   1. Online (Debian/Ubuntu): installs the missing Debian packages — cmake, ninja-build,
#      g++, libtrilinos-kokkos-dev (Kokkos), doctest-dev — with sudo when not root, and
#      Open MPI (libopenmpi-dev openmpi-bin, for tessera::mpi) and ccache where the
#      package registry can be reached (both optional).
#      Offline: when the folder TESSERA_DEBS (default ./.debs, filled by
#      `scripts/offline-debs.sh download` on a connected machine) holds .deb files and
#      Kokkos or doctest is missing, they are unpacked with dpkg -x into ./.prefix and
#      CMake is pointed there; nothing is installed system-wide.
#   2. Installs nanobind, pytest and NumPy with pip (for the Python module and its tests)
#      where PyPI or a folder of wheels is reachable.
#   3. Configures (CUDA on when nvcc is found; -DTESSERA_ENABLE_CUDA=OFF to skip) and
#      builds with every core.
# Extra arguments go to the CMake configure step; BOOTSTRAP_CONFIGURE_ONLY=1 stops there.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
debs="${TESSERA_DEBS:-$root/.debs}"
prefix="$root/.prefix"
cmake_args=()

# nvcc usually lives outside PATH in /usr/local/cuda.
if ! command -v nvcc >/dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi

have_kokkos() { [[ -f /usr/include/trilinos/Kokkos_Core.hpp ]] || [[ -n "${Kokkos_ROOT:-}" ]]; }
have_doctest() { [[ -f /usr/include/doctest/doctest.h ]]; }

if compgen -G "$debs/*.deb" >/dev/null && { ! have_kokkos || ! have_doctest; }; then
  echo "bootstrap: offline: unpacking $debs/*.deb into $prefix"
  "$root/scripts/offline-debs.sh" unpack "$debs" "$prefix"
  cmake_args+=("-DTESSERA_KOKKOS_PREFIX=$prefix" "-Ddoctest_DIR=$prefix/usr/lib/cmake/doctest")
else
  need=()
  command -v cmake >/dev/null || need+=(cmake)
  command -v ninja >/dev/null || need+=(ninja-build)
  command -v g++ >/dev/null || need+=(g++)
  have_kokkos || need+=(libtrilinos-kokkos-dev)
  have_doctest || need+=(doctest-dev)
  if ((${#need[@]})); then
    echo "bootstrap: installing ${need[*]}"
    sudo_cmd=()
    [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    "${sudo_cmd[@]}" apt-get update -qq
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}"
  fi
  # Open MPI serves the distributed layer (tessera::mpi) and its mpirun tests: installed
  # when the package registry can be reached; without it they are skipped, visibly.
  if ! command -v mpicxx >/dev/null || ! command -v mpirun >/dev/null; then
    sudo_cmd=()
    [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
      libopenmpi-dev openmpi-bin >/dev/null 2>&1 || echo "bootstrap: Open MPI not installed (the MPI tests will be skipped)"
  fi
  # ccache only speeds rebuilds up: installed when the package registry can be reached,
  # never required.
  if ! command -v ccache >/dev/null; then
    sudo_cmd=()
    [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends ccache \
      >/dev/null 2>&1 || echo "bootstrap: ccache not installed (optional)"
  fi
fi

# The Python module (python/) builds where nanobind is importable, and its pytest suite
# needs pytest and NumPy: from PyPI where it can be reached, else from the wheels in
# TESSERA_WHEELS (default ./.wheels, filled by `pip download nanobind pytest numpy -d .wheels`
# on a connected machine). Without them the module is left out, visibly.
python="$(command -v python3 || true)"
if [[ -n "$python" ]] && ! "$python" -c "import nanobind, numpy, pytest" 2>/dev/null; then
  wheels="${TESSERA_WHEELS:-$root/.wheels}"
  pip_args=(-m pip install -q --disable-pip-version-check)
  [[ $(id -u) -ne 0 ]] && ! "$python" -c "import sys; sys.exit(sys.prefix == sys.base_prefix)" && pip_args+=(--user)
  if compgen -G "$wheels/*.whl" >/dev/null; then
    "$python" "${pip_args[@]}" --no-index --find-links "$wheels" nanobind pytest numpy \
      || echo "bootstrap: the wheels in $wheels did not install (the Python module will be left out)"
  else
    "$python" "${pip_args[@]}" nanobind pytest numpy >/dev/null 2>&1 \
      || echo "bootstrap: nanobind/pytest/numpy not installed (the Python module will be left out)"
  fi
fi

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${cmake_args[@]}" "$@"
[[ "${BOOTSTRAP_CONFIGURE_ONLY:-0}" == 1 ]] || cmake --build "$build" -j "$(nproc)"
