# Sourced by the GPU check scripts (scripts/gpu-check*.sh), never run: the repository root,
# the log folder $out ($OUT, default ./gpu-logs), the build folder $build ($BUILD_DIR,
# default ./build-gpu), the running status, and step() that heads each part of a log.
# shellcheck shell=bash
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/gpu-logs}"
mkdir -p "$out"
build="${BUILD_DIR:-$root/build-gpu}"
cd "$root"
status=0
step() { echo; echo "=== $* ($(date +%T))"; }
