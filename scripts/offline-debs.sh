#!/usr/bin/env bash
# Debian packages for machines without a package registry (air-gapped clusters, GPU hosts).
#
#   scripts/offline-debs.sh download [DIR]          on a connected Debian machine: fetch the
#                                                   .deb files tessera needs into DIR (./.debs)
#   scripts/offline-debs.sh unpack [DIR] [PREFIX]   on the offline machine: dpkg -x each .deb
#                                                   into PREFIX (./.prefix); nothing touches /
#   scripts/offline-debs.sh download-mpi [DIR]      Open MPI 4.1 and the libraries it needs
#                                                   beyond a base system (./.debs-mpi, ~8 MB)
#
# Open MPI unpacked into PREFIX runs relocated: `unpack` then writes PREFIX/mpi-env.sh
# (OPAL_PREFIX, PATH with mpirun/mpicxx, LD_LIBRARY_PATH); source it before building or
# running with that MPI.
#
# Copy DIR along with the source tree; scripts/bootstrap.sh then unpacks it by itself
# and points CMake at the prefix (-DTESSERA_KOKKOS_PREFIX, -Ddoctest_DIR).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
packages=(libtrilinos-kokkos-dev libtrilinos-kokkos-13.2 doctest-dev)
# Open MPI and what it links beyond libc, libstdc++ and zlib (Debian 12's dependency
# closure without the base system: those stay the host's, never on LD_LIBRARY_PATH)
mpi_packages=(openmpi-bin openmpi-common libopenmpi3 libopenmpi-dev libevent-2.1-7 libevent-core-2.1-7
  libevent-pthreads-2.1-7 libfabric1 libhwloc15 libhwloc-dev libibverbs1 librdmacm1 libpmix2 libpsm-infinipath1
  libpsm2-2 libucx0 libnl-3-200 libnl-route-3-200 libnuma1 libmunge2 libpciaccess0 libudev1 libltdl7)

case "${1:-}" in
  download)
    dir="${2:-$root/.debs}"
    mkdir -p "$dir"
    (cd "$dir" && apt-get download "${packages[@]}")
    ls -l "$dir"
    ;;
  download-mpi)
    dir="${2:-$root/.debs-mpi}"
    mkdir -p "$dir"
    (cd "$dir" && apt-get download "${mpi_packages[@]}")
    ls -l "$dir"
    ;;
  unpack)
    dir="${2:-$root/.debs}"
    prefix="${3:-$root/.prefix}"
    mkdir -p "$prefix"
    for f in "$dir"/*.deb; do dpkg -x "$f" "$prefix"; done
    # The shared library's .so link points at the versioned file inside the prefix.
    echo "offline-debs: unpacked $(ls "$dir"/*.deb | wc -l) packages into $prefix"
    if [[ -e "$prefix/usr/bin/orterun" ]]; then
      # Debian names the commands through alternatives (/etc/alternatives): link them here
      for c in mpirun mpiexec mpicc mpicxx; do ln -sf "$c.openmpi" "$prefix/usr/bin/$c"; done
      prefix_abs="$(cd "$prefix" && pwd)"
      lib="$prefix_abs/usr/lib/x86_64-linux-gnu"
      cat >"$prefix/mpi-env.sh" <<ENV
# Open MPI unpacked from .debs, run from $prefix_abs (source this file)
export OPAL_PREFIX="$prefix_abs/usr"
export PATH="$prefix_abs/usr/bin:\$PATH"
export LD_LIBRARY_PATH="$lib:$lib/openmpi/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
# Where the host has a PMIx of its own, its compression plugin is probed too and refused
# with a warning ("undefined symbol: pmix_output_info"); runs are unaffected.
export PMIX_MCA_pcompress_base_silence_warning=1
ENV
      echo "offline-debs: Open MPI relocated; source $prefix/mpi-env.sh"
    fi
    ;;
  *)
    sed -n '2,17p' "$0"
    exit 2
    ;;
esac
