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

# Nothing this script starts may outlive it and keep the GPU busy beside a later benchmark
# (a leftover compute-sanitizer once halved every rate). An outer `timeout` signals the
# whole process group, which the scripts' own timeouts would leave (each makes a group of
# its own: hence `timeout --foreground` around the background sanitizers); a signal to the
# script alone is caught here: on exit, whatever it still has running goes too.
kill_tree() {
  local child
  for child in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$child"; done
  kill "$1" 2>/dev/null
}
stop_background_jobs() {
  local child
  for child in $(pgrep -P $$ 2>/dev/null); do kill_tree "$child"; done
}
trap stop_background_jobs EXIT
trap 'exit 143' TERM INT
