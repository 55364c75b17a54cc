#!/usr/bin/env bash
# Draws the fraction of copy bandwidth per policy and case from a tessera-bench CSV as a
# PNG bar chart (gnuplot; Debian: apt-get install gnuplot-nox).
#   perf/plot.sh perf/results/h100-2026-11-22.csv [out.png] [size filter, e.g. 512x512x512|8192x8192]
set -euo pipefail
csv="${1:?usage: perf/plot.sh BENCH.csv [OUT.png] [SIZE-REGEX]}"
png="${2:-${csv%.csv}.png}"
sizes="${3:-512x512x512|8192x8192}"
command -v gnuplot >/dev/null || { echo "plot.sh: needs gnuplot (apt-get install gnuplot-nox)" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# rows: case label, then one fraction per policy (default tiles only; '-' where refused)
policies=(cuda:naive cuda:tiled cuda:coarsened cuda:register-tiled cuda:streaming cuda:shared-streaming cuda:pipelined cuda:vector-streaming cuda:automatic)
# shape names hold a comma (star<3,1>): make it a semicolon before splitting on commas
sed -E 's/<([0-9]+),([0-9]+)>/<\1;\2>/g' "$csv" | awk -F, -v sizes="$sizes" -v pols="${policies[*]}" '
  NR == 1 { next }
  { gsub(/"/, "") }
  $3 !~ "^(" sizes ")$" { next }
  {
    key = $1 " " $2 " " $3
    if (!(key in seen)) { seen[key] = 1; order[++n] = key }
    frac[key, $4] = ($5 > 0 ? $10 : "-")
  }
  END {
    np = split(pols, p, " ")
    for (i = 1; i <= n; ++i) {
      k = order[i]; label = k; gsub(/;/, ",", label); line = "\"" label "\""
      for (j = 1; j <= np; ++j) line = line " " ((k, p[j]) in frac ? frac[k, p[j]] : "-")
      print line
    }
  }' >"$tmp/data"
title="tessera-bench: $(basename "$csv" .csv)"
{
  echo "set terminal pngcairo size 1400,600 font 'sans,10'"
  echo "set output '$png'"
  echo "set title '$title — fraction of device-to-device copy bandwidth (median of 20)'"
  echo "set style data histograms; set style histogram clustered gap 1; set style fill solid 0.9 border -1"
  echo "set datafile missing '-'"
  echo "set yrange [0:1]; set ytics 0.1; set grid ytics"
  echo "set xtics rotate by -30 scale 0"
  echo "set key outside right top vertical"
  echo "set arrow from graph 0, first 0.92 to graph 1, first 0.92 nohead dt 2 lc rgb 'gray30'"
  printf "plot "
  for j in "${!policies[@]}"; do
    col=$((j + 2))
    [[ $j -gt 0 ]] && printf ", "
    if [[ $j -eq 0 ]]; then printf "'%s' using %d:xtic(1) title '%s'" "$tmp/data" "$col" "${policies[$j]}"
    else printf "'' using %d title '%s'" "$col" "${policies[$j]}"; fi
  done
  echo
} >"$tmp/plot.gp"
gnuplot "$tmp/plot.gp"
echo "wrote $png"
