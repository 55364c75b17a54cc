#!/usr/bin/env bash
# Before/after benchmark on one GPU: tessera-bench of a base revision and of this tree, built
# side by side and run alternately in one call (same card, same clocks, same hour: the only
# comparison that holds), then compared row by row (perf/ab_compare.py). Two steps:
#   on the build machine (it has git):   scripts/gpu-ab.sh prepare <revision>
#       writes that revision's files into .ab-base/ (ignored: carry it with .debs/)
#   on the GPU host:                     scripts/gpu-ab.sh run [section ...]
#       each section is one tessera-bench selection, e.g. --fused --iterate --quick
#       --point-functions (default: --fused --iterate --point-functions); --quick also times
#       every single sweep (60-80 s a binary on an H200).
# AB_ROUNDS (1): rounds of base then new per section; AB_TIMEOUT (150): seconds a binary and
# section may run; AB_REPS (8): --reps; AB_JOBS (16): build jobs, shared by the two builds.
# Logs, CSVs and ab-summary.txt (every section's comparison) go to $OUT (default ./gpu-logs).
# The builds take about 3 minutes on 16 cores: a device call of 600 s holds them and about
# two rounds of --fused --iterate --point-functions.
# shellcheck source=gpu-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/gpu-common.sh"

base_dir="$root/.ab-base"
case "${1:-}" in
  prepare)
    rev="${2:?usage: scripts/gpu-ab.sh prepare <revision>}"
    commit=$(git -C "$root" rev-parse --verify "$rev^{commit}") || exit 1
    rm -rf "$base_dir" && mkdir -p "$base_dir"
    git -C "$root" archive "$commit" | tar -x -C "$base_dir" || exit 1
    echo "$commit" >"$base_dir/.ab-revision"
    echo "gpu-ab: $rev ($commit) in .ab-base/; carry .ab-base and .debs to the GPU host, then run: scripts/gpu-ab.sh run"
    exit 0 ;;
  run) shift ;;
  *) echo "usage: scripts/gpu-ab.sh prepare <revision> | run [tessera-bench section ...]" >&2; exit 2 ;;
esac
[[ -f "$base_dir/.ab-revision" ]] || { echo "gpu-ab: no .ab-base/ here: run 'scripts/gpu-ab.sh prepare <revision>' on the build machine and carry it" >&2; exit 2; }
sections=("$@")
((${#sections[@]})) || sections=(--fused --iterate --point-functions)
rounds="${AB_ROUNDS:-1}" limit="${AB_TIMEOUT:-150}" reps="${AB_REPS:-8}" jobs="${AB_JOBS:-16}"
flags=(-DCMAKE_CUDA_ARCHITECTURES="${CMAKE_CUDA_ARCHITECTURES:-90}" -DTESSERA_ENABLE_MPI=OFF -DTESSERA_BUILD_PYTHON=OFF)

step "device"
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
  echo "base $(cat "$base_dir/.ab-revision")"; } | tee "$out/ab-device.txt"

step "build base and new"
debs="${TESSERA_DEBS:-$root/.debs}"
(cd "$base_dir" && BOOTSTRAP_CONFIGURE_ONLY=1 BUILD_DIR="$base_dir/build-ab" TESSERA_DEBS="$debs" scripts/bootstrap.sh "${flags[@]}") \
  >"$out/ab-configure-base.log" 2>&1 || { tail -20 "$out/ab-configure-base.log"; exit 1; }
BOOTSTRAP_CONFIGURE_ONLY=1 BUILD_DIR="$build" scripts/bootstrap.sh "${flags[@]}" >"$out/ab-configure-new.log" 2>&1 ||
  { tail -20 "$out/ab-configure-new.log"; exit 1; }
cmake --build "$base_dir/build-ab" -j $((jobs / 2)) --target tessera-bench >"$out/ab-build-base.log" 2>&1 &
base_build=$!
cmake --build "$build" -j $((jobs - jobs / 2)) --target tessera-bench >"$out/ab-build-new.log" 2>&1 ||
  { grep -B2 -A10 error "$out/ab-build-new.log" | head -40; exit 1; }
wait "$base_build" || { grep -B2 -A10 error "$out/ab-build-base.log" | head -40; exit 1; }

declare -A bench=([base]="$base_dir/build-ab/perf/tessera-bench" [new]="$build/perf/tessera-bench")
: >"$out/ab-summary.txt"
for section in "${sections[@]}"; do
  name="${section#--}"
  files=()
  for ((r = 1; r <= rounds; ++r)); do
    for v in base new; do
      step "$section, $v, round $r"
      csv="$out/ab-$name-$v-$r.csv"
      timeout "$limit" "${bench[$v]}" "$section" --no-host --reps "$reps" --csv "$csv" >"$out/ab-$name-$v-$r.log" 2>&1 ||
        { echo "gpu-ab: $v $section failed or ran past ${limit} s (AB_TIMEOUT)"; status=1; }
      files+=("$csv")
    done
  done
  { echo "== $section (GCell/s: base then new, each round; last / first)"
    python3 "$root/perf/ab_compare.py" "${files[@]}"; echo; } >>"$out/ab-summary.txt" 2>&1
done
step "summary"
grep -E "^==|^#|SLOWER|faster" "$out/ab-summary.txt"
exit $status
