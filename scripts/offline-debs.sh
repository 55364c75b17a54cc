#!/usr/bin/env bash
# Debian packages for machines without a package registry (air-gapped clusters, GPU hosts).
#
#   scripts/offline-debs.sh download [DIR]          on a connected Debian machine: fetch the
#                                                   .deb files tessera needs into DIR (./.debs)
#   scripts/offline-debs.sh unpack [DIR] [PREFIX]   on the offline machine: dpkg -x each .deb
#                                                   into PREFIX (./.prefix); nothing touches /
#
# Copy DIR along with the source tree; scripts/bootstrap.sh then unpacks it by itself
# and points CMake at the prefix (-DTESSERA_KOKKOS_PREFIX, -Ddoctest_DIR).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
packages=(libtrilinos-kokkos-dev libtrilinos-kokkos-13.2 doctest-dev)

case "${1:-}" in
  download)
    dir="${2:-$root/.debs}"
    mkdir -p "$dir"
    (cd "$dir" && apt-get download "${packages[@]}")
    ls -l "$dir"
    ;;
  unpack)
    dir="${2:-$root/.debs}"
    prefix="${3:-$root/.prefix}"
    mkdir -p "$prefix"
    for f in "$dir"/*.deb; do dpkg -x "$f" "$prefix"; done
    # The shared library's .so link points at the versioned file inside the prefix.
    echo "offline-debs: unpacked $(ls "$dir"/*.deb | wc -l) packages into $prefix"
    ;;
  *)
    sed -n '2,11p' "$0"
    exit 2
    ;;
esac
