#!/usr/bin/env bash
# The CLI's default host run against host:serial while another process keeps one core busy
# (issue: OpenMP threads spinning while they wait collapsed host:parallel there). Medians of
# 7 runs of heat3d 128^3, 200 steps: host:serial, the default (automatic, passive waiting
# set by the command itself) and the default with spinning threads (OMP_WAIT_POLICY=ACTIVE).
#   scripts/contention-check.sh [build/apps/tessera/tessera]
set -euo pipefail
cli="${1:-build/apps/tessera/tessera}"
[[ -x "$cli" ]] || { echo "contention-check: no tessera command at $cli" >&2; exit 2; }
timeout 900 sh -c 'while :; do :; done' &
busy=$!
trap 'kill $busy 2>/dev/null' EXIT
sleep 1
run() {  # prints the wall time of one run
  { /usr/bin/time -f "%e" "$@" >/dev/null; } 2>&1
}
declare -A t
for _ in $(seq 7); do
  t[serial]+=" $(OMP_WAIT_POLICY=PASSIVE run "$cli" run --size 128 --steps 200 --policy host:serial)"
  t[default]+=" $(env -u OMP_WAIT_POLICY /usr/bin/time -f "%e" "$cli" run --size 128 --steps 200 2>&1 >/dev/null)"
  t[spinning]+=" $(OMP_WAIT_POLICY=ACTIVE run "$cli" run --size 128 --steps 200)"
done
median() { tr ' ' '\n' <<<"$1" | sed '/^$/d' | sort -n | sed -n 4p; }
for k in serial default spinning; do
  echo "$k:${t[$k]} (median $(median "${t[$k]}") s)"
done
awk -v d="$(median "${t[default]}")" -v s="$(median "${t[serial]}")" \
  'BEGIN { r = d / s; printf "default / serial = %.2f (target <= 1.25): %s\n", r, r <= 1.25 ? "met" : "NOT met"; exit !(r <= 1.25) }'
